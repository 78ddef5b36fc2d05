/** A real daemon on a free loopback port, in a temp data dir, with test keys and fast crash/stop settings. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { ServerPermission } from '@hearth/contract';
import {
  parseDaemonConfig,
  startDaemon,
  type DaemonConfig,
  type DaemonDeps,
  type DaemonConfigInput,
  type RunningDaemon,
} from '../../src/index';
import { baseTestConfig } from './test-config';
import { generateTestKeys, signDaemonToken, type SignOptions, type TestKeys } from './tokens';

export const FAKE_GAME = join(import.meta.dirname, '..', 'fixtures', 'fake-game.mjs');

export interface TestDaemon {
  daemon: RunningDaemon;
  config: DaemonConfig;
  keys: TestKeys;
  dataDir: string;
  url: string;
  token(opts?: SignOptions): Promise<string>;
  admin(server?: string): Promise<string>;
  user(server: string, perms: ServerPermission[]): Promise<string>;
  request(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; raw?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

export type Overrides = Partial<Omit<DaemonConfigInput, 'publicKeyPem'>>;

/** `deps`: what the daemon is built with besides its config (e.g. a ManualClock for the task scheduler). */
export async function startTestDaemon(overrides: Overrides = {}, deps: DaemonDeps = {}): Promise<TestDaemon> {
  const keys = await generateTestKeys();
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-daemon-'));
  const config = parseDaemonConfig({
    ...baseTestConfig(dataDir, keys),
    crash: { minUptimeMs: 3_000, maxUnstableRuns: 3, backoffInitialMs: 50, backoffMaxMs: 400 },
    ...overrides,
  });
  const daemon = await startDaemon(config, pino({ level: 'silent' }), deps);
  const url = `http://127.0.0.1:${daemon.port}`;
  const token = (opts: SignOptions = {}) =>
    signDaemonToken(keys.privateKey, { nodeId: 'test-node', ...opts });
  return {
    daemon,
    config,
    keys,
    dataDir,
    url,
    token,
    admin: (server = '*') => token({ admin: true, server }),
    user: (server, perms) => token({ server, perms }),
    request: async (method, path, opts = {}) => {
      const headers: Record<string, string> = {};
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined;
      if (opts.raw !== undefined) {
        headers['content-type'] = 'text/plain';
        body = opts.raw;
      } else if (opts.body !== undefined && method !== 'GET') {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(opts.body);
      }
      return fetch(`${url}${path}`, { method, headers, body });
    },
    close: async () => {
      await daemon.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A definition running the fake game under `env` ('standard' or 'tty'). */
export function fakeGameDefinition(
  env: 'standard' | 'tty' = 'standard',
  extra: Record<string, unknown> = {},
) {
  return {
    type: 'fake',
    display: 'Fake game',
    data: {
      flags: { type: 'string', value: '', display: 'Extra flags', userEdit: true },
      memory: { type: 'integer', value: 512, display: 'Memory', userEdit: false },
    },
    install: [{ type: 'writefile', target: 'server.properties', text: 'memory=${memory}\n' }],
    run: {
      command: `${process.execPath} ${FAKE_GAME} \${flags}`,
      stop: 'stop',
      autorecover: true,
      ...extra,
    },
    environment: { type: env },
  };
}
