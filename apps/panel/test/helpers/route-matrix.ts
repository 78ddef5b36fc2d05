/**
 * The authorization matrix's machinery (apps/panel/test/http/authorization-matrix.test.ts and
 * e2e/authorization-matrix-proxy.test.ts): every registered route, as Fastify's onRoute saw it, is sent a VALID
 * request (valid-requests.ts) by callers who must be refused — anonymous 401, missing panel flag 403, no access
 * to the server 404, access without the server flag 403 — and by callers who must be served: a status below
 * 400, not merely "not 401/403" (docs/security.md § Authorization).
 */
import type { RouteOptions } from 'fastify';
import WebSocket from 'ws';
import {
  panelPermissions,
  serverPermissions,
  type PanelPermission,
  type ServerPermission,
} from '@hearth/contract';
import type { RoutePermission, ServerRequirement } from '../../src/app-types';
import type { DialectName } from '../../src/db';
import { buildTestApp, createUser, type TestApp, type TestUser } from './app';

/** A request the route serves when its caller may make it. */
export interface ValidRequest {
  /** The concrete URL, query string included. */
  url: string;
  /** JSON (an object), or raw text / bytes with their content type in `headers`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The panel that serves it, when not the matrix's own (first-run setup needs a panel without users). */
  panel?: TestApp;
  /**
   * Opened as a websocket: served when the upgrade succeeds and the socket answers a ping; `'binary'` for a
   * socket that speaks no JSON (the node link): served when the upgrade succeeds.
   */
  websocket?: true | 'binary';
}

/** What a builder may use to make the objects its request needs. */
export interface RequestContext {
  readonly t: TestApp;
  /** Who will send the request (a stand-in holding nothing when it is sent anonymously). */
  readonly caller: TestUser;
  readonly admin: TestUser;
  /** A server the caller holds exactly the flags this attempt is about; `fresh` when the request destroys it. */
  server(options?: { fresh?: boolean }): Promise<string>;
  /** A user of this request's own: no flags, no servers. */
  user(): Promise<TestUser>;
  /** Gives `user` exactly `flags` on the server (null: no access). */
  grant(user: TestUser, serverId: string, flags: readonly ServerPermission[] | null): Promise<void>;
  /** An object the whole matrix shares, made on first use. */
  shared<T>(name: string, make: () => Promise<T>): Promise<T>;
  /** A panel on the same dialect with no user yet (closed with the matrix). */
  emptyPanel(): Promise<TestApp>;
  /** A fresh login session of `user`. */
  session(user: TestUser): Promise<string>;
  /** Runs `close` when the matrix closes (a process a shared object started). */
  onClose(close: () => Promise<void>): void;
}

export type BuildRequest = (ctx: RequestContext) => Promise<ValidRequest>;

export interface MatrixRoute {
  readonly method: string;
  readonly url: string;
  /** `'METHOD /url'`, the key of the valid-request tables. */
  readonly key: string;
  readonly permission: RoutePermission | undefined;
  readonly sessionOnly: boolean;
  readonly server: ServerRequirement | undefined;
}

/** Collects the routes as they are registered; their config is read later (plugin scopes may still set it). */
export function routeCollector(): { routes: MatrixRoute[]; onRoute: (r: RouteOptions) => void } {
  const routes: MatrixRoute[] = [];
  const onRoute = (r: RouteOptions) => {
    for (const method of [r.method].flat()) {
      routes.push({
        method,
        url: r.url,
        key: `${method} ${r.url}`,
        get permission() {
          return r.config?.permission;
        },
        get sessionOnly() {
          return r.config?.sessionOnly === true;
        },
        get server() {
          return r.config?.server;
        },
      });
    }
  };
  return { routes, onRoute };
}

/** The builder of a route; a HEAD route without its own entry is its GET's. */
export function builderFor(
  table: Readonly<Record<string, BuildRequest>>,
  route: Pick<MatrixRoute, 'method' | 'url' | 'key'>,
): BuildRequest | undefined {
  return table[route.key] ?? (route.method === 'HEAD' ? table[`GET ${route.url}`] : undefined);
}

/** How an attempt authenticates: as built (public, node credential), stripped, or a bearer token. */
type Credential = 'built' | 'none' | { bearer: string };
/** The caller's flags on the request's servers; null: no access. */
type Access = readonly ServerPermission[] | null;
export interface Sent {
  status: number;
  code?: string;
}

const served = 'served' as const;
const ALL_FLAGS: Access = serverPermissions;

/** What a holder of the route's server need holds: the flag, or a row with no flag for `view`. */
function accessFor(need: ServerRequirement): readonly ServerPermission[] {
  return need === 'view' || need === 'deleteServer' ? [] : [need];
}

function codeOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } | string };
    if (typeof parsed.error === 'string') return parsed.error;
    return typeof parsed.error?.code === 'string' ? parsed.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A route that refuses even its valid request from a caller entitled to it: a finding, reported. Its served rungs
 * expect exactly this refusal, so a fix fails the matrix until the entry is removed.
 */
export interface KnownRefusal {
  status: number;
  code?: string;
  finding: string;
}

export interface MatrixOptions {
  t: TestApp;
  dialect: DialectName;
  table: Readonly<Record<string, BuildRequest>>;
  /** Keyed `'METHOD /url'` like the table. */
  knownRefusals?: Readonly<Record<string, KnownRefusal>>;
  /** Makes a server as `admin` (a row on the local node, or a real server on the suite's daemon). */
  makeServer(admin: TestUser): Promise<string>;
  /** The panel's listening address, for websocket routes. */
  url?: string;
}

export class RouteMatrix {
  private readonly sharedObjects = new Map<string, Promise<unknown>>();
  private readonly emptyPanels: TestApp[] = [];
  private readonly closers: Array<() => Promise<void>> = [];

  private constructor(
    private readonly o: MatrixOptions,
    readonly admin: TestUser,
    readonly nobody: TestUser,
    /** Sends anonymous requests' builders something to build for. */
    private readonly standIn: TestUser,
    readonly holders: ReadonlyMap<PanelPermission, TestUser>,
  ) {}

  static async create(o: MatrixOptions): Promise<RouteMatrix> {
    const admin = await createUser(o.t, { admin: true });
    const nobody = await createUser(o.t);
    const standIn = await createUser(o.t);
    const holders = new Map<PanelPermission, TestUser>();
    for (const flag of panelPermissions) holders.set(flag, await createUser(o.t, { [flag]: true }));
    return new RouteMatrix(o, admin, nobody, standIn, holders);
  }

  async close(): Promise<void> {
    for (const panel of this.emptyPanels) await panel.close();
    for (const close of this.closers) await close();
  }

  session = async (user: TestUser) => (await this.o.t.services.sessions.issue(user.id)).token;

  private grant = async (user: TestUser, serverId: string, flags: Access) => {
    const repo = this.o.t.services.serversRepo;
    if (flags === null) return void (await repo.removeUser(user.id, serverId));
    const perms = Object.fromEntries(serverPermissions.map((p) => [p, flags.includes(p)]));
    await repo.setUser(user.id, serverId, perms as Record<ServerPermission, boolean>);
  };

  private shared = <T>(name: string, make: () => Promise<T>): Promise<T> => {
    let made = this.sharedObjects.get(name) as Promise<T> | undefined;
    if (!made) {
      made = make();
      this.sharedObjects.set(name, made);
    }
    return made;
  };

  /** The context one attempt's request is built in: `caller` will hold `access` on the servers it uses. */
  context(caller: TestUser, access: Access): RequestContext {
    const { t } = this.o;
    return {
      t,
      caller,
      admin: this.admin,
      server: async ({ fresh = false } = {}) => {
        const id = fresh
          ? await this.o.makeServer(this.admin)
          : await this.shared('server', () => this.o.makeServer(this.admin));
        await this.grant(caller, id, access);
        return id;
      },
      user: () => createUser(t),
      grant: this.grant,
      shared: this.shared,
      emptyPanel: async () => {
        const panel = await buildTestApp(this.o.dialect);
        this.emptyPanels.push(panel);
        return panel;
      },
      session: this.session,
      onClose: (close) => void this.closers.push(close),
    };
  }

  /** Sends `req` as route's method with `credential`; its status (and error code, when it has one). */
  async send(route: Pick<MatrixRoute, 'method'>, req: ValidRequest, credential: Credential): Promise<Sent> {
    const headers: Record<string, string> = { ...req.headers };
    if (credential === 'none') delete headers.authorization;
    else if (credential !== 'built') headers.authorization = `Bearer ${credential.bearer}`;
    // A websocket route's HEAD is a plain HTTP request.
    if (req.websocket && route.method === 'GET') return this.openSocket(req.url, headers, req.websocket);
    let payload: string | Buffer | undefined;
    if (typeof req.body === 'string' || Buffer.isBuffer(req.body)) payload = req.body;
    else if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers['content-type'] ??= 'application/json';
    }
    const app = (req.panel ?? this.o.t).app;
    const method = route.method as 'GET';
    const res = await app.inject({
      method,
      url: req.url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, code: codeOf(res.body) };
  }

  /** 101 once the socket answers a ping; a refused upgrade's status, or the close code of a socket that ends. */
  private openSocket(path: string, headers: Record<string, string>, kind: true | 'binary'): Promise<Sent> {
    const base = this.o.url;
    if (!base) throw new Error('a websocket route needs a listening panel (MatrixOptions.url)');
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers });
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (sent: Sent) => {
        if (settled) return;
        settled = true;
        ws.terminate();
        resolve(sent);
      };
      ws.on('open', () => {
        if (kind === 'binary') settle({ status: 101 });
        else ws.send(JSON.stringify({ type: 'ping' }));
      });
      ws.on('message', (raw: Buffer) => {
        if ((JSON.parse(raw.toString()) as { type?: string }).type === 'pong') settle({ status: 101 });
      });
      ws.on('close', (code, reason) => settle({ status: code, code: reason.toString() }));
      ws.on('unexpected-response', (request, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          settle({ status: res.statusCode ?? 0, code: codeOf(body) });
          request.destroy();
        });
      });
      ws.on('error', (err) => {
        if (!settled) reject(err);
      });
    });
  }

  /**
   * The route's ladder with its valid request; each mismatch as one line (empty: the route holds). Builders run
   * again for every attempt, so a request that destroys its object gets a fresh one each time.
   */
  async check(route: MatrixRoute): Promise<string[]> {
    const build = builderFor(this.o.table, route);
    if (!build) return [`${route.key}: no valid request`];
    const problems: string[] = [];
    const attempt = async (
      label: string,
      want: number | typeof served,
      caller: TestUser | undefined,
      access: Access,
      credential: Credential | 'session',
    ) => {
      const req = await build(this.context(caller ?? this.standIn, access));
      const how = credential === 'session' ? caller && { bearer: await this.session(caller) } : credential;
      if (!how) throw new Error(`${route.key} ${label}: a session needs a caller`);
      const got = await this.send(route, req, how);
      const refusal = want === served ? this.o.knownRefusals?.[route.key] : undefined;
      if (refusal) {
        if (got.status !== refusal.status || (refusal.code !== undefined && got.code !== refusal.code)) {
          const wanted = `${refusal.status} ${refusal.code ?? ''}`;
          problems.push(
            `${route.key} ${label}: ${got.status} ${got.code ?? ''} (known refusal ${wanted} changed)`,
          );
        }
        return;
      }
      const ok = want === served ? got.status < 400 : got.status === want;
      if (!ok) {
        const wanted = want === served ? 'below 400' : String(want);
        problems.push(`${route.key} ${label}: ${got.status} ${got.code ?? ''} (wanted ${wanted})`);
      }
    };

    const permission = route.permission;
    if (permission === undefined) return [`${route.key}: declares no permission`];
    if (permission === 'public') {
      await attempt('anonymous', served, undefined, null, 'built');
      return problems;
    }
    if (permission === 'node') {
      await attempt('without the node credential', 401, undefined, null, 'none');
      await attempt('with an admin session instead', 401, this.admin, null, 'session');
      await attempt('with the node credential', served, undefined, null, 'built');
      return problems;
    }
    await attempt('anonymous', 401, undefined, ALL_FLAGS, 'none');
    const flag = permission === 'authenticated' ? undefined : permission;
    if (flag) {
      await attempt('without the panel flag', 403, this.nobody, ALL_FLAGS, 'session');
      for (const other of panelPermissions.filter((p) => p !== flag && p !== 'admin').slice(0, 3)) {
        await attempt(`holding ${other} only`, 403, this.holders.get(other), ALL_FLAGS, 'session');
      }
    }
    const passer = flag ? this.holders.get(flag) : this.nobody;
    const need = route.server;
    if (need && flag !== 'admin') {
      await attempt('without access to the server', 404, passer, null, 'session');
      const denied = serverPermissions.filter((p) => p !== need);
      if (denied.length < serverPermissions.length) {
        await attempt(`with every server flag but ${need}`, 403, passer, denied, 'session');
      }
    }
    const label = `${flag ? `holding ${flag}` : 'logged in'}${need ? ` with ${need} on the server` : ''}`;
    await attempt(label, served, passer, need ? accessFor(need) : null, 'session');
    if (flag !== 'admin') await attempt('as an administrator', served, this.admin, null, 'session');
    return problems;
  }
}
