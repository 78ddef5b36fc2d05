/**
 * A daemon that does not run as root cannot give servers uids of their own (docs/security.md "Isolation model"):
 * it says so once at start and `GET /daemon/features` reports which isolation is left — bubblewrap alone when
 * unprivileged user namespaces allow it (servers still see none of Hearth's data), else none. Run for real as
 * `nobody`, so the root test process can switch users.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/poll';
import { baseTestConfig } from '../helpers/test-config';
import { generateTestKeys, signDaemonToken } from '../helpers/tokens';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'run-daemon.ts');
const REPO = join(import.meta.dirname, '..', '..', '..', '..');
const NOBODY = 65_534;
const isRoot = process.getuid?.() === 0;

interface Started {
  child: ChildProcess;
  url: string;
  lines: string[];
}

function startAsNobody(configFile: string): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, configFile], {
    cwd: REPO,
    uid: NOBODY,
    gid: NOBODY,
    env: { ...process.env, HOME: '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      lines.splice(0, lines.length, ...out.split('\n').filter(Boolean));
      const port = /listening (\d+)/.exec(out)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}`, lines });
    });
    child.stderr?.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${out}`)));
  });
}

describe.skipIf(!isRoot)('a daemon that is not root', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  const cases = [
    {
      bubblewrap: 'auto',
      mode: 'bubblewrap',
      line: 'isolation: bubblewrap — servers run as uid 65534 like the daemon',
    },
    { bubblewrap: 'off', mode: 'none', line: 'isolation: none — servers run as uid 65534 like the daemon' },
  ] as const;

  for (const c of cases) {
    it.skipIf(c.bubblewrap === 'auto' && !existsSync('/usr/bin/bwrap'))(
      `says once which isolation is in force (${c.mode}) and reports it`,
      async () => {
        const keys = await generateTestKeys();
        const dataDir = await mkdtemp(join(tmpdir(), 'hearth-nobody-'));
        cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
        await chown(dataDir, NOBODY, NOBODY);
        await writeFile(join(dataDir, 'hearth.db'), 'the database');
        await chown(join(dataDir, 'hearth.db'), NOBODY, NOBODY);
        const configFile = join(dataDir, 'node.json');
        await writeFile(
          configFile,
          JSON.stringify({ ...baseTestConfig(dataDir, keys), isolation: { bubblewrap: c.bubblewrap } }),
        );
        await chown(configFile, NOBODY, NOBODY);
        const started = await startAsNobody(configFile);
        cleanup.push(async () => {
          const gone = new Promise((done) => started.child.once('exit', done));
          started.child.kill('SIGTERM');
          await gone;
        });
        const said = started.lines.filter((line) => /isolation: [a-z-]+ — /.test(line));
        expect(said, started.lines.join('\n')).toHaveLength(1);
        expect(said[0]).toContain(c.line);

        const token = await signDaemonToken(keys.privateKey, {
          nodeId: 'test-node',
          admin: true,
          server: '*',
        });
        const call = (method: string, path: string, body?: unknown) =>
          fetch(`${started.url}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              ...(body ? { 'content-type': 'application/json' } : {}),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        const features = (await (await call('GET', '/daemon/features')).json()) as { isolation?: string };
        expect(features.isolation).toBe(c.mode);

        // The server runs as the daemon's own uid; only bubblewrap keeps Hearth's data out of its sight.
        const db = join(dataDir, 'hearth.db');
        const run = {
          command: `sh -c "id -u > uid.txt; if cat ${db} > /dev/null 2>&1; then echo seen; else echo hidden; fi > db.txt"`,
        };
        expect((await call('PUT', '/daemon/server/plain', { run })).status).toBe(200);
        expect((await call('POST', '/daemon/server/plain/start?wait=true')).status).toBe(204);
        const folder = join(dataDir, 'servers', 'plain');
        const seen = await waitFor(() => readFile(join(folder, 'db.txt'), 'utf8').catch(() => ''), 'db.txt');
        expect((await readFile(join(folder, 'uid.txt'), 'utf8')).trim()).toBe(String(NOBODY));
        expect(seen.trim()).toBe(c.mode === 'bubblewrap' ? 'hidden' : 'seen');
      },
      // A daemon process of its own, which builds its holder program with cc on first use (docs/daemon.md).
      120_000,
    );
  }
});
