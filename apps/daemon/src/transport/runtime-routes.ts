/** Status, stats, console and power actions (SPEC §7 daemon proxy). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type ConsoleResponse } from '@hearth/contract';
import { beginners, type PowerAction } from '../server/power';
import { wantsWait, type TransportContext } from './context';
import { daemonRoute } from './daemon-route';

/** Each power action's route is the table row of the same name. */
const powerActions = [
  'start',
  'stop',
  'kill',
  'restart',
  'install',
] as const satisfies readonly PowerAction[];

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

  daemonRoute(app, ctx, 'status', async (_request, _reply, { id }) => {
    return manager.get(id).status();
  });

  daemonRoute(app, ctx, 'stats', async (_request, _reply, { id }) => {
    return manager.get(id).stats();
  });

  daemonRoute(app, ctx, 'consoleRead', async (request, _reply, { id }): Promise<ConsoleResponse> => {
    const server = manager.get(id);
    const chunks = server.console.since(sinceOf(request));
    return { logs: chunks.map((c) => c.text).join(''), epoch: chunks.at(-1)?.epoch ?? Date.now() };
  });

  daemonRoute(app, ctx, 'consoleSend', async (request, reply, { id }) => {
    await manager.get(id).sendCommand(commandOf(request.body));
    return reply.status(204).send();
  });

  for (const action of powerActions) {
    daemonRoute(app, ctx, action, async (request, reply, { id }) => {
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
