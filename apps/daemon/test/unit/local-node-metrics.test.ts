/** `hearth start`'s local node takes the panel's `metrics` section (docs/configuration.md § Daemon: metrics). */
import { describe, expect, it } from 'vitest';
import { localDaemonConfig } from '../../src/index';
import { generateTestKeys } from '../helpers/tokens';

describe('local node metrics', () => {
  it('are off unless the panel’s section turns them on, with its token and allow list', async () => {
    const { publicKeyPem } = await generateTestKeys();
    const base = { dataDir: '/tmp/hearth-local', panelUrl: 'http://127.0.0.1:8080', publicKeyPem };
    expect(localDaemonConfig(base).metrics).toEqual({ enabled: false, token: '', allow: [] });
    const on = localDaemonConfig({
      ...base,
      metrics: { enabled: true, token: 't0ken', allow: ['10.0.0.0/8'] },
    });
    expect(on.metrics).toEqual({ enabled: true, token: 't0ken', allow: ['10.0.0.0/8'] });
    expect(() => localDaemonConfig({ ...base, metrics: { enabled: true, token: '', allow: [] } })).toThrow(
      /metrics\.token/,
    );
  });
});
