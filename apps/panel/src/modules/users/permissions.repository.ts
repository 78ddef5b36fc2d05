import {
  emptyPanelPermissions,
  panelPermissions,
  type PanelPermission,
  type PanelPermissionSet,
} from '@hearth/contract';
import type { Db } from '../../db/connect';
import { permissionColumn } from '../../db/permission-columns';
import type { PermissionsTable } from '../../db/types';

type Column = keyof PermissionsTable;
const column = (flag: PanelPermission) => permissionColumn(flag) as Column;

/** SQL for permission rows. The panel-level row of a user has `server_id = ''`. */
export class PermissionsRepository {
  constructor(private readonly db: Db) {}

  async panelPermissions(userId: string): Promise<PanelPermissionSet> {
    const row = await this.db.kysely
      .selectFrom('permissions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('server_id', '=', '')
      .executeTakeFirst();
    const set = emptyPanelPermissions();
    if (!row) return set;
    for (const flag of panelPermissions) set[flag] = Number(row[column(flag)]) === 1;
    return set;
  }

  /** Replaces the panel-level row (delete + insert in one transaction: portable, no upsert dialects). */
  async setPanelPermissions(userId: string, set: PanelPermissionSet): Promise<void> {
    const values: Record<string, string | number> = { user_id: userId, server_id: '' };
    for (const flag of panelPermissions) values[column(flag)] = set[flag] ? 1 : 0;
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('permissions').where('user_id', '=', userId).where('server_id', '=', '').execute();
      await trx
        .insertInto('permissions')
        .values(values as unknown as PermissionsTable)
        .execute();
    });
  }
}
