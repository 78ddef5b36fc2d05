import { AppError } from '@hearth/contract';
import type { InviteAcceptBody, InviteCreated } from '@hearth/contract/accounts';
import type { SessionResponse } from '@hearth/contract/auth';
import type { LocaleCode } from '@hearth/contract/locales';
import { hashToken, randomToken } from '../../lib/tokens';
import type { EmailService } from '../email/email.service';
import type { AccountTx } from '../users/accounts.repository';
import type { UserCreator } from '../users/user-creator';
import type { UsersRepository } from '../users/users.repository';
import type { InvitesRepository } from './invites.repository';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InvitesDeps {
  invites: InvitesRepository;
  users: UsersRepository;
  creator: UserCreator;
  email: EmailService;
}

/**
 * Invitations: a pending account (status `invited`, no password, a placeholder username, no access) plus a
 * single-use token that expires; accepting sets username and password and logs the person in. Both steps go
 * through the one user creation (modules/users/user-creator.ts).
 */
export class InvitesService {
  constructor(private readonly d: InvitesDeps) {}

  /** `locale` (the inviting admin's choice) becomes the new account's language; without it, the panel default. */
  async invite(email: string, locale?: LocaleCode): Promise<InviteCreated & { token: string }> {
    const token = randomToken();
    const now = Date.now();
    const expiresAt = now + INVITE_TTL_MS;
    const user = await this.d.creator.createInvited(email, (q, pending) =>
      this.d.invites.insert(
        {
          token_hash: hashToken(token),
          user_id: pending.id,
          expires_at: expiresAt,
          used_at: null,
          created_at: now,
        },
        locale,
        q,
      ),
    );
    const link = `${await this.d.email.masterUrl()}/auth/invite?token=${encodeURIComponent(token)}`;
    // Awaited, unlike other mails: the inviter is told whether it went out, and gets the link either way.
    const mail = await this.d.email.sendReporting(
      'invitation',
      user.email,
      { link },
      { userId: user.id, locale },
    );
    return { id: user.id, email: user.email, expiresAt, link, mail, token };
  }

  async accept(input: InviteAcceptBody): Promise<SessionResponse> {
    const hash = hashToken(input.token);
    const invite = await this.d.invites.findUsable(hash, Date.now());
    const user = invite ? await this.d.users.findById(invite.user_id) : undefined;
    if (!invite || user?.status !== 'invited') throw new AppError('ErrInviteLinkInvalid');
    const claim = async (q: AccountTx) => {
      if (!(await this.d.invites.claim(hash, Date.now(), q))) throw new AppError('ErrInviteLinkInvalid');
    };
    const { username, password } = input;
    return this.d.creator.acceptInvitation(user.id, { username, password }, claim);
  }
}
