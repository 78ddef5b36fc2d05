/**
 * What players connect to (issue 16 item 19). SPEC's `address` is "the server ip unless empty or {ip},
 * otherwise the node's publicHost", with `:port`; the panel keeps answering exactly that. But a template's `ip`
 * variable is usually the bind address (`0.0.0.0`: every interface), which no player can connect to, so the
 * screens show the node's public host in its place — and the page's own host when the node's is `{ip}` or empty,
 * as for SFTP. docs/web.md § Server address.
 */

/** Hosts that mean "any interface" or "not set": nobody connects to them. */
const UNROUTABLE = new Set(['', '{ip}', '0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0', '::0']);

export function isUnroutableHost(host: string): boolean {
  return UNROUTABLE.has(host.trim());
}

/** `host:port`, with an IPv6 host in brackets; the host alone without a port. */
export function joinHostPort(host: string, port: number | null): string {
  if (port === null) return host;
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${bracketed}:${port}`;
}

export interface AddressParts {
  ip: string;
  port: number | null;
  node: { publicHost: string };
}

/** The address a player types: the server ip when routable, else the node's public host, else `pageHost`. */
export function playerAddress(server: AddressParts, pageHost: string): string {
  const { ip, port, node } = server;
  const host = !isUnroutableHost(ip)
    ? ip.trim()
    : !isUnroutableHost(node.publicHost)
      ? node.publicHost
      : pageHost;
  return joinHostPort(host, port);
}
