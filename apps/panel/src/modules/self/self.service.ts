import { AppError } from '@hearth/contract';
import { isUniqueViolation } from '../../db/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { enrolmentQr, newTotpSecret } from '../../lib/totp';
import type { Identity } from '../../app-types';
import type { AuthService } from '../auth/auth.service';
import type { EmailService } from '../email/email.service';
import type { SettingsService } from '../settings/settings.service';
import type { CredentialsRepository } from '../users/credentials.repository';
import type { UserRow, UsersRepository } from '../users/users.repository';
import type { ActivityService } from '../activity/activity.service';
import type { RecoveryCodes } from '../recovery/recovery.service';

export interface SelfDeps {
  users: UsersRepository;
  credentials: CredentialsRepository;
  settings: SettingsService;
  email: EmailService;
  auth: AuthService;
  activity: ActivityService;
  recovery: RecoveryCodes;
}

export class SelfService {
  constructor(private readonly d: SelfDeps) {}

  async me(id: string): Promise<UserRow> {
    const user = await this.d.users.findById(id);
    if (!user) throw new AppError('ErrUserNotFound');
    return user;
  }

  /** Changes info or password; the current password is always required. */
  async update(
    me: Identity,
    input: { username?: string; email?: string; password: string; newPassword?: string },
  ): Promise<void> {
    const user = await this.me(me.userId);
    if (!(await verifyPassword(user.password_hash, input.password)))
      throw new AppError('ErrInvalidCredentials');
    const changes: Partial<UserRow> = {};
    if (input.username !== undefined) changes.username = input.username;
    if (input.email !== undefined) changes.email = input.email;
    const duplicate = (err: unknown) => {
      throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
    };
    if (input.newPassword === undefined) await this.d.users.update(user.id, changes).catch(duplicate);
    else {
      // Other sessions end and every OAuth2 client secret is revoked with the change; this session stays.
      const passwordHash = await hashPassword(input.newPassword);
      await this.d.credentials
        .changePassword(user.id, { ...changes, password_hash: passwordHash }, me.tokenHash)
        .catch(duplicate);
    }
    if (input.email !== undefined && input.email.toLowerCase() !== user.email) {
      this.d.email.send(
        'emailChanged',
        user.email,
        {
          username: user.username,
          newEmail: input.email.toLowerCase(),
        },
        { userId: user.id },
      );
    }
    const changed = Object.keys(changes).concat(input.newPassword === undefined ? [] : ['password']);
    if (changed.length > 0)
      await this.d.activity.here(
        input.newPassword === undefined ? 'user.changed' : 'account.password.changed',
        {
          details: { userId: user.id, changed },
        },
      );
    if (input.newPassword !== undefined) {
      this.d.email.send('passwordChanged', user.email, { username: user.username }, { userId: user.id });
    }
  }

  /** Starts enrolment: a new pending secret; an active 2FA stays active until the new one is confirmed. */
  async startOtp(id: string): Promise<{ secret: string; img: string }> {
    const user = await this.me(id);
    const secret = newTotpSecret();
    await this.d.users.update(id, { otp_pending_secret: this.d.auth.sealTotp(secret) });
    const issuer = String((await this.d.settings.effective())['panel.settings.companyName'] || 'Hearth');
    return { secret, img: await enrolmentQr(secret, user.email, issuer) };
  }

  /** Unused recovery codes: none while two-factor is off. */
  async recoveryCodesLeft(user: UserRow): Promise<number> {
    return user.otp_enabled === 1 ? this.d.recovery.left(user.id) : 0;
  }

  /** Enabling answers the first set of recovery codes, shown once. */
  async confirmOtp(id: string, code: string): Promise<string[]> {
    const user = await this.me(id);
    if (!user.otp_pending_secret) throw new AppError('ErrOtpNotEnrolling');
    await this.d.auth.checkCode(user, user.otp_pending_secret, code);
    await this.d.users.update(id, {
      otp_secret: this.d.auth.resealTotp(user.otp_pending_secret),
      otp_pending_secret: null,
      otp_enabled: 1,
    });
    const codes = await this.d.recovery.issue(id);
    await this.d.activity.here('account.otp.enabled', { details: { userId: id } });
    this.d.email.send('otpEnabled', user.email, { username: user.username }, { userId: id });
    return codes;
  }

  /** A new set of recovery codes (the old one stops working): the current password and an app code. */
  async regenerateRecoveryCodes(id: string, password: string, code: string): Promise<string[]> {
    const user = await this.me(id);
    if (!(await verifyPassword(user.password_hash, password))) throw new AppError('ErrInvalidCredentials');
    if (user.otp_enabled !== 1 || !user.otp_secret) throw new AppError('ErrOtpNotEnrolling');
    await this.d.auth.checkCode(user, user.otp_secret, code);
    const codes = await this.d.recovery.issue(id);
    await this.d.activity.here('account.otp.recovery.regenerated', { details: { userId: id } });
    return codes;
  }

  async disableOtp(id: string, code: string): Promise<void> {
    const user = await this.me(id);
    if (user.otp_enabled !== 1 || !user.otp_secret) throw new AppError('ErrInvalidCredentials');
    await this.d.auth.checkCode(user, user.otp_secret, code);
    await this.d.users.update(id, { otp_secret: null, otp_pending_secret: null, otp_enabled: 0 });
    await this.d.recovery.clear(id);
    await this.d.activity.here('account.otp.disabled', { details: { userId: id } });
    this.d.email.send('otpDisabled', user.email, { username: user.username }, { userId: id });
  }
}
