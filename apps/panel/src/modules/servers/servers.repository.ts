import { sql, type Selectable } from 'kysely';
import { emptyServerPermissions, serverPermissions, type ServerPermissionSet } from '@hearth/contract';
import { AppError } from '@hearth/contract';
import type { Db } from '../../db/connect';
import { isUniqueViolation } from '../../db/errors';
import { ReadCache } from '../../db/read-cache';
import { permissionColumn } from '../../db/permission-columns';
import type { NodesTable, PermissionsTable, ServersTable } from '../../db/types';

export type ServerRow = Selectable<ServersTable>;
export type ServerWithNode = ServerRow & {
  node_name: string;
  public_host: string;
  public_port: number;
  sftp_port: number;
};
type PermRow = Selectable<PermissionsTable>;

/** How long another panel process's change to the list may take to show here (this process's: at once). */
const PAGE_CACHE_TTL_MS = 1_000;
/**
 * The same bound for the access check of every proxied request (the server's node, a user's permission row):
 * this process's own grants, removals and deletions drop the entries at once (docs/security.md § Proxy path).
 */
const ACCESS_CACHE_TTL_MS = 1_000;

export function serverPermsOf(row: PermRow | undefined): ServerPermissionSet {
  const set = emptyServerPermissions();
  for (const flag of serverPermissions) {
    set[flag] = Number(row?.[permissionColumn(flag) as keyof PermRow]) === 1;
  }
  return set;
}

interface PageOptions {
  offset: number;
  limit: number;
  userId?: string;
  ownerId?: string;
  q?: string;
}

/** SQL for servers and their per-server permission rows (permissions table, `server_id` = the server). */
export interface ServersPage {
  rows: ServerWithNode[];
  total: number;
}

export class ServersRepository {
  private readonly pages: ReadCache<ServersPage>;
  private readonly nodes: ReadCache<string | undefined>;
  private readonly grants: ReadCache<Readonly<PermRow> | undefined>;

  constructor(private readonly db: Db) {
    this.pages = new ReadCache(db.writes, PAGE_CACHE_TTL_MS, 500);
    this.nodes = new ReadCache(db.writes, ACCESS_CACHE_TTL_MS, 5_000);
    this.grants = new ReadCache(db.writes, ACCESS_CACHE_TTL_MS, 5_000);
  }

  private withNode() {
    return this.db.kysely
      .selectFrom('servers')
      .innerJoin('nodes', 'nodes.id', 'servers.node_id')
      .selectAll('servers')
      .select([
        'nodes.name as node_name',
        'nodes.public_host as public_host',
        'nodes.public_port as public_port',
        'nodes.sftp_port as sftp_port',
      ] as const satisfies ReadonlyArray<`nodes.${keyof NodesTable} as ${string}`>);
  }

  find(id: string): Promise<ServerWithNode | undefined> {
    return this.withNode().where('servers.id', '=', id).executeTakeFirst();
  }

  /** The node a server lives on, for the access check of every request (cached briefly, see above). */
  nodeOf(id: string): Promise<string | undefined> {
    return this.nodes.get(id, async () => {
      const row = await this.db.kysely
        .selectFrom('servers')
        .select('node_id')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.node_id;
    });
  }

  /** `permissionsOf` for the access check of every request: cached briefly, the row frozen (shared). */
  grantOf(userId: string, serverId: string): Promise<Readonly<PermRow> | undefined> {
    return this.grants.get(JSON.stringify([userId, serverId]), async () => {
      const row = await this.permissionsOf(userId, serverId);
      return row && Object.freeze(row);
    });
  }

  /**
   * A page of servers and the total (the hot list: cached briefly, dropped on any write in this process).
   * `userId` limits it to servers the user has a permission row on; `q` to names containing it (any case);
   * `ownerId` puts that user's own servers (a permission row) first, so an administrator sees theirs on page 1.
   */
  page(opts: PageOptions): Promise<ServersPage> {
    const key = JSON.stringify([
      opts.userId ?? '*',
      opts.ownerId ?? '',
      opts.q ?? '',
      opts.offset,
      opts.limit,
    ]);
    return this.pages.get(key, () => this.readPage(opts));
  }

  /**
   * Over the network one round trip matters most: `count(*) over ()` (PostgreSQL, MariaDB ≥ 10.2) returns
   * the total with the page. In-process SQLite it is slower than a LIMITed index scan plus a count (the
   * window makes it read every row), so there it stays two statements.
   */
  private async readPage(opts: PageOptions): Promise<ServersPage> {
    let base = this.withNode();
    let count = this.db.kysely.selectFrom('servers').select((eb) => eb.fn.countAll<number>().as('n'));
    if (opts.q) {
      // lower() on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's and MariaDB's are not.
      // '!' escapes the wildcards: a backslash would itself need escaping in MariaDB's string literals.
      const pattern = `%${opts.q.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
      const named = sql<boolean>`lower(servers.name) like ${pattern} escape '!'`;
      base = base.where(named);
      count = count.where(named);
    }
    if (opts.ownerId) {
      const owned = this.db.kysely
        .selectFrom('permissions')
        .select('server_id')
        .where('user_id', '=', opts.ownerId);
      base = base.orderBy(sql`case when servers.id in (${owned}) then 0 else 1 end`);
    }
    if (opts.userId) {
      const mine = this.db.kysely
        .selectFrom('permissions')
        .select('server_id')
        .where('user_id', '=', opts.userId)
        .where('server_id', '!=', '');
      base = base.where('servers.id', 'in', mine);
      count = count.where('servers.id', 'in', mine);
    }
    if (this.db.dialect === 'sqlite') {
      const rows = await base.orderBy('servers.name').offset(opts.offset).limit(opts.limit).execute();
      return { rows, total: Number((await count.executeTakeFirstOrThrow()).n) };
    }
    const rows = await base
      .select(sql<number>`count(*) over ()`.as('total_count'))
      .orderBy('servers.name')
      .offset(opts.offset)
      .limit(opts.limit)
      .execute();
    const total = rows[0] ? rows[0].total_count : (await count.executeTakeFirstOrThrow()).n;
    return { rows: rows.map(({ total_count: _n, ...row }) => row), total: Number(total) };
  }

  async insert(row: ServerRow, owners: string[]): Promise<void> {
    try {
      await this.db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('servers').values(row).execute();
        for (const userId of new Set(owners)) {
          await trx
            .insertInto('permissions')
            .values(this.permValues(userId, row.id, null))
            .execute();
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('ErrDuplicateServerName', undefined, { cause: err });
      throw err;
    }
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      // The server's OAuth2 clients and their tokens go with it.
      const clients = trx.selectFrom('oauth2_clients').select('id').where('server_id', '=', id);
      await trx.deleteFrom('sessions').where('client_id', 'in', clients).execute();
      await trx.deleteFrom('oauth2_clients').where('server_id', '=', id).execute();
      await trx.deleteFrom('permissions').where('server_id', '=', id).execute();
      await trx.deleteFrom('servers').where('id', '=', id).execute();
    });
  }

  /**
   * A transfer's switch (docs/operations.md § Moving a server between nodes): the row names the new node, in a
   * transaction, only if it still names the old one; false otherwise. The write drops the hot-path caches.
   */
  async moveNode(id: string, from: string, to: string): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('servers')
        .set({ node_id: to })
        .where('id', '=', id)
        .where('node_id', '=', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }

  async rename(id: string, name: string): Promise<void> {
    try {
      await this.db.kysely.updateTable('servers').set({ name }).where('id', '=', id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('ErrDuplicateServerName', undefined, { cause: err });
      throw err;
    }
  }

  permissionsOf(userId: string, serverId: string): Promise<PermRow | undefined> {
    return this.db.kysely
      .selectFrom('permissions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('server_id', '=', serverId)
      .executeTakeFirst();
  }

  /** A user's row on the server (undefined: none) and whether their panel row makes them an administrator. */
  async holdingOf(userId: string, serverId: string): Promise<{ admin: boolean; row: PermRow | undefined }> {
    const rows = await this.db.kysely
      .selectFrom('permissions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('server_id', 'in', ['', serverId])
      .execute();
    const panel = rows.find((r) => r.server_id === '');
    return { admin: Number(panel?.admin) === 1, row: rows.find((r) => r.server_id === serverId) };
  }

  users(serverId: string) {
    return this.db.kysely
      .selectFrom('permissions')
      .innerJoin('users', 'users.id', 'permissions.user_id')
      .selectAll('permissions')
      .select(['users.email as email', 'users.username as username', 'users.status as status'])
      .where('permissions.server_id', '=', serverId)
      .orderBy('users.email')
      .execute();
  }

  /** Replaces a user's row on a server (`null` perms = every server flag). */
  async setUser(userId: string, serverId: string, perms: ServerPermissionSet | null): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await this.removeUserIn(trx, userId, serverId);
      await trx
        .insertInto('permissions')
        .values(this.permValues(userId, serverId, perms))
        .execute();
    });
  }

  removeUser(userId: string, serverId: string): Promise<unknown> {
    return this.removeUserIn(this.db.kysely, userId, serverId);
  }

  private removeUserIn(q: Db['kysely'], userId: string, serverId: string) {
    return q
      .deleteFrom('permissions')
      .where('user_id', '=', userId)
      .where('server_id', '=', serverId)
      .execute();
  }

  private permValues(userId: string, serverId: string, perms: ServerPermissionSet | null): PermissionsTable {
    const values: Record<string, string | number> = { user_id: userId, server_id: serverId };
    for (const flag of serverPermissions)
      values[permissionColumn(flag)] = perms === null || perms[flag] ? 1 : 0;
    return values as unknown as PermissionsTable;
  }
}
