import { randomUUID } from 'node:crypto';
import { AppError, scopesFor } from '@hearth/contract';
import { hashToken, randomToken, safeEqual } from '../../lib/tokens';
import type { AuthLimits, RateLimiter } from '../../lib/rate-limiter';
import type { EmailService } from '../email/email.service';
import type { SessionsService } from '../sessions/sessions.service';
import type { PermissionsRepository } from '../users/permissions.repository';
import type { UsersRepository } from '../users/users.repository';
import type { ClientsRepository } from './clients.repository';
import type { ActivityService } from '../activity/activity.service';

export const ACCESS_TOKEN_TTL_S = 3600;

export interface ClientsDeps {
  activity: ActivityService;
  clients: ClientsRepository;
  users: UsersRepository;
  permissions: PermissionsRepository;
  sessions: SessionsService;
  email: EmailService;
  limiter: RateLimiter;
  limits: AuthLimits;
}

/** An OAuth2 error in RFC 6749 shape (`{error, error_description}`), not the catalogue shape. */
export class OAuthError extends Error {
  constructor(
    readonly error: 'invalid_client' | 'invalid_request' | 'unsupported_grant_type',
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * Account OAuth2 clients. Secrets are 256 random bits shown once; only their SHA-256 is stored (a slow
 * hash adds nothing for random secrets of that size and would slow the token endpoint).
 */
export class ClientsService {
  constructor(private readonly d: ClientsDeps) {}

  /** `serverId` = '' lists account clients; otherwise the caller's clients bound to that server. */
  list(userId: string, serverId = '') {
    return this.d.clients.listForUser(userId, serverId);
  }

  /** Server clients (`serverId` set) send no e-mail (PufferPanel v2). */
  async create(
    userId: string,
    name: string,
    description: string,
    serverId = '',
  ): Promise<{ id: string; secret: string }> {
    const id = randomUUID();
    const secret = randomToken();
    await this.d.clients.insert({
      id,
      user_id: userId,
      server_id: serverId,
      name,
      description,
      secret_hash: hashToken(secret),
      created_at: Date.now(),
      revoked_at: null,
    });
    const scope = serverId ? { serverId } : {};
    await this.d.activity.here('oauth2.client.created', { ...scope, details: { clientId: id, name } });
    const user = serverId ? undefined : await this.d.users.findById(userId);
    if (user)
      this.d.email.send(
        'oauthCreated',
        user.email,
        {
          username: user.username,
          clientName: name || 'Unnamed OAuth2 Client',
        },
        { userId: user.id },
      );
    return { id, secret };
  }

  /** Deleting a client ends every token it issued at once. */
  async delete(userId: string, id: string, serverId = ''): Promise<void> {
    if (!(await this.d.clients.deleteOwned(id, userId, serverId))) throw new AppError('ErrClientNotFound');
    await this.d.sessions.revokeClient(id);
    await this.d.activity.here('oauth2.client.deleted', {
      ...(serverId ? { serverId } : {}),
      details: { clientId: id },
    });
  }

  async token(ip: string, clientId: string, secret: string) {
    this.d.limiter.hit(`token:ip:${ip}`, this.d.limits.tokenPerIp);
    this.d.limiter.hit(`token:client:${clientId}`, this.d.limits.tokenPerClient);
    const client = clientId.length <= 64 ? await this.d.clients.findById(clientId) : undefined;
    const expected = client?.secret_hash ?? hashToken(randomToken());
    // A revoked secret (the owner changed their password) is refused like a wrong one, after the same work.
    if (!client || !safeEqual(expected, hashToken(secret)) || client.revoked_at !== null) {
      throw new OAuthError('invalid_client', 401, 'unknown client or wrong secret');
    }
    const issued = await this.d.sessions.issue(
      client.user_id,
      'oauth2',
      client.id,
      ACCESS_TOKEN_TTL_S * 1000,
    );
    // A server client's token reports its server; its rights are re-read on every call (plugins/auth.ts).
    const scopes = client.server_id
      ? [`server:${client.server_id}`]
      : scopesFor(await this.d.permissions.panelPermissions(client.user_id));
    return {
      access_token: issued.token,
      token_type: 'Bearer' as const,
      expires_in: ACCESS_TOKEN_TTL_S,
      scope: scopes.join(' '),
    };
  }
}
