import { serverPermissions, type ServerPermission, type ServerPermissionSet } from '@hearth/contract';
import type { TestApp } from '../helpers/app';

let seq = 0;

/** A server row on the local node, straight in the database (these suites need no daemon). */
export async function seedServer(t: TestApp, name = `srv-${++seq}`): Promise<string> {
  const id = (0x10000000 + Math.floor(Math.random() * 0xefffffff)).toString(16);
  await t.db.kysely
    .insertInto('servers')
    .values({ id, name, node_id: 'local', ip: '', port: null, type: '', created_at: Date.now() })
    .execute();
  return id;
}

/** Gives a user exactly these flags on a server. */
export async function grant(t: TestApp, userId: string, serverId: string, flags: ServerPermission[]) {
  const perms = Object.fromEntries(
    serverPermissions.map((p) => [p, flags.includes(p)]),
  ) as ServerPermissionSet;
  await t.services.serversRepo.setUser(userId, serverId, perms);
}
