import type { ServerView } from '@hearth/contract/servers';
import type { ServerWithNode } from './servers.repository';

/** Address: the server ip unless empty or `{ip}`, else the node's publicHost; `:port` if any. */
export function addressOf(row: ServerWithNode): string {
  const host = row.ip && row.ip !== '{ip}' ? row.ip : row.public_host;
  return row.port ? `${host}:${row.port}` : host;
}

export function serverView(row: ServerWithNode): ServerView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    node: {
      id: row.node_id,
      name: row.node_name,
      publicHost: row.public_host,
      publicPort: Number(row.public_port),
      sftpPort: Number(row.sftp_port),
    },
    ip: row.ip,
    port: row.port === null ? null : Number(row.port),
    address: addressOf(row),
  };
}

/** `ip` and `port` come from the definition's variables of those names (PufferPanel v2). */
export function variableValue(data: unknown, name: string): unknown {
  const entry = (data as Record<string, { value?: unknown } | undefined> | undefined)?.[name];
  return entry?.value;
}
