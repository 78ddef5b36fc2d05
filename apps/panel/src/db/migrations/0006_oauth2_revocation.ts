import type { Kysely } from 'kysely';

/**
 * A password change revokes the account's OAuth2 client secrets (docs/security.md § Sessions and tokens):
 * `revoked_at` marks a client whose secret no longer mints tokens and whose tokens identify nobody. The row
 * stays so the account page can say which integrations need a new client; null = the secret is live.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth2_clients').addColumn('revoked_at', 'bigint').execute();
}

export async function down(): Promise<void> {}
