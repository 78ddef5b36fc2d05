/**
 * The production build run as it ships (docs/adr/0006-production-build.md): the build script writes its tree
 * into .tmp/ (inside the repository, whose node_modules hold the externals), and plain `node <tree>/bin/hearth.js`
 * — no --import, no NODE_OPTIONS, so no tsx and no TypeScript — answers --help and starts the panel and the
 * local node on free ports, SQLite in a temp folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHearth } from './helpers/built-tree';
import { spawnHearth, type HearthProcess } from './helpers/hearth-process';
import { freePort, untilAnswers } from './helpers/net';

describe('the built hearth', { timeout: 300_000 }, () => {
  let built: string;
  let removeBuild = () => undefined as void;
  const running: HearthProcess[] = [];

  beforeAll(() => {
    const tree = buildHearth();
    built = tree.dir;
    removeBuild = tree.remove;
  }, 300_000);
  afterAll(async () => {
    for (const hearth of running) await hearth.stop();
    removeBuild();
  });

  it('is JavaScript that imports neither tsx nor TypeScript', () => {
    const files = readdirSync(join(built, 'lib'));
    expect(files).toContain('hearth.js');
    expect(files.filter((f) => /\.[cm]?tsx?$/.test(f))).toEqual([]);
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(built, 'lib', file), 'utf8');
      expect(code, file).not.toMatch(/(import|require)\s*\(?\s*["'](tsx|typescript)(\/[^"']*)?["']/);
    }
  });

  it('answers --help with plain node', () => {
    const run = spawnSync(process.execPath, [join(built, 'bin/hearth.js'), '--help'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: hearth');
    expect(run.stdout).toContain('start [options]');
  });

  it('starts the panel and the local node; the process runs the build and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-built-'));
    const [web, node, sftp] = [await freePort(), await freePort(), await freePort()];
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        web: { host: '127.0.0.1', port: web },
        panel: { dataDir: join(dir, 'data'), databaseUrl: `sqlite:${join(dir, 'data/hearth.db')}` },
        node: { port: node, sftpHost: '127.0.0.1', sftpPort: sftp },
      }),
    );
    const hearth = spawnHearth(['--config', config, 'start'], { cwd: dir, built });
    running.push(hearth);
    expect(await untilAnswers(`http://127.0.0.1:${web}/api/config`)).toBe(200);
    // The local node's liveness route is public; its other routes want a panel-signed token.
    expect(await untilAnswers(`http://127.0.0.1:${node}/daemon`)).toBe(200);
    expect(await untilAnswers(`http://127.0.0.1:${node}/daemon/server/nope`)).toBe(401);

    const pid = hearth.child.pid ?? 0;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(cmdline).toEqual([process.execPath, join(built, 'bin/hearth.js'), '--config', config, 'start']);
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain('NODE_OPTIONS=');
    await hearth.stop();
    rmSync(dir, { recursive: true, force: true });
  });
});
