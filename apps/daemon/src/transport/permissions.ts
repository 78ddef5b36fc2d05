/**
 * Authorization of one call: the token must name this server (or `*`, admins only) and grant the permission.
 * Admins hold every permission. `'admin'` marks node-admin calls (definition, reload, create, delete).
 */
import {
  AppError,
  DAEMON_TOKEN_ANY_SERVER,
  serverScopeOf,
  type DaemonTokenClaims,
  type ServerPermission,
} from '@hearth/contract';

export type Requirement = ServerPermission | 'admin' | 'view';

export function authorize(
  claims: DaemonTokenClaims,
  serverId: string,
  need: Requirement | Requirement[],
): void {
  const sameServer =
    claims.server === serverId || (claims.admin && claims.server === DAEMON_TOKEN_ANY_SERVER);
  if (!sameServer) throw new AppError('ErrNoPermission', { server: serverId });
  if (claims.admin) return;
  for (const requirement of Array.isArray(need) ? need : [need]) {
    if (requirement === 'view') continue;
    if (requirement === 'admin') throw new AppError('ErrMissingScope', { scope: 'servers.admin' });
    if (!claims.perms.includes(requirement)) {
      throw new AppError('ErrMissingScope', { scope: serverScopeOf[requirement], permission: requirement });
    }
  }
}
