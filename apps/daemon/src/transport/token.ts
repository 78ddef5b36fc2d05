/**
 * Verifies panel-signed daemon tokens (contract daemon-token.ts): ES256 only, issuer `hearth-panel`,
 * audience `hearth-daemon:<nodeId>`, not expired (no clock skew beyond 5 s), claims of the right shape, and
 * short-lived: the panel signs for DAEMON_TOKEN_TTL_SECONDS, so a token whose lifetime (exp − iat) is longer, or
 * whose iat is older than that, was not minted by the panel's rules — a signing key misused or leaked must not
 * yield a token that works for years (docs/security.md § Panel → daemon tokens).
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

export class TokenVerifier {
  private constructor(
    private readonly key: CryptoKey,
    private readonly audience: string,
  ) {}

  static async create(publicKeyPem: string, nodeId: string): Promise<TokenVerifier> {
    const key = await importSPKI(publicKeyPem, DAEMON_TOKEN_ALGORITHM);
    return new TokenVerifier(key, daemonTokenAudience(nodeId));
  }

  async verify(token: string): Promise<DaemonTokenClaims> {
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
