import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';

/**
 * The panel's ES256 key pair for panel→daemon tokens, generated once under `<dataDir>/keys/`.
 * Daemons verify with the public key (shown in a node's deployment instructions).
 */
export function keyPaths(dataDir: string): { dir: string; privateKey: string; publicKey: string } {
  const dir = join(dataDir, 'keys');
  return { dir, privateKey: join(dir, 'panel-es256.key'), publicKey: join(dir, 'panel-es256.pub') };
}

export function ensurePanelKeys(dataDir: string): void {
  const paths = keyPaths(dataDir);
  if (existsSync(paths.privateKey) && existsSync(paths.publicKey)) return;
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  writeFileSync(paths.privateKey, privateKey, { mode: 0o600 });
  chmodSync(paths.privateKey, 0o600); // mode is ignored when the file already existed
  writeFileSync(paths.publicKey, publicKey, { mode: 0o644 });
}

export function readPublicKeyPem(dataDir: string): string {
  ensurePanelKeys(dataDir);
  return readFileSync(keyPaths(dataDir).publicKey, 'utf8');
}

export function readPrivateKeyPem(dataDir: string): string {
  ensurePanelKeys(dataDir);
  return readFileSync(keyPaths(dataDir).privateKey, 'utf8');
}
