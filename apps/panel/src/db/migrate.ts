import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './types';
import * as m0001 from './migrations/0001_initial';
import * as m0002 from './migrations/0002_accounts';
import * as m0003 from './migrations/0003_templates';
import * as m0004 from './migrations/0004_nodes_servers';
import * as m0005 from './migrations/0005_node_tls';
import * as m0006 from './migrations/0006_oauth2_revocation';
import * as m0007 from './migrations/0007_backup_permissions';
import * as m0008 from './migrations/0008_activity';
import * as m0009 from './migrations/0009_alerts';
import * as m0010 from './migrations/0010_otp_recovery_codes';
import * as m0011 from './migrations/0011_password_resets';
import * as m0012 from './migrations/0012_node_event_cursors';
import * as m0013 from './migrations/0013_template_imports';
import * as m0014 from './migrations/0014_node_link';

/** A static list (no directory scan): works the same from source, tests and any bundling. */
const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_accounts': m0002,
  '0003_templates': m0003,
  '0004_nodes_servers': m0004,
  '0005_node_tls': m0005,
  '0006_oauth2_revocation': m0006,
  '0007_backup_permissions': m0007,
  '0008_activity': m0008,
  '0009_alerts': m0009,
  '0010_otp_recovery_codes': m0010,
  '0011_password_resets': m0011,
  '0012_node_event_cursors': m0012,
  '0013_template_imports': m0013,
  '0014_node_link': m0014,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * The migrations that come before `name` (migration names sort in order): a database as an older release left
 * it, for the tests of what one migration does to existing rows.
 */
export function migrationsBefore(name: string): Record<string, Migration> {
  if (!(name in migrations)) throw new Error(`no migration ${name}`);
  return Object.fromEntries(Object.entries(migrations).filter(([key]) => key < name));
}

export class MigrationError extends Error {}

/** Applies pending migrations (recorded in Kysely's table; running twice is a no-op). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`Migration ${failed} failed`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
