/**
 * How the panel verifies a node's daemon (docs/security.md § Node link). `pinned`: the daemon must present
 * exactly the certificate the panel generated for the node — it is the only trust anchor of the connection and
 * its SHA-256 fingerprint is compared in `checkServerIdentity`, which runs inside the handshake, before the
 * request (and its signed token) is written. `ca`: the operator's certificate, verified against Node's CA store
 * (with NODE_EXTRA_CA_CERTS) and the node's private host. `plain`: HTTP, no TLS.
 */
import type { PeerCertificate } from 'node:tls';
import type { RequestOptions } from 'node:https';

export type NodeTls =
  | { mode: 'plain' }
  | { mode: 'ca' }
  | {
      mode: 'pinned';
      certPem: string;
      /** `AB:CD:…` as Node's `fingerprint256`. */
      fingerprint: string;
    };

/** Why the TLS part of a call failed; `metadata.reason` of ErrNodeCertificate. */
export type TlsFailure = 'pin-mismatch' | 'untrusted' | 'expired' | 'host-mismatch' | 'not-tls';

const PIN_MISMATCH = 'ERR_HEARTH_NODE_PIN_MISMATCH';

/** OpenSSL's verification results (Node error codes) and what they mean for a node. */
const VERIFY_CODES: Record<string, TlsFailure> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  CERT_REJECTED: 'untrusted',
  CERT_SIGNATURE_FAILURE: 'untrusted',
  INVALID_CA: 'untrusted',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'host-mismatch',
  [PIN_MISMATCH]: 'pin-mismatch',
};

/** The options `https.request` and `ws` take for this node; undefined for plain HTTP. */
export function tlsOptionsOf(tls: NodeTls): RequestOptions | undefined {
  if (tls.mode === 'plain') return undefined;
  if (tls.mode === 'ca') return { rejectUnauthorized: true };
  return {
    rejectUnauthorized: true,
    // The pinned certificate alone: the system CAs play no part, so a CA-issued certificate is refused too.
    ca: tls.certPem,
    // The pin replaces the host-name check (the node's addresses may change; the certificate may not).
    checkServerIdentity: (_host: string, cert: PeerCertificate) => {
      if (cert.fingerprint256 === tls.fingerprint) return undefined;
      return Object.assign(new Error('the node certificate does not match its pinned fingerprint'), {
        code: PIN_MISMATCH,
      });
    },
  };
}

/** The TLS reason of a connection error, or null when it is not about TLS (offline, timeout). */
export function tlsFailure(tls: NodeTls, err: unknown): TlsFailure | null {
  const code = (err as { code?: unknown }).code;
  if (tls.mode === 'plain' || typeof code !== 'string') return null;
  const known = VERIFY_CODES[code];
  // Pinned, the one trust anchor is the pinned certificate: any other certificate fails the chain check.
  if (known === 'untrusted' && tls.mode === 'pinned') return 'pin-mismatch';
  if (known) return known;
  // A handshake that fails on the record layer: the daemon answered something that is not TLS (plain HTTP).
  if (code.startsWith('ERR_SSL_') || code === 'EPROTO') return 'not-tls';
  return null;
}
