import type { Db } from '../../db/connect';

/** One stored template: `definition` is the canonical JSON (schema output), `warnings` a JSON list. */
export interface TemplatesTable {
  id: string;
  display: string;
  type: string;
  definition: string;
  warnings: string;
  created_at: number;
  updated_at: number;
}

// The table belongs to this module; it joins the panel's row types here rather than in db/types.ts.
declare module '../../db/types' {
  interface Database {
    templates: TemplatesTable;
  }
}

export type TemplateRow = TemplatesTable;

/** SQL for templates, the same on SQLite, PostgreSQL and MySQL/MariaDB. */
export class TemplatesRepository {
  constructor(private readonly db: Db) {}

  list(): Promise<TemplateRow[]> {
    return this.db.kysely.selectFrom('templates').selectAll().orderBy('id').execute();
  }

  get(id: string): Promise<TemplateRow | undefined> {
    return this.db.kysely.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Insert or overwrite in one atomic statement: an import never leaves half a template behind. */
  async upsert(row: TemplateRow): Promise<void> {
    const { id: _id, created_at: _created, ...changes } = row;
    const insert = this.db.kysely.insertInto('templates').values(row);
    if (this.db.dialect === 'mysql') await insert.onDuplicateKeyUpdate(changes).execute();
    else await insert.onConflict((oc) => oc.column('id').doUpdateSet(changes)).execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('templates').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
