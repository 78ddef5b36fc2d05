/**
 * The account secrets the panel must read back, sealed at rest with the data folder's SecretBox (docs/security.md
 * § Secrets at rest): TOTP secrets (users.otp_secret, otp_pending_secret) and the mail provider's password/keys
 * stored as settings. A copy of the database alone then reveals none of them. Values written before sealing
 * existed are read as they are and sealed on their next write. The key file is created on the first seal.
 */
import { Secret } from 'otpauth';
import { SecretBox } from './secret-box';

/** 20 secret bytes sealed = 48 bytes = 64 base64url characters: exactly the width of the otp columns. */
const SEALED_TOTP = /^[A-Za-z0-9_-]{64}$/;

export class SecretsAtRest {
  #box: SecretBox | null = null;

  constructor(private readonly dataDir: string) {}

  private box(): SecretBox {
    this.#box ??= SecretBox.forDataDir(this.dataDir);
    return this.#box;
  }

  /**
   * A base32 TOTP secret in its stored form. Sealed as raw bytes without the text prefix, because the columns
   * are varchar(64) on every dialect; legacy values (base32, 32 characters) stay recognisable by their form.
   */
  sealTotp(base32: string): string {
    const bytes = Buffer.from(Secret.fromBase32(base32).bytes);
    return this.box().sealBytes(bytes).toString('base64url');
  }

  /** The base32 secret of a stored value (sealed, or a legacy clear value as it is). */
  openTotp(stored: string): string {
    if (!SEALED_TOTP.test(stored)) return stored;
    const bytes = this.box().openBytes(Buffer.from(stored, 'base64url'));
    return new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) })
      .base32;
  }

  /** A text secret (mail password, API key) in its stored form. */
  seal(plain: string): string {
    return this.box().seal(plain);
  }

  /** The clear text of a stored value; an unsealed (legacy) value is returned as it is. */
  open(stored: string): string {
    return SecretBox.isSealed(stored) ? this.box().open(stored) : stored;
  }
}
