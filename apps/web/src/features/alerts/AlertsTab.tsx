import type { ServerTabProps } from '../servers/tabs';
import { AlertRules } from './AlertRules';

/** A server's own alert rules (the flag manageServerAlerts; docs/alerts.md § Screens). */
export default function AlertsTab({ server }: ServerTabProps) {
  return <AlertRules scope={{ serverId: server.id }} />;
}
