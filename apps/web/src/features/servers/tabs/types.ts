import type { ServerView } from '@hearth/contract/servers';
import type { ServerPermissionsView } from '@hearth/contract/servers';
import type { ServerLive } from '../useServerLive';

/** What every tab component receives. */
export interface ServerTabProps {
  server: ServerView;
  /** The caller's flags on this server; an admin has them all. */
  permissions: ServerPermissionsView;
  /** The panel scope servers.admin. */
  admin: boolean;
  live: ServerLive;
}

/** What decides whether a tab is shown. */
export interface TabGateContext {
  permissions: ServerPermissionsView;
  admin: boolean;
  /** The node runs scheduled tasks (off unless it says so). */
  tasksAvailable: boolean;
}
