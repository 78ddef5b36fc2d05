/** A server's disk use adds up its folders: the server folder and its unfinished uploads beside it. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskUsage } from '../../src/metrics/disk-usage';
import { waitFor } from '../helpers/poll';

describe('disk usage of a server', () => {
  let dir = '';
  let usage: DiskUsage | undefined;
  afterAll(async () => {
    await usage?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counts every folder given for it; a missing one counts as empty', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-disk-usage-'));
    await mkdir(join(dir, 'server'));
    await mkdir(join(dir, 'uploads'));
    await writeFile(join(dir, 'server', 'a.bin'), Buffer.alloc(64 * 1024, 1));
    await writeFile(join(dir, 'uploads', 'x.part'), Buffer.alloc(128 * 1024, 1));
    usage = new DiskUsage(() => [['s1', join(dir, 'server'), join(dir, 'uploads'), join(dir, 'none')]], 100);
    usage.start();
    // Allocated blocks: at least the bytes written in each folder.
    await waitFor(() => (usage?.bytes('s1') ?? 0) >= 192 * 1024, 'both folders counted');
    // The server folder alone holds 64 KiB: the uploads' 128 KiB are in the figure.
    expect(usage.bytes('s1')).toBeGreaterThanOrEqual(192 * 1024);
  });
});
