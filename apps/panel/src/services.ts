import type { FastifyBaseLogger } from 'fastify';
import type { PanelConfig } from './config/schema';
import { defaultAuthLimits, RateLimiter, type AuthLimits } from './lib/rate-limiter';
import { AuthService } from './modules/auth/auth.service';
import { EmailService } from './modules/email/email.service';
import { InvitesRepository } from './modules/invites/invites.repository';
import { InvitesService } from './modules/invites/invites.service';
import { ClientsRepository } from './modules/oauth2/clients.repository';
import { ClientsService } from './modules/oauth2/clients.service';
import { SelfService } from './modules/self/self.service';
import { RecoveryCodes } from './modules/recovery/recovery.service';
import { PasswordResetService } from './modules/password-reset/password-reset.service';
import { PasswordResetsRepository } from './modules/password-reset/password-resets.repository';
import { RecoveryCodesRepository } from './modules/recovery/recovery-codes.repository';
import { UsersService } from './modules/users/users.service';
import type { Db } from './db/connect';
import { SessionsRepository } from './modules/sessions/sessions.repository';
import { IdentityRepository } from './modules/sessions/identity.repository';
import { CachedIdentities } from './modules/sessions/identity-cache';
import { SessionsService } from './modules/sessions/sessions.service';
import { SettingsRepository } from './modules/settings/settings.repository';
import { SettingsService } from './modules/settings/settings.service';
import { SetupService } from './modules/setup/setup.service';
import { createTemplatesService } from './modules/templates/templates.module';
import { UserSettingsRepository } from './modules/user-settings/user-settings.repository';
import { CredentialsRepository } from './modules/users/credentials.repository';
import { PermissionsRepository } from './modules/users/permissions.repository';
import { UsersRepository } from './modules/users/users.repository';
import { createUserCreator, type UserCreator } from './modules/users/user-creator';
import { nodeServices } from './modules/nodes/nodes.module';
import { ServersRepository } from './modules/servers/servers.repository';
import { ServersService } from './modules/servers/servers.service';
import { SocketRegistry } from './modules/servers/socket-registry';
import { SecretsAtRest } from './lib/secrets-at-rest';
import { dataDir } from './lib/paths';
import type { Identity } from './app-types';
import type { LinkTimeouts } from './nodes-link/daemon-client';
import { NodePlayersCache } from './nodes-link/node-players';
import { ActivityRepository } from './modules/activity/activity.repository';
import { ActivityService } from './modules/activity/activity.service';

/** The composition of repositories and services over one database: built once per app. */
export interface ServiceOptions {
  /** The app's logger, for background work (e-mail) that outlives a request. */
  log: () => FastifyBaseLogger;
  limits?: AuthLimits;
  /** Panel → daemon timeouts (tests shorten them). */
  linkTimeouts?: Partial<LinkTimeouts>;
  /** This process runs the local node (`hearth start`); otherwise the panel never calls it. */
  localNodeRuns?: boolean;
}

export function createServices(db: Db, config: PanelConfig, options: ServiceOptions) {
  const repos = {
    users: new UsersRepository(db),
    permissions: new PermissionsRepository(db),
    sessionsRepo: new SessionsRepository(db),
    settingsRepo: new SettingsRepository(db),
    userSettings: new UserSettingsRepository(db),
    identities: new CachedIdentities(new IdentityRepository(db), db.writes),
  };
  const sessions = new SessionsService(repos.sessionsRepo);
  // The one writer of the activity log (docs/activity.md); services record through it.
  const activity = new ActivityService(new ActivityRepository(db), options.log, config.panel.activityEnabled);
  const settings = new SettingsService(repos.settingsRepo, config, activity);
  // Every path that creates an account goes through this one (modules/users/user-creator.ts).
  const creator = createUserCreator(db, sessions);
  const setup = new SetupService({ settings: repos.settingsRepo, users: repos.users, creator });
  const templates = createTemplatesService(db, config, activity);
  const nodeParts = nodeServices(db, config, settings, options.linkTimeouts, options.localNodeRuns, activity);
  const accounts = accountServices(db, config, options, { ...repos, creator, activity }, sessions, settings);
  const sockets = new SocketRegistry({
    perServer: config.web.socketsPerServer,
    perUser: config.web.socketsPerUser,
  });
  const serversRepo = new ServersRepository(db);
  const servers = new ServersService({
    sockets,
    servers: serversRepo,
    nodes: nodeParts.nodesRepo,
    users: repos.users,
    invites: accounts.invites,
    link: nodeParts.link,
    nodeStatus: nodeParts.nodeStatus,
    players: new NodePlayersCache(nodeParts.link),
    templates,
    activity,
  });
  return {
    ...repos,
    activity,
    servers,
    serversRepo,
    sockets,
    serverAccess: (identity: Identity, serverId: string) => servers.access(identity, serverId),
    sessions,
    settings,
    setup,
    templates,
    ...nodeParts,
    ...accounts,
  };
}

/** Issue 3: accounts, access, OAuth2 clients and e-mail. */
function accountServices(
  db: Db,
  config: PanelConfig,
  options: ServiceOptions,
  repos: {
    users: UsersRepository;
    permissions: PermissionsRepository;
    userSettings: UserSettingsRepository;
    creator: UserCreator;
    activity: ActivityService;
  },
  sessions: SessionsService,
  settings: SettingsService,
) {
  const email = new EmailService(settings, config, options.log, (userId) =>
    repos.userSettings.get(userId, 'locale'),
  );
  const limiter = new RateLimiter();
  const limits = options.limits ?? defaultAuthLimits;
  const secrets = new SecretsAtRest(dataDir(config));
  const recovery = new RecoveryCodes(new RecoveryCodesRepository(db));
  const auth = new AuthService({ ...repos, sessions, settings, email, limiter, limits, secrets, recovery });
  // A password change revokes sessions and OAuth2 client secrets in one transaction (docs/security.md).
  const credentials = new CredentialsRepository(db, repos.users);
  const self = new SelfService({
    users: repos.users,
    credentials,
    settings,
    email,
    auth,
    activity: repos.activity,
    recovery,
  });
  const usersService = new UsersService(
    repos.users,
    repos.permissions,
    sessions,
    credentials,
    repos.creator,
    repos.activity,
    recovery,
    email,
  );
  const invites = new InvitesService({ invites: new InvitesRepository(db), ...repos, email });
  const clients = new ClientsService({
    clients: new ClientsRepository(db),
    ...repos,
    sessions,
    email,
    limiter,
    limits,
  });
  const passwordResets = new PasswordResetService({
    resets: new PasswordResetsRepository(db),
    users: repos.users,
    credentials,
    settings,
    email,
    activity: repos.activity,
    limiter,
    limits,
  });
  return { email, auth, self, usersService, invites, clients, passwordResets };
}

export type Services = ReturnType<typeof createServices>;
