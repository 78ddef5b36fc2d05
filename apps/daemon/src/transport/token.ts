/**
 * Verifies panel-signed daemon tokens (contract daemon-token.ts): ES256 only, issuer `hearth-panel`,
 * audience `hearth-daemon:<nodeId>`, not expired (no clock skew beyond 5 s), claims of the right shape.
 */
import { importSPKI, jwtVerify, type CryptoKey } from 'jose';
import {
  AppError,
  DAEMON_TOKEN_ALGORITHM,
  DAEMON_TOKEN_ISSUER,
  daemonTokenAudience,
  daemonTokenClaimsSchema,
  type DaemonTokenClaims,
} from '@hearth/contract';

/** Accepted clock skew between panel and daemon; the socket expiry honours it too. */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 5;

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
      });
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
