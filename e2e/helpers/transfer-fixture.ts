/**
 * Shared parts of the transfer suites (e2e/transfer*.test.ts; docs/operations.md § Moving a server between
 * nodes): a socket client that keeps every message, a tree of files written into a server's folder and hashed
 * file by file, the wait for a transfer to settle, and a TCP relay put between the panel and a node as the
 * node's private address — which can hold the copy after some bytes (a fault is injected while nothing moves,
 * so no race with a fast loopback copy decides the outcome) and cut every connection.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join, relative } from 'node:path';
import type { TransferState } from '@hearth/contract';
import { call, type TestApp } from '../../apps/panel/test/helpers/app';
import { waitFor } from '../../apps/daemon/test/helpers/poll';
import { openServerSocket, type SocketClient } from './socket-client';

/** The panel's proxied socket of a server as `token`; resolves once open. */
export function openSocket(url: string, serverId: string, token: string): Promise<SocketClient> {
  return openServerSocket(url, serverId, { authorization: `Bearer ${token}` });
}

/**
 * A tree under `<folder>/world`: nested folders, small text files, an empty file and `bigMiB` MiB of random
 * bytes split over a few files (random: nothing compresses or deduplicates it on the way).
 */
export function writeTree(folder: string, bigMiB: number): void {
  const root = join(folder, 'world');
  for (const dir of ['region', 'players/uuid-1', 'players/uuid-2', 'empty-folder'])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'level.dat'), 'level data\n');
  writeFileSync(join(root, 'players/uuid-1/stats.json'), '{"kills": 3}\n');
  writeFileSync(join(root, 'players/uuid-2/stats.json'), '{"kills": 5}\n');
  writeFileSync(join(root, 'empty.txt'), '');
  writeFileSync(join(root, 'name with spaces ü.txt'), 'unicode names travel too\n');
  const parts = Math.max(1, Math.ceil(bigMiB / 4));
  for (let i = 0; i < parts; i++) {
    const mib = Math.min(4, bigMiB - i * 4);
    writeFileSync(join(root, 'region', `r.${i}.mca`), randomBytes(Math.max(1, mib) * 1024 * 1024));
  }
}

/** SHA-256 of every file under `<folder>/world`, by path relative to the folder; folders listed as `dir`. */
export function hashTree(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const key = relative(folder, path);
      if (statSync(path).isDirectory()) {
        out[key] = 'dir';
        walk(path);
      } else out[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  if (existsSync(join(folder, 'world'))) walk(join(folder, 'world'));
  return out;
}

/** The server's transfer state as an administrator reads it. */
export async function transferOf(t: TestApp, token: string, serverId: string): Promise<TransferState> {
  const res = await call(t, 'GET', `/api/servers/${serverId}/transfer`, { token });
  if (res.statusCode !== 200) throw new Error(`GET transfer: ${res.statusCode} ${res.body}`);
  return res.json<TransferState>();
}

/** Waits (generously: a loaded machine) until the transfer is done or failed; its final state. */
export function settled(t: TestApp, token: string, serverId: string): Promise<TransferState> {
  return waitFor(
    async () => {
      const state = await transferOf(t, token, serverId);
      return state.phase === 'done' || state.phase === 'failed' ? state : null;
    },
    'the transfer to settle',
    { timeoutMs: 180_000, intervalMs: 100 },
  );
}

/**
 * A TCP relay to `target` on loopback. `holdAfter(bytes)` stops passing the bytes a connection sends once it
 * has sent that many from now on (the copy's request: nothing else is that large) and resolves when that happened;
 * `release()` lets them through again; `cut()` destroys every connection, both sides.
 */
export class TcpRelay {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private holdAt = Infinity;
  private readonly held = new Set<Socket>();
  /** Bytes each connection sent since the last `holdAfter` (pooled connections outlive one transfer). */
  private readonly sent = new Map<Socket, number>();
  private onHeld: (() => void) | null = null;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = createServer((client) => this.accept(client));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  private accept(client: Socket): void {
    const upstream = connect({ host: this.targetHost, port: this.targetPort });
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
      this.held.delete(client);
      this.sent.delete(client);
    };
    // Either side failing ends both: that is the cut the panel must notice (errors are the expected outcome).
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      const sent = (this.sent.get(client) ?? 0) + chunk.length;
      this.sent.set(client, sent);
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => {
          if (!this.held.has(client)) client.resume();
        });
      }
      if (sent >= this.holdAt && !this.held.has(client)) {
        this.held.add(client);
        client.pause();
        this.onHeld?.();
      }
    });
  }

  holdAfter(bytes: number): Promise<void> {
    this.holdAt = bytes;
    this.sent.clear();
    return new Promise((resolve) => (this.onHeld = resolve));
  }

  release(): void {
    this.holdAt = Infinity;
    this.onHeld = null;
    for (const client of this.held) client.resume();
    this.held.clear();
  }

  cut(): void {
    for (const [client, upstream] of [...this.pairs]) {
      client.destroy();
      upstream.destroy();
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A node that answers what a transfer's source is asked (status, definition, export) — and sends a tar of
 * `folder` whose trailer names a checksum of other bytes: the one fault two real daemons never produce, a copy
 * that arrives whole but differs. Plain HTTP (a `plain` node); it accepts any token (it is the node at fault).
 */
export async function lyingSourceNode(
  folder: string,
  definition: object,
): Promise<{ port: number; close(): Promise<void> }> {
  const tar = execFileSync('tar', ['-cf', '-', '-C', folder, '.'], { maxBuffer: 256 * 1024 * 1024 });
  const wrong = createHash('sha256').update('not the bytes sent').digest('hex');
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: HttpServer = createHttpServer((req, res) => {
    req.resume();
    const path = (req.url ?? '').split('?')[0] ?? '';
    const id = /^\/daemon\/(?:server|transfer)\/([^/]+)/.exec(path)?.[1] ?? '';
    if (req.method === 'GET' && path === `/daemon/transfer/${id}/carry`)
      return json(res, 200, { adminEdited: true, tasks: {} });
    if (req.method === 'GET' && path === `/daemon/transfer/${id}/export`) {
      res.writeHead(200, {
        'content-type': 'application/x-tar',
        'x-hearth-transfer-bytes': String(tar.length),
        'x-hearth-transfer-files': '1',
        trailer: 'x-hearth-transfer-sha256',
      });
      res.write(tar);
      res.addTrailers({ 'x-hearth-transfer-sha256': wrong });
      return res.end();
    }
    if (req.method === 'GET' && path.endsWith('/status'))
      return json(res, 200, { running: false, installing: false });
    if (req.method === 'GET' && path === `/daemon/server/${id}`) return json(res, 200, { ...definition, id });
    if (req.method === 'PUT' && path === `/daemon/server/${id}`) return json(res, 200, {});
    if (req.method === 'GET' && path === '/daemon/features')
      return json(res, 200, { environments: ['standard'] });
    json(res, 404, { error: { code: 'ErrServerNotFound', msg: 'Server not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
