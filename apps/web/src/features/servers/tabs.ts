/**
 * The server page's tab bar (under the header). One entry per tab, in bar order:
 * its value, label key, shortcut, who sees it, and the component (loaded when first opened).
 * To plug a tab in, point its `component` at the real module; nothing else needs to change.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ServerTabProps, TabGateContext } from './tabs/types';

export type { ServerTabProps, TabGateContext } from './tabs/types';

export type TabId =
  | 'console'
  | 'stats'
  | 'files'
  | 'backups'
  | 'tasks'
  | 'settings'
  | 'users'
  | 'activity'
  | 'alerts'
  | 'admin';

export interface ServerTab {
  id: TabId;
  labelKey: string;
  shortcut: string;
  visible: (ctx: TabGateContext) => boolean;
  component: LazyExoticComponent<ComponentType<ServerTabProps>>;
}

const can = (flag: keyof TabGateContext['permissions']) => (ctx: TabGateContext) =>
  ctx.admin || ctx.permissions[flag];

export const serverTabs: ServerTab[] = [
  {
    id: 'console',
    labelKey: 'servers.tabs.console',
    shortcut: 't c',
    visible: can('viewServerConsole'),
    component: lazy(() => import('./console/ConsoleTab')),
  },
  {
    id: 'stats',
    labelKey: 'servers.tabs.stats',
    shortcut: 't i',
    visible: can('viewServerStats'),
    component: lazy(() => import('./stats/StatsTab')),
  },
  {
    id: 'files',
    labelKey: 'servers.tabs.files',
    shortcut: 't f',
    visible: (ctx) => ctx.admin || ctx.permissions.viewServerFiles || ctx.permissions.sftpServer,
    component: lazy(() => import('./files/FilesTab')),
  },
  {
    id: 'backups',
    labelKey: 'servers.tabs.backups',
    shortcut: 't b',
    visible: can('viewServerBackups'),
    component: lazy(() => import('./backups/BackupsTab')),
  },
  {
    id: 'tasks',
    labelKey: 'servers.tabs.tasks',
    shortcut: 't t',
    visible: (ctx) => ctx.tasksAvailable && can('editServerData')(ctx),
    component: lazy(() => import('./tasks/TasksTab')),
  },
  {
    id: 'settings',
    labelKey: 'servers.tabs.settings',
    shortcut: 't s',
    visible: can('editServerData'),
    component: lazy(() => import('./settings/SettingsTab')),
  },
  {
    id: 'users',
    labelKey: 'servers.tabs.users',
    shortcut: 't u',
    visible: can('editServerUsers'),
    component: lazy(() => import('./users/UsersTab')),
  },
  {
    id: 'activity',
    labelKey: 'servers.tabs.activity',
    shortcut: 't y',
    visible: can('viewServerActivity'),
    component: lazy(() => import('../activity/ActivityTab')),
  },
  {
    id: 'alerts',
    labelKey: 'servers.tabs.alerts',
    shortcut: 't l',
    visible: can('manageServerAlerts'),
    component: lazy(() => import('../alerts/AlertsTab')),
  },
  {
    id: 'admin',
    labelKey: 'servers.tabs.admin',
    shortcut: 't a',
    // The admin panel needs deleteServer; inside it the OAuth2 card is always shown and the
    // switches, definition editor and reload are for admins only.
    visible: can('deleteServer'),
    component: lazy(() => import('./admin/AdminTab')),
  },
];

export function visibleTabs(ctx: TabGateContext): ServerTab[] {
  return serverTabs.filter((tab) => tab.visible(ctx));
}
