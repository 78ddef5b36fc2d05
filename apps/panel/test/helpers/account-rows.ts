import { panelPermissions } from '@hearth/contract';
import type { Db } from '../../src/db';
import { PermissionsRepository } from '../../src/modules/users/permissions.repository';
import { UsersRepository, type UserRow } from '../../src/modules/users/users.repository';

export interface StoredAccount {
  user: UserRow;
  /** Whether the panel-level permission row exists (a missing row would also read as "nothing granted"). */
  hasPanelRow: boolean;
  /** The panel flags the row grants. */
  granted: string[];
}

/** What the database holds for an e-mail, read straight from the tables: undefined when there is no user row. */
export async function storedAccount(db: Db, email: string): Promise<StoredAccount | undefined> {
  const user = await new UsersRepository(db).findByEmail(email);
  if (!user) return undefined;
  const rows = await db.kysely
    .selectFrom('permissions')
    .select('user_id')
    .where('user_id', '=', user.id)
    .where('server_id', '=', '')
    .execute();
  const flags = await new PermissionsRepository(db).panelPermissions(user.id);
  return { user, hasPanelRow: rows.length === 1, granted: panelPermissions.filter((flag) => flags[flag]) };
}
