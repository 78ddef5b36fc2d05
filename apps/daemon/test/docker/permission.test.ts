/** A daemon user without access to the Docker socket gets ErrDockerPermission's message, not a crash. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { requireDocker, SOCKET } from './helpers';

const available = await requireDocker();
const isRoot = process.getuid?.() === 0;
if (available && !isRoot) console.warn('skipping the socket permission test: it needs root to switch users');

describe.skipIf(!available || !isRoot)('docker socket permission', () => {
  it('reports permission denied on the socket for a user outside the docker group', async () => {
    const fixture = join(import.meta.dirname, 'fixtures', 'check-docker.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture, SOCKET], {
      cwd: join(import.meta.dirname, '..', '..', '..', '..'),
      uid: 65534,
      gid: 65534,
      env: { ...process.env, HOME: '/tmp' },
    });
    expect(JSON.parse(stdout)).toEqual({
      docker: false,
      dockerError: 'Permission denied on the Docker socket',
    });
  });
});
