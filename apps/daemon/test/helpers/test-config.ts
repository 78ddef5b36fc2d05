import type { TestKeys } from './tokens';

/** What a test daemon's config starts from: loopback on a free port, quiet, the test key, quick stops. */
export function baseTestConfig(dataDir: string, keys: TestKeys) {
  return {
    nodeId: 'test-node',
    host: '127.0.0.1',
    port: 0,
    dataDir,
    publicKeyPem: keys.publicKeyPem,
    logLevel: 'silent',
    power: { stopTimeoutMs: 5_000, shutdownTimeoutMs: 5_000, autostartIntervalMs: 50 },
  };
}
