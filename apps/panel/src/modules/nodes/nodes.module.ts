import type { PanelConfig } from '../../config/schema';
import type { Db } from '../../db/connect';
import { dataDir } from '../../lib/paths';
import type { SettingsService } from '../settings/settings.service';
import { NodesRepository } from './nodes.repository';
import { NodesService } from './nodes.service';
import { NodeLink } from '../../nodes-link/node-link';
import { NodeStatusCache } from '../../nodes-link/node-status';
import { DaemonTokenSigner } from '../../nodes-link/token-signer';
import { defaultLinkTimeouts, type LinkTimeouts } from '../../nodes-link/daemon-client';

/** Issue 5: nodes (and, below, the daemon link and servers built on them). */
export function nodeServices(
  db: Db,
  config: PanelConfig,
  settings: SettingsService,
  timeouts?: Partial<LinkTimeouts>,
) {
  const nodesRepo = new NodesRepository(db);
  const nodes = new NodesService({
    nodes: nodesRepo,
    settings,
    dataDir: dataDir(config),
    fallbackPanelUrl: `http://localhost:${config.web.port}`,
  });
  const link = new NodeLink(nodesRepo, new DaemonTokenSigner(dataDir(config)), {
    ...defaultLinkTimeouts,
    ...timeouts,
  });
  return { nodesRepo, nodes, link, nodeStatus: new NodeStatusCache(link) };
}
