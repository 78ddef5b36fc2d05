/**
 * Signs panel → daemon tokens (contract daemon-token.ts) with the panel's ES256 private key
 * (`<dataDir>/keys`). Every call to a daemon carries a fresh one: audience = the node, 60 s lifetime.
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

export class DaemonTokenSigner {
  private key: Promise<CryptoKey> | null = null;

  constructor(private readonly dataDir: string) {}

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
}
