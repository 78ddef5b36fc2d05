import type { ComponentType } from 'react';
import type { IconName } from '../components/icons';
import { hasScope, isAdmin } from '../api/scopes';

type PageModule = Promise<{ default: ComponentType }>;

/** One row of the route table. The router, guards, titles, sidebar and shortcuts all read it. */
export interface AppRoute {
  path: string;
  name: string;
  /** i18n key of the page title (document title and placeholder heading). */
  titleKey: string;
  /** No session needed; the shell hides sidebar and footer. */
  public?: boolean;
  /**
   * Who may open the page (docs/permissions.md § Web guards). Others see the no-access page instead of an empty
   * form; the panel still refuses their API calls on its own.
   */
  allowed: AccessRule;
  page: () => PageModule;
}

/** What the web app knows of the caller: the session's panel scopes, and whether any server is theirs. */
export interface Access {
  scopes: readonly string[];
  /** True when the caller holds permissions on at least one server (the panel's list answers it). */
  hasServers: boolean;
}

export type AccessRule = (access: Access) => boolean;

const anyone: AccessRule = () => true;
const withScope =
  (scope: string): AccessRule =>
  ({ scopes }) =>
    hasScope(scopes, scope);
/** The server list shows the caller's own servers, so anyone with a server may open it (not only servers.view). */
const seesServers: AccessRule = (access) => hasScope(access.scopes, 'servers.view') || access.hasServers;
const adminOnly: AccessRule = ({ scopes }) => isAdmin(scopes);

/** A row of the table: `page` loads lazily, on first visit. */
function route(
  path: string,
  name: string,
  titleKey: string,
  page: () => PageModule,
  allowed: AccessRule = anyone,
): AppRoute {
  return { path, name, titleKey, page, allowed };
}

/** A row for a page that needs no session. */
function publicRoute(path: string, name: string, titleKey: string, page: () => PageModule): AppRoute {
  return { path, name, titleKey, public: true, page, allowed: anyone };
}

// Pages behind two routes, or whose row would not fit on one line.
const addServerPage = () => import('../features/servers/add/AddServerPage');
const serverPage = () => import('../features/servers/detail/ServerPage');
const templateEditor = () => import('../features/templates/editor/TemplateEditorPage');
const nodePage = () => import('../features/nodes/NodePage');
const userPage = () => import('../features/users/UserPage');
const serversPage = () => import('../features/servers/ServersPage');
const usersPage = () => import('../features/users/UsersPage');
const templatesPage = () => import('../features/templates/TemplatesPage');
const nodesPage = () => import('../features/nodes/NodesPage');
const settingsPage = () => import('../features/settings/SettingsPage');
const activityPage = () => import('../features/activity/ActivityPage');
const alertsPage = () => import('../features/alerts/AlertsPage');

export const routes: AppRoute[] = [
  route('/server', 'Servers', 'servers.title', serversPage, seesServers),
  route('/addserver', 'AddServer', 'servers.add.title', addServerPage, withScope('servers.create')),
  route('/account', 'Account', 'account.title', () => import('../features/account/AccountPage')),
  // The server page asks the panel, which answers not-found or no-access for that one server.
  route('/server/:id', 'Server', 'servers.detail.title', serverPage),
  route('/user/:id', 'User', 'users.edit.title', userPage, withScope('users.view')),
  route('/adduser', 'AddUser', 'users.add.title', userPage, withScope('users.edit')),
  route('/user', 'Users', 'users.title', usersPage, withScope('users.view')),
  route('/template/:id', 'Template', 'templates.edit.title', templateEditor, withScope('templates.view')),
  route('/addtemplate', 'AddTemplate', 'templates.add.title', templateEditor, withScope('templates.edit')),
  route('/template', 'Templates', 'templates.title', templatesPage, withScope('templates.view')),
  route('/node', 'Nodes', 'nodes.title', nodesPage, withScope('nodes.view')),
  route('/node/:id', 'Node', 'nodes.edit.title', nodePage, withScope('nodes.view')),
  route('/addnode', 'AddNode', 'nodes.add.title', nodePage, withScope('nodes.edit')),
  route('/settings', 'Settings', 'settings.title', settingsPage, withScope('panel.settings')),
  // The panel-wide activity log answers administrators only (docs/activity.md).
  route('/activity', 'Activity', 'activity.title', activityPage, adminOnly),
  // Every alert rule, global and per server (docs/alerts.md); a server's users have the server's Alerts tab.
  route('/alerts', 'Alerts', 'alerts.title', alertsPage, adminOnly),
  publicRoute('/errors/404', 'NotFound', 'notFound.title', () => import('../features/errors/NotFoundPage')),
  publicRoute('/auth/login', 'Login', 'login.title', () => import('../features/auth/LoginPage')),
  publicRoute('/auth/register', 'Register', 'register.title', () => import('../features/auth/RegisterPage')),
  publicRoute('/auth/invite', 'Invite', 'invite.title', () => import('../features/auth/InvitePage')),
  // "Forgot password": the request form, or with ?token= the new-password form (docs/security.md).
  publicRoute(
    '/auth/reset',
    'ResetPassword',
    'reset.title',
    () => import('../features/auth/ResetPasswordPage'),
  ),
  // The one-time link printed on first start, to create the first administrator.
  publicRoute('/auth/setup', 'Setup', 'setup.title', () => import('../features/auth/SetupPage')),
];

export const HOME_PATH = '/server';
export const LOGIN_PATH = '/auth/login';
export const NOT_FOUND_PATH = '/errors/404';

/** A sidebar entry with its shortcut and who sees it. */
export interface NavEntry {
  to: string;
  labelKey: string;
  icon: IconName;
  shortcut: string;
  /** Path prefixes that mark this entry active (list, detail and add pages). */
  activeFor: string[];
  visible: AccessRule;
}

/** A sidebar row, active on `to` and below it, and on `alsoActiveFor` (the list's add page). */
function navEntry(
  to: string,
  labelKey: string,
  icon: IconName,
  shortcut: string,
  visible: AccessRule,
  alsoActiveFor: string[] = [],
): NavEntry {
  return { to, labelKey, icon, shortcut, activeFor: [to, ...alsoActiveFor], visible };
}

export const navEntries: NavEntry[] = [
  navEntry('/account', 'nav.account', 'account', 'g a', anyone),
  navEntry('/server', 'nav.servers', 'servers', 'g s', seesServers, ['/addserver']),
  navEntry('/node', 'nav.nodes', 'nodes', 'g n', withScope('nodes.view'), ['/addnode']),
  navEntry('/user', 'nav.users', 'users', 'g u', withScope('users.view'), ['/adduser']),
  navEntry('/template', 'nav.templates', 'templates', 'g t', withScope('templates.view'), ['/addtemplate']),
  navEntry('/settings', 'nav.settings', 'settings', 'g c', adminOnly),
  navEntry('/activity', 'nav.activity', 'activity', 'g y', adminOnly),
  navEntry('/alerts', 'nav.alerts', 'bell', 'g l', adminOnly),
];

export function visibleNavEntries(access: Access): NavEntry[] {
  return navEntries.filter((entry) => entry.visible(access));
}

export function isEntryActive(entry: NavEntry, pathname: string): boolean {
  return entry.activeFor.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Where a user lands after login: Servers when they may see any server, otherwise Account. */
export function landingPathFor(access: Access): string {
  return seesServers(access) ? HOME_PATH : '/account';
}
