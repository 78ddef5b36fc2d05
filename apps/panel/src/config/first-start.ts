import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultConfig } from './schema';
import { envName } from './load';

/** The keys an operator edits most, written into a new config file (docs/configuration.md). */
const firstKeys = {
  web: ['host', 'port'],
  panel: ['dataDir', 'databaseUrl', 'masterUrl'],
  node: ['host', 'port', 'sftpHost', 'sftpPort'],
} as const;

/**
 * On the first start the config file does not exist yet: write it with the defaults of the keys operators
 * edit most, so they find them in one place. Keys given as `HEARTH_*` variables are left out: the environment
 * keeps deciding them, and a secret passed that way (a database password) is not copied into a file.
 * Owner-only, and atomic without replacing anything: the full file is linked into place, so a file another
 * process created meanwhile is kept. Returns whether the file was created.
 */
export function createConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(path)) return false;
  const defaults = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
  const file: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(firstKeys)) {
    for (const key of keys) {
      if (env[envName(section, key)] !== undefined) continue;
      (file[section] ??= {})[key] = defaults[section]?.[key];
    }
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o711 });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}
