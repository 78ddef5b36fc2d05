import type { Kysely } from 'kysely';

/**
 * "Forgot password" links (docs/security.md § Password reset): the token's SHA-256 only, an expiry, and the
 * time it was used (a link works once). The rows go with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .ifNotExists()
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('password_resets_user_idx')
    .ifNotExists()
    .on('password_resets')
    .column('user_id')
    .execute();
}

export async function down(): Promise<void> {}
