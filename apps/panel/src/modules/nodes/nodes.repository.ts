import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connect';
import { isUniqueViolation } from '../../db/errors';
import { ReadCache } from '../../db/read-cache';
import type { NodesTable } from '../../db/types';
import { AppError } from '@hearth/contract';

export type NodeRow = Selectable<NodesTable>;

/**
 * How long another panel process's change to a node's address may take to reach this process's link (its
 * own changes: at once, any write drops the entries).
 */
const LINK_CACHE_TTL_MS = 1_000;

/** SQL for nodes only. */
export class NodesRepository {
  readonly #forLink: ReadCache<Readonly<NodeRow> | undefined>;

  constructor(private readonly db: Db) {
    this.#forLink = new ReadCache(db.writes, LINK_CACHE_TTL_MS, 1_000);
  }

  list(): Promise<NodeRow[]> {
    return this.db.kysely.selectFrom('nodes').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  findById(id: string): Promise<NodeRow | undefined> {
    return this.db.kysely.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** `findById` for the node link's every call (address, link mode): cached briefly, the row frozen (shared). */
  findForLink(id: string): Promise<Readonly<NodeRow> | undefined> {
    return this.#forLink.get(id, async () => {
      const row = await this.findById(id);
      return row && Object.freeze(row);
    });
  }

  /** The nodes that dial in (docs/operations.md § Remote node): the SFTP relay listens for each. */
  listOutbound(): Promise<NodeRow[]> {
    return this.db.kysely
      .selectFrom('nodes')
      .selectAll()
      .where('link', '=', 'outbound')
      .where('is_local', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Another outbound node whose SFTP relay port is `port` (each needs its own listener on the panel). */
  async outboundPortTaken(port: number, exceptId: string | null): Promise<boolean> {
    let query = this.db.kysely
      .selectFrom('nodes')
      .select('id')
      .where('link', '=', 'outbound')
      .where('sftp_port', '=', port);
    if (exceptId) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  findLocal(): Promise<NodeRow | undefined> {
    return this.db.kysely.selectFrom('nodes').selectAll().where('is_local', '=', 1).executeTakeFirst();
  }

  async insert(row: Insertable<NodesTable>): Promise<void> {
    try {
      await this.db.kysely.insertInto('nodes').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('ErrDuplicateNodeName', undefined, { cause: err });
      throw err;
    }
  }

  async update(id: string, changes: Partial<Omit<NodeRow, 'id' | 'created_at'>>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    try {
      await this.db.kysely.updateTable('nodes').set(changes).where('id', '=', id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('ErrDuplicateNodeName', undefined, { cause: err });
      throw err;
    }
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.deleteFrom('nodes').where('id', '=', id).execute();
  }

  async serverCount(id: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('servers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('node_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
