import { resolve } from 'node:path';
import * as kit from '@hearth/server-kit';
import { configSchema, defaultConfig, type PanelConfig } from './schema';
import { secureSecretFile } from '../lib/file-modes';

/** A configuration problem: its message is one readable line naming the key (printed without a stack). */
export { ConfigError } from '@hearth/server-kit';

export const DEFAULT_CONFIG_PATH = './data/config.json';

/** `--config` wins over `HEARTH_CONFIG`, which wins over the default path. */
export function configPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag || env.HEARTH_CONFIG || DEFAULT_CONFIG_PATH);
}

/** `databaseUrl` → `DATABASE_URL`; with its section: `HEARTH_PANEL_DATABASE_URL`. */
export function envName(section: string, key: string): string {
  return kit.envName('HEARTH_', [section, key]);
}

/** The file's object; a missing file is `{}` (every key has a default). */
export function readConfigFile(path: string): Record<string, unknown> {
  return kit.readConfigFile(path, { optional: true });
}

/** Loads the file, applies `HEARTH_*` overrides and validates. Throws ConfigError with one line. */
export function loadConfig(options: { path?: string; env?: NodeJS.ProcessEnv } = {}): PanelConfig {
  const env = options.env ?? process.env;
  const file = configPath(options.path, env);
  // It may hold the mail password and the database URL's credentials: owner-only (docs/security.md).
  secureSecretFile(file);
  const defaults = defaultConfig() as unknown as Record<string, unknown>;
  return kit.loadConfig(configSchema, { file, optional: true, envPrefix: 'HEARTH_', defaults, env });
}
