/**
 * Minetest's player counts (docs/daemon.md § Player counts). Minetest has no query protocol: a server publishes
 * its players only by announcing itself to a server list (`server_announce`, `serverlist_url`: an HTTP POST of a
 * `json` form field to `<url>/announce` at start, every 5 minutes and at shutdown), and gamedig's `minetest`
 * type reads the public list at servers.minetest.net — where a private server never appears, and which a node
 * without Internet access cannot reach. So the daemon is the server list for its own Minetest servers: it listens
 * on loopback, the bundled template writes `serverlist_url = ${hearthServerList}`, and the `minetest` query type
 * reads the last announce. Each server's URL carries an HMAC of its id under a key kept in the data dir, so one
 * server (or any local process) cannot announce players for another.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { z } from 'zod';
import type { PlayerCount } from '@hearth/contract';
import type { PlayerSource } from './gamedig-source';
import type { QueryTarget } from './query-target';

/** An announce body is a few hundred bytes (a thousand mods would still fit). */
const MAX_BODY_BYTES = 64 * 1024;
/** Announces come every 300 s; a count older than two periods is a server that stopped announcing. */
const STALE_MS = 11 * 60_000;

const announceSchema = z.object({
  action: z.enum(['start', 'update', 'delete']),
  port: z.number().int(),
  clients: z.number().int().nonnegative().optional(),
  clients_max: z.number().int().nonnegative().optional(),
});

interface Entry {
  port: number;
  count: PlayerCount;
  at: number;
}

/** The `json` field of a multipart or url-encoded form. */
export function jsonFieldOf(body: string, contentType: string): string | null {
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(body).get('json');
  }
  const match = /name="json"\r?\n\r?\n([\s\S]*?)\r?\n--/.exec(body);
  return match?.[1] ?? null;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

export class ServerListReceiver implements PlayerSource {
  private readonly entries = new Map<string, Entry>();
  private http: HttpServer | null = null;
  private port = 0;

  private constructor(
    private readonly key: Buffer,
    private readonly isServer: (id: string) => boolean,
  ) {}

  /** The key is made once (0600) and kept, so URLs written into servers' configs stay valid across restarts. */
  static async create(keyFile: string, isServer: (id: string) => boolean): Promise<ServerListReceiver> {
    let key = await readFile(keyFile).catch(() => null);
    if (!key || key.length !== 32) {
      key = randomBytes(32);
      await writeFile(keyFile, key, { mode: 0o600 });
    }
    return new ServerListReceiver(key, isServer);
  }

  private tokenOf(id: string): string {
    return createHmac('sha256', this.key).update(id).digest('base64url').slice(0, 32);
  }

  /** The `serverlist_url` of one server (empty until listening: the substitution is then left unset). */
  urlFor(id: string): string {
    return this.http ? `http://127.0.0.1:${this.port}/${id}/${this.tokenOf(id)}` : '';
  }

  async listen(port: number): Promise<void> {
    const http = createServer((req, res) => {
      void this.handle(req).then((status) => res.writeHead(status).end());
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, '127.0.0.1', () => resolve());
    });
    const address = http.address();
    this.port = typeof address === 'object' && address ? address.port : port;
    this.http = http;
  }

  async close(): Promise<void> {
    const http = this.http;
    this.http = null;
    if (http) await new Promise<void>((resolve) => http.close(() => resolve()));
  }

  private async handle(req: IncomingMessage): Promise<number> {
    const [root, id, token, action, ...rest] = (req.url ?? '').split('/');
    if (req.method !== 'POST' || root !== '' || action !== 'announce' || rest.length || !id || !token)
      return 404;
    const expected = Buffer.from(this.tokenOf(id));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || !this.isServer(id))
      return 403;
    const body = await readBody(req);
    const json = body === null ? null : jsonFieldOf(body, req.headers['content-type'] ?? '');
    let parsed: z.infer<typeof announceSchema> | null = null;
    try {
      parsed = json === null ? null : announceSchema.parse(JSON.parse(json));
    } catch {
      parsed = null; // not an announce: refused below, nothing kept
    }
    if (!parsed) return 400;
    if (parsed.action === 'delete') this.entries.delete(id);
    else {
      const count = { online: parsed.clients ?? 0, max: parsed.clients_max ?? 0 };
      this.entries.set(id, { port: parsed.port, count, at: Date.now() });
    }
    return 200;
  }

  async query(target: QueryTarget, serverId: string): Promise<PlayerCount> {
    const entry = this.entries.get(serverId);
    if (!entry || entry.port !== target.port || Date.now() - entry.at > STALE_MS) {
      throw new Error('no current announce from this server');
    }
    return entry.count;
  }
}
