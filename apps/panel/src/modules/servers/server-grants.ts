import { AppError, serverPermissions, type ServerPermissionSet } from '@hearth/contract';
import type { Identity, ServerAccess } from '../../app-types';

/** Who changes a server's user rows: admins (or a server client of an admin) keep full power. */
export interface Granter {
  admin: boolean;
  /** The granter's own flags on the server. */
  perms: ServerPermissionSet;
}

export function granterOf(identity: Identity, access: ServerAccess): Granter {
  return { admin: identity.permissions.admin || identity.scope?.ownerAdmin === true, perms: access.perms };
}

/**
 * The rule of `editServerUsers` (docs/security.md § Authorization). A non-admin granter may
 * - not touch (change, reduce or remove) a user holding any flag the granter lacks on this server — the owner
 *   with every flag, an administrator (who holds every flag everywhere): 403 `ErrCannotEditUser`;
 * - grant only flags they hold on this server, their own row included (no self-escalation):
 *   403 `ErrCannotGrantPermission` naming the first such flag.
 * `current`: what the target holds on the server now (null: no access); `next`: the new row (null: removal).
 */
export function checkGrant(
  granter: Granter,
  current: ServerPermissionSet | null,
  next: ServerPermissionSet | null,
): void {
  if (granter.admin) return;
  if (current && serverPermissions.some((flag) => current[flag] && !granter.perms[flag])) {
    throw new AppError('ErrCannotEditUser');
  }
  const beyond = next ? serverPermissions.find((flag) => next[flag] && !granter.perms[flag]) : undefined;
  if (beyond) throw new AppError('ErrCannotGrantPermission', { field: beyond });
}
