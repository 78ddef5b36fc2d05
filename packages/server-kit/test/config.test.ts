import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, envName, loadConfig, parseConfig } from '../src/config';

const dir = mkdtempSync(join(tmpdir(), 'hearth-kit-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const schema = z.strictObject({
  web: z
    .strictObject({ port: z.number().int().max(65535).default(8080), trustProxy: z.boolean().default(false) })
    .prefault({}),
  console: z
    .strictObject({
      buffer: z.strictObject({ maxBytes: z.number().int().min(1).default(1024) }).prefault({}),
    })
    .prefault({}),
  allow: z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(z.string())).default([]),
  name: z.string().min(1),
});
const defaults = {
  web: { port: 8080, trustProxy: false },
  console: { buffer: { maxBytes: 1024 } },
  allow: [],
  name: 'x',
};

let n = 0;
function file(content: unknown): string {
  const path = join(dir, `c${n++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function load(path: string, env: NodeJS.ProcessEnv = {}, optional = false) {
  return loadConfig(schema, {
    file: path,
    envPrefix: 'HEARTH_TEST_',
    defaults,
    env,
    optional,
    label: 'test configuration',
  });
}

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('the shared config loader', () => {
  it('names env variables from the key path', () => {
    expect(envName('HEARTH_', ['panel', 'databaseUrl'])).toBe('HEARTH_PANEL_DATABASE_URL');
    expect(envName('HEARTH_DAEMON_', ['console', 'bufferBytes'])).toBe('HEARTH_DAEMON_CONSOLE_BUFFER_BYTES');
  });

  it('fills defaults and applies env overrides at any depth, typed by the default', () => {
    const config = load(file({ name: 'a', web: { port: 1 } }), {
      HEARTH_TEST_WEB_PORT: '9000',
      HEARTH_TEST_WEB_TRUST_PROXY: 'yes',
      HEARTH_TEST_CONSOLE_BUFFER_MAX_BYTES: '2048',
      HEARTH_TEST_ALLOW: 'a,b',
      HEARTH_TEST_NAME: 'from-env',
    });
    expect(config).toEqual({
      web: { port: 9000, trustProxy: true },
      console: { buffer: { maxBytes: 2048 } },
      allow: ['a', 'b'],
      name: 'from-env',
    });
  });

  it('names the variable when the bad value came from the env, the file otherwise', () => {
    const path = file({ name: 'a', web: { port: 70000 } });
    expect(failure(() => load(path))).toMatch(
      new RegExp(`^Invalid test configuration: web\\.port \\(from ${path}\\): `),
    );
    expect(failure(() => load(file({ name: 'a' }), { HEARTH_TEST_WEB_PORT: 'abc' }))).toMatch(
      /^Invalid test configuration: web\.port \(from HEARTH_TEST_WEB_PORT\): /,
    );
    expect(failure(() => load(file({ name: 'a' }), { HEARTH_TEST_WEB_TRUST_PROXY: 'maybe' }))).toMatch(
      /web\.trustProxy \(from HEARTH_TEST_WEB_TRUST_PROXY\)/,
    );
    expect(failure(() => load(file({ name: 'a', wbe: {} })))).toMatch(/wbe \(from .*\): is not a known key/);
  });

  it('reports a missing, malformed or non-object file in one line', () => {
    const missing = join(dir, 'missing.json');
    expect(failure(() => load(missing))).toMatch(/cannot read .*missing\.json/);
    expect(failure(() => load(file('{ not json')))).toMatch(/c\d+\.json is not valid JSON/);
    expect(failure(() => load(file('[1]')))).toMatch(/must hold a JSON object/);
    // Optional: a missing file means defaults (a required key then names itself).
    expect(failure(() => load(missing, {}, true))).toMatch(/^Invalid test configuration: name \(from /);
    expect(load(missing, { HEARTH_TEST_NAME: 'n' }, true).web.port).toBe(8080);
  });

  it('validates an object merged elsewhere', () => {
    expect(parseConfig(schema, { name: 'z' }).console.buffer.maxBytes).toBe(1024);
    expect(failure(() => parseConfig(schema, {}, { origin: 'the test' }))).toBe(
      'Invalid configuration: name (from the test): Invalid input: expected string, received undefined',
    );
  });
});
