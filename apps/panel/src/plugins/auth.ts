import type { FastifyRequest } from 'fastify';
import { AppError } from '@hearth/contract';
import type { App, Identity, RoutePermission, ServerAccess, ServerRequirement } from '../app-types';
import { emptyPanelPermissions } from '@hearth/contract';
import type { IdentityRepository } from '../modules/sessions/identity.repository';
import { hashToken } from '../lib/tokens';
import { SESSION_COOKIE_NAME } from './session-cookie';
import { checkOrigin, type OriginDeps } from './origin';

export interface AuthDeps extends OriginDeps {
  identities: Pick<IdentityRepository, 'lookup'>;
  /** The caller's access to one server (null: no such server, or no access to it). */
  serverAccess: (identity: Identity, serverId: string) => Promise<ServerAccess | null>;
}

/** What a server route needs and what the caller holds on that server. */
export interface ServerCheck {
  need: ServerRequirement;
  access: ServerAccess | null;
}

/** The bearer header wins; the cookie serves browsers' websockets and plain navigations. */
export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match?.[1];
  }
  const cookie = req.cookies[SESSION_COOKIE_NAME];
  return cookie || undefined;
}

async function resolveIdentity(req: FastifyRequest, deps: AuthDeps): Promise<Identity | null> {
  return identityOf(tokenOf(req), deps);
}

/** The caller a session or OAuth2 token names, re-read now (long-lived sockets re-check it periodically). */
export async function identityOf(
  token: string | undefined,
  deps: Pick<AuthDeps, 'identities'>,
): Promise<Identity | null> {
  if (!token || token.length > 512) return null;
  const tokenHash = hashToken(token);
  const row = await deps.identities.lookup(tokenHash, Date.now());
  // Only session and OAuth2 tokens identify a caller; a pending-OTP token does not.
  if (!row || (row.kind !== 'session' && row.kind !== 'oauth2') || row.status !== 'active') return null;
  const scoped = row.kind === 'oauth2' && row.clientServerId !== null;
  return {
    userId: row.userId,
    username: row.username,
    email: row.email,
    permissions: scoped ? emptyPanelPermissions() : row.permissions,
    via: row.kind === 'oauth2' ? 'oauth2' : 'session',
    tokenHash,
    clientId: row.clientId,
    scope: scoped ? { serverId: row.clientServerId ?? '', ownerAdmin: row.permissions.admin } : null,
  };
}

/**
 * THE authorization function: every route goes through it with the permission it declared.
 * No identity → 401; identity without the permission → 403; admins hold every permission.
 */
export function authorize(
  identity: Identity | null,
  permission: RoutePermission,
  hadToken: boolean,
  server?: ServerCheck,
): void {
  if (permission === 'public' || permission === 'node') return;
  if (!identity) throw new AppError(hadToken ? 'ErrSessionTimedOut' : 'ErrNotLoggedIn');
  const admin = identity.permissions.admin;
  if (permission !== 'authenticated' && !admin && !identity.permissions[permission]) {
    throw new AppError('ErrNoPermission');
  }
  // A server-scoped client's token reaches only its own server's routes.
  if (identity.scope && !server) throw new AppError('ErrNoPermission');
  if (!server) return;
  // Server routes: no access hides the server (404); access without the flag is 403.
  if (!server.access || (identity.scope && identity.scope.serverId !== server.access.serverId)) {
    throw new AppError('ErrServerNotFound');
  }
  if (admin || server.need === 'view') return;
  if (
    server.need === 'deleteServer' ? identity.permissions.deleteServers : server.access.perms[server.need]
  ) {
    return;
  }
  throw new AppError('ErrNoPermission');
}

async function serverCheckOf(req: FastifyRequest, deps: AuthDeps): Promise<ServerCheck | undefined> {
  const need = req.routeOptions.config.server;
  if (!need || !req.identity) return undefined;
  const id = (req.params as { id?: unknown }).id;
  const access = typeof id === 'string' && id.length <= 64 ? await deps.serverAccess(req.identity, id) : null;
  req.serverAccess = access;
  return { need, access };
}

/** Registers the hook that resolves the caller and enforces each route's declared permission. */
export function registerAuth(app: App, deps: AuthDeps): void {
  app.decorateRequest('identity', null);
  app.decorateRequest('serverAccess', null);
  app.addHook('onRequest', async (req) => {
    if (req.is404) return;
    const permission = req.routeOptions.config.permission;
    if (!permission) {
      // Fail closed: a route that forgot to declare its permission is refused (and the matrix test fails).
      req.log.error({ url: req.routeOptions.url }, 'route declares no permission');
      throw new AppError('ErrNoPermission');
    }
    if (permission === 'public' || permission === 'node') return;
    // Cookie-only writes and browser websockets must come from the panel's own pages (plugins/origin.ts).
    await checkOrigin(req, deps);
    req.identity = await resolveIdentity(req, deps);
    // Account management is a login session's power, never an OAuth2 token's (app-types.ts `sessionOnly`);
    // refused before any server is looked up (403 before 404).
    if (req.routeOptions.config.sessionOnly && req.identity && req.identity.via !== 'session') {
      throw new AppError('ErrSessionRequired');
    }
    authorize(req.identity, permission, tokenOf(req) !== undefined, await serverCheckOf(req, deps));
  });
}

/** The caller of an authenticated route (the hook guarantees it is set). */
export function currentUser(req: FastifyRequest): Identity {
  if (!req.identity) throw new AppError('ErrNotLoggedIn');
  return req.identity;
}

/** The caller's access to the `:id` server of a server route (the hook guarantees it is set). */
export function currentServer(req: FastifyRequest): ServerAccess {
  if (!req.serverAccess) throw new AppError('ErrServerNotFound');
  return req.serverAccess;
}
