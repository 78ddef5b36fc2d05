import { sql, type Kysely } from 'kysely';

/**
 * The encrypted panel ↔ node link (docs/security.md § Node link): each node's link mode, the certificate the
 * panel generated for it with its SHA-256 fingerprint (the pin), and — sealed with the data folder's secret
 * box — the certificate's private key and the node credential's secret, so the deployment instructions can be
 * shown again complete. Nodes from before this migration have no certificate: they stay `pinned` without a
 * pin, are reached over plain HTTP as before, and the Node page asks for a rotation. The local node of
 * `hearth start` is on loopback and stays plain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('nodes')
    .addColumn('tls_mode', 'varchar(16)', (c) => c.notNull().defaultTo('pinned'))
    .execute();
  await db.schema.alterTable('nodes').addColumn('tls_cert', 'text').execute();
  await db.schema.alterTable('nodes').addColumn('tls_fingerprint', 'varchar(128)').execute();
  await db.schema.alterTable('nodes').addColumn('tls_key_sealed', 'text').execute();
  await db.schema.alterTable('nodes').addColumn('secret_sealed', 'text').execute();
  await sql`update nodes set tls_mode = 'plain' where is_local = 1`.execute(db);
}

export async function down(): Promise<void> {}
