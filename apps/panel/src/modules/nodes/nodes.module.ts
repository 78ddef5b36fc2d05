import type { PanelConfig } from '../../config/schema';
import type { Db } from '../../db/connect';
import { dataDir } from '../../lib/paths';
import type { ActivityService } from '../activity/activity.service';
import type { SettingsService } from '../settings/settings.service';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';
import { NodeLink } from '../../nodes-link/node-link';
import { NodeStatusCache } from '../../nodes-link/node-status';
import { NodeEventsPuller } from '../../nodes-link/node-events-pull';
import { NodeEventsRepository } from '../activity/node-events.repository';
import { DaemonTokenSigner } from '../../nodes-link/token-signer';
import { defaultLinkTimeouts, type LinkTimeouts } from '../../nodes-link/daemon-client';
import { SftpRelay } from '../../nodes-link/sftp-relay';
import { NodeTunnels } from '../../nodes-link/node-tunnels';

/** The node listens on every address: the panel calls it on loopback. */
function callableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

/** Issue 5: nodes (and, below, the daemon link and servers built on them). */
export function nodeServices(
  db: Db,
  config: PanelConfig,
  settings: SettingsService,
  timeouts?: Partial<LinkTimeouts>,
  localNodeRuns = false,
  activity?: ActivityService,
) {
  const nodesRepo = new NodesRepository(db);
  // The links of nodes that dial the panel (docs/adr/0015-outbound-node-link.md); NodeLink and the SFTP relay
  // open their streams through them.
  const tunnels = new NodeTunnels();
  // SFTP to the nodes that dial in goes through the panel (main.ts starts it once the panel listens).
  const sftpRelay = new SftpRelay({
    outboundNodes: async () =>
      (await nodesRepo.listOutbound()).map((row) => ({ id: row.id, sftpPort: Number(row.sftp_port) })),
    tunnels,
    host: config.link.sftpRelayHost,
  });
  const nodes = new NodesService({
    nodes: nodesRepo,
    settings,
    dataDir: dataDir(config),
    fallbackPanelUrl: `http://localhost:${config.web.port}`,
    localNode: {
      host: callableHost(config.node.host),
      port: config.node.port,
      sftpPort: config.node.sftpPort,
    },
    panelPort: config.web.port,
    outbound: sftpRelay,
  });
  const link = new NodeLink(
    nodesRepo,
    new DaemonTokenSigner(dataDir(config)),
    { ...defaultLinkTimeouts, ...timeouts },
    localNodeRuns,
    tunnels,
  );
  // A node going offline or coming back is recorded (docs/activity.md), as the panel's probes find it.
  const nodeStatus = new NodeStatusCache(link, (nodeId, status) => {
    const actor = { type: 'system', id: null, label: 'panel', ip: null } as const;
    void activity?.record({ actor, action: status === 'online' ? 'node.online' : 'node.offline', nodeId });
    // What the node recorded while the panel could not reach it comes in at once (docs/activity.md).
    if (status === 'online') void nodeEvents.pull(nodeId);
  });
  // An outbound node's link coming or going is its status changing: probed at once (node-status.ts refresh).
  tunnels.on('change', (nodeId) => void nodeStatus.refresh(nodeId));
  // Events only a node sees, pulled from its outbox into the activity log (app.ts starts and stops it).
  const nodeEvents = new NodeEventsPuller({
    link,
    repo: new NodeEventsRepository(db),
    nodeIds: async () => (await nodesRepo.list()).map((node) => node.id),
    serverIds: async (nodeId) => {
      const rows = await db.kysely.selectFrom('servers').select('id').where('node_id', '=', nodeId).execute();
      return new Set(rows.map((row) => row.id));
    },
    onStored: (rows) => activity?.announce(rows),
  });
  return { nodesRepo, nodes, link, nodeStatus, nodeEvents, sftpRelay, tunnels };
}
