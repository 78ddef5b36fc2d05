import { AppError } from '@hearth/contract';
import { hashPassword } from '../../lib/passwords';
import type { AuthLimits, RateLimiter } from '../../lib/rate-limiter';
import { hashToken, randomToken } from '../../lib/tokens';
import type { ActivityService } from '../activity/activity.service';
import type { EmailService } from '../email/email.service';
import type { SettingsService } from '../settings/settings.service';
import type { CredentialsRepository } from '../users/credentials.repository';
import type { UsersRepository } from '../users/users.repository';
import type { PasswordResetsRepository } from './password-resets.repository';

/** A reset link works for one hour (docs/security.md § Password reset). */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

export interface PasswordResetDeps {
  resets: PasswordResetsRepository;
  users: UsersRepository;
  credentials: CredentialsRepository;
  settings: SettingsService;
  email: EmailService;
  activity: ActivityService;
  limiter: RateLimiter;
  limits: AuthLimits;
}

/**
 * "Forgot password" (docs/security.md § Password reset): a single-use link that expires, mailed to the account's
 * address, kept as its SHA-256. The request answers the same for every address — no account enumeration — and
 * is rate limited like login. Using the link sets the password and ends every session and OAuth2 secret of the
 * account, as a password change does.
 */
export class PasswordResetService {
  constructor(private readonly d: PasswordResetDeps) {}

  /** Whether the login page offers the link: only with an e-mail provider configured. */
  async enabled(): Promise<boolean> {
    return (await this.d.settings.effective())['panel.email.provider'] !== 'none';
  }

  async request(ip: string, email: string): Promise<void> {
    this.d.limiter.hit(`reset:ip:${ip}`, this.d.limits.loginPerIp);
    this.d.limiter.hit(`reset:account:${email.toLowerCase()}`, this.d.limits.loginPerAccount);
    if (!(await this.enabled())) return;
    const user = await this.d.users.findByEmail(email);
    if (user?.status !== 'active') return;
    const token = randomToken();
    const now = Date.now();
    await this.d.resets.insert({
      token_hash: hashToken(token),
      user_id: user.id,
      expires_at: now + PASSWORD_RESET_TTL_MS,
      used_at: null,
      created_at: now,
    });
    const link = `${await this.d.email.masterUrl()}/auth/reset?token=${encodeURIComponent(token)}`;
    // Sent in the background: how long the provider takes must not tell whether the address has an account.
    this.d.email.send('passwordReset', user.email, { username: user.username, link }, { userId: user.id });
    const actor = { type: 'user', id: user.id, label: user.username, ip } as const;
    await this.d.activity.record({ actor, action: 'account.password.reset.requested' });
  }

  async reset(ip: string, token: string, password: string): Promise<void> {
    this.d.limiter.hit(`reset:ip:${ip}`, this.d.limits.loginPerIp);
    const row = await this.d.resets.findUsable(hashToken(token), Date.now());
    const user = row ? await this.d.users.findById(row.user_id) : undefined;
    if (!row || user?.status !== 'active') throw new AppError('ErrResetLinkInvalid');
    const passwordHash = await hashPassword(password);
    if (!(await this.d.resets.claim(row, Date.now()))) throw new AppError('ErrResetLinkInvalid');
    await this.d.credentials.changePassword(user.id, { password_hash: passwordHash });
    const actor = { type: 'user', id: user.id, label: user.username, ip } as const;
    await this.d.activity.record({ actor, action: 'account.password.reset', details: { userId: user.id } });
    this.d.email.send('passwordChanged', user.email, { username: user.username }, { userId: user.id });
  }
}
