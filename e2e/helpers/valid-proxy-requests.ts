/**
 * A VALID request for every panel route that reaches a node (`routesOnANode` in
 * apps/panel/test/helpers/valid-requests.ts), sent through the panel to a real daemon by
 * e2e/authorization-matrix-proxy.test.ts. Each builder first brings the shared server into the state its
 * request needs (installed, running or stopped; a file, an archive, a task), as an administrator.
 */
import { fakeGameDefinition } from '../../apps/daemon/test/helpers/test-daemon';
import { call } from '../../apps/panel/test/helpers/app';
import type { BuildRequest, KnownRefusal, RequestContext } from '../../apps/panel/test/helpers/route-matrix';
import { unique, type RouteOnANode } from '../../apps/panel/test/helpers/valid-requests';
import { transferRequests } from './valid-transfer-requests';

/** A template holders of createServers create from (raw definitions are an administrator's power). */
const TEMPLATE = 'matrix-fake';
const FILE = 'matrix.txt';
const ARCHIVE = 'matrix.zip';

/** An administrator's call that sets the stage; it must succeed. */
async function asAdmin(ctx: RequestContext, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await call(ctx.t, method, url, { token: await ctx.session(ctx.admin), body });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} as admin: ${res.statusCode} ${res.body}`);
  return res;
}

/** A multipart upload body with one `file` field, as the web's upload sends it. */
function upload(text: string): { body: Buffer; headers: Record<string, string> } {
  const boundary = `matrix${Date.now()}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  );
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const proxy = (id: string) => `/proxy/daemon/server/${id}`;

/** tus 1.0 (docs/files.md § Resumable uploads): every request names the protocol version. */
const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A new resumable upload of `length` bytes to a fresh file name, made as an administrator; its URL. */
async function newUpload(ctx: RequestContext, length = 6): Promise<string> {
  const id = await ctx.server();
  const res = await call(ctx.t, 'POST', `${proxy(id)}/upload`, {
    token: await ctx.session(ctx.admin),
    headers: {
      ...TUS,
      'upload-length': String(length),
      'upload-metadata': `path ${b64(`${unique('tus')}.bin`)}`,
    },
  });
  const location = res.headers.location;
  if (res.statusCode !== 201 || typeof location !== 'string')
    throw new Error(`tus creation as admin: ${res.statusCode} ${res.body}`);
  return new URL(location, `http://panel${proxy(id)}/upload`).pathname;
}

/** The shared server, installed once. */
async function installed(ctx: RequestContext): Promise<string> {
  const id = await ctx.server();
  await ctx.shared(`installed ${id}`, () => asAdmin(ctx, 'POST', `${proxy(id)}/install?wait=true`));
  return id;
}

const running = async (ctx: RequestContext, id: string) =>
  (await asAdmin(ctx, 'GET', `${proxy(id)}/status`)).json<{ running: boolean }>().running;

/** The shared server, installed and running. */
async function started(ctx: RequestContext): Promise<string> {
  const id = await installed(ctx);
  if (!(await running(ctx, id))) await asAdmin(ctx, 'POST', `${proxy(id)}/start?wait=true`);
  return id;
}

/** The shared server, installed and stopped. */
async function stopped(ctx: RequestContext): Promise<string> {
  const id = await installed(ctx);
  if (await running(ctx, id)) await asAdmin(ctx, 'POST', `${proxy(id)}/kill?wait=true`);
  return id;
}

/** The shared server with `matrix.txt` in its folder (and `matrix.zip` holding it, when `zipped`). */
async function withFile(ctx: RequestContext, zipped = false): Promise<string> {
  const id = await installed(ctx);
  await ctx.shared(`file ${id}`, async () => {
    const { body, headers } = upload('matrix');
    const res = await ctx.t.app.inject({
      method: 'PUT',
      url: `${proxy(id)}/file/${FILE}`,
      headers: { ...headers, authorization: `Bearer ${await ctx.session(ctx.admin)}` },
      payload: body,
    });
    if (res.statusCode >= 400) throw new Error(`upload as admin: ${res.statusCode} ${res.body}`);
  });
  if (zipped) {
    await ctx.shared(`archive ${id}`, () => asAdmin(ctx, 'POST', `${proxy(id)}/archive/${ARCHIVE}`, [FILE]));
  }
  return id;
}

/** A task on the shared server, saved by the administrator; its id. */
async function task(ctx: RequestContext): Promise<{ serverId: string; taskId: string }> {
  const serverId = await installed(ctx);
  const res = await asAdmin(ctx, 'POST', `${proxy(serverId)}/tasks`, {
    name: unique('task'),
    operations: [],
  });
  return { serverId, taskId: res.json<{ id: string }>().id };
}

/** A snapshot of the shared server, taken by the administrator; a fresh one when `fresh` (to delete it). */
async function snapshot(ctx: RequestContext, fresh = false): Promise<{ serverId: string; backupId: string }> {
  const serverId = await withFile(ctx);
  const take = async () =>
    (await asAdmin(ctx, 'POST', `${proxy(serverId)}/backup`)).json<{ id: string }>().id;
  const backupId = fresh ? await take() : await ctx.shared(`backup ${serverId}`, take);
  return { serverId, backupId };
}

/**
 * Routes on a node that refuse even a caller entitled to them (findings, reported; the matrix asserts exactly
 * this refusal, so a fix fails it until the entry goes).
 */
export const knownProxyRefusals: Readonly<Record<string, KnownRefusal>> = {
  'DELETE /proxy/daemon/server/:id/file': {
    status: 400,
    code: 'ErrIllegalFileAccess',
    finding: "the route names the server's root folder only, which the daemon's sandbox never removes",
  },
  'HEAD /proxy/daemon/socket/:id': {
    status: 404,
    finding: 'the automatic HEAD of the websocket route answers 404 to every caller it authorized',
  },
};

type BackupRoute = Extract<RouteOnANode, `${string}/backup${string}` | `${string}/backups${string}`>;

/** The backup routes: a snapshot of the shared server (restored only into it, stopped, or into a new clone). */
function backupRequests(nodeId: string): Record<BackupRoute, BuildRequest> {
  const at = async (ctx: RequestContext, suffix = '') => {
    const { serverId, backupId } = await snapshot(ctx);
    return `${proxy(serverId)}/backup/${backupId}${suffix}`;
  };
  return {
    'GET /proxy/daemon/server/:id/backup': async (ctx) => ({ url: `${proxy(await ctx.server())}/backup` }),
    'POST /proxy/daemon/server/:id/backup': async (ctx) => ({ url: `${proxy(await withFile(ctx))}/backup` }),
    'GET /proxy/daemon/server/:id/backup/:backupId': async (ctx) => ({ url: await at(ctx) }),
    'GET /proxy/daemon/server/:id/backup/:backupId/tree': async (ctx) => ({ url: await at(ctx, '/tree') }),
    'POST /proxy/daemon/server/:id/backup/:backupId/restore': async (ctx) => {
      const url = await at(ctx, '/restore');
      await stopped(ctx);
      return { url, body: { paths: [FILE] } };
    },
    'GET /proxy/daemon/server/:id/backup/:backupId/download': async (ctx) => ({
      url: await at(ctx, `/download?path=${FILE}&format=zip`),
    }),
    'PUT /proxy/daemon/server/:id/backup/:backupId/lock': async (ctx) => ({
      url: await at(ctx, '/lock'),
      body: { locked: false },
    }),
    'DELETE /proxy/daemon/server/:id/backup/:backupId': async (ctx) => {
      const { serverId, backupId } = await snapshot(ctx, true);
      return { url: `${proxy(serverId)}/backup/${backupId}` };
    },
    'GET /proxy/daemon/server/:id/backup-policy': async (ctx) => ({
      url: `${proxy(await ctx.server())}/backup-policy`,
    }),
    'PUT /proxy/daemon/server/:id/backup-policy': async (ctx) => ({
      url: `${proxy(await ctx.server())}/backup-policy`,
      body: { schedule: '0 4 * * *' },
    }),
    'GET /api/nodes/:id/backups': async () => ({ url: `/api/nodes/${nodeId}/backups` }),
    'PUT /api/nodes/:id/backups/destination': async () => ({
      url: `/api/nodes/${nodeId}/backups/destination`,
      body: { type: 'local', path: '' },
    }),
    'POST /api/nodes/:id/backups/check': async () => ({ url: `/api/nodes/${nodeId}/backups/check` }),
    // A new server each time it is served (made from the shared server's definition, the snapshot restored in).
    'POST /api/servers/:id/backup/:backupId/clone': async (ctx) => {
      const { serverId, backupId } = await snapshot(ctx);
      return { url: `/api/servers/${serverId}/backup/${backupId}/clone`, body: { name: 'matrix clone' } };
    },
  };
}

/** Builders for the routes on a node, for the node the suite registered (`nodeId`, its daemon running). */
export function proxyRequests(nodeId: string): Record<RouteOnANode, BuildRequest> {
  return {
    // ---- servers and nodes through the panel's own routes ----
    'POST /api/servers': async (ctx) => {
      await ctx.shared('template', () => ctx.t.services.templates.save(TEMPLATE, fakeGameDefinition()));
      return {
        url: '/api/servers',
        body: {
          name: unique('srv'),
          node: nodeId,
          users: [],
          environment: { type: 'standard' },
          template: TEMPLATE,
        },
      };
    },
    'DELETE /api/servers/:id': async (ctx) => ({ url: `/api/servers/${await ctx.server({ fresh: true })}` }),
    'GET /api/nodes/:id/features': async () => ({ url: `/api/nodes/${nodeId}/features` }),

    // ---- the definition and its variables ----
    'GET /proxy/daemon/server/:id': async (ctx) => ({ url: proxy(await ctx.server()) }),
    'POST /proxy/daemon/server/:id': async (ctx) => ({
      url: proxy(await ctx.server()),
      body: { ...fakeGameDefinition(), display: 'Fake game (matrix)' },
    }),
    'POST /proxy/daemon/server/:id/reload': async (ctx) => ({ url: `${proxy(await ctx.server())}/reload` }),
    'GET /proxy/daemon/server/:id/data': async (ctx) => ({ url: `${proxy(await ctx.server())}/data` }),
    'POST /proxy/daemon/server/:id/data': async (ctx) => ({
      url: `${proxy(await ctx.server())}/data`,
      body: { data: { flags: { value: '--matrix' } } },
    }),

    // ---- status, power and console ----
    'GET /proxy/daemon/server/:id/status': async (ctx) => ({ url: `${proxy(await ctx.server())}/status` }),
    'GET /proxy/daemon/server/:id/stats': async (ctx) => ({ url: `${proxy(await started(ctx))}/stats` }),
    'GET /proxy/daemon/server/:id/history': async (ctx) => ({
      url: `${proxy(await ctx.server())}/history?range=1h`,
    }),
    'GET /proxy/daemon/server/:id/console': async (ctx) => ({ url: `${proxy(await ctx.server())}/console` }),
    'POST /proxy/daemon/server/:id/console': async (ctx) => ({
      url: `${proxy(await started(ctx))}/console`,
      body: 'help',
      headers: { 'content-type': 'text/plain' },
    }),
    'POST /proxy/daemon/server/:id/start': async (ctx) => ({
      url: `${proxy(await stopped(ctx))}/start?wait=true`,
    }),
    'POST /proxy/daemon/server/:id/stop': async (ctx) => ({
      url: `${proxy(await started(ctx))}/stop?wait=true`,
    }),
    'POST /proxy/daemon/server/:id/kill': async (ctx) => ({
      url: `${proxy(await started(ctx))}/kill?wait=true`,
    }),
    'POST /proxy/daemon/server/:id/install': async (ctx) => ({
      url: `${proxy(await stopped(ctx))}/install?wait=true`,
    }),

    // ---- files ----
    'GET /proxy/daemon/server/:id/file': async (ctx) => ({ url: `${proxy(await ctx.server())}/file` }),
    'GET /proxy/daemon/server/:id/file/*': async (ctx) => ({
      url: `${proxy(await withFile(ctx))}/file/${FILE}`,
    }),
    'PUT /proxy/daemon/server/:id/file': async (ctx) => ({
      url: `${proxy(await ctx.server())}/file?folder=true`,
    }),
    'PUT /proxy/daemon/server/:id/file/*': async (ctx) => ({
      url: `${proxy(await ctx.server())}/file/${unique('up')}.txt`,
      ...upload('uploaded'),
    }),
    'DELETE /proxy/daemon/server/:id/file': async (ctx) => ({ url: `${proxy(await ctx.server())}/file` }),
    'DELETE /proxy/daemon/server/:id/file/*': async (ctx) => {
      const id = await ctx.server();
      const folder = unique('gone');
      await asAdmin(ctx, 'PUT', `${proxy(id)}/file/${folder}?folder=true`);
      return { url: `${proxy(id)}/file/${folder}` };
    },
    'POST /proxy/daemon/server/:id/archive/*': async (ctx) => ({
      url: `${proxy(await withFile(ctx))}/archive/${unique('a')}.zip`,
      body: [FILE],
    }),
    'GET /proxy/daemon/server/:id/extract/*': async (ctx) => ({
      url: `${proxy(await withFile(ctx, true))}/extract/${ARCHIVE}?destination=${unique('x')}`,
    }),
    'POST /proxy/daemon/server/:id/move': async (ctx) => {
      const id = await withFile(ctx);
      const name = unique('mv');
      await asAdmin(ctx, 'POST', `${proxy(id)}/copy`, { from: FILE, to: `${name}.txt` });
      return { url: `${proxy(id)}/move`, body: { from: `${name}.txt`, to: `${name}-moved.txt` } };
    },
    'POST /proxy/daemon/server/:id/copy': async (ctx) => ({
      url: `${proxy(await withFile(ctx))}/copy`,
      body: { from: FILE, to: `${unique('cp')}.txt` },
    }),
    'POST /proxy/daemon/server/:id/chmod': async (ctx) => ({
      url: `${proxy(await withFile(ctx))}/chmod`,
      body: { path: FILE, mode: 0o644 },
    }),
    'GET /proxy/daemon/server/:id/search': async (ctx) => ({
      url: `${proxy(await withFile(ctx))}/search?q=matrix`,
    }),

    // ---- resumable uploads (tus) ----
    'POST /proxy/daemon/server/:id/upload': async (ctx) => ({
      url: `${proxy(await ctx.server())}/upload`,
      headers: { ...TUS, 'upload-length': '6', 'upload-metadata': `path ${b64(`${unique('tus')}.bin`)}` },
    }),
    'GET /proxy/daemon/server/:id/upload/:upload': async (ctx) => ({
      url: await newUpload(ctx),
      headers: TUS,
    }),
    'PATCH /proxy/daemon/server/:id/upload/:upload': async (ctx) => ({
      url: await newUpload(ctx),
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.from('matrix'),
    }),
    'DELETE /proxy/daemon/server/:id/upload/:upload': async (ctx) => ({
      url: await newUpload(ctx),
      headers: TUS,
    }),

    // ---- tasks ----
    'GET /proxy/daemon/server/:id/tasks': async (ctx) => ({ url: `${proxy(await ctx.server())}/tasks` }),
    'POST /proxy/daemon/server/:id/tasks': async (ctx) => ({
      url: `${proxy(await ctx.server())}/tasks`,
      body: { name: unique('task'), cronSchedule: null, operations: [] },
    }),
    'PUT /proxy/daemon/server/:id/tasks/:taskId': async (ctx) => {
      const { serverId, taskId } = await task(ctx);
      return { url: `${proxy(serverId)}/tasks/${taskId}`, body: { name: unique('renamed'), operations: [] } };
    },
    'DELETE /proxy/daemon/server/:id/tasks/:taskId': async (ctx) => {
      const { serverId, taskId } = await task(ctx);
      return { url: `${proxy(serverId)}/tasks/${taskId}` };
    },
    'POST /proxy/daemon/server/:id/tasks/:taskId/run': async (ctx) => {
      const { serverId, taskId } = await task(ctx);
      return { url: `${proxy(serverId)}/tasks/${taskId}/run` };
    },

    // ---- backups (docs/backups.md) ----
    ...backupRequests(nodeId),

    // ---- moving a server to another node (docs/operations.md § Moving a server between nodes) ----
    ...transferRequests,

    // ---- the live socket (its HEAD is a plain request) ----
    'GET /proxy/daemon/socket/:id': async (ctx) => ({
      url: `/proxy/daemon/socket/${await ctx.server()}`,
      websocket: true,
    }),
  };
}
