/** Test key pair and token signing, as the panel will do it (ES256, 60 s, audience per node). */
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import {
  DAEMON_TOKEN_ISSUER,
  DAEMON_TOKEN_TTL_SECONDS,
  daemonTokenAudience,
  serverPermissions,
  type DaemonTokenGrant,
  type ServerPermission,
} from '@hearth/contract';

export interface TestKeys {
  privateKey: CryptoKey;
  publicKeyPem: string;
}

export async function generateTestKeys(): Promise<TestKeys> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicKeyPem: await exportSPKI(publicKey) };
}

export interface SignOptions extends Partial<DaemonTokenGrant> {
  nodeId?: string;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
}

export async function signDaemonToken(key: CryptoKey, opts: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (opts.expiresIn ?? DAEMON_TOKEN_TTL_SECONDS);
  return new SignJWT({ server: opts.server ?? '*', perms: opts.perms ?? [], admin: opts.admin ?? false })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(opts.issuer ?? DAEMON_TOKEN_ISSUER)
    .setAudience(opts.audience ?? daemonTokenAudience(opts.nodeId ?? 'test-node'))
    .setSubject(opts.sub ?? 'user-1')
    .setIssuedAt(Math.min(now, exp - 1))
    .setExpirationTime(exp)
    .sign(key);
}

export const allServerPermissions: ServerPermission[] = [...serverPermissions];
