import { panelPermissions, emptyPanelPermissions, type PanelPermissionSet } from '@hearth/contract';
import type { Db } from '../../db/connect';
import { permissionColumn } from '../../db/permission-columns';

/** Everything the auth check needs about a token, read in one query. */
export interface TokenIdentityRow {
  userId: string;
  username: string;
  email: string;
  status: string;
  kind: string;
  clientId: string | null;
  /** The server a server-scoped OAuth2 client is bound to (null: not a client token, or an account client). */
  clientServerId: string | null;
  permissions: PanelPermissionSet;
  expiresAt: number;
}

const panelColumns = panelPermissions.map((flag) => `p.${permissionColumn(flag)}` as const);

/**
 * The hot path of every authenticated request: session ⨝ user ⨝ panel permission row ⨝ OAuth2 client in a
 * single round trip (it used to be three queries).
 */
export class IdentityRepository {
  constructor(private readonly db: Db) {}

  async lookup(tokenHash: string, now: number): Promise<TokenIdentityRow | undefined> {
    const row = await this.db.kysely
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('permissions as p', (join) =>
        join.onRef('p.user_id', '=', 's.user_id').on('p.server_id', '=', ''),
      )
      .leftJoin('oauth2_clients as c', 'c.id', 's.client_id')
      .select([
        'u.id as user_id',
        'u.username',
        'u.email',
        'u.status',
        's.kind',
        's.client_id',
        's.expires_at',
      ])
      .select(['c.id as client_row', 'c.server_id as client_server_id', 'c.revoked_at as client_revoked_at'])
      .select(panelColumns as unknown as Array<'p.admin'>)
      .where('s.token_hash', '=', tokenHash)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    // A client token whose client is gone or revoked identifies nobody (deleting a client also deletes its
    // tokens; a password change revokes the secrets and deletes the tokens in one transaction).
    if (row.client_id && (!row.client_row || row.client_revoked_at !== null)) return undefined;
    const permissions = emptyPanelPermissions();
    const cells = row as unknown as Record<string, unknown>;
    for (const flag of panelPermissions) permissions[flag] = Number(cells[permissionColumn(flag)]) === 1;
    return {
      userId: row.user_id,
      username: row.username,
      email: row.email,
      status: row.status,
      kind: row.kind,
      clientId: row.client_id,
      clientServerId: row.client_server_id ? row.client_server_id : null,
      permissions,
      expiresAt: Number(row.expires_at),
    };
  }
}
