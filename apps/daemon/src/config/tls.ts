/**
 * The daemon's HTTPS certificate (docs/security.md § Node link, docs/configuration.md § Daemon `tls`): the
 * operator's files when given, else the PEMs of the deployment config. Read and checked once at start, so a
 * missing file or a key that does not belong to the certificate stops start-up with one line naming the key.
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import type { DaemonConfig } from './schema';
import { DaemonConfigError } from './load';

export interface TlsMaterial {
  cert: string;
  key: string;
  source: 'operator files' | 'deployment config';
  /** SHA-256 of the (leaf) certificate, as the Node page shows the pin. */
  fingerprint: string;
}

function readKeyFile(key: 'certFile' | 'keyFile', path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new DaemonConfigError(
      `Invalid daemon configuration: tls.${key}: cannot read ${path} (${(err as Error).message})`,
    );
  }
}

/** The certificate and key to serve, or null for plain HTTP (no `tls` keys set). */
export function tlsMaterialOf(tls: DaemonConfig['tls']): TlsMaterial | null {
  const fromFiles = Boolean(tls.certFile);
  if (!fromFiles && !tls.certPem) return null;
  const cert = fromFiles ? readKeyFile('certFile', tls.certFile) : tls.certPem;
  const key = fromFiles ? readKeyFile('keyFile', tls.keyFile) : tls.keyPem;
  const prefix = fromFiles ? 'tls.certFile' : 'tls.certPem';
  let fingerprint: string;
  try {
    createSecureContext({ cert, key }); // throws when the key is not the certificate's
    fingerprint = new X509Certificate(cert).fingerprint256;
  } catch (err) {
    throw new DaemonConfigError(
      `Invalid daemon configuration: ${prefix}: the certificate and key do not form a pair (${(err as Error).message})`,
    );
  }
  return { cert, key, source: fromFiles ? 'operator files' : 'deployment config', fingerprint };
}
