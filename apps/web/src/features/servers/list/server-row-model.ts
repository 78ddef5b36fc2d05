import type { ServerView } from '@hearth/contract/servers';
import type { OnlineStatus } from '../../../components/StatusIndicator';

/**
 * A list row's status from the panel's cached node summary (docs/api.md § Servers): online while running,
 * offline when the node says it is stopped, unknown when the node is not known to be online or has not answered
 * yet (the list asks again every few seconds, so it fills in).
 */
export function rowStatus(server: Pick<ServerView, 'live' | 'status'>): OnlineStatus {
  if (server.status === 'unknown' || !server.live) return 'unknown';
  return server.live.running ? 'online' : 'offline';
}
