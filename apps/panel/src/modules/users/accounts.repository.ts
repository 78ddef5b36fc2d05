import type { PanelPermissionSet } from '@hearth/contract';
import type { Db } from '../../db/connect';
import type { PermissionsRepository } from './permissions.repository';
import type { NewUser, UserRow, UsersRepository } from './users.repository';

/** The open transaction a caller's own writes join (repository methods take it as their `q`). */
export type AccountTx = Db['kysely'];

/** Writes of the caller that belong to the same change as the account (a token spent, an invitation row). */
export interface AccountWrites {
  /** Runs first: spending a single-use token here makes a racing second request fail before it writes. */
  before?: (q: AccountTx) => Promise<void>;
  /** Runs after the account's rows exist (rows that refer to the new user). */
  after?: (q: AccountTx, user: UserRow) => Promise<void>;
}

/**
 * An account is its user row and its panel permission row: they are written together or not at all, with the
 * caller's own writes in the same transaction (docs/security.md § Accounts). Anything thrown inside — a
 * duplicate, a spent token, a failing insert — rolls everything back.
 */
export class AccountsRepository {
  constructor(
    private readonly db: Db,
    private readonly users: UsersRepository,
    private readonly permissions: PermissionsRepository,
  ) {}

  insert(user: NewUser, access: PanelPermissionSet, writes: AccountWrites = {}): Promise<UserRow> {
    return this.db.kysely.transaction().execute(async (trx) => {
      await writes.before?.(trx);
      const row = await this.users.insert(user, trx);
      await this.permissions.insertPanelRow(row.id, access, trx);
      await writes.after?.(trx, row);
      return row;
    });
  }

  /** A pending (invited) account becomes active with its chosen username and password. */
  async activate(
    userId: string,
    changes: { username: string; passwordHash: string },
    writes: Pick<AccountWrites, 'before'>,
  ): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await writes.before?.(trx);
      await this.users.update(
        userId,
        { username: changes.username, password_hash: changes.passwordHash, status: 'active' },
        trx,
      );
      await this.permissions.ensurePanelRow(userId, trx);
    });
  }
}
