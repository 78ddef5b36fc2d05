import type { ServerView } from '@hearth/contract/servers';

export interface SftpInfo {
  host: string;
  port: number;
  address: string;
  /** `email#serverId`: OpenSSH's `sftp` splits `user@host` at the last `@` and accepts `#` unquoted. */
  username: string;
  /** `email|serverId`: the documented form; the daemon accepts both (docs/files.md § SFTP). */
  usernameAlt: string;
  /** A ready `sftp` command line, the username single-quoted for POSIX shells. */
  command: string;
  url: string;
  /** A `~/.ssh/config` block, so `sftp <alias>` connects without retyping the user and port. */
  sshConfig: string;
}

/** Quotes a value for a POSIX shell: single quotes, an embedded `'` written as `'\''`. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * SFTP: host is the node's public host (the page's host when it is `{ip}` or empty), port the node's
 * SFTP port, username the account e-mail, a separator (`#` or `|`), then the server id.
 */
export function sftpInfo(server: ServerView, email: string, pageHost: string): SftpInfo {
  const publicHost = server.node.publicHost;
  const host = publicHost === '' || publicHost === '{ip}' ? pageHost : publicHost;
  const port = server.node.sftpPort;
  const username = `${email}#${server.id}`;
  const usernameAlt = `${email}|${server.id}`;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const alias = `hearth-${server.id}`;
  return {
    host,
    port,
    address: `${host}:${port}`,
    username,
    usernameAlt,
    command: `sftp -P ${port} ${shellQuote(`${username}@${urlHost}`)}`,
    url: `sftp://${encodeURIComponent(username)}@${urlHost}:${port}`,
    sshConfig: [`Host ${alias}`, `  HostName ${host}`, `  Port ${port}`, `  User ${username}`].join('\n'),
  };
}
