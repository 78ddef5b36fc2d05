/** Status, stats, console and power actions (SPEC §7 daemon proxy). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type ConsoleResponse } from '@hearth/contract';
import { beginners, type PowerAction } from '../server/power';
import { guard, wantsWait, type TransportContext } from './context';
import type { Requirement } from './permissions';

const powerPermission: Record<PowerAction, Requirement | Requirement[]> = {
  start: 'startServer',
  stop: 'stopServer',
  kill: 'stopServer',
  restart: ['startServer', 'stopServer'],
  install: 'installServer',
};

function sinceOf(request: FastifyRequest): number {
  const raw = (request.query as { time?: unknown }).time;
  if (raw === undefined || raw === '') return 0;
  const since = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(since) || since < 0)
    throw new AppError('ErrInvalidUnixTime');
  return since;
}

/** The raw body is the command (PufferPanel); `{"command": "…"}` is accepted too. */
function commandOf(body: unknown): string {
  if (typeof body === 'string') return body.replace(/\r?\n$/, '');
  const command = (body as { command?: unknown } | null)?.command;
  if (typeof command === 'string') return command;
  throw new AppError('ErrFieldRequired', { field: 'command' });
}

export function runtimeRoutes(app: FastifyInstance, ctx: TransportContext): void {
  const { manager } = ctx;

  app.get('/daemon/server/:id/status', async (request) => {
    const { id } = await guard(ctx, request, 'view');
    return manager.get(id).status();
  });

  app.get('/daemon/server/:id/stats', async (request) => {
    const { id } = await guard(ctx, request, 'viewServerStats');
    return manager.get(id).stats();
  });

  app.get('/daemon/server/:id/console', async (request): Promise<ConsoleResponse> => {
    const { id } = await guard(ctx, request, 'viewServerConsole');
    const server = manager.get(id);
    const chunks = server.console.since(sinceOf(request));
    return { logs: chunks.map((c) => c.text).join(''), epoch: chunks.at(-1)?.epoch ?? Date.now() };
  });

  app.post('/daemon/server/:id/console', async (request, reply) => {
    const { id } = await guard(ctx, request, 'sendServerConsole');
    await manager.get(id).sendCommand(commandOf(request.body));
    return reply.status(204).send();
  });

  for (const action of Object.keys(powerPermission) as PowerAction[]) {
    app.post(`/daemon/server/:id/${action}`, async (request, reply) => {
      const { id } = await guard(ctx, request, powerPermission[action]);
      const wait = wantsWait(request);
      const server = manager.get(id);
      const done = beginners[action](server)();
      if (wait) {
        await done;
        return reply.status(204).send();
      }
      done.catch((err: unknown) => request.log.warn({ err, id, action }, 'power action failed'));
      return reply.status(202).send();
    });
  }
}
