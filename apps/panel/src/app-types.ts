import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type {
  PanelPermission,
  PanelPermissionSet,
  ServerPermission,
  ServerPermissionSet,
} from '@hearth/contract';

/** The Fastify instance with zod types on every route. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * What a route needs, declared in its options (`config: { permission }`). The one authorization function
 * (plugins/auth.ts) enforces it before the body is even parsed; the authorization-matrix test walks it.
 * - `public`: anyone; `authenticated`: any valid session or OAuth2 token; otherwise a panel permission
 *   (admins hold every permission).
 * - `node`: called by daemons only; the handler authenticates the node credential itself (401 without it)
 *   and user sessions mean nothing there.
 */
export type RoutePermission = 'public' | 'authenticated' | 'node' | PanelPermission;

export interface Identity {
  userId: string;
  username: string;
  email: string;
  permissions: PanelPermissionSet;
  via: 'session' | 'oauth2';
  tokenHash: string;
  clientId: string | null;
  /**
   * Set for tokens of a server-scoped OAuth2 client: they act only on that server, with the owner's access
   * there (`ownerAdmin`: the owner is a panel admin, so holds every flag on it). Their panel permissions are
   * empty, so panel routes, other servers and panel-level flags (deleteServers) are refused.
   */
  scope?: { serverId: string; ownerAdmin: boolean } | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /**
     * The route manages the caller's own account (password, e-mail, username, two-factor, OAuth2 clients):
     * only a login session may call it, never an OAuth2 access token (403 `ErrSessionRequired`). A leaked
     * or delegated API token must not be able to lock the owner out or outlive its own revocation
     * (docs/security.md § Sessions and tokens).
     */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    identity: Identity | null;
  }
}

/**
 * A server route also declares `config.server`: what the caller needs on the `:id` server. The same one
 * authorization function enforces it: no access to the server → 404 (its existence is not revealed),
 * access without the flag → 403. `view` = any access; `deleteServer` = the panel flag deleteServers.
 */
export type ServerRequirement = ServerPermission | 'view' | 'deleteServer';

/** The caller's access to the `:id` server, resolved by the auth hook for server routes. */
export interface ServerAccess {
  serverId: string;
  nodeId: string;
  perms: ServerPermissionSet;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    server?: ServerRequirement;
  }
  interface FastifyRequest {
    serverAccess: ServerAccess | null;
  }
}
