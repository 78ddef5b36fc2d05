import type { ComponentType } from 'react';
import type { IconName } from '../components/icons';
import { hasScope, isAdmin } from '../api/scopes';

type PageModule = Promise<{ default: ComponentType }>;

/** One row of the route table (SPEC §2). The router, guards, titles, sidebar and shortcuts all read it. */
export interface AppRoute {
  path: string;
  name: string;
  /** i18n key of the page title (document title and placeholder heading). */
  titleKey: string;
  /** No session needed; the shell hides sidebar and footer. */
  public?: boolean;
  page: () => PageModule;
}

const templateEditor = () => import('../features/templates/editor/TemplateEditorPage');
const nodePage = () => import('../features/nodes/NodePage');

export const routes: AppRoute[] = [
  {
    path: '/server',
    name: 'Servers',
    titleKey: 'servers.title',
    page: () => import('../features/servers/ServersPage'),
  },
  {
    path: '/addserver',
    name: 'AddServer',
    titleKey: 'servers.add.title',
    page: () => import('../features/servers/add/AddServerPage'),
  },
  {
    path: '/account',
    name: 'Account',
    titleKey: 'account.title',
    page: () => import('../features/account/AccountPage'),
  },
  {
    path: '/server/:id',
    name: 'Server',
    titleKey: 'servers.detail.title',
    page: () => import('../features/servers/detail/ServerPage'),
  },
  {
    path: '/user/:id',
    name: 'User',
    titleKey: 'users.edit.title',
    page: () => import('../features/users/UserPage'),
  },
  {
    path: '/adduser',
    name: 'AddUser',
    titleKey: 'users.add.title',
    page: () => import('../features/users/UserPage'),
  },
  {
    path: '/user',
    name: 'Users',
    titleKey: 'users.title',
    page: () => import('../features/users/UsersPage'),
  },
  { path: '/template/:id', name: 'Template', titleKey: 'templates.edit.title', page: templateEditor },
  { path: '/addtemplate', name: 'AddTemplate', titleKey: 'templates.add.title', page: templateEditor },
  {
    path: '/template',
    name: 'Templates',
    titleKey: 'templates.title',
    page: () => import('../features/templates/TemplatesPage'),
  },
  {
    path: '/node',
    name: 'Nodes',
    titleKey: 'nodes.title',
    page: () => import('../features/nodes/NodesPage'),
  },
  { path: '/node/:id', name: 'Node', titleKey: 'nodes.edit.title', page: nodePage },
  { path: '/addnode', name: 'AddNode', titleKey: 'nodes.add.title', page: nodePage },
  {
    path: '/settings',
    name: 'Settings',
    titleKey: 'settings.title',
    page: () => import('../features/settings/SettingsPage'),
  },
  {
    path: '/errors/404',
    name: 'NotFound',
    titleKey: 'notFound.title',
    public: true,
    page: () => import('../features/errors/NotFoundPage'),
  },
  {
    path: '/auth/login',
    name: 'Login',
    titleKey: 'login.title',
    public: true,
    page: () => import('../features/auth/LoginPage'),
  },
  {
    path: '/auth/register',
    name: 'Register',
    titleKey: 'register.title',
    public: true,
    page: () => import('../features/auth/RegisterPage'),
  },
  {
    path: '/auth/invite',
    name: 'Invite',
    titleKey: 'invite.title',
    public: true,
    page: () => import('../features/auth/InvitePage'),
  },
  // The one-time link printed on first start, to create the first administrator (issue 2).
  {
    path: '/auth/setup',
    name: 'Setup',
    titleKey: 'setup.title',
    public: true,
    page: () => import('../features/auth/SetupPage'),
  },
];

export const HOME_PATH = '/server';
export const LOGIN_PATH = '/auth/login';
export const NOT_FOUND_PATH = '/errors/404';

/** A sidebar entry with its shortcut and who sees it (SPEC §2 Shell). */
export interface NavEntry {
  to: string;
  labelKey: string;
  icon: IconName;
  shortcut: string;
  /** Path prefixes that mark this entry active (list, detail and add pages). */
  activeFor: string[];
  visible: (scopes: readonly string[]) => boolean;
}

export const navEntries: NavEntry[] = [
  {
    to: '/account',
    labelKey: 'nav.account',
    icon: 'account',
    shortcut: 'g a',
    activeFor: ['/account'],
    visible: () => true,
  },
  {
    to: '/server',
    labelKey: 'nav.servers',
    icon: 'servers',
    shortcut: 'g s',
    activeFor: ['/server', '/addserver'],
    visible: (s) => hasScope(s, 'servers.view'),
  },
  {
    to: '/node',
    labelKey: 'nav.nodes',
    icon: 'nodes',
    shortcut: 'g n',
    activeFor: ['/node', '/addnode'],
    visible: (s) => hasScope(s, 'nodes.view'),
  },
  {
    to: '/user',
    labelKey: 'nav.users',
    icon: 'users',
    shortcut: 'g u',
    activeFor: ['/user', '/adduser'],
    visible: (s) => hasScope(s, 'users.view'),
  },
  {
    to: '/template',
    labelKey: 'nav.templates',
    icon: 'templates',
    shortcut: 'g t',
    activeFor: ['/template', '/addtemplate'],
    visible: (s) => hasScope(s, 'templates.view'),
  },
  {
    to: '/settings',
    labelKey: 'nav.settings',
    icon: 'settings',
    shortcut: 'g c',
    activeFor: ['/settings'],
    visible: isAdmin,
  },
];

export function visibleNavEntries(scopes: readonly string[]): NavEntry[] {
  return navEntries.filter((entry) => entry.visible(scopes));
}

export function isEntryActive(entry: NavEntry, pathname: string): boolean {
  return entry.activeFor.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Where a user lands after login: Servers with servers.view or admin, otherwise Account (SPEC §2). */
export function landingPathFor(scopes: readonly string[]): string {
  return hasScope(scopes, 'servers.view') ? HOME_PATH : '/account';
}
