import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { daemonRouteRows, proxyActivity, type ActivityDetails, type ProxyActivity } from '@hearth/contract';
import type { ActivityService } from './activity.service';
import { actorOf } from './actor';

/** The first bytes of a text body kept for the entry (a console command); the rest streams on untouched. */
const BODY_KEPT = 2048;

const captured = new WeakMap<FastifyRequest, Buffer[]>();

/**
 * Records the proxied daemon calls that change state (contract activity-routes.ts; docs/activity.md § Proxied
 * calls). Registered before the proxy routes: as each proxy route is added, its row's action is attached with
 * a response hook that writes the entry once the daemon answered below 400.
 */
export function registerProxyRecorder(app: FastifyInstance, activity: ActivityService): void {
  const byRoute = new Map<string, ProxyActivity>();
  for (const [key, row] of daemonRouteRows()) {
    const found = proxyActivity[key];
    if (found && row.proxy) byRoute.set(`${row.method} ${row.proxy.path}`, found);
  }
  app.addHook('onRoute', (options: RouteOptions) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const found = methods.map((m) => byRoute.get(`${m} ${options.url}`)).find((a) => a !== undefined);
    if (!found) return;
    if (found.body === 'text') options.preHandler = [...hooks(options.preHandler), captureBody];
    const record = (req: FastifyRequest, reply: FastifyReply) => recordCall(activity, found, req, reply);
    options.onResponse = [...hooks(options.onResponse), record];
  });
}

function hooks<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The body reaches the proxy as a raw stream: it is passed on through a tee that keeps its first bytes. */
async function captureBody(req: FastifyRequest): Promise<void> {
  const source = req.body as Readable | undefined;
  if (!source || typeof source.pipe !== 'function') return;
  const kept: Buffer[] = [];
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    if (size >= BODY_KEPT) return;
    kept.push(chunk.subarray(0, BODY_KEPT - size));
    size += chunk.length;
  });
  const tee = new PassThrough();
  source.pipe(tee);
  captured.set(req, kept);
  req.body = tee;
}

async function recordCall(
  activity: ActivityService,
  found: ProxyActivity,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const access = req.serverAccess;
  if (reply.statusCode >= 400 || !req.identity || !access) return;
  await activity.record({
    actor: actorOf(req.identity, req.ip),
    action: found.action,
    serverId: access.serverId,
    nodeId: access.nodeId,
    details: detailsOf(req, found),
  });
}

function detailsOf(req: FastifyRequest, found: ProxyActivity): ActivityDetails {
  const details: ActivityDetails = {};
  const params = req.params as Record<string, string | undefined>;
  if (params['*'] !== undefined || req.url.includes('/file'))
    details.path = `/${safeDecode(params['*'] ?? '')}`;
  if (params.taskId) details.taskId = params.taskId;
  if (params.backupId) details.backupId = params.backupId;
  const query = req.query as Record<string, unknown> | undefined;
  if (typeof query?.destination === 'string') details.destination = query.destination;
  if (query?.folder === 'true' || query?.folder === '1') details.folder = true;
  if (found.body === 'text') details.command = commandOf(req);
  return details;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // left as sent: the daemon judged it
  }
}

/** The console command as typed: the JSON body's `command`, or the text body without its newline. */
function commandOf(req: FastifyRequest): string {
  const text = Buffer.concat(captured.get(req) ?? []).toString('utf8');
  if (String(req.headers['content-type'] ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'string') return parsed.replace(/\r?\n$/, '');
      if (parsed && typeof parsed === 'object' && 'command' in parsed) return String(parsed.command);
    } catch {
      return text; // longer than what was kept, or not JSON after all: the raw start is the best record
    }
  }
  return text.replace(/\r?\n$/, '');
}
