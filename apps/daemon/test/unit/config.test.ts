import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DaemonConfigError, daemonEnvName, loadDaemonConfig } from '../../src/config/load';
import { generateTestKeys } from '../helpers/tokens';

let dir: string;
let publicKeyPem: string;

async function configFile(content: unknown): Promise<string> {
  const path = join(dir, `node-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function failure(path: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    loadDaemonConfig(path, env);
  } catch (err) {
    expect(err).toBeInstanceOf(DaemonConfigError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error('expected a DaemonConfigError');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-config-'));
  publicKeyPem = (await generateTestKeys()).publicKeyPem;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('daemon configuration', () => {
  it('fills defaults and derives serversDir from dataDir', async () => {
    const config = loadDaemonConfig(await configFile({ publicKeyPem, dataDir: '/var/hearth' }), {});
    expect(config).toMatchObject({ nodeId: 'local', port: 5656, serversDir: '/var/hearth/servers' });
    expect(config.console).toEqual({
      bufferBytes: 1048576,
      flushIntervalMs: 10,
      subscriberQueueBytes: 1048576,
    });
  });

  it('names the environment variable for every key', () => {
    expect(daemonEnvName(['console', 'bufferBytes'])).toBe('HEARTH_DAEMON_CONSOLE_BUFFER_BYTES');
    expect(daemonEnvName(['nodeId'])).toBe('HEARTH_DAEMON_NODE_ID');
  });

  it('applies HEARTH_DAEMON_* overrides with the type of the default', async () => {
    const path = await configFile({ publicKeyPem });
    const config = loadDaemonConfig(path, {
      HEARTH_DAEMON_CONSOLE_BUFFER_BYTES: '2048',
      HEARTH_DAEMON_DOWNLOADS_ALLOW_PRIVATE_ADDRESSES: 'yes',
      HEARTH_DAEMON_NODE_ID: 'n2',
    });
    expect(config.console.bufferBytes).toBe(2048);
    expect(config.downloads.allowPrivateAddresses).toBe(true);
    expect(config.nodeId).toBe('n2');
  });

  it('reports a bad value from the environment in one line naming the key and the variable', async () => {
    const message = failure(await configFile({ publicKeyPem }), {
      HEARTH_DAEMON_CONSOLE_BUFFER_BYTES: 'lots',
    });
    expect(message).toMatch(
      /^Invalid daemon configuration: console\.bufferBytes \(from HEARTH_DAEMON_CONSOLE_BUFFER_BYTES\): /,
    );
  });

  it('reports a bad value or an unknown key from the file in one line naming it', async () => {
    const path = await configFile({ publicKeyPem, socket: { maxPerServer: 'many' } });
    expect(failure(path)).toMatch(
      new RegExp(`^Invalid daemon configuration: socket\\.maxPerServer \\(from ${path}\\): `),
    );
    expect(failure(await configFile({ publicKeyPem, consol: {} }))).toMatch(/consol.*is not a known key/);
    expect(failure(await configFile({}))).toMatch(/publicKeyPem/);
  });

  it('reports an unreadable or non-object file in one line', async () => {
    expect(failure(join(dir, 'missing.json'))).toMatch(/cannot read .*missing\.json/);
    expect(failure(await configFile('{ not json'))).toMatch(/node-.*\.json is not valid JSON/);
    expect(failure(await configFile('[1, 2]'))).toMatch(/must hold a JSON object/);
  });
});
