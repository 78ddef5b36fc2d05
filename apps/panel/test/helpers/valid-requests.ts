/**
 * A VALID request for every panel route that runs without a node (the authorization matrix sends each one as
 * callers who must be refused and as callers who must be served: "served" means a status below 400). Keyed
 * `'METHOD /url'` as Fastify registers the route; a HEAD route without its own entry uses its GET's. Routes
 * that reach a node (`routesOnANode`) have theirs in e2e/helpers/valid-proxy-requests.ts, against a real
 * daemon. A new route must add its entry here or there: the matrix fails for a route without one.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostDebianArch, packagesDirOf } from '../../src/modules/nodes/node-package';
import { newTotpSecret } from '../../src/lib/totp';
import { hashToken } from '../../src/lib/tokens';
import type { ServerPermission } from '@hearth/contract';
import type { TestApp, TestUser } from './app';
import { startSmtp } from './mail-servers';
import { totpCode } from './otp';
import type { BuildRequest, MatrixRoute, RequestContext } from './route-matrix';

export type { BuildRequest, RequestContext, ValidRequest } from './route-matrix';

/**
 * The routes whose handler talks to the server's node: the daemon proxy, the node's features, server create
 * and delete. Their valid requests need a real daemon (e2e/authorization-matrix-proxy.test.ts).
 */
export const routesOnANode = [
  'POST /api/servers',
  'DELETE /api/servers/:id',
  'GET /api/nodes/:id/features',
  'GET /proxy/daemon/server/:id',
  'POST /proxy/daemon/server/:id',
  'POST /proxy/daemon/server/:id/reload',
  'GET /proxy/daemon/server/:id/data',
  'POST /proxy/daemon/server/:id/data',
  'GET /proxy/daemon/server/:id/status',
  'GET /proxy/daemon/server/:id/stats',
  'GET /proxy/daemon/server/:id/history',
  'GET /proxy/daemon/server/:id/console',
  'POST /proxy/daemon/server/:id/console',
  'POST /proxy/daemon/server/:id/start',
  'POST /proxy/daemon/server/:id/stop',
  'POST /proxy/daemon/server/:id/kill',
  'POST /proxy/daemon/server/:id/install',
  'GET /proxy/daemon/server/:id/file',
  'GET /proxy/daemon/server/:id/file/*',
  'PUT /proxy/daemon/server/:id/file',
  'PUT /proxy/daemon/server/:id/file/*',
  'DELETE /proxy/daemon/server/:id/file',
  'DELETE /proxy/daemon/server/:id/file/*',
  'POST /proxy/daemon/server/:id/archive/*',
  'GET /proxy/daemon/server/:id/extract/*',
  'POST /proxy/daemon/server/:id/move',
  'POST /proxy/daemon/server/:id/copy',
  'POST /proxy/daemon/server/:id/chmod',
  'GET /proxy/daemon/server/:id/search',
  'POST /proxy/daemon/server/:id/upload',
  'GET /proxy/daemon/server/:id/upload/:upload',
  'PATCH /proxy/daemon/server/:id/upload/:upload',
  'DELETE /proxy/daemon/server/:id/upload/:upload',
  'GET /proxy/daemon/server/:id/tasks',
  'POST /proxy/daemon/server/:id/tasks',
  'PUT /proxy/daemon/server/:id/tasks/:taskId',
  'DELETE /proxy/daemon/server/:id/tasks/:taskId',
  'POST /proxy/daemon/server/:id/tasks/:taskId/run',
  'GET /proxy/daemon/server/:id/backup',
  'POST /proxy/daemon/server/:id/backup',
  'GET /proxy/daemon/server/:id/backup/:backupId',
  'GET /proxy/daemon/server/:id/backup/:backupId/tree',
  'POST /proxy/daemon/server/:id/backup/:backupId/restore',
  'GET /proxy/daemon/server/:id/backup/:backupId/download',
  'PUT /proxy/daemon/server/:id/backup/:backupId/lock',
  'DELETE /proxy/daemon/server/:id/backup/:backupId',
  'GET /proxy/daemon/server/:id/backup-policy',
  'PUT /proxy/daemon/server/:id/backup-policy',
  'GET /api/nodes/:id/backups',
  'PUT /api/nodes/:id/backups/destination',
  'POST /api/nodes/:id/backups/check',
  'POST /api/servers/:id/backup/:backupId/clone',
  'POST /api/servers/:id/transfer',
  'GET /api/servers/:id/transfer',
  'GET /proxy/daemon/socket/:id',
] as const;
export type RouteOnANode = (typeof routesOnANode)[number];

/** Whether the route's valid request needs a real daemon (a HEAD route goes with its GET). */
export function isOnANode(route: Pick<MatrixRoute, 'method' | 'url' | 'key'>): boolean {
  const keys: readonly string[] = routesOnANode;
  return keys.includes(route.key) || (route.method === 'HEAD' && keys.includes(`GET ${route.url}`));
}

/** A server row on `nodeId` (the local one by default) owned by `owner`; no daemon runs it. */
export async function serverRow(t: TestApp, owner: TestUser, nodeId = 'local'): Promise<string> {
  const id = randomUUID().replace(/-/g, '').slice(0, 8);
  const row = {
    id,
    name: unique('srv'),
    node_id: nodeId,
    ip: '',
    port: null,
    type: '',
    created_at: Date.now(),
  };
  await t.services.serversRepo.insert(row, [owner.id]);
  return id;
}

let seq = 0;
/** A name no other request of this run uses (also a valid username: letters, digits, `_`). */
export const unique = (prefix: string) => `${prefix}${++seq}_${randomUUID().slice(0, 8)}`;

const newAccount = () => {
  const username = unique('new');
  return { username, email: `${username}@example.com`, password: 'matrix password 1' };
};

const nodeBody = () => ({
  name: unique('node'),
  publicHost: 'node.example.com',
  publicPort: 5656,
  privateHost: 'node.example.com',
  privatePort: 5656,
  sftpPort: 5657,
});

/** A stored template the panel accepts (a tty echo game). */
const echoTemplate = {
  type: 'echo',
  display: 'Echo',
  install: [{ type: 'command', commands: 'echo hi' }],
  run: { command: 'sleep 100', stop: 'stop' },
  environment: { type: 'tty' },
};

/** A node without a daemon, and its node credential (HTTP Basic `.node_<id>:<secret>`). */
async function makeNode(ctx: RequestContext): Promise<{ id: string; credential: string }> {
  const node = await ctx.t.services.nodes.create(nodeBody(), { admin: true });
  const { clientId, clientSecret } = node.deployment;
  if (!clientSecret) throw new Error('a new node is issued its secret');
  return {
    id: node.id,
    credential: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
  };
}

const sharedNode = (ctx: RequestContext) => ctx.shared('node', () => makeNode(ctx));

/** A server row on `nodeId` (no daemon runs it) that `user` holds exactly `flags` on. */
async function serverOnNode(ctx: RequestContext, nodeId: string, user: TestUser, flags: ServerPermission[]) {
  const id = await serverRow(ctx.t, ctx.admin, nodeId);
  await ctx.grant(user, id, flags);
  return id;
}

/** The caller with two-factor on (a fresh secret, no code used yet); the secret. */
async function withOtp(ctx: RequestContext, user: TestUser, pending: boolean): Promise<string> {
  const secret = newTotpSecret();
  const sealed = ctx.t.services.auth.sealTotp(secret);
  await ctx.t.services.users.update(
    user.id,
    pending
      ? { otp_pending_secret: sealed, otp_last_counter: null }
      : { otp_secret: sealed, otp_enabled: 1, otp_pending_secret: null, otp_last_counter: null },
  );
  return secret;
}

const sessionCookieOf = (setCookie: string | string[] | undefined, name: string) =>
  [setCookie ?? []]
    .flat()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

/** Builders for the routes that need no node. HEAD routes use their GET's unless listed. */
export const panelRequests: Record<string, BuildRequest> = {
  // ---- the API documentation and the web app (public) ----
  'GET /swagger': async () => ({ url: '/swagger' }),
  'HEAD /swagger/': async () => ({ url: '/swagger/' }),
  'GET /swagger/static/index.html': async () => ({ url: '/swagger/static/index.html' }),
  'GET /swagger/static/swagger-initializer.js': async () => ({
    url: '/swagger/static/swagger-initializer.js',
  }),
  'GET /swagger/static/*': async () => ({ url: '/swagger/static/swagger-ui.css' }),
  'GET /swagger/json': async () => ({ url: '/swagger/json' }),
  'GET /swagger/yaml': async () => ({ url: '/swagger/yaml' }),
  'GET /swagger/doc.json': async () => ({ url: '/swagger/doc.json' }),
  'GET /api/config': async () => ({ url: '/api/config' }),
  'GET /theme/:file': async () => ({ url: '/theme/hearth.tar' }),
  'GET /*': async () => ({ url: '/servers' }),

  // ---- signing in (public) ----
  'POST /auth/login': async (ctx) => {
    const { email, password } = await ctx.user();
    return { url: '/auth/login', body: { email, password } };
  },
  'POST /auth/otp': async (ctx) => {
    const user = await ctx.user();
    const secret = await withOtp(ctx, user, false);
    const login = await ctx.t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: user.email, password: user.password },
    });
    const cookie = sessionCookieOf(login.headers['set-cookie'], 'hearth_otp');
    if (!cookie) throw new Error(`login with two-factor: ${login.statusCode} ${login.body}`);
    return { url: '/auth/otp', headers: { cookie }, body: { token: totpCode(secret) } };
  },
  'POST /auth/register': async (ctx) => {
    await ctx.t.services.settings.write({ 'panel.registrationEnabled': true });
    return { url: '/auth/register', body: newAccount() };
  },
  'POST /auth/invite': async (ctx) => {
    const { token } = await ctx.t.services.invites.invite(newAccount().email);
    const { username, password } = newAccount();
    return { url: '/auth/invite', body: { token, username, password } };
  },
  'POST /auth/password/forgot': async (ctx) => ({
    url: '/auth/password/forgot',
    body: { email: (await ctx.user()).email },
  }),
  'POST /auth/password/reset': async (ctx) => {
    const user = await ctx.user();
    const token = unique('reset-link');
    const now = Date.now();
    await ctx.t.db.kysely
      .insertInto('password_resets')
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        expires_at: now + 60_000,
        used_at: null,
        created_at: now,
      })
      .execute();
    return { url: '/auth/password/reset', body: { token, password: 'a new password' } };
  },
  // First-run setup works only while the panel has no user: it goes to a panel of its own.
  'POST /auth/setup': async (ctx) => {
    const panel = await ctx.emptyPanel();
    const token = await panel.services.setup.prepare();
    if (!token) throw new Error('an empty panel offers its setup link');
    return { url: '/auth/setup', panel, body: { token, ...newAccount() } };
  },
  'POST /auth/setup/check': async (ctx) => {
    const panel = await ctx.emptyPanel();
    const token = await panel.services.setup.prepare();
    if (!token) throw new Error('an empty panel offers its setup link');
    return { url: '/auth/setup/check', panel, body: { token } };
  },
  'POST /oauth2/token': async (ctx) => {
    const client = await ctx.t.services.clients.create((await ctx.user()).id, 'matrix', '');
    return {
      url: '/oauth2/token',
      body: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
    };
  },

  // ---- the caller's own session and account (authenticated) ----
  'POST /auth/reauth': async () => ({ url: '/auth/reauth' }),
  'POST /auth/logout': async () => ({ url: '/auth/logout' }),
  'GET /api/self': async () => ({ url: '/api/self' }),
  'PUT /api/self': async (ctx) => ({
    url: '/api/self',
    body: { username: unique('renamed'), password: ctx.caller.password },
  }),
  'GET /api/self/otp': async () => ({ url: '/api/self/otp' }),
  'POST /api/self/otp': async () => ({ url: '/api/self/otp' }),
  'PUT /api/self/otp': async (ctx) => {
    const secret = await withOtp(ctx, ctx.caller, true);
    return { url: '/api/self/otp', body: { token: totpCode(secret) } };
  },
  'DELETE /api/self/otp/:token': async (ctx) => {
    const secret = await withOtp(ctx, ctx.caller, false);
    return { url: `/api/self/otp/${totpCode(secret)}` };
  },
  'POST /api/self/otp/recovery': async (ctx) => {
    const secret = await withOtp(ctx, ctx.caller, false);
    return {
      url: '/api/self/otp/recovery',
      body: { password: ctx.caller.password, token: totpCode(secret) },
    };
  },
  'GET /api/self/oauth2': async () => ({ url: '/api/self/oauth2' }),
  'POST /api/self/oauth2': async () => ({
    url: '/api/self/oauth2',
    body: { name: 'matrix', description: 'a client' },
  }),
  'DELETE /api/self/oauth2/:id': async (ctx) => {
    const client = await ctx.t.services.clients.create(ctx.caller.id, 'matrix', '');
    return { url: `/api/self/oauth2/${client.id}` };
  },
  'GET /api/userSettings': async () => ({ url: '/api/userSettings' }),
  'PUT /api/userSettings/:key': async () => ({ url: '/api/userSettings/dark', body: { value: 'true' } }),

  // ---- users (viewUsers, editUsers) ----
  'GET /api/users': async () => ({ url: '/api/users?page=1&limit=10' }),
  'POST /api/users': async () => ({ url: '/api/users', body: newAccount() }),
  'GET /api/users/:id': async (ctx) => ({ url: `/api/users/${(await ctx.user()).id}` }),
  'POST /api/users/:id': async (ctx) => ({
    url: `/api/users/${(await ctx.user()).id}`,
    body: { username: unique('edited') },
  }),
  'DELETE /api/users/:id': async (ctx) => ({ url: `/api/users/${(await ctx.user()).id}` }),
  'DELETE /api/users/:id/otp': async (ctx) => ({ url: `/api/users/${(await ctx.user()).id}/otp` }),
  'GET /api/users/:id/perms': async (ctx) => ({ url: `/api/users/${(await ctx.user()).id}/perms` }),
  // A holder of editUsers grants the flag they hold themselves.
  'PUT /api/users/:id/perms': async (ctx) => ({
    url: `/api/users/${(await ctx.user()).id}/perms`,
    body: { editUsers: true },
  }),
  'POST /api/users/invite': async () => ({ url: '/api/users/invite', body: { email: newAccount().email } }),

  // ---- settings (panelSettings) ----
  'GET /api/settings/:key': async () => ({ url: '/api/settings/panel.settings.companyName' }),
  'PUT /api/settings/:key': async () => ({
    url: '/api/settings/panel.settings.companyName',
    body: { value: 'Hearth matrix' },
  }),
  // A real SMTP capture process (closed with the matrix) receives the administrator's test mail.
  'POST /api/settings/email/test': async (ctx) => {
    await ctx.shared('smtp', async () => {
      const smtp = await startSmtp();
      ctx.onClose(() => smtp.close());
      await ctx.t.services.settings.write({
        'panel.email.provider': 'smtp',
        'panel.email.host': `127.0.0.1:${smtp.port}`,
        'panel.email.from': 'panel@hearth.test',
      });
      return smtp.port;
    });
    return { url: '/api/settings/email/test' };
  },
  'POST /api/settings': async () => ({
    url: '/api/settings',
    body: { 'panel.settings.companyName': 'Hearth matrix' },
  }),

  // ---- templates (viewTemplates, editTemplates) ----
  'GET /api/templates': async () => ({ url: '/api/templates' }),
  'GET /api/templates/:id': async (ctx) => {
    const id = await ctx.shared('template', async () => {
      await ctx.t.services.templates.save('matrix-echo', echoTemplate);
      return 'matrix-echo';
    });
    return { url: `/api/templates/${id}` };
  },
  'PUT /api/templates/:id': async () => ({ url: `/api/templates/${unique('t')}`, body: echoTemplate }),
  'DELETE /api/templates/:id': async (ctx) => {
    const id = unique('t');
    await ctx.t.services.templates.save(id, echoTemplate);
    return { url: `/api/templates/${id}` };
  },
  'POST /api/templates/import': async () => ({ url: '/api/templates/import' }),
  'GET /api/templates/import/status': async () => ({ url: '/api/templates/import/status' }),
  'POST /api/templates/import/:name': async (ctx) => {
    const [name] = await ctx.t.services.templates.importableNames();
    if (!name) throw new Error('the bundled templates offer something to import');
    return { url: `/api/templates/import/${encodeURIComponent(name)}` };
  },

  // ---- nodes (viewNodes, editNodes, deployNodes, createServers) and the node-only routes ----
  'GET /api/nodes': async () => ({ url: '/api/nodes' }),
  'GET /api/nodes/choices': async () => ({ url: '/api/nodes/choices' }),
  'POST /api/nodes': async () => ({ url: '/api/nodes', body: nodeBody() }),
  'GET /api/nodes/:id': async (ctx) => ({ url: `/api/nodes/${(await sharedNode(ctx)).id}` }),
  'PUT /api/nodes/:id': async (ctx) => ({
    url: `/api/nodes/${(await sharedNode(ctx)).id}`,
    body: { name: unique('renamed') },
  }),
  'DELETE /api/nodes/:id': async (ctx) => ({ url: `/api/nodes/${(await makeNode(ctx)).id}` }),
  'GET /api/nodes/:id/deployment': async (ctx) => ({
    url: `/api/nodes/${(await sharedNode(ctx)).id}/deployment`,
  }),
  // A rotation replaces the node's credential: a node of its own.
  'POST /api/nodes/:id/deployment/rotate': async (ctx) => ({
    url: `/api/nodes/${(await makeNode(ctx)).id}/deployment/rotate`,
  }),
  // The one-step install's download: the node's own credential, a package dropped into the panel's folder.
  'GET /api/nodes/:id/package': async (ctx) => {
    const node = await sharedNode(ctx);
    const dir = packagesDirOf(ctx.t.config.panel.dataDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `hearth_0.0.1_${hostDebianArch()}.deb`), '!<arch>\n');
    return { url: `/api/nodes/${node.id}/package`, headers: { authorization: node.credential } };
  },
  'POST /api/nodes/sftp-auth': async (ctx) => {
    const node = await sharedNode(ctx);
    const user = await ctx.user();
    const serverId = await serverOnNode(ctx, node.id, user, ['sftpServer']);
    return {
      url: '/api/nodes/sftp-auth',
      headers: { authorization: node.credential },
      body: { username: `${user.email}|${serverId}`, password: user.password },
    };
  },
  // The outbound link: a node of its own that dials in (its tunnel is replaced by each attempt).
  'GET /api/nodes/link': async (ctx) => {
    const node = await ctx.shared('outbound node', async () => {
      const made = await makeNode(ctx);
      await ctx.t.services.nodesRepo.update(made.id, { link: 'outbound' });
      return made;
    });
    return { url: '/api/nodes/link', headers: { authorization: node.credential }, websocket: 'binary' };
  },
  'POST /api/nodes/access': async (ctx) => {
    const node = await sharedNode(ctx);
    const user = await ctx.user();
    const serverId = await serverOnNode(ctx, node.id, user, ['viewServerConsole']);
    return {
      url: '/api/nodes/access',
      headers: { authorization: node.credential },
      body: { userId: user.id, serverId },
    };
  },

  // ---- servers without their node (the caller holds the route's need on `ctx.server()`) ----
  'GET /api/servers': async () => ({ url: '/api/servers?page=1&limit=10' }),
  'GET /api/servers/:id': async (ctx) => ({ url: `/api/servers/${await ctx.server()}?perms` }),
  'PUT /api/servers/:id/name/:name': async (ctx) => ({
    url: `/api/servers/${await ctx.server()}/name/${unique('renamed')}`,
  }),
  'GET /api/servers/:id/user': async (ctx) => ({ url: `/api/servers/${await ctx.server()}/user` }),
  // A holder of editServerUsers adds a user with no flag (never more than they hold).
  'PUT /api/servers/:id/user/:email': async (ctx) => ({
    url: `/api/servers/${await ctx.server()}/user/${(await ctx.user()).email}`,
    body: { editServerUsers: false },
  }),
  'DELETE /api/servers/:id/user/:email': async (ctx) => {
    const serverId = await ctx.server();
    const user = await ctx.user();
    await ctx.grant(user, serverId, []);
    return { url: `/api/servers/${serverId}/user/${user.email}` };
  },
  'GET /api/servers/:id/activity': async (ctx) => ({
    url: `/api/servers/${await ctx.server()}/activity?limit=5&action=server.`,
  }),
  'GET /api/activity': async () => ({ url: '/api/activity?page=1&limit=5&format=json' }),
  'GET /api/alerts': async () => ({ url: '/api/alerts' }),
  'POST /api/alerts': async () => ({ url: '/api/alerts', body: alertBody() }),
  'GET /api/alerts/:id': async (ctx) => ({ url: `/api/alerts/${await alertRule(ctx)}` }),
  'PUT /api/alerts/:id': async (ctx) => ({ url: `/api/alerts/${await alertRule(ctx)}`, body: alertBody() }),
  'DELETE /api/alerts/:id': async (ctx) => ({ url: `/api/alerts/${await alertRule(ctx)}` }),
  'POST /api/alerts/:id/test': async (ctx) => ({ url: `/api/alerts/${await alertRule(ctx)}/test` }),
  'GET /api/alerts/:id/deliveries': async (ctx) => ({
    url: `/api/alerts/${await alertRule(ctx)}/deliveries`,
  }),
  'GET /api/servers/:id/alerts': async (ctx) => ({ url: `/api/servers/${await ctx.server()}/alerts` }),
  'POST /api/servers/:id/alerts': async (ctx) => ({
    url: `/api/servers/${await ctx.server()}/alerts`,
    body: alertBody(),
  }),
  'GET /api/servers/:id/alerts/:alertId': async (ctx) => ({ url: await serverAlertRule(ctx) }),
  'PUT /api/servers/:id/alerts/:alertId': async (ctx) => ({
    url: await serverAlertRule(ctx),
    body: alertBody(),
  }),
  'DELETE /api/servers/:id/alerts/:alertId': async (ctx) => ({ url: await serverAlertRule(ctx) }),
  'POST /api/servers/:id/alerts/:alertId/test': async (ctx) => ({
    url: `${await serverAlertRule(ctx)}/test`,
  }),
  'GET /api/servers/:id/alerts/:alertId/deliveries': async (ctx) => ({
    url: `${await serverAlertRule(ctx)}/deliveries`,
  }),
  'GET /api/servers/:id/oauth2': async (ctx) => ({ url: `/api/servers/${await ctx.server()}/oauth2` }),
  'POST /api/servers/:id/oauth2': async (ctx) => ({
    url: `/api/servers/${await ctx.server()}/oauth2`,
    body: { name: 'matrix', description: 'a server client' },
  }),
  'DELETE /api/servers/:id/oauth2/:clientId': async (ctx) => {
    const serverId = await ctx.server();
    const client = await ctx.t.services.clients.create(ctx.caller.id, 'matrix', '', serverId);
    return { url: `/api/servers/${serverId}/oauth2/${client.id}` };
  },
};

/** A valid alert rule body (docs/alerts.md): a crash rule that mails. */
function alertBody() {
  return { name: 'crashes', condition: { type: 'crash' }, channel: { kind: 'email', to: 'ops@example.com' } };
}

/** A fresh rule made by the admin through the API (answers its id); on `serverId` when given. */
async function createAlertRule(ctx: RequestContext, serverId?: string): Promise<string> {
  const res = await ctx.t.app.inject({
    method: 'POST',
    url: serverId ? `/api/servers/${serverId}/alerts` : '/api/alerts',
    headers: { authorization: `Bearer ${ctx.admin.token}` },
    payload: alertBody(),
  });
  if (res.statusCode !== 201) throw new Error(`alert rule not created: ${res.body}`);
  return res.json<{ id: string }>().id;
}

const alertRule = (ctx: RequestContext) => createAlertRule(ctx);

/** The URL of a rule on the caller's server. */
async function serverAlertRule(ctx: RequestContext): Promise<string> {
  const serverId = await ctx.server();
  return `/api/servers/${serverId}/alerts/${await createAlertRule(ctx, serverId)}`;
}
