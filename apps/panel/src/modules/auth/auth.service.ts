import { AppError, scopesFor } from '@hearth/contract';
import type { SessionResponse } from '@hearth/contract/auth';
import { verifyPassword } from '../../lib/passwords';
import type { AuthLimits, RateLimiter } from '../../lib/rate-limiter';
import type { SecretsAtRest } from '../../lib/secrets-at-rest';
import { verifyTotp } from '../../lib/totp';
import type { ActivityService } from '../activity/activity.service';
import type { EmailService } from '../email/email.service';
import type { RecoveryCodes } from '../recovery/recovery.service';
import type { SessionRow } from '../sessions/sessions.repository';
import type { SessionsService } from '../sessions/sessions.service';
import type { SettingsService } from '../settings/settings.service';
import type { PermissionsRepository } from '../users/permissions.repository';
import type { NewAccount, UserCreator } from '../users/user-creator';
import type { UserRow, UsersRepository } from '../users/users.repository';

/** A login that still needs its second factor lives 5 minutes. */
export const PENDING_OTP_TTL_MS = 5 * 60 * 1000;

export interface AuthDeps {
  users: UsersRepository;
  permissions: PermissionsRepository;
  creator: UserCreator;
  sessions: SessionsService;
  settings: SettingsService;
  email: EmailService;
  limiter: RateLimiter;
  limits: AuthLimits;
  /** TOTP secrets are stored sealed (docs/security.md § Secrets at rest). */
  secrets: SecretsAtRest;
  activity: ActivityService;
  recovery: RecoveryCodes;
}

export type LoginResult = { kind: 'session'; body: SessionResponse } | { kind: 'otp'; pendingToken: string };

export class AuthService {
  constructor(private readonly d: AuthDeps) {}

  async sessionFor(userId: string): Promise<SessionResponse> {
    const { token } = await this.d.sessions.issue(userId);
    return { session: token, scopes: scopesFor(await this.d.permissions.panelPermissions(userId)) };
  }

  /** Same answer and the same argon2 work for an unknown e-mail and a wrong password. */
  async login(ip: string, email: string, password: string): Promise<LoginResult> {
    this.d.limiter.hit(`login:ip:${ip}`, this.d.limits.loginPerIp);
    this.d.limiter.hit(`login:account:${email.toLowerCase()}`, this.d.limits.loginPerAccount);
    const user = await this.d.users.findByEmail(email);
    const ok = await verifyPassword(user?.password_hash, password);
    if (!user || !ok || user.status !== 'active') {
      // The e-mail tried is kept (never the password): repeated failures for one account show (docs/activity.md).
      await this.d.activity.record({
        actor: { type: 'user', id: user?.id ?? null, label: user?.username ?? '', ip },
        action: 'auth.login.failed',
        details: { email: email.slice(0, 191) },
      });
      throw new AppError('ErrInvalidCredentials');
    }
    const actor = { type: 'user', id: user.id, label: user.username, ip } as const;
    await this.d.activity.record({
      actor,
      action: 'auth.login.success',
      details: { otpRequired: user.otp_enabled === 1 },
    });
    if (user.otp_enabled === 1 && user.otp_secret) {
      const pending = await this.d.sessions.issue(user.id, 'otp', null, PENDING_OTP_TTL_MS);
      return { kind: 'otp', pendingToken: pending.token };
    }
    return { kind: 'session', body: await this.sessionFor(user.id) };
  }

  async completeOtp(ip: string, pendingToken: string | undefined, code: string): Promise<SessionResponse> {
    this.d.limiter.hit(`otp:ip:${ip}`, this.d.limits.otpPerIp);
    const pending = pendingToken ? await this.d.sessions.resolve(pendingToken, ['otp']) : undefined;
    if (!pending) throw new AppError('ErrSessionExpired');
    this.d.limiter.hit(`otp:account:${pending.user_id}`, this.d.limits.otpPerAccount);
    const user = await this.d.users.findById(pending.user_id);
    if (!user?.otp_secret) throw new AppError('ErrSessionExpired');
    const actor = { type: 'user', id: user.id, label: user.username, ip } as const;
    await this.checkSecondFactor(user, user.otp_secret, code).catch(async (err: unknown) => {
      await this.d.activity.record({ actor, action: 'auth.otp.failed' });
      throw err;
    });
    if (this.d.recovery.isRecoveryCode(code)) {
      const left = await this.d.recovery.left(user.id);
      await this.d.activity.record({ actor, action: 'account.otp.recovery.used', details: { left } });
    }
    await this.d.sessions.revoke(pending.token_hash);
    return this.sessionFor(user.id);
  }

  /**
   * A right code whose time step was already used is refused: each code works once. `stored` is the secret as
   * the users row holds it (sealed, or clear from before sealing existed).
   */
  async checkCode(user: UserRow, stored: string, code: string): Promise<void> {
    const step = verifyTotp(this.d.secrets.openTotp(stored), code);
    // The password already passed at this point: naming the wrong code tells the user what to fix, nothing more.
    if (step === undefined) throw new AppError('ErrOtpWrong');
    if (!(await this.d.users.claimOtpCounter(user.id, step))) throw new AppError('ErrOtpAlreadyUsed');
  }

  /** At login a recovery code (docs/security.md § Two-factor) may stand in for the app's code, once. */
  private async checkSecondFactor(user: UserRow, stored: string, code: string): Promise<void> {
    if (!this.d.recovery.isRecoveryCode(code)) return this.checkCode(user, stored, code);
    if (!(await this.d.recovery.use(user.id, code))) throw new AppError('ErrOtpWrong');
  }

  /** A new TOTP secret (base32) in the form the users row stores it. */
  sealTotp(secret: string): string {
    return this.d.secrets.sealTotp(secret);
  }

  /** A stored TOTP secret sealed now (a legacy clear value is sealed on this write). */
  resealTotp(stored: string): string {
    return this.d.secrets.sealTotp(this.d.secrets.openTotp(stored));
  }

  /** Self-registered users hold nothing (a permission row with no flag, empty scopes) until someone grants it. */
  async register(ip: string, input: NewAccount): Promise<SessionResponse> {
    const settings = await this.d.settings.effective();
    if (settings['panel.registrationEnabled'] !== true) throw new AppError('ErrRegistrationDisabled');
    this.d.limiter.hit(`register:ip:${ip}`, this.d.limits.registerPerIp);
    const { user, session } = await this.d.creator.create(input, { access: 'none', session: true });
    this.d.email.send('accountCreated', user.email, { username: user.username }, { userId: user.id });
    return session;
  }

  async reauth(current: SessionRow): Promise<SessionResponse> {
    const { token } = await this.d.sessions.refresh(current);
    return { session: token, scopes: scopesFor(await this.d.permissions.panelPermissions(current.user_id)) };
  }
}
