/**
 * The deployment instructions of a node: `config` is the complete `node.json` for `hearth daemon --config`
 * (docs/daemon.md, docs/configuration.md § Daemon). Its `tls` section follows the node's link mode
 * (docs/security.md § Node link): `pinned` carries the certificate and key the panel generated, `ca` names the
 * files where the operator puts their own certificate, `plain` has none (the daemon serves HTTP). An outbound node
 * (`"link": "outbound"`) dials `panelUrl` itself and listens on loopback only: nothing reaches it from outside,
 * so no port needs to be open on its machine (docs/operations.md § Remote node, outbound mode).
 */
import type { NodeDeployment, NodeTlsMode } from '@hearth/contract/nodes';
import type { NodeRow } from './nodes.repository';
import type { OpenedSecrets } from './node-secrets';
import { installStepsOf } from './node-install-steps';

/** Where a deployed node keeps its data (the config's `dataDir`), and an operator's certificate under it. */
export const NODE_DATA_DIR = '/var/lib/hearth';
export const OPERATOR_CERT_FILE = `${NODE_DATA_DIR}/tls/cert.pem`;
export const OPERATOR_KEY_FILE = `${NODE_DATA_DIR}/tls/key.pem`;

function tlsSection(mode: NodeTlsMode, opened: OpenedSecrets): Record<string, string> | undefined {
  if (mode === 'ca') return { certFile: OPERATOR_CERT_FILE, keyFile: OPERATOR_KEY_FILE };
  if (mode === 'pinned' && opened.tls) return { certPem: opened.tls.certPem, keyPem: opened.tls.keyPem };
  return undefined; // plain, or a pinned node from before certificates (it needs a rotation)
}

export function deploymentOf(
  row: NodeRow,
  opened: OpenedSecrets,
  panel: { url: string; publicKeyPem: string },
): NodeDeployment {
  const port = Number(row.sftp_port);
  const mode = row.tls_mode as NodeTlsMode;
  const tls = tlsSection(mode, opened);
  const outbound = row.link === 'outbound';
  const config = {
    nodeId: row.id,
    ...(outbound ? { link: 'outbound' } : {}),
    host: outbound ? '127.0.0.1' : '0.0.0.0',
    port: Number(row.private_port),
    dataDir: NODE_DATA_DIR,
    panelUrl: panel.url,
    publicKeyPem: panel.publicKeyPem,
    ...(tls ? { tls } : {}),
    // The panel relays users' SFTP through the link to this loopback listener (nodes-link/sftp-relay.ts).
    sftp: {
      ...(outbound ? { host: '127.0.0.1' } : {}),
      port,
      ...(opened.secret === undefined ? {} : { clientSecret: opened.secret }),
    },
  };
  const clientId = `.node_${row.id}`;
  // The local node runs inside `hearth start`: nothing to install (docs/operations.md § Remote node).
  const oneStep =
    opened.secret !== undefined && Number(row.is_local) !== 1
      ? {
          installSteps: installStepsOf({
            id: row.id,
            clientId,
            secret: opened.secret,
            panelUrl: panel.url,
            config,
          }),
        }
      : {};
  return {
    clientId,
    ...(opened.secret === undefined ? {} : { clientSecret: opened.secret }),
    tlsFingerprint: mode === 'pinned' && opened.tls ? opened.tls.fingerprint : null,
    publicKey: panel.publicKeyPem,
    config,
    ...oneStep,
  };
}
