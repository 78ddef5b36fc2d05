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
  page: () => PageModule;
}

/** A row of the table: `page` loads lazily, on first visit. */
function route(path: string, name: string, titleKey: string, page: () => PageModule): AppRoute {
  return { path, name, titleKey, page };
}

/** A row for a page that needs no session. */
function publicRoute(path: string, name: string, titleKey: string, page: () => PageModule): AppRoute {
  return { path, name, titleKey, public: true, page };
}

// Pages behind two routes, or whose row would not fit on one line.
const addServerPage = () => import('../features/servers/add/AddServerPage');
const serverPage = () => import('../features/servers/detail/ServerPage');
const templateEditor = () => import('../features/templates/editor/TemplateEditorPage');
const nodePage = () => import('../features/nodes/NodePage');
const userPage = () => import('../features/users/UserPage');

export const routes: AppRoute[] = [
  route('/server', 'Servers', 'servers.title', () => import('../features/servers/ServersPage')),
  route('/addserver', 'AddServer', 'servers.add.title', addServerPage),
  route('/account', 'Account', 'account.title', () => import('../features/account/AccountPage')),
  route('/server/:id', 'Server', 'servers.detail.title', serverPage),
  route('/user/:id', 'User', 'users.edit.title', userPage),
  route('/adduser', 'AddUser', 'users.add.title', userPage),
  route('/user', 'Users', 'users.title', () => import('../features/users/UsersPage')),
  route('/template/:id', 'Template', 'templates.edit.title', templateEditor),
  route('/addtemplate', 'AddTemplate', 'templates.add.title', templateEditor),
  route('/template', 'Templates', 'templates.title', () => import('../features/templates/TemplatesPage')),
  route('/node', 'Nodes', 'nodes.title', () => import('../features/nodes/NodesPage')),
  route('/node/:id', 'Node', 'nodes.edit.title', nodePage),
  route('/addnode', 'AddNode', 'nodes.add.title', nodePage),
  route('/settings', 'Settings', 'settings.title', () => import('../features/settings/SettingsPage')),
  publicRoute('/errors/404', 'NotFound', 'notFound.title', () => import('../features/errors/NotFoundPage')),
  publicRoute('/auth/login', 'Login', 'login.title', () => import('../features/auth/LoginPage')),
  publicRoute('/auth/register', 'Register', 'register.title', () => import('../features/auth/RegisterPage')),
  publicRoute('/auth/invite', 'Invite', 'invite.title', () => import('../features/auth/InvitePage')),
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
  visible: (scopes: readonly string[]) => boolean;
}

/** A sidebar row, active on `to` and below it, and on `alsoActiveFor` (the list's add page). */
function navEntry(
  to: string,
  labelKey: string,
  icon: IconName,
  shortcut: string,
  visible: NavEntry['visible'],
  alsoActiveFor: string[] = [],
): NavEntry {
  return { to, labelKey, icon, shortcut, activeFor: [to, ...alsoActiveFor], visible };
}

const withScope = (scope: string) => (scopes: readonly string[]) => hasScope(scopes, scope);

export const navEntries: NavEntry[] = [
  navEntry('/account', 'nav.account', 'account', 'g a', () => true),
  navEntry('/server', 'nav.servers', 'servers', 'g s', withScope('servers.view'), ['/addserver']),
  navEntry('/node', 'nav.nodes', 'nodes', 'g n', withScope('nodes.view'), ['/addnode']),
  navEntry('/user', 'nav.users', 'users', 'g u', withScope('users.view'), ['/adduser']),
  navEntry('/template', 'nav.templates', 'templates', 'g t', withScope('templates.view'), ['/addtemplate']),
  navEntry('/settings', 'nav.settings', 'settings', 'g c', isAdmin),
];

export function visibleNavEntries(scopes: readonly string[]): NavEntry[] {
  return navEntries.filter((entry) => entry.visible(scopes));
}

export function isEntryActive(entry: NavEntry, pathname: string): boolean {
  return entry.activeFor.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Where a user lands after login: Servers with servers.view or admin, otherwise Account. */
export function landingPathFor(scopes: readonly string[]): string {
  return hasScope(scopes, 'servers.view') ? HOME_PATH : '/account';
}
