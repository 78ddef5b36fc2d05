/**
 * Scheduled tasks of a server (docs/daemon.md § Tasks): list, create (→ id), update, delete, run now (202). The
 * task id and the body are checked by the rows' schemas (an id of another form is 404 ErrTaskNotFound, a bad
 * body ErrFieldInvalid, a bad schedule ErrInvalidCron). Saving and running now also need the caller's token to
 * allow every step (the scheduler checks it: src/scheduler/task-owner.ts); the saver becomes the task's owner.
 */
import type { FastifyInstance } from 'fastify';
import type { TransportContext } from './context';
import { daemonRoute, type ServerCaller } from './daemon-route';

export function taskRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const { manager } = ctx;
  /** The rows' need (editServerData) is checked before the handler runs; the server must exist. */
  const guarded = (caller: ServerCaller) => {
    manager.get(caller.id);
    return caller;
  };

  daemonRoute(app, ctx, 'tasksList', async (_request, _reply, caller) => {
    const { id } = guarded(caller);
    return { tasks: manager.tasks.list(id) };
  });

  daemonRoute(app, ctx, 'taskCreate', async (request, _reply, caller) => {
    const { id, claims } = guarded(caller);
    return { id: await manager.tasks.create(id, request.body, claims) };
  });

  daemonRoute(app, ctx, 'taskUpdate', async (request, reply, caller) => {
    const { id, claims } = guarded(caller);
    await manager.tasks.update(id, request.params.taskId, request.body, claims);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'taskDelete', async (request, reply, caller) => {
    const { id } = guarded(caller);
    await manager.tasks.delete(id, request.params.taskId);
    return reply.status(204).send();
  });

  daemonRoute(app, ctx, 'taskRun', async (request, reply, caller) => {
    const { id, claims } = guarded(caller);
    manager.tasks.run(id, request.params.taskId, claims);
    return reply.status(202).send();
  });
}
