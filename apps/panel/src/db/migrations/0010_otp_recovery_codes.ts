import type { Kysely } from 'kysely';

/**
 * Two-factor recovery codes (docs/security.md § Two-factor): one row per code, stored as its SHA-256 only, and
 * marked used (never deleted) when it replaces a code from the app at login, so the account page can count
 * what is left. The rows go with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('otp_recovery_codes')
    .ifNotExists()
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('otp_recovery_codes_user_idx')
    .ifNotExists()
    .on('otp_recovery_codes')
    .column('user_id')
    .execute();
}

export async function down(): Promise<void> {}
