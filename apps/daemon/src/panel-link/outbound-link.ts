/**
 * The outbound node link (docs/adr/0015-outbound-node-link.md): with `link: "outbound"` the daemon dials
 * `{panelUrl}/api/nodes/link` with its node credential and keeps that one WebSocket open; the panel opens a
 * stream through it for each connection it would have made to this node, and each stream is joined here to the
 * daemon's own listener on loopback — HTTP for `http`, SFTP for `sftp`. The tunnel adds no trust: every request
 * that arrives through it is checked for its panel-signed token exactly as one over TCP (transport/token.ts).
 */
import { connect, type Server as NetServer } from 'node:net';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import WebSocket from 'ws';
import { LinkMux, type MuxStream } from '@hearth/server-kit';
import type { DaemonConfig } from '../config/schema';
import { nodeAuthorization, panelUrlOf, type PanelLinkSettings } from './node-credential';

export interface OutboundLinkOptions {
  settings: PanelLinkSettings;
  /** The daemon's own listeners the streams are joined to (loopback unless an address was set). */
  httpPort: number;
  sftpPort: number | null;
  httpHost?: string;
  sftpHost?: string;
  /**
   * The daemon's own HTTP(S) server: an `http` stream is handed to it as a connection, in process, instead of
   * through a second TCP connection to its port (that hop cost the daemon a copy and an event-loop turn per
   * message: docs/performance.md § Outbound node link). Absent: joined to `httpPort` on loopback like SFTP.
   */
  httpServer?: Pick<NetServer, 'emit'>;
  reconnect: { minMs: number; maxMs: number };
  log: Logger;
  /** Where `hearth_daemon_panel_link_up` is reported (the daemon's /metrics). */
  registry?: Registry;
  /** Keepalive ping interval (tests shorten it). */
  pingMs?: number;
}

/** A wildcard listen address in outbound mode means loopback: no inbound port is exposed (docs/daemon.md). */
export function outboundListenHosts(config: DaemonConfig): DaemonConfig {
  if (config.link !== 'outbound') return config;
  const loopback = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
  return {
    ...config,
    host: loopback(config.host),
    sftp: { ...config.sftp, host: loopback(config.sftp.host) },
  };
}

/** The link's WebSocket URL: the panel URL's scheme as ws/wss, under the same path prefix rules as its calls. */
export function linkUrlOf(settings: PanelLinkSettings): string {
  const url = new URL(panelUrlOf(settings, '/api/nodes/link'));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** The wait before reconnect attempt `n` (0-based): exponential, capped, with jitter so nodes do not stampede. */
export function backoffMs(attempt: number, range: { minMs: number; maxMs: number }, random = Math.random) {
  const ceiling = Math.min(range.maxMs, range.minMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Whether the client's frame masking protects nothing on this link. Masking exists so that bytes a browser
 * script chose cannot pose as HTTP to a cleartext proxy on the path; inside TLS no proxy reads them, and on
 * loopback there is none. There an all-zero mask (which `ws` then skips) makes the node → panel direction about
 * 2.5 times faster (docs/adr/0015-outbound-node-link.md); a plain `ws://` link across a network keeps it.
 */
export function maskingUseless(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  return protocol === 'wss:' || host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Where to reach a listener bound to `host` from this machine: a wildcard is reached on loopback. */
function callable(host: string | undefined): string {
  if (!host || host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host.replace(/^\[|\]$/g, '');
}

export class OutboundLink {
  #socket: WebSocket | null = null;
  #mux: LinkMux | null = null;
  #timer: NodeJS.Timeout | null = null;
  #attempt = 0;
  #lastReason = '';
  #closed = false;

  constructor(private readonly options: OutboundLinkOptions) {
    if (options.registry) {
      const up = () => (this.up ? 1 : 0);
      new Gauge({
        name: 'hearth_daemon_panel_link_up',
        help: '1 while the outbound link to the panel is connected (link: outbound), else 0',
        registers: [options.registry],
        collect() {
          this.set(up());
        },
      });
    }
  }

  get up(): boolean {
    return this.#mux !== null && !this.#mux.closed;
  }

  start(): void {
    this.options.log.info({ url: linkUrlOf(this.options.settings) }, 'dialling the panel (link: outbound)');
    this.#dial();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#mux?.close('the node is shutting down');
    this.#socket?.terminate();
  }

  #dial(): void {
    if (this.#closed) return;
    const url = linkUrlOf(this.options.settings);
    const socket = new WebSocket(url, {
      headers: { authorization: nodeAuthorization(this.options.settings) },
      perMessageDeflate: false,
      handshakeTimeout: 15_000,
      ...(maskingUseless(url) ? { generateMask: (mask: Buffer) => mask.fill(0) } : {}),
    });
    this.#socket = socket;
    // A refusal before the upgrade: its catalogued code is the reason logged (ErrNodeLinkMode, a bad secret).
    socket.once('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      const done = () => {
        const code = /"code"\s*:\s*"(\w+)"/.exec(Buffer.concat(chunks).toString())?.[1] ?? 'no code';
        this.#retry(`refused by the panel: ${res.statusCode} ${code}`);
        req.destroy();
      };
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', done);
      res.once('error', done);
    });
    socket.on('error', (err) => this.#retry(err.message));
    socket.once('open', () => this.#opened(socket));
  }

  #opened(socket: WebSocket): void {
    // Requests through the link have no client address: '' (not undefined) so address checks such as the metrics
    // allow list see "no address" and fall back to the token (packages/contract/src/metrics-access.ts).
    const mux = new LinkMux(socket, { role: 'acceptor', pingMs: this.options.pingMs, remoteAddress: '' });
    this.#mux = mux;
    const failed = this.#attempt;
    this.#attempt = 0;
    this.#lastReason = '';
    this.options.log.info({ failedAttempts: failed }, 'panel link connected');
    mux.on('stream', (stream, kind) => this.#join(stream, kind));
    mux.once('close', (err) => {
      this.#mux = null;
      if (this.#closed) return;
      this.options.log.warn({ reason: err.message }, 'panel link lost; reconnecting');
      this.#lastReason = err.message;
      this.#schedule();
    });
  }

  /** One failed attempt: said once per distinct reason, not once per retry. */
  #retry(reason: string): void {
    if (this.#closed || this.#mux || this.#timer) return;
    if (reason !== this.#lastReason) {
      this.options.log.warn({ reason, attempt: this.#attempt + 1 }, 'panel link attempt failed; retrying');
      this.#lastReason = reason;
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed || this.#timer) return;
    const wait = backoffMs(this.#attempt++, this.options.reconnect);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#dial();
    }, wait);
  }

  /** A stream the panel opened, joined to the local listener of its kind; a refused connect resets it. */
  #join(stream: MuxStream, kind: string): void {
    if (kind === 'http' && this.options.httpServer) {
      // Node's http and tls servers take any socket-like Duplex as a connection (MuxStream is one: stream.ts).
      this.options.httpServer.emit('connection', stream);
      return;
    }
    const port = kind === 'http' ? this.options.httpPort : kind === 'sftp' ? this.options.sftpPort : null;
    if (!port) {
      stream.destroy(Object.assign(new Error(`no ${kind} listener`), { code: 'ECONNREFUSED' }));
      return;
    }
    const host = callable(kind === 'http' ? this.options.httpHost : this.options.sftpHost);
    const local = connect({ host, port });
    local.on('error', (err) => stream.destroy(err));
    stream.on('error', () => local.destroy());
    local.on('close', () => stream.destroy());
    stream.on('close', () => local.destroy());
    stream.pipe(local);
    local.pipe(stream);
  }
}
