/** Stops a test daemon (its servers with it) and starts a new one on the same data dir and keys: a restart. */
import { rm } from 'node:fs/promises';
import pino from 'pino';
import { parseDaemonConfig, startDaemon } from '../../src/index';
import { baseTestConfig } from '../helpers/test-config';
import { signDaemonToken, type SignOptions } from '../helpers/tokens';
import type { Overrides, TestDaemon } from '../helpers/test-daemon';

export async function restartOnSameData(
  previous: TestDaemon,
  overrides: Overrides = {},
): Promise<TestDaemon> {
  await previous.daemon.close();
  const { keys, dataDir } = previous;
  const config = parseDaemonConfig({ ...baseTestConfig(dataDir, keys), ...overrides });
  const daemon = await startDaemon(config, pino({ level: 'silent' }));
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
    request: (method, path, opts = {}) => {
      const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
      if (opts.body === undefined || method === 'GET') return fetch(`${url}${path}`, { method, headers });
      headers['content-type'] = 'application/json';
      return fetch(`${url}${path}`, { method, headers, body: JSON.stringify(opts.body) });
    },
    close: async () => {
      await daemon.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
