import type { ServerTabProps } from '../servers/tabs';
import { ActivityTable } from './ActivityTable';

/** A server's activity (the flag viewServerActivity; docs/activity.md). */
export default function ActivityTab({ server }: ServerTabProps) {
  return <ActivityTable serverId={server.id} />;
}
