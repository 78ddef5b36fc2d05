/**
 * How this node calls the panel's node-only routes (docs/api.md "Node-only routes"): `{panelUrl}/api/nodes/…`
 * with HTTP Basic `.node_<nodeId>:<sftp.clientSecret>`, the node credential of its deployment instructions.
 */
import type { DaemonConfig } from '../config/schema';

export interface PanelLinkSettings {
  panelUrl: string;
  nodeId: string;
  clientSecret: string;
  timeoutMs?: number;
}

/** The link settings of a config, or null when it lacks the panel URL or the node secret. */
export function panelLinkOf(config: DaemonConfig): PanelLinkSettings | null {
  if (!config.panelUrl || !config.sftp.clientSecret) return null;
  return { panelUrl: config.panelUrl, nodeId: config.nodeId, clientSecret: config.sftp.clientSecret };
}

/** The `Authorization` header value carrying the node credential. */
export function nodeAuthorization(settings: PanelLinkSettings): string {
  return `Basic ${Buffer.from(`.node_${settings.nodeId}:${settings.clientSecret}`).toString('base64')}`;
}

/** The absolute URL of a panel path such as `/api/nodes/access`. */
export function panelUrlOf(settings: PanelLinkSettings, path: string): string {
  return new URL(path, settings.panelUrl).toString();
}
