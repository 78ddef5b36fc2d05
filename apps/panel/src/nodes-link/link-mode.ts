/**
 * A node row's link mode as the client uses it (docs/security.md § Node link). A `pinned` node without a
 * certificate is a node created before the link was encrypted: it keeps the plain HTTP it was deployed with
 * until its deployment is rotated (the Node page says so), rather than going dark on upgrade.
 */
import type { NodeRow } from '../modules/nodes/nodes.repository';
import type { NodeTls } from './node-tls';

export function linkTlsOf(row: Pick<NodeRow, 'tls_mode' | 'tls_cert' | 'tls_fingerprint'>): NodeTls {
  if (row.tls_mode === 'plain') return { mode: 'plain' };
  if (row.tls_mode === 'pinned') {
    if (!row.tls_cert || !row.tls_fingerprint) return { mode: 'plain' };
    return { mode: 'pinned', certPem: row.tls_cert, fingerprint: row.tls_fingerprint };
  }
  return { mode: 'ca' }; // `ca`, and anything unexpected fails closed (full CA and host-name checks)
}

/** A pinned node still waiting for its first certificate (see above). */
export function needsRotate(row: Pick<NodeRow, 'tls_mode' | 'tls_cert'>): boolean {
  return row.tls_mode === 'pinned' && !row.tls_cert;
}
