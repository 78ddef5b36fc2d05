import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';
import { loadHostKey } from '../../src/sftp/host-key';

describe('SFTP host key', () => {
  it('is generated once: daemons racing on one data dir all get the same whole key', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hearth-hostkey-')), 'data');
    const keys = await Promise.all(Array.from({ length: 12 }, () => loadHostKey(dir)));
    expect(new Set(keys).size).toBe(1);
    const parsed = ssh2.utils.parseKey(keys[0] ?? '');
    expect(parsed instanceof Error).toBe(false);
    expect(readdirSync(dir)).toEqual(['sftp_host_ed25519_key']);
    expect(statSync(join(dir, 'sftp_host_ed25519_key')).mode & 0o777).toBe(0o600);
    expect(await loadHostKey(dir)).toBe(keys[0]);
  });

  it('never keeps a key ssh2 cannot parse (its generator makes one in ~256)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hearth-hostkeys-'));
    const keys = await Promise.all(Array.from({ length: 600 }, (_, i) => loadHostKey(join(root, String(i)))));
    for (const key of keys) expect(ssh2.utils.parseKey(key) instanceof Error).toBe(false);
  });
});
