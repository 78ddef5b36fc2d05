import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import type { UsersTable } from '../../db/types';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string | null;
  status?: 'active' | 'invited';
}

/** SQL for users only. E-mails are stored lower-cased; usernames keep their case but are unique ignoring it. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** `q`: a transaction to run in (a new account commits with its permission row: accounts.repository.ts). */
  async insert(user: NewUser, q: Db['kysely'] = this.db.kysely): Promise<UserRow> {
    const now = Date.now();
    const row: UserRow = {
      id: randomUUID(),
      username: user.username,
      username_key: user.username.toLowerCase(),
      email: user.email.toLowerCase(),
      password_hash: user.passwordHash,
      status: user.status ?? 'active',
      otp_secret: null,
      otp_pending_secret: null,
      otp_enabled: 0,
      otp_last_counter: null,
      created_at: now,
      updated_at: now,
    };
    await q.insertInto('users').values(row).execute();
    return row;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** `q`: a transaction to run in (a password change commits with what it revokes). */
  async update(
    id: string,
    changes: Partial<Omit<UserRow, 'id' | 'created_at'>>,
    q: Db['kysely'] = this.db.kysely,
  ): Promise<void> {
    const patch = { ...changes, updated_at: Date.now() };
    if (changes.username !== undefined) patch.username_key = changes.username.toLowerCase();
    if (changes.email !== undefined) patch.email = changes.email.toLowerCase();
    await q.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** Records a TOTP step as used only if it is newer than the last one: one winner even under races. */
  async claimOtpCounter(id: string, counter: number): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('users')
      .set({ otp_last_counter: counter })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('otp_last_counter', 'is', null), eb('otp_last_counter', '<', counter)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** `search` matches the username case-insensitively (lower() on both sides: collations differ per dialect). */
  async page(options: {
    page: number;
    limit: number;
    search?: string;
  }): Promise<{ rows: UserRow[]; total: number }> {
    let query = this.db.kysely.selectFrom('users');
    if (options.search) {
      // '!' as the LIKE escape: backslash escaping differs between dialects ('\\' is invalid on PostgreSQL).
      const pattern = `%${options.search.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
      query = query.where(sql<boolean>`lower(username) like ${pattern} escape '!'`);
    }
    const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('username_key')
      .limit(options.limit)
      .offset((options.page - 1) * options.limit)
      .execute();
    return { rows, total: Number(total.n) };
  }
}
