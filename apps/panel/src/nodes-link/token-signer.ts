/**
 * Signs panel → daemon tokens (contract daemon-token.ts) with the panel's ES256 private key (`<dataDir>/keys`):
 * audience = the node, 60 s lifetime. HTTP calls reuse a token for the same (node, user, server, permission set,
 * admin) during the first half of its life instead of signing one per request (docs/security.md § Panel → daemon
 * tokens): the grant is computed from the user's current access before every call and is part of the cache key,
 * so a changed permission, a removed user or a deleted server never reuses a token made for what was.
 */
import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import {
  DAEMON_TOKEN_ALGORITHM,
  DAEMON_TOKEN_ISSUER,
  DAEMON_TOKEN_TTL_SECONDS,
  daemonTokenAudience,
  type DaemonTokenGrant,
} from '@hearth/contract';
import { readPrivateKeyPem } from '../lib/keys';

/** A token is handed out again for this long after signing; the daemon still sees ≥ 30 s of life. */
export const TOKEN_REUSE_MS = (DAEMON_TOKEN_TTL_SECONDS * 1000) / 2;
/** Bound on remembered tokens (one per active node × user × server × permission set). */
const MAX_CACHED_TOKENS = 10_000;

interface CachedToken {
  token: Promise<string>;
  reuseUntil: number;
}

function cacheKey(nodeId: string, grant: DaemonTokenGrant): string {
  return JSON.stringify([nodeId, grant.sub, grant.server, [...grant.perms].sort(), grant.admin]);
}

export class DaemonTokenSigner {
  private key: Promise<CryptoKey> | null = null;
  private readonly cache = new Map<string, CachedToken>();

  constructor(private readonly dataDir: string) {}

  /** A fresh token (sockets: their expiry follows the token, and they refresh it themselves). */
  async sign(nodeId: string, grant: DaemonTokenGrant): Promise<string> {
    this.key ??= importPKCS8(readPrivateKeyPem(this.dataDir), DAEMON_TOKEN_ALGORITHM);
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ server: grant.server, perms: grant.perms, admin: grant.admin })
      .setProtectedHeader({ alg: DAEMON_TOKEN_ALGORITHM, typ: 'JWT' })
      .setIssuer(DAEMON_TOKEN_ISSUER)
      .setAudience(daemonTokenAudience(nodeId))
      .setSubject(grant.sub)
      .setIssuedAt(now)
      .setExpirationTime(now + DAEMON_TOKEN_TTL_SECONDS)
      .sign(await this.key);
  }

  /** The token for this exact grant signed in the last {@link TOKEN_REUSE_MS}, or a new one. */
  reusable(nodeId: string, grant: DaemonTokenGrant): Promise<string> {
    const key = cacheKey(nodeId, grant);
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.reuseUntil > now) return hit.token;
    if (hit) this.cache.delete(key);
    const token = this.sign(nodeId, grant);
    token.catch(() => this.cache.delete(key)); // a failed signing is not remembered
    this.prune(now);
    this.cache.set(key, { token, reuseUntil: now + TOKEN_REUSE_MS });
    return token;
  }

  private prune(now: number): void {
    if (this.cache.size < MAX_CACHED_TOKENS) return;
    for (const [key, entry] of this.cache) if (entry.reuseUntil <= now) this.cache.delete(key);
    // Still full: the oldest entries go first (a Map iterates in insertion order).
    for (const key of this.cache.keys()) {
      if (this.cache.size < MAX_CACHED_TOKENS) break;
      this.cache.delete(key);
    }
  }
}
