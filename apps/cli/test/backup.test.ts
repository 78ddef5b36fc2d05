/**
 * `hearth backup` / `hearth restore` for the panel's own data (docs/backups.md § The panel's own data), with
 * real processes and SQLite in temp folders: a backup taken while the panel runs, a restore refused while it
 * runs, a restore over another installation (its files kept aside) after which the backed-up user logs in.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hearthCommand, spawnHearth, type HearthProcess } from './helpers/hearth-process';
import { freePort } from './helpers/net';
import { setUpAdmin } from './helpers/panel-api';

const SETUP = /(http\S+\/auth\/setup\?token=[\w-]+)/;
const USER = { email: 'kept@example.com', password: 'kept-password-1' };

function run(cwd: string, args: string[], input = '') {
  const [bin, ...rest] = hearthCommand(args, {});
  const result = spawnSync(bin ?? process.execPath, rest, {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', HEARTH_CONFIG: '' },
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout + result.stderr };
}

async function login(url: string, email: string, password: string): Promise<number> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

describe('hearth backup / restore', { timeout: 300_000 }, () => {
  const dirs: string[] = [];
  const running: HearthProcess[] = [];
  afterAll(async () => {
    for (const hearth of running) await hearth.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A folder with ./data/config.json on free ports (the default config path from that folder). */
  async function install(databaseUrl?: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-backup-'));
    dirs.push(dir);
    const config = {
      web: { host: '127.0.0.1', port: await freePort() },
      panel: {
        dataDir: join(dir, 'data'),
        databaseUrl: databaseUrl ?? `sqlite:${join(dir, 'data/hearth.db')}`,
      },
    };
    spawnSync('mkdir', ['-p', join(dir, 'data')]);
    writeFileSync(join(dir, 'data/config.json'), JSON.stringify(config));
    return dir;
  }
  const port = (dir: string) =>
    (JSON.parse(readFileSync(join(dir, 'data/config.json'), 'utf8')) as { web: { port: number } }).web.port;

  async function start(dir: string) {
    const hearth = spawnHearth(['start', '--no-node'], { cwd: dir });
    running.push(hearth);
    await hearth.waitFor(/panel listening on/);
    return { hearth, url: `http://127.0.0.1:${port(dir)}` };
  }

  it('backs up a running panel, refuses to restore under it, and restores over another one', async () => {
    const a = await install();
    const first = await start(a);
    await setUpAdmin(first.url, (await first.hearth.waitFor(SETUP))[1] ?? '');
    const added = run(a, ['user', 'add', '--email', USER.email, '--username', 'kept'], `${USER.password}\n`);
    expect(added.out).toContain('created user kept');
    expect(await login(first.url, USER.email, USER.password)).toBe(200);

    const archive = join(a, 'panel.tar.gz');
    const backup = run(a, ['backup', archive]);
    expect(backup.code, backup.out).toBe(0);
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const listed = spawnSync('tar', ['tzf', archive], { encoding: 'utf8' }).stdout;
    for (const entry of ['./manifest.json', './database/hearth.db', './keys/', './config.json'])
      expect(listed).toContain(entry);
    // Never over an existing file.
    expect(run(a, ['backup', archive]).code).not.toBe(0);

    const refused = run(a, ['restore', archive]);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/a panel is running/);
    await first.hearth.stop();
    expect(existsSync(join(a, 'data/hearth.pid'))).toBe(false);

    // Another installation with its own admin and keys: the restore replaces them and keeps them aside.
    const b = await install();
    const second = await start(b);
    await second.hearth.waitFor(SETUP);
    await second.hearth.stop();
    const ownKey = readFileSync(join(b, 'data/keys/panel-es256.key'));

    const bad = join(b, 'bad.tar.gz');
    spawnSync('tar', ['czf', bad, '-C', b, 'data/config.json']);
    expect(run(b, ['restore', bad]).out).toMatch(/not a Hearth panel backup/);
    expect(readFileSync(join(b, 'data/keys/panel-es256.key'))).toEqual(ownKey);

    const restored = run(b, ['restore', archive]);
    expect(restored.code, restored.out).toBe(0);
    expect(readFileSync(join(b, 'data/keys/panel-es256.key'))).toEqual(
      readFileSync(join(a, 'data/keys/panel-es256.key')),
    );
    const previous = readdirSync(join(b, 'data')).find((name) => name.startsWith('previous-')) ?? '';
    expect(readFileSync(join(b, 'data', previous, 'keys/panel-es256.key'))).toEqual(ownKey);
    expect(existsSync(join(b, 'data', previous, 'hearth.db'))).toBe(true);
    expect(existsSync(join(b, 'data/restored-config.json'))).toBe(true);

    const third = await start(b);
    expect(await login(third.url, USER.email, USER.password)).toBe(200);
    expect(await login(third.url, USER.email, 'wrong-password-1')).not.toBe(200);
  });

  it('says the PostgreSQL or MariaDB database needs its own dump (keys and config still saved)', async () => {
    const dir = await install('postgres://postgres@127.0.0.1:5432/none');
    const archive = join(dir, 'keys-only.tar.gz');
    const backup = run(dir, ['backup', archive]);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain('pg_dump');
    const listed = spawnSync('tar', ['tzf', archive], { encoding: 'utf8' }).stdout;
    expect(listed).toContain('./config.json');
    expect(listed).not.toContain('database/');
  });
});
