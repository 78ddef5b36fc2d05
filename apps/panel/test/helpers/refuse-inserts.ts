import { sql } from 'kysely';
import type { Db } from '../../src/db';

/**
 * Makes the database itself refuse every insert into `table` (a trigger that raises an error) until the returned
 * function is called: a real failure half-way through a write, the same on SQLite, PostgreSQL and MariaDB, and
 * seen by every connection (a CLI process on the same database too).
 */
export async function refuseInserts(db: Db, table: 'permissions' | 'invites'): Promise<() => Promise<void>> {
  const name = `hearth_test_refuse_${table}`;
  const run = (statement: string) => sql.raw(statement).execute(db.kysely);
  switch (db.dialect) {
    case 'sqlite':
      await run(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      return async () => void (await run(`DROP TRIGGER ${name}`));
    case 'postgres':
      await run(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
      );
      await run(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
      return async () => {
        await run(`DROP TRIGGER ${name} ON ${table}`);
        await run(`DROP FUNCTION ${name}()`);
      };
    case 'mysql':
      await run(
        `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'`,
      );
      return async () => void (await run(`DROP TRIGGER ${name}`));
  }
}
