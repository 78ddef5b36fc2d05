/**
 * The panel's link to its nodes: resolves a node's private address and link mode, signs a fresh token for the
 * caller (ARCHITECTURE §4: the daemon trusts only panel-signed tokens) and sends the call — HTTP, proxied
 * sockets, status and features probes and file streams all pass here, so all use the node's mode.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { AppError, type DaemonTokenGrant } from '@hearth/contract';
import type { NodesRepository } from '../modules/nodes/nodes.repository';
import {
  callDaemon,
  callDaemonJson,
  defaultLinkTimeouts,
  linkError,
  type DaemonCall,
  type LinkTimeouts,
  type NodeAddress,
} from './daemon-client';
import { DaemonAgents } from './daemon-agents';
import { linkTlsOf } from './link-mode';
import type { NodeTunnels } from './node-tunnels';
import { tlsOptionsOf } from './node-tls';
import type { DaemonTokenSigner } from './token-signer';

export type LinkCall = Omit<DaemonCall, 'token'>;

/**
 * A daemon socket whose failed opening is reported as the link's catalogued error (ErrNodeCertificate for a
 * peer that is not the node, else ErrNodeOffline), like the HTTP calls, so a proxied socket closes with it.
 */
class DaemonSocket extends WebSocket {
  node: NodeAddress | null = null;
  private opened = false;

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'open') this.opened = true;
    // ws marks the socket CLOSING before it emits a handshake error: "not opened yet" is the test.
    if (event === 'error' && !this.opened && this.node) {
      return super.emit('error', linkError(this.node, args[0], 'connect'));
    }
    return super.emit(event, ...args);
  }
}

export class NodeLink {
  private readonly agents: DaemonAgents;

  constructor(
    private readonly nodes: NodesRepository,
    private readonly signer: DaemonTokenSigner,
    readonly timeouts: LinkTimeouts = defaultLinkTimeouts,
    /**
     * Whether this process runs the local node (`hearth start` without `--no-node`). When it does not, the local
     * node is offline without a connection being tried: its address may belong to another program, even another
     * Hearth's node (docs/configuration.md § Local node).
     */
    private readonly localNodeRuns = false,
    /** The outbound links nodes dialled in on; without it every node is dialled (outbound ones stay offline). */
    readonly tunnels?: NodeTunnels,
  ) {
    this.agents = new DaemonAgents(tunnels);
  }

  async address(nodeId: string): Promise<NodeAddress> {
    const node = await this.nodes.findForLink(nodeId);
    if (!node) throw new AppError('ErrNodeNotFound');
    if (Number(node.is_local) === 1 && !this.localNodeRuns)
      throw new AppError('ErrNodeOffline', { node: node.name });
    return {
      id: node.id,
      name: node.name,
      host: node.private_host,
      port: Number(node.private_port),
      tls: linkTlsOf(node),
      // Read defensively: rows from before the `link` setting have none, and they are dialled.
      link: (node as { link?: unknown }).link === 'outbound' ? 'outbound' : 'inbound',
    };
  }

  /** A token for one HTTP call: reused for the same grant for a while (token-signer.ts). */
  token(nodeId: string, grant: DaemonTokenGrant): Promise<string> {
    return this.signer.reusable(nodeId, grant);
  }

  /** Drops the pooled connections to every node and the nodes' outbound links (panel shutdown). */
  close(): void {
    this.agents.close();
    this.tunnels?.close();
  }

  /** A streamed call (the proxy pipes the response to the browser unchanged). */
  async stream(nodeId: string, grant: DaemonTokenGrant, call: LinkCall): Promise<IncomingMessage> {
    const node = await this.address(nodeId);
    const token = await this.token(nodeId, grant);
    return callDaemon(node, { ...call, token }, this.timeouts, this.agents.for(node));
  }

  /**
   * Opens the daemon's websocket for one server (`/daemon/socket/{id}`) with a fresh token; the handshake
   * has the connect timeout, so a dead node fails fast.
   */
  async socket(nodeId: string, grant: DaemonTokenGrant, serverId: string): Promise<WebSocket> {
    const node = await this.address(nodeId);
    const host = node.host.includes(':') ? `[${node.host}]` : node.host;
    const tls = tlsOptionsOf(node.tls);
    const url = `${tls ? 'wss' : 'ws'}://${host}:${node.port}/daemon/socket/${encodeURIComponent(serverId)}`;
    const socket = new DaemonSocket(url, {
      ...tls,
      // A fresh token: the daemon ends the socket when its token expires (the relay refreshes it).
      headers: { authorization: `Bearer ${await this.signer.sign(nodeId, grant)}` },
      handshakeTimeout: this.timeouts.connectMs,
      perMessageDeflate: false,
      // An outbound node's socket is a stream of its tunnel, like its HTTP calls (daemon-agents.ts).
      ...(node.link === 'outbound' ? { agent: this.agents.for(node) } : {}),
    });
    socket.node = node;
    return socket;
  }

  /** A call whose JSON answer the panel needs; daemon errors are rethrown as the same catalogued error. */
  async json<T>(
    nodeId: string,
    grant: DaemonTokenGrant,
    call: LinkCall,
    timeouts: Partial<LinkTimeouts> = {},
  ): Promise<T> {
    const node = await this.address(nodeId);
    const token = await this.token(nodeId, grant);
    const all = { ...this.timeouts, ...timeouts };
    return callDaemonJson<T>(node, { ...call, token }, all, this.agents.for(node));
  }
}
