/**
 * Authorization of one call: the token must name this server (or `*`, admins only) and grant the permission.
 * Admins hold every permission. `'admin'` marks node-admin calls (definition, reload, delete). What each route
 * and socket message needs comes from the contract's permission table (docs/permissions.md).
 */
import {
  AppError,
  DAEMON_TOKEN_ANY_SERVER,
  DAEMON_TOKEN_PANEL_SUBJECT,
  serverScopeOf,
  type DaemonTokenClaims,
  type ServerPermission,
} from '@hearth/contract';

export type Requirement = ServerPermission | 'admin' | 'view';

const NODE_ADMIN_SCOPE = 'servers.admin';

export function authorize(
  claims: DaemonTokenClaims,
  serverId: string,
  need: Requirement | readonly Requirement[],
): void {
  const sameServer =
    claims.server === serverId || (claims.admin && claims.server === DAEMON_TOKEN_ANY_SERVER);
  if (!sameServer) throw new AppError('ErrNoPermission', { server: serverId });
  if (claims.admin) return;
  for (const requirement of typeof need === 'string' ? [need] : need) {
    if (requirement === 'view') continue;
    if (requirement === 'admin') throw new AppError('ErrMissingScope', { scope: NODE_ADMIN_SCOPE });
    if (!claims.perms.includes(requirement)) {
      throw new AppError('ErrMissingScope', { scope: serverScopeOf[requirement], permission: requirement });
    }
  }
}

/** A node-wide call (no `:id`, e.g. the node's features): a node-admin token only. */
export function authorizeNodeAdmin(claims: DaemonTokenClaims): void {
  if (!claims.admin) throw new AppError('ErrMissingScope', { scope: NODE_ADMIN_SCOPE });
}

/**
 * The panel's own calls (the node outbox, docs/activity.md § Node events): a node-admin token for every server
 * whose subject is the panel itself. An administrator's token names the administrator, so it is refused too.
 */
export function authorizePanel(claims: DaemonTokenClaims): void {
  authorizeNodeAdmin(claims);
  if (claims.sub !== DAEMON_TOKEN_PANEL_SUBJECT || claims.server !== DAEMON_TOKEN_ANY_SERVER)
    throw new AppError('ErrNoPermission', { server: DAEMON_TOKEN_ANY_SERVER });
}
