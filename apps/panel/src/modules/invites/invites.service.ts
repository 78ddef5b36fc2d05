import { randomBytes } from 'node:crypto';
import { AppError, emptyPanelPermissions } from '@hearth/contract';
import type { SessionResponse } from '@hearth/contract/auth';
import type { LocaleCode } from '@hearth/contract/locales';
import { isUniqueViolation } from '../../db/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken, randomToken } from '../../lib/tokens';
import type { AuthService } from '../auth/auth.service';
import type { EmailService } from '../email/email.service';
import type { PermissionsRepository } from '../users/permissions.repository';
import type { UserSettingsRepository } from '../user-settings/user-settings.repository';
import type { UsersRepository } from '../users/users.repository';
import type { InvitesRepository } from './invites.repository';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InvitesDeps {
  invites: InvitesRepository;
  users: UsersRepository;
  permissions: PermissionsRepository;
  userSettings: UserSettingsRepository;
  email: EmailService;
  auth: AuthService;
}

/**
 * Invitations: a pending account (status `invited`, no password, a placeholder username) plus a
 * single-use token that expires; accepting sets username and password and logs the person in.
 */
export class InvitesService {
  constructor(private readonly d: InvitesDeps) {}

  /** `locale` (the inviting admin's choice) becomes the new account's language; without it, the panel default. */
  async invite(
    email: string,
    locale?: LocaleCode,
  ): Promise<{ id: string; email: string; expiresAt: number; token: string }> {
    const placeholder = `invited-${randomBytes(6).toString('hex')}`;
    const user = await this.d.users
      .insert({ username: placeholder, email, passwordHash: null, status: 'invited' })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
      });
    await this.d.permissions.setPanelPermissions(user.id, emptyPanelPermissions());
    if (locale) await this.d.userSettings.set(user.id, 'locale', locale);
    const token = randomToken();
    const now = Date.now();
    const expiresAt = now + INVITE_TTL_MS;
    await this.d.invites.insert({
      token_hash: hashToken(token),
      user_id: user.id,
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
    });
    const link = `${await this.d.email.masterUrl()}/auth/invite?token=${encodeURIComponent(token)}`;
    this.d.email.send('invitation', user.email, { link }, { userId: user.id, locale });
    return { id: user.id, email: user.email, expiresAt, token };
  }

  async accept(input: { token: string; username: string; password: string }): Promise<SessionResponse> {
    const hash = hashToken(input.token);
    const invite = await this.d.invites.findUsable(hash, Date.now());
    const user = invite ? await this.d.users.findById(invite.user_id) : undefined;
    if (!invite || user?.status !== 'invited') throw new AppError('ErrInviteLinkInvalid');
    const passwordHash = await hashPassword(input.password);
    if (!(await this.d.invites.claim(hash, Date.now()))) throw new AppError('ErrInviteLinkInvalid');
    await this.d.users
      .update(user.id, { username: input.username, password_hash: passwordHash, status: 'active' })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
      });
    return this.d.auth.sessionFor(user.id);
  }
}
