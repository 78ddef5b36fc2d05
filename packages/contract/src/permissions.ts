/**
 * Permission names (PufferPanel v2 boolean names) and the scopes they map to.
 * Panel-level flags live on a user's global permission set; server-level flags on a (user, server) set.
 */
export const panelPermissions = [
  'admin',
  'viewServers',
  'createServers',
  'deleteServers',
  'editServerAdmin',
  'viewNodes',
  'editNodes',
  'deployNodes',
  'viewTemplates',
  'editTemplates',
  'viewUsers',
  'editUsers',
  'panelSettings',
] as const;
export type PanelPermission = (typeof panelPermissions)[number];

export const serverPermissions = [
  'editServerData',
  'editServerUsers',
  'installServer',
  'viewServerConsole',
  'sendServerConsole',
  'stopServer',
  'startServer',
  'viewServerStats',
  'viewServerFiles',
  'sftpServer',
  'putServerFiles',
  // Backups (docs/backups.md): what each may do with the server's snapshots.
  'viewServerBackups',
  'createServerBackups',
  'restoreServerBackups',
  'deleteServerBackups',
  'downloadServerBackups',
  // The server's activity log (docs/activity.md): who did what on it.
  'viewServerActivity',
  // The server's alert rules (docs/alerts.md): see, create, change and delete them.
  'manageServerAlerts',
] as const;
export type ServerPermission = (typeof serverPermissions)[number];

export type PanelPermissionSet = Record<PanelPermission, boolean>;
export type ServerPermissionSet = Record<ServerPermission, boolean>;

/** Scopes returned at login; the web app drives menus from them. */
export const panelScopeOf: Record<PanelPermission, string> = {
  admin: 'servers.admin',
  viewServers: 'servers.view',
  createServers: 'servers.create',
  deleteServers: 'servers.delete',
  editServerAdmin: 'servers.edit.admin',
  viewNodes: 'nodes.view',
  editNodes: 'nodes.edit',
  deployNodes: 'nodes.deploy',
  viewTemplates: 'templates.view',
  editTemplates: 'templates.edit',
  viewUsers: 'users.view',
  editUsers: 'users.edit',
  panelSettings: 'panel.settings',
};

export const serverScopeOf: Record<ServerPermission, string> = {
  editServerData: 'servers.edit',
  editServerUsers: 'servers.edit.users',
  installServer: 'servers.install',
  viewServerConsole: 'servers.console',
  sendServerConsole: 'servers.console.send',
  stopServer: 'servers.stop',
  startServer: 'servers.start',
  viewServerStats: 'servers.stats',
  viewServerFiles: 'servers.files.get',
  sftpServer: 'servers.sftp',
  putServerFiles: 'servers.files.put',
  viewServerBackups: 'servers.backups.view',
  createServerBackups: 'servers.backups.create',
  restoreServerBackups: 'servers.backups.restore',
  deleteServerBackups: 'servers.backups.delete',
  downloadServerBackups: 'servers.backups.download',
  viewServerActivity: 'servers.activity.view',
  manageServerAlerts: 'servers.alerts.manage',
};

export const ADMIN_SCOPE = 'servers.admin';

/** An admin holds every panel scope; others hold the scopes of the flags they have. */
export function scopesFor(perms: Partial<PanelPermissionSet>): string[] {
  if (perms.admin) return panelPermissions.map((p) => panelScopeOf[p]);
  return panelPermissions.filter((p) => perms[p]).map((p) => panelScopeOf[p]);
}

export function emptyPanelPermissions(): PanelPermissionSet {
  return Object.fromEntries(panelPermissions.map((p) => [p, false])) as PanelPermissionSet;
}

export function emptyServerPermissions(): ServerPermissionSet {
  return Object.fromEntries(serverPermissions.map((p) => [p, false])) as ServerPermissionSet;
}
