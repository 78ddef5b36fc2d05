import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envName, getConfigValue, loadConfig, setConfigValue } from '../../src/config';

function tempFile(content?: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'hearth-cfg-')), 'config.json');
  if (content !== undefined) writeFileSync(path, content);
  return path;
}

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('uses defaults when the file does not exist', () => {
    const config = loadConfig({ path: tempFile(), env: {} });
    expect(config.web).toMatchObject({ host: '0.0.0.0', port: 8080 });
    expect(config.panel.databaseUrl).toBe('sqlite:./data/hearth.db');
    expect(config.panel.dataDir).toBe('./data');
    expect(config.email.provider).toBe('none');
  });

  it('reads the file, then HEARTH_<SECTION>_<KEY> overrides it', () => {
    const path = tempFile(JSON.stringify({ web: { port: 9000 }, panel: { companyName: 'File' } }));
    const config = loadConfig({
      path,
      env: {
        HEARTH_PANEL_DATABASE_URL: 'postgres://db/hearth',
        HEARTH_WEB_PORT: '9100',
        HEARTH_PANEL_REGISTRATION_ENABLED: 'true',
      },
    });
    expect(config.web.port).toBe(9100);
    expect(config.panel.companyName).toBe('File');
    expect(config.panel.databaseUrl).toBe('postgres://db/hearth');
    expect(config.panel.registrationEnabled).toBe(true);
    expect(envName('panel', 'databaseUrl')).toBe('HEARTH_PANEL_DATABASE_URL');
  });

  it('finds the file through HEARTH_CONFIG', () => {
    const path = tempFile(JSON.stringify({ panel: { companyName: 'Env' } }));
    expect(loadConfig({ env: { HEARTH_CONFIG: path } }).panel.companyName).toBe('Env');
  });

  it.each([
    [{ HEARTH_WEB_PORT: 'eighty' }, '{}', /^Invalid configuration: web\.port \(from HEARTH_WEB_PORT\)/],
    [{ HEARTH_WEB_PORT: '70000' }, '{}', /web\.port/],
    [{ HEARTH_PANEL_DATABASE_URL: 'oracle://x' }, '{}', /panel\.databaseUrl .*must start with sqlite:/],
    [{ HEARTH_EMAIL_PROVIDER: 'pigeon' }, '{}', /email\.provider/],
    [{ HEARTH_LOG_LEVEL: 'loud' }, '{}', /log\.level/],
    [{}, '{"web":{"prot":8080}}', /web\.prot .*is not a known key/],
    [{}, '{"web":{"port":"8080"}}', /web\.port/],
    [{}, '{"web": {', /is not valid JSON/],
    [{}, '[1]', /must hold a JSON object/],
  ])('a bad key stops start-up with one readable line (%o %s)', (env, file, pattern) => {
    const err = errorOf(() => loadConfig({ path: tempFile(file), env }));
    expect(err.message).toMatch(pattern);
    expect(err.message).not.toContain('\n');
  });

  it('config set writes one key atomically and validates it', () => {
    const path = tempFile(JSON.stringify({ panel: { companyName: 'Keep' } }));
    setConfigValue(path, 'web.port', '9001');
    setConfigValue(path, 'panel.registrationEnabled', 'true');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      panel: { companyName: 'Keep', registrationEnabled: true },
      web: { port: 9001 },
    });
    expect(getConfigValue(loadConfig({ path, env: {} }), 'web.port')).toBe(9001);
    expect(() => setConfigValue(path, 'web.port', 'abc')).toThrow(ConfigError);
    expect(() => setConfigValue(path, 'web.nope', '1')).toThrow(/Unknown configuration key/);
    expect((JSON.parse(readFileSync(path, 'utf8')) as { web: { port: number } }).web.port).toBe(9001);
  });
});
