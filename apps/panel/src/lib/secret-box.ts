/**
 * Encryption at rest for secrets the panel must read back (TOTP secrets, mail provider credentials, node
 * credentials and TLS keys shown in deployment instructions): AES-256-GCM with a random 96-bit nonce per
 * value, under a 256-bit key kept in `<dataDir>/keys/secrets.key` (mode 0600, created on first use). A copy
 * of the database alone reveals none of these; the key file travels with backups of the data folder
 * (docs/security.md § Secrets at rest).
 *
 * Sealed values are text, `sb1:<base64 nonce|tag|ciphertext>`, so they fit the existing text columns; values
 * written before encryption existed (no prefix) are read as they are and sealed on their next write.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PREFIX = 'sb1:';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function secretKeyPath(dataDir: string): string {
  return join(dataDir, 'keys', 'secrets.key');
}

/** Reads the key, creating it once (written whole, then hard-linked: racing processes never read half a key). */
function loadOrCreateKey(path: string): Buffer {
  if (!existsSync(path)) {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temp, randomBytes(KEY_BYTES).toString('base64'), { mode: 0o600 });
    try {
      linkSync(temp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(temp, { force: true });
    }
  }
  chmodSync(path, 0o600);
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${path} does not hold a ${KEY_BYTES}-byte key`);
  return key;
}

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** The box of a data folder (the key is created on first use). */
  static forDataDir(dataDir: string): SecretBox {
    return new SecretBox(loadOrCreateKey(secretKeyPath(dataDir)));
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plain: string): string {
    return PREFIX + this.sealBytes(Buffer.from(plain, 'utf8')).toString('base64');
  }

  /**
   * The raw sealed form (nonce | tag | ciphertext, 28 bytes more than `plain`) for callers that store it in a
   * column too narrow for the prefixed text form (the 64-character TOTP secret columns: lib/secrets-at-rest.ts).
   */
  sealBytes(plain: Buffer): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), body]);
  }

  /** Opens what sealBytes made. Throws if tampered with. */
  openBytes(raw: Buffer): Buffer {
    const nonce = raw.subarray(0, NONCE_BYTES);
    const tag = raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
  }

  /** Decrypts a sealed value; an unsealed (legacy) value is returned unchanged. Throws if tampered with. */
  open(value: string): string {
    if (!SecretBox.isSealed(value)) return value;
    return this.openBytes(Buffer.from(value.slice(PREFIX.length), 'base64')).toString('utf8');
  }
}
