import {
  emptyPanelPermissions,
  emptyServerPermissions,
  panelPermissions,
  serverPermissions,
  type PanelPermission,
  type PanelPermissionSet,
  type ServerPermission,
  type ServerPermissionSet,
} from '@hearth/contract';
import type { Db } from '../../db/connect';
import { permissionColumn } from '../../db/permission-columns';
import type { PermissionsTable } from '../../db/types';

type Column = keyof PermissionsTable;
const column = (flag: PanelPermission | ServerPermission) => permissionColumn(flag) as Column;

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

  /** The user's per-server rows: server id → flags (a row, even without flags, is access to that server). */
  async serverPermissions(userId: string): Promise<Map<string, ServerPermissionSet>> {
    const rows = await this.db.kysely
      .selectFrom('permissions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('server_id', '!=', '')
      .execute();
    const byServer = new Map<string, ServerPermissionSet>();
    for (const row of rows) {
      const set = emptyServerPermissions();
      for (const flag of serverPermissions) set[flag] = Number(row[column(flag)]) === 1;
      byServer.set(row.server_id, set);
    }
    return byServer;
  }

  /** Replaces the panel-level row (delete + insert in one transaction: portable, no upsert dialects). */
  async setPanelPermissions(userId: string, set: PanelPermissionSet): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('permissions').where('user_id', '=', userId).where('server_id', '=', '').execute();
      await this.insertPanelRow(userId, set, trx);
    });
  }

  /** The panel-level row of an account that has none yet; `q`: the transaction creating the account. */
  async insertPanelRow(
    userId: string,
    set: PanelPermissionSet,
    q: Db['kysely'] = this.db.kysely,
  ): Promise<void> {
    const values: Record<string, string | number> = { user_id: userId, server_id: '' };
    for (const flag of panelPermissions) values[column(flag)] = set[flag] ? 1 : 0;
    await q
      .insertInto('permissions')
      .values(values as unknown as PermissionsTable)
      .execute();
  }

  /** Writes an empty panel-level row unless the user has one (an account created before every account had one). */
  async ensurePanelRow(userId: string, q: Db['kysely'] = this.db.kysely): Promise<void> {
    const row = await q
      .selectFrom('permissions')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('server_id', '=', '')
      .executeTakeFirst();
    if (!row) await this.insertPanelRow(userId, emptyPanelPermissions(), q);
  }
}
