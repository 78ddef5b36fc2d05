import {
  panelPermissions,
  serverPermissions,
  type PanelPermissionSet,
  type ServerPermissionSet,
} from '@hearth/contract';

/** Everything an account holds: its panel flags and its rows on servers (server id → flags). */
export interface AccountHoldings {
  panel: PanelPermissionSet;
  servers: ReadonlyMap<string, ServerPermissionSet>;
}

/**
 * Whether `editor` holds everything `target` holds — the condition for a non-admin with `editUsers` to change
 * or delete the target's account (docs/security.md § Authorization). An administrator is never covered (admins
 * hold every flag everywhere). Server rows count: a row on a server the editor has no row on is access the
 * editor lacks, and each server flag of the target must be one the editor holds on that same server.
 * Otherwise taking over the account (by setting its password or e-mail) would hand the editor more than they hold.
 */
export function holdsAllOf(editor: AccountHoldings, target: AccountHoldings): boolean {
  if (target.panel.admin) return false;
  if (panelPermissions.some((flag) => target.panel[flag] && !editor.panel[flag])) return false;
  for (const [serverId, flags] of target.servers) {
    const mine = editor.servers.get(serverId);
    if (!mine || serverPermissions.some((flag) => flags[flag] && !mine[flag])) return false;
  }
  return true;
}
