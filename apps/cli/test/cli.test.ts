import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from '@hearth/panel';
import { storedAccount } from '../../panel/test/helpers/account-rows';
import { createTestDatabase, type TestDatabase } from '../../panel/test/helpers/database';
import { DIALECTS } from '../../panel/test/helpers/dialects';
import { refuseInserts } from '../../panel/test/helpers/refuse-inserts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');

/** Runs the real `hearth` CLI in a fresh folder (its ./data is the default data dir). */
function hearth(cwd: string, args: string[], input = '', env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', tsx, main, ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, HEARTH_CONFIG: '', ...env },
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

// Each case spawns the real CLI several times; on a loaded 2-core machine one spawn can take seconds.
describe('hearth CLI', { timeout: 180_000 }, () => {
  const cwd = mkdtempSync(join(tmpdir(), 'hearth-cli-'));

  it('has --help on every command', () => {
    for (const args of [
      ['--help'],
      ['start', '--help'],
      ['migrate', '--help'],
      ['user', 'add', '--help'],
      ['config', '--help'],
    ]) {
      const run = hearth(cwd, args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.out).toContain('Usage: hearth');
    }
  });

  it('config set writes ./data/config.json and config get reads it (env wins)', () => {
    expect(hearth(cwd, ['config', 'set', 'panel.companyName', 'Acme']).code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'data/config.json'), 'utf8'))).toEqual({
      panel: { companyName: 'Acme' },
    });
    expect(hearth(cwd, ['config', 'get', 'panel.companyName']).out.trim()).toBe('Acme');
    expect(hearth(cwd, ['config', 'get', 'web.port'], '', { HEARTH_WEB_PORT: '9000' }).out.trim()).toBe(
      '9000',
    );
  });

  it('a bad config value stops with one readable line naming the key', () => {
    const run = hearth(cwd, ['migrate'], '', { HEARTH_WEB_PORT: 'eighty' });
    expect(run.code).toBe(1);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toContain('web.port');
    expect(run.err).not.toContain('    at ');
  });

  it('migrate is safe to run twice', () => {
    expect(hearth(cwd, ['migrate']).out).toContain('applied:');
    expect(hearth(cwd, ['migrate']).out).toContain('up to date');
    expect(existsSync(join(cwd, 'data/hearth.db'))).toBe(true);
  });

  it('user add reads the password from stdin and validates it', () => {
    const userAdd = (flags: string[], password: string) =>
      hearth(cwd, ['user', 'add', ...flags], `${password}\n`);
    const root = ['--admin', '--email', 'root@example.com', '--username', 'root'];
    const weak = userAdd(root, 'short');
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('ErrPasswordRequirements');
    const ok = userAdd(root, 'long enough pw');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('created administrator root');
    const dup = userAdd(['--email', 'ROOT@example.com', '--username', 'other'], 'long enough pw');
    expect(dup.err).toContain('ErrDuplicateUser');
  });

  it('keeps the panel private key readable by its owner only', async () => {
    const { ensurePanelKeys } = await import('@hearth/panel');
    const dir = join(cwd, 'data');
    ensurePanelKeys(dir);
    expect(statSync(join(dir, 'keys/panel-es256.key')).mode & 0o777).toBe(0o600);
  });
});

// `user add` is the panel's own user creation (modules/users/user-creator.ts) on whatever database the config names.
describe.each(DIALECTS)('hearth user add on %s', { timeout: 300_000 }, (dialect) => {
  const cwd = mkdtempSync(join(tmpdir(), 'hearth-cli-user-'));
  let testDb: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    db = connectDatabase(testDb.url);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  const userAdd = (flags: string[], password = 'long enough pw') =>
    hearth(cwd, ['user', 'add', ...flags], `${password}\n`, { HEARTH_PANEL_DATABASE_URL: testDb.url });
  const refused = (run: ReturnType<typeof userAdd>) => [run.code, run.err.trim().split('\n').length];

  it('refuses what the contract refuses, writes the account with its permission row, 409s a duplicate', async () => {
    const weak = userAdd(['--email', 'a@example.com', '--username', 'alice'], 'short');
    expect(refused(weak)).toEqual([1, 1]);
    expect(weak.err).toContain('ErrPasswordRequirements');
    const badName = userAdd(['--email', 'a@example.com', '--username', 'a b']);
    expect(refused(badName)).toEqual([1, 1]);
    expect(badName.err).toContain('ErrUsernameRequirements');
    expect(await storedAccount(db, 'a@example.com')).toBeUndefined();

    const root = userAdd(['--admin', '--email', 'Root@Example.com', '--username', 'root']);
    expect(root.code, root.err).toBe(0);
    expect(root.out).toContain('created administrator root');
    expect(await storedAccount(db, 'root@example.com')).toMatchObject({
      hasPanelRow: true,
      granted: ['admin'],
    });
    const plain = userAdd(['--email', 'plain@example.com', '--username', 'plain']);
    expect(plain.out).toContain('created user plain');
    expect(await storedAccount(db, 'plain@example.com')).toMatchObject({ hasPanelRow: true, granted: [] });

    for (const flags of [
      ['--email', 'ROOT@example.com', '--username', 'other'],
      ['--email', 'other@example.com', '--username', 'ROOT'],
    ]) {
      const dup = userAdd(flags);
      expect(refused(dup), flags.join(' ')).toEqual([1, 1]);
      expect(dup.err).toContain('ErrDuplicateUser: A user with this username or e-mail already exists');
    }
    expect(await storedAccount(db, 'other@example.com')).toBeUndefined();
  });

  it('a permission row the database refuses leaves no user row', async () => {
    const restore = await refuseInserts(db, 'permissions');
    try {
      const run = userAdd(['--admin', '--email', 'half@example.com', '--username', 'half']);
      expect(refused(run)).toEqual([1, 1]);
      expect(run.err).toMatch(/^hearth: /);
    } finally {
      await restore();
    }
    expect(await storedAccount(db, 'half@example.com')).toBeUndefined();
    expect(userAdd(['--admin', '--email', 'half@example.com', '--username', 'half']).code).toBe(0);
  });
});
