import { hashToken, randomToken } from '../../lib/tokens';
import type { SessionRow, SessionsRepository } from './sessions.repository';

/** Browser sessions live one hour; the web app re-authenticates every 10 minutes to slide it. */
export const SESSION_TTL_MS = 60 * 60 * 1000;
/** After reauth the old token keeps working briefly so requests already in flight do not fail. */
const REAUTH_GRACE_MS = 30 * 1000;

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

export class SessionsService {
  constructor(private readonly repo: SessionsRepository) {}

  async issue(
    userId: string,
    kind: 'session' | 'oauth2' | 'otp' = 'session',
    clientId: string | null = null,
    ttl = SESSION_TTL_MS,
  ): Promise<IssuedToken> {
    const token = randomToken();
    const now = Date.now();
    const expiresAt = now + ttl;
    await this.repo.insert({
      token_hash: hashToken(token),
      user_id: userId,
      kind,
      client_id: clientId,
      created_at: now,
      expires_at: expiresAt,
    });
    return { token, expiresAt };
  }

  /** A live token of one of the given kinds (a pending-OTP token is never a session). */
  async resolve(
    token: string,
    kinds: readonly string[] = ['session', 'oauth2'],
  ): Promise<SessionRow | undefined> {
    const row = await this.repo.findLive(hashToken(token), Date.now());
    return row && kinds.includes(row.kind) ? row : undefined;
  }

  resolveHash(tokenHash: string): Promise<SessionRow | undefined> {
    return this.repo.findLive(tokenHash, Date.now());
  }

  async refresh(current: SessionRow): Promise<IssuedToken> {
    const issued = await this.issue(current.user_id);
    await this.repo.shorten(current.token_hash, Date.now() + REAUTH_GRACE_MS);
    return issued;
  }

  revoke(tokenHash: string): Promise<void> {
    return this.repo.delete(tokenHash);
  }

  revokeAllFor(userId: string, keepTokenHash?: string): Promise<void> {
    return this.repo.deleteForUser(userId, keepTokenHash);
  }

  revokeClient(clientId: string): Promise<void> {
    return this.repo.deleteForClient(clientId);
  }
}
