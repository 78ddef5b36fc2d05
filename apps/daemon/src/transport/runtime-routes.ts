/**
 * Status, stats, console and power actions (docs/daemon.md § HTTP API). `?time=`, `?wait=` and the console
 * body are parsed by the rows' schemas (packages/contract/src/daemon.ts), so the handlers read typed values.
 */
import type { FastifyInstance } from 'fastify';
import { beginners, type PowerAction } from '../server/power';
import type { TransportContext } from './context';
import { daemonRoute } from './daemon-route';

/** Each power action's route is the table row of the same name. */
const powerActions = [
  'start',
  'stop',
  'kill',
  'restart',
  'install',
] as const satisfies readonly PowerAction[];

export function runtimeRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const { manager } = ctx;

  daemonRoute(app, ctx, 'status', async (_request, _reply, { id }) => {
    return manager.get(id).status();
  });

  daemonRoute(app, ctx, 'stats', async (_request, _reply, { id }) => {
    return manager.get(id).stats();
  });

  daemonRoute(app, ctx, 'consoleRead', async (request, _reply, { id }) => {
    const chunks = manager.get(id).console.since(request.query.time);
    return { logs: chunks.map((c) => c.text).join(''), epoch: chunks.at(-1)?.epoch ?? Date.now() };
  });

  daemonRoute(app, ctx, 'consoleSend', async (request, reply, { id }) => {
    await manager.get(id).sendCommand(request.body);
    return reply.status(204).send();
  });

  for (const action of powerActions) {
    daemonRoute(app, ctx, action, async (request, reply, { id }) => {
      const server = manager.get(id);
      const done = beginners[action](server)();
      if (request.query.wait) {
        await done;
        return reply.status(204).send();
      }
      done.catch((err: unknown) => request.log.warn({ err, id, action }, 'power action failed'));
      return reply.status(202).send();
    });
  }
}
