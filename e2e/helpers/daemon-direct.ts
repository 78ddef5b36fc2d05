/**
 * Reaching a node's daemon directly, past the panel's checks but over the node's own link (docs/security.md
 * § Node link: HTTPS with the pinned certificate for a pinned node): for suites that prove what the DAEMON
 * refuses when handed a token by hand (another node's, forged, expired).
 */
import WebSocket from 'ws';
import { callDaemon, readBody } from '../../apps/panel/src/nodes-link/daemon-client';
import { tlsOptionsOf } from '../../apps/panel/src/nodes-link/node-tls';
import type { TestApp } from '../../apps/panel/test/helpers/app';

/** One request to the node's daemon with `token` (no panel token is added); its status and body. */
export async function daemonRequest(
  t: TestApp,
  nodeId: string,
  method: string,
  path: string,
  token: string,
): Promise<{ status: number; text: string }> {
  const res = await callDaemon(await t.services.link.address(nodeId), { method, path, token });
  return { status: res.statusCode ?? 0, text: await readBody(res) };
}

/** The daemon's websocket for `serverId` opened with `token` (not yet open). */
export async function daemonSocket(
  t: TestApp,
  nodeId: string,
  serverId: string,
  token: string,
): Promise<WebSocket> {
  const node = await t.services.link.address(nodeId);
  const tls = tlsOptionsOf(node.tls);
  const host = node.host.includes(':') ? `[${node.host}]` : node.host;
  return new WebSocket(`${tls ? 'wss' : 'ws'}://${host}:${node.port}/daemon/socket/${serverId}`, {
    ...tls,
    headers: { authorization: `Bearer ${token}` },
  });
}
