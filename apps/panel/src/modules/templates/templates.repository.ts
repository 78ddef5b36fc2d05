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

/** What the last import of a template brought (migration 0013): the import list's state is computed from it. */
export interface TemplateImportsTable {
  template_id: string;
  source: string;
  /** `definitionHash` of the definition as imported. */
  definition_hash: string;
  version: string | null;
  imported_at: number;
}

// The tables belong to this module; they join the panel's row types here rather than in db/types.ts.
declare module '../../db/types' {
  interface Database {
    templates: TemplatesTable;
    template_imports: TemplateImportsTable;
  }
}

export type TemplateRow = TemplatesTable;
export type TemplateImportRow = TemplateImportsTable;
type Writer = Db['kysely'];

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
  async upsert(row: TemplateRow, db: Writer = this.db.kysely): Promise<void> {
    const { id: _id, created_at: _created, ...changes } = row;
    const insert = db.insertInto('templates').values(row);
    if (this.db.dialect === 'mysql') await insert.onDuplicateKeyUpdate(changes).execute();
    else await insert.onConflict((oc) => oc.column('id').doUpdateSet(changes)).execute();
  }

  /** Inserts unless a template with that id exists (decided by the database, so two imports cannot race). */
  async insertNew(row: TemplateRow, db: Writer = this.db.kysely): Promise<boolean> {
    const insert = db.insertInto('templates').values(row);
    if (this.db.dialect !== 'mysql') {
      const result = await insert.onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    }
    // Not INSERT IGNORE: it would turn every other error into a warning too.
    return insert.execute().then(
      () => true,
      (err: unknown) => {
        if ((err as { code?: unknown }).code === 'ER_DUP_ENTRY') return false;
        throw err;
      },
    );
  }

  /**
   * Stores an imported template and its import record in one transaction. `overwrite: false` stores nothing
   * and answers false when a template with that id exists.
   */
  storeImport(row: TemplateRow, record: TemplateImportRow, overwrite: boolean): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      if (overwrite) await this.upsert(row, trx);
      else if (!(await this.insertNew(row, trx))) return false;
      const { template_id: _id, ...changes } = record;
      const insert = trx.insertInto('template_imports').values(record);
      if (this.db.dialect === 'mysql') await insert.onDuplicateKeyUpdate(changes).execute();
      else await insert.onConflict((oc) => oc.column('template_id').doUpdateSet(changes)).execute();
      return true;
    });
  }

  listImports(): Promise<TemplateImportRow[]> {
    return this.db.kysely.selectFrom('template_imports').selectAll().execute();
  }

  /** Deletes the template and its import record together. */
  delete(id: string): Promise<boolean> {
    return this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('template_imports').where('template_id', '=', id).execute();
      const result = await trx.deleteFrom('templates').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
