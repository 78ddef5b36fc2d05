/**
 * The secrets a node's deployment carries (docs/security.md § Node link, § Secrets at rest): the node credential
 * (checked by its hash on every node-only call) and the private key of the node's TLS certificate. Both are
 * also kept sealed by the data folder's SecretBox so GET /api/nodes/{id}/deployment can show the complete file
 * again; a copy of the database alone reveals neither.
 */
import { generateNodeCertificate } from '../../nodes-link/node-certificate';
import type { SecretBox } from '../../lib/secret-box';
import { hashToken, randomToken } from '../../lib/tokens';
import type { NodeRow } from './nodes.repository';

export type NodeSecretColumns = Pick<
  NodeRow,
  'secret_hash' | 'secret_sealed' | 'tls_cert' | 'tls_fingerprint' | 'tls_key_sealed'
>;

/** A fresh node credential and certificate for a node reached at `hosts`: the columns to store. */
export function issueNodeSecrets(box: SecretBox, nodeId: string, hosts: string[]): NodeSecretColumns {
  const secret = randomToken();
  const cert = generateNodeCertificate({ commonName: `hearth node ${nodeId}`, hosts });
  return {
    secret_hash: hashToken(secret),
    secret_sealed: box.seal(secret),
    tls_cert: cert.certPem,
    tls_fingerprint: cert.fingerprint,
    tls_key_sealed: box.seal(cert.keyPem),
  };
}

export interface OpenedSecrets {
  /** Undefined for a node from before secrets were kept (only the hash exists: rotate to see one). */
  secret?: string;
  tls?: { certPem: string; keyPem: string; fingerprint: string };
}

/** A sealed value, or undefined when there is none or the data folder's key cannot open it (lost or replaced). */
function openOrNothing(box: SecretBox, sealed: string | null): string | undefined {
  if (!sealed) return undefined;
  try {
    return box.open(sealed);
  } catch {
    return undefined; // shown as missing: a rotation issues new ones (docs/security.md § Node link)
  }
}

export function openNodeSecrets(box: SecretBox, row: NodeRow): OpenedSecrets {
  const secret = openOrNothing(box, row.secret_sealed);
  const keyPem = openOrNothing(box, row.tls_key_sealed);
  const tls =
    row.tls_cert && row.tls_fingerprint && keyPem
      ? { certPem: row.tls_cert, keyPem, fingerprint: row.tls_fingerprint }
      : undefined;
  return { secret, tls };
}
