import { AppError } from '@hearth/contract';
import type { SessionResponse, SetupBody } from '@hearth/contract/auth';
import { hashToken, randomToken } from '../../lib/tokens';
import type { SettingsRepository } from '../settings/settings.repository';
import type { AccountTx } from '../users/accounts.repository';
import type { UserCreator } from '../users/user-creator';
import type { UsersRepository } from '../users/users.repository';

/** Internal settings key (not reachable through /api/settings, which accepts listed keys only). */
const SETUP_KEY = 'internal.setupTokenHash';

export interface SetupDeps {
  settings: SettingsRepository;
  users: UsersRepository;
  creator: UserCreator;
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

  /** Whether `token` is the live setup link; answers nothing more (the token is a random 256-bit value). */
  async check(token: string): Promise<void> {
    const stored = await this.deps.settings.get(SETUP_KEY);
    if (typeof stored !== 'string' || stored !== hashToken(token) || (await this.deps.users.count()) > 0) {
      throw new AppError('ErrSetupTokenInvalid');
    }
  }

  /**
   * The first administrator, logged in. The token is spent in the transaction that creates the account: of two
   * racing requests only one deletes its row, and a creation that fails leaves the link usable.
   */
  async complete(input: SetupBody): Promise<SessionResponse> {
    await this.check(input.token);
    const stored = await this.deps.settings.get(SETUP_KEY);
    const claim = async (q: AccountTx) => {
      if (!(await this.deps.settings.deleteIf(SETUP_KEY, JSON.stringify(stored), q))) {
        throw new AppError('ErrSetupTokenInvalid');
      }
    };
    const { username, email, password } = input;
    const created = await this.deps.creator.create(
      { username, email, password },
      { access: 'admin', session: true, claim },
    );
    return created.session;
  }
}
