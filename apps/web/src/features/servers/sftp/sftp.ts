import type { ServerView } from '@hearth/contract/servers';

export interface SftpInfo {
  host: string;
  port: number;
  address: string;
  username: string;
  url: string;
}

/**
 * SFTP: host is the node's public host (the page's host when it is `{ip}`), port the node's SFTP
 * port, username the account e-mail, a pipe, then the server id.
 */
export function sftpInfo(server: ServerView, email: string, pageHost: string): SftpInfo {
  const publicHost = server.node.publicHost;
  const host = publicHost === '' || publicHost === '{ip}' ? pageHost : publicHost;
  const port = server.node.sftpPort;
  const username = `${email}|${server.id}`;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    host,
    port,
    address: `${host}:${port}`,
    username,
    url: `sftp://${encodeURIComponent(username)}@${urlHost}:${port}`,
  };
}
