import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, readConfigFile } from './load';
import { configSchema, defaultConfig } from './schema';

function splitKey(key: string): [string, string] {
  const [section, name, ...rest] = key.split('.');
  const defaults = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
  if (!section || !name || rest.length > 0 || !defaults[section] || !(name in defaults[section])) {
    throw new ConfigError(`Unknown configuration key '${key}' (use section.key, e.g. web.port)`);
  }
  return [section, name];
}

/** The effective value of `section.key` from a loaded config object. */
export function getConfigValue(config: object, key: string): unknown {
  const [section, name] = splitKey(key);
  return (config as Record<string, Record<string, unknown>>)[section]?.[name];
}

/** Sets one key in the config file (typed like its default), validating the whole file first. */
export function setConfigValue(path: string, key: string, raw: string): void {
  const [section, name] = splitKey(key);
  const sample = (defaultConfig() as unknown as Record<string, Record<string, unknown>>)[section]?.[name];
  let value: unknown = raw;
  if (typeof sample === 'number') value = Number(raw);
  if (typeof sample === 'boolean') value = raw === 'true' ? true : raw === 'false' ? false : raw;
  const file = readConfigFile(path);
  const current = file[section];
  file[section] = { ...(typeof current === 'object' && current !== null ? current : {}), [name]: value };
  const check = configSchema.safeParse(file);
  if (!check.success) {
    const issue = check.error.issues[0];
    throw new ConfigError(`Invalid value for ${key}: ${issue?.message ?? 'invalid'}`);
  }
  writeAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** Write to a temp file beside the target, then rename: readers never see half a file. */
export function writeAtomic(path: string, content: string, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, content, { mode });
  renameSync(temp, path);
}
