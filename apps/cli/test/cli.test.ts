import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
