/** A real daemon on a prepared data dir with a chosen `isolation.bubblewrap`, its log lines kept for assertions. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { parseDaemonConfig, startDaemon, type DaemonConfig, type RunningDaemon } from '../../src/index';
import { baseTestConfig } from '../helpers/test-config';
import { signDaemonToken, type TestKeys } from '../helpers/tokens';

export interface IsolatedDaemon {
  daemon: RunningDaemon;
  config: DaemonConfig;
  url: string;
  logs: string[];
  admin(): Promise<string>;
  request(method: string, path: string, body?: unknown): Promise<Response>;
}

export async function startIsolatedDaemon(
  dataDir: string,
  keys: TestKeys,
  bubblewrap: 'auto' | 'off' | 'required',
  idRange: { idRangeStart: number; idRangeEnd: number } | Record<string, never> = {},
): Promise<IsolatedDaemon> {
  const config = parseDaemonConfig({
    ...baseTestConfig(dataDir, keys),
    isolation: { bubblewrap, ...idRange },
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const daemon = await startDaemon(config, pino({ level: 'info' }, sink));
  const url = `http://127.0.0.1:${daemon.port}`;
  const admin = () => signDaemonToken(keys.privateKey, { nodeId: 'test-node', admin: true, server: '*' });
  return {
    daemon,
    config,
    url,
    logs,
    admin,
    request: async (method, path, body) => {
      const headers: Record<string, string> = { authorization: `Bearer ${await admin()}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
  };
}
