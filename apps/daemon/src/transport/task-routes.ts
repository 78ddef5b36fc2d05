/**
 * Scheduled tasks of a server (SPEC §7 Tasks): list, create (→ id), update, delete, run now (202). Saving and
 * running now also need the caller's token to allow every step (the scheduler checks it: src/scheduler/
 * task-owner.ts); the saver becomes the task's owner.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, taskIdSchema, type TaskListResponse } from '@hearth/contract';
import { guard, type TransportContext } from './context';

function taskIdOf(request: FastifyRequest): string {
  const parsed = taskIdSchema.safeParse((request.params as { taskId?: unknown }).taskId);
  if (!parsed.success) throw new AppError('ErrTaskNotFound');
  return parsed.data;
}

export function taskRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const { manager } = ctx;
  /** editServerData (admins hold every permission); the server must exist. */
  const guarded = async (request: FastifyRequest) => {
    const { id, claims } = await guard(ctx, request, 'editServerData');
    manager.get(id);
    return { id, claims };
  };

  app.get('/daemon/server/:id/tasks', async (request): Promise<TaskListResponse> => {
    const { id } = await guarded(request);
    return { tasks: manager.tasks.list(id) };
  });

  app.post('/daemon/server/:id/tasks', async (request) => {
    const { id, claims } = await guarded(request);
    return { id: await manager.tasks.create(id, request.body, claims) };
  });

  app.put('/daemon/server/:id/tasks/:taskId', async (request, reply) => {
    const { id, claims } = await guarded(request);
    await manager.tasks.update(id, taskIdOf(request), request.body, claims);
    return reply.status(204).send();
  });

  app.delete('/daemon/server/:id/tasks/:taskId', async (request, reply) => {
    const { id } = await guarded(request);
    await manager.tasks.delete(id, taskIdOf(request));
    return reply.status(204).send();
  });

  app.post('/daemon/server/:id/tasks/:taskId/run', async (request, reply) => {
    const { id, claims } = await guarded(request);
    manager.tasks.run(id, taskIdOf(request), claims);
    return reply.status(202).send();
  });
}
