import type { App } from './app-types';
import type { Services } from './services';
import { authRoutes } from './modules/auth/auth.routes';
import { invitesRoutes } from './modules/invites/invites.routes';
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes';
import { clientsRoutes } from './modules/oauth2/clients.routes';
import { tokenRoutes } from './modules/oauth2/token.routes';
import { selfRoutes } from './modules/self/self.routes';
import { usersRoutes } from './modules/users/users.routes';
import { nodesRoutes } from './modules/nodes/nodes.routes';
import { serversRoutes } from './modules/servers/servers.routes';
import { proxyRoutes } from './modules/servers/proxy.routes';
import { filesProxyRoutes } from './modules/servers/files-proxy.routes';
import { uploadProxyRoutes } from './modules/servers/upload-proxy.routes';
import { sftpAuthRoutes } from './modules/nodes/sftp-auth.routes';
import { nodeAccessRoutes } from './modules/nodes/access.routes';
import { nodeLinkRoutes } from './modules/nodes/node-link.routes';
import { nodePackageRoutes } from './modules/nodes/node-package.routes';
import { tasksProxyRoutes } from './modules/servers/tasks-proxy.routes';
import { backupsProxyRoutes } from './modules/servers/backups-proxy.routes';
import { backupCloneRoutes } from './modules/servers/backup-clone';
import { nodeBackupsRoutes } from './modules/nodes/node-backups.routes';
import { socketRoutes } from './modules/servers/socket.routes';
import { appConfigRoutes } from './modules/app-config/app-config.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { setupRoutes } from './modules/setup/setup.routes';
import { templatesRoutes } from './modules/templates/templates.routes';
import { userSettingsRoutes } from './modules/user-settings/user-settings.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { transferRoutes } from './modules/servers/transfer/transfer.routes';

export interface RouteOptions {
  themesDir: string;
  dataDir: string;
  /** `web.uploadChunkBytes`, told to the web through `/api/config`. */
  uploadChunkBytes: number;
}

/** Every module's routes, in one place. Each route declares its permission in its options. */
export async function registerRoutes(app: App, services: Services, options: RouteOptions): Promise<void> {
  // First: its guard joins the server and proxy routes registered after it (refused while a server moves).
  const transfers = transferRoutes(app, services);
  authRoutes(app, services.auth, services.sessions);
  selfRoutes(app, services.self);
  usersRoutes(app, services.usersService);
  invitesRoutes(app, services.invites);
  passwordResetRoutes(app, services.passwordResets);
  clientsRoutes(app, services.clients);
  await tokenRoutes(app, services.clients);
  appConfigRoutes(app, services.settings, options.themesDir, options.uploadChunkBytes);
  settingsRoutes(app, services.settings, services.email);
  userSettingsRoutes(app, services.userSettings);
  setupRoutes(app, services.setup);
  templatesRoutes(app, services.templates);
  nodesRoutes(app, services.nodes, services.nodeStatus);
  serversRoutes(app, services.servers);
  await proxyRoutes(app, services.link);
  await filesProxyRoutes(app, services.link);
  await uploadProxyRoutes(app, services.link);
  sftpAuthRoutes(app, services);
  nodeAccessRoutes(app, services);
  nodeLinkRoutes(app, services);
  nodePackageRoutes(app, services, options.dataDir);
  tasksProxyRoutes(app, services.link);
  await backupsProxyRoutes(app, services.link);
  backupCloneRoutes(app, services.servers, services.link);
  nodeBackupsRoutes(app, services.nodes, services.link);
  activityRoutes(app, services.activity);
  socketRoutes(app, {
    link: services.link,
    registry: services.sockets,
    auth: services,
    activity: services.activity,
    moving: (serverId) => transfers.moving(serverId),
  });
}
