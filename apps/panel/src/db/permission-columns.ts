import type { PanelPermission, ServerPermission } from '@hearth/contract';

/** `viewServers` → `view_servers`: permission flags are columns of the permissions table. */
export function permissionColumn(flag: PanelPermission | ServerPermission): string {
  return flag.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
