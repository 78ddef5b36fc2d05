import { AppError, emptyPanelPermissions, scopesFor } from '@hearth/contract';
import type { SessionResponse } from '@hearth/contract/auth';
import { hashToken, randomToken } from '../../lib/tokens';
import { hashPassword } from '../../lib/passwords';
import type { SettingsRepository } from '../settings/settings.repository';
import type { UsersRepository } from '../users/users.repository';
import type { PermissionsRepository } from '../users/permissions.repository';
import type { SessionsService } from '../sessions/sessions.service';
import { isUniqueViolation } from '../../db/errors';

/** Internal settings key (not reachable through /api/settings, which accepts listed keys only). */
const SETUP_KEY = 'internal.setupTokenHash';

export interface SetupDeps {
  settings: SettingsRepository;
  users: UsersRepository;
  permissions: PermissionsRepository;
  sessions: SessionsService;
}

/** First-run setup: a one-time link lets the newcomer create the first administrator. */
export class SetupService {
  constructor(private readonly deps: SetupDeps) {}

  /** With no users yet, makes a fresh single-use token (only its hash is stored) and returns it. */
  async prepare(): Promise<string | undefined> {
    if ((await this.deps.users.count()) > 0) {
      await this.deps.settings.delete(SETUP_KEY);
      return undefined;
    }
    const token = randomToken();
    await this.deps.settings.setMany([[SETUP_KEY, hashToken(token)]]);
    return token;
  }

  async complete(input: {
    token: string;
    username: string;
    email: string;
    password: string;
  }): Promise<SessionResponse> {
    const stored = await this.deps.settings.get(SETUP_KEY);
    if (
      typeof stored !== 'string' ||
      stored !== hashToken(input.token) ||
      (await this.deps.users.count()) > 0
    ) {
      throw new AppError('ErrSetupTokenInvalid');
    }
    const passwordHash = await hashPassword(input.password);
    // Claim the token first: of two racing requests only one deletes the row.
    if (!(await this.claim(stored))) throw new AppError('ErrSetupTokenInvalid');
    const user = await this.deps.users
      .insert({ username: input.username, email: input.email, passwordHash })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? new AppError('ErrDuplicateUser') : err;
      });
    const permissions = { ...emptyPanelPermissions(), admin: true };
    await this.deps.permissions.setPanelPermissions(user.id, permissions);
    const { token } = await this.deps.sessions.issue(user.id);
    return { session: token, scopes: scopesFor(permissions) };
  }

  private async claim(hash: string): Promise<boolean> {
    return this.deps.settings.deleteIf(SETUP_KEY, JSON.stringify(hash));
  }
}
