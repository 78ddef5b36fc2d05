import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, startPanel, type PanelConfig } from '@hearth/panel';

const WEB_DIR = join(import.meta.dirname, '../../apps/web');
const WEB_DIST = join(WEB_DIR, 'dist');

export interface TestPanel {
  url: string;
  setupUrl?: string;
  dataDir: string;
  stop(): Promise<void>;
}

export interface TestPanelOptions {
  registrationEnabled?: boolean;
  companyName?: string;
  /** The config file's `email` section (e.g. the SMTP provider pointed at a test capture). */
  email?: Partial<PanelConfig['email']>;
  /** The config file's `templates` section (e.g. `localDir`, a folder the test writes templates into). */
  templates?: Partial<PanelConfig['templates']>;
}

/** The browser tests need the real built app; `npm test` builds it first, a lone run builds it here. */
export function ensureWebBuilt(): void {
  if (existsSync(join(WEB_DIST, 'index.html'))) return;
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: WEB_DIR, stdio: 'inherit' });
}

/**
 * Starts the real panel (SQLite in a temp data dir, a free port, the built web app, the shipped
 * themes) and returns its URL and first-run setup link.
 */
export async function startTestPanel(options: TestPanelOptions = {}): Promise<TestPanel> {
  ensureWebBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
  const config = configSchema.parse({
    web: { host: '127.0.0.1', port: 0 },
    panel: {
      dataDir,
      databaseUrl: `sqlite:${join(dataDir, 'hearth.db')}`,
      webDir: WEB_DIST,
      registrationEnabled: options.registrationEnabled ?? false,
      companyName: options.companyName ?? 'Hearth',
    },
    email: options.email ?? {},
    templates: options.templates ?? {},
    log: { level: 'silent' },
  });
  const panel = await startPanel(config);
  return {
    url: panel.address,
    setupUrl: panel.setupUrl,
    dataDir,
    stop: async () => {
      await panel.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Account {
  username: string;
  email: string;
  password: string;
  session: string;
  scopes: string[];
}

/** Creates the first administrator through the one-time setup link, as a newcomer would. */
export async function createFirstAdmin(panel: TestPanel, username = 'admin'): Promise<Account> {
  if (!panel.setupUrl) throw new Error('the panel printed no setup link (it already has users)');
  const token = new URL(panel.setupUrl).searchParams.get('token') ?? '';
  const account = { username, email: `${username}@example.com`, password: 'correct-horse-battery' };
  const res = await fetch(`${panel.url}/auth/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...account, token }),
  });
  if (!res.ok) throw new Error(`setup failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { session: string; scopes: string[] };
  return { ...account, ...body };
}

/** JSON over HTTP to a running test panel as `token`; any answer other than 2xx throws. */
export async function panelApi<T = unknown>(
  panel: TestPanel,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${panel.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
