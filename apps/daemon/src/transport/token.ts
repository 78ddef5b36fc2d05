/**
 * Verifies panel-signed daemon tokens (contract daemon-token.ts): ES256 only, issuer `hearth-panel`,
 * audience `hearth-daemon:<nodeId>`, not expired (no clock skew beyond 5 s), claims of the right shape, and
 * short-lived: the panel signs for DAEMON_TOKEN_TTL_SECONDS, so a token whose lifetime (exp − iat) is longer, or
 * whose iat is older than that, was not minted by the panel's rules — a signing key misused or leaked must not
 * yield a token that works for years (docs/security.md § Panel → daemon tokens). The panel reuses a token for
 * several calls, so a verified one is remembered (by its exact text) until it would no longer verify: a hit
 * skips only the signature check, never the expiry, and every route still checks the permissions it carries.
 */
import { importSPKI, jwtVerify, type CryptoKey } from 'jose';
import {
  AppError,
  DAEMON_TOKEN_ALGORITHM,
  DAEMON_TOKEN_ISSUER,
  DAEMON_TOKEN_TTL_SECONDS,
  daemonTokenAudience,
  daemonTokenClaimsSchema,
  type DaemonTokenClaims,
} from '@hearth/contract';

/** Accepted clock skew between panel and daemon; the socket expiry honours it too. */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 5;

/** The longest lifetime (exp − iat) a daemon token may declare. */
export const MAX_TOKEN_LIFETIME_SECONDS = DAEMON_TOKEN_TTL_SECONDS + TOKEN_CLOCK_TOLERANCE_SECONDS;

function lifetimeOf(payload: { exp?: number; iat?: number }): number {
  return (payload.exp ?? Infinity) - (payload.iat ?? -Infinity);
}

/** Bound on remembered verified tokens; expired ones are dropped first. */
const MAX_VERIFIED_TOKENS = 10_000;

interface Verified {
  claims: DaemonTokenClaims;
  /** Epoch seconds from which jose would refuse the token (expired, or older than the lifetime allows). */
  refusedFrom: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export class TokenVerifier {
  private constructor(
    private readonly key: CryptoKey,
    private readonly audience: string,
  ) {}

  static async create(publicKeyPem: string, nodeId: string): Promise<TokenVerifier> {
    const key = await importSPKI(publicKeyPem, DAEMON_TOKEN_ALGORITHM);
    return new TokenVerifier(key, daemonTokenAudience(nodeId));
  }

  private readonly verified = new Map<string, Verified>();

  async verify(token: string): Promise<DaemonTokenClaims> {
    const hit = this.verified.get(token);
    if (hit && nowSeconds() < hit.refusedFrom) return hit.claims;
    if (hit) this.verified.delete(token);
    const claims = await this.verifyFully(token);
    this.remember(token, claims);
    return claims;
  }

  private remember(token: string, claims: DaemonTokenClaims): void {
    if (this.verified.size >= MAX_VERIFIED_TOKENS) {
      const now = nowSeconds();
      for (const [key, entry] of this.verified) if (entry.refusedFrom <= now) this.verified.delete(key);
      for (const key of this.verified.keys()) {
        if (this.verified.size < MAX_VERIFIED_TOKENS) break;
        this.verified.delete(key);
      }
    }
    const refusedFrom =
      Math.min(claims.exp, claims.iat + MAX_TOKEN_LIFETIME_SECONDS) + TOKEN_CLOCK_TOLERANCE_SECONDS;
    this.verified.set(token, { claims, refusedFrom });
  }

  private async verifyFully(token: string): Promise<DaemonTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: DAEMON_TOKEN_ISSUER,
        audience: this.audience,
        algorithms: [DAEMON_TOKEN_ALGORITHM],
        clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub'],
        // Also refuses an iat in the future (beyond the tolerance).
        maxTokenAge: MAX_TOKEN_LIFETIME_SECONDS,
      });
      if (!(lifetimeOf(payload) <= MAX_TOKEN_LIFETIME_SECONDS)) throw new Error('token lifetime too long');
      return daemonTokenClaimsSchema.parse(payload);
    } catch (err) {
      throw new AppError('ErrDaemonTokenInvalid', undefined, { cause: err });
    }
  }
}

export function bearerOf(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) throw new AppError('ErrDaemonTokenInvalid');
  return match[1];
}
