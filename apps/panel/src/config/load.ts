import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { configSchema, defaultConfig, type PanelConfig } from './schema';
import { secureSecretFile } from '../lib/file-modes';

/** A configuration problem: its message is one readable line naming the key (printed without a stack). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_CONFIG_PATH = './data/config.json';

/** `--config` wins over `HEARTH_CONFIG`, which wins over the default path. */
export function configPath(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag || env.HEARTH_CONFIG || DEFAULT_CONFIG_PATH);
}

/** `databaseUrl` → `DATABASE_URL`; with its section: `HEARTH_PANEL_DATABASE_URL`. */
export function envName(section: string, key: string): string {
  return `HEARTH_${section.toUpperCase()}_${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

export function readConfigFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${path} is not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`Invalid configuration: ${path} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Env values are text; convert them to the type of the key's default so zod can judge them. */
function fromEnv(raw: string, sample: unknown): unknown {
  if (typeof sample === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (typeof sample === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    return raw;
  }
  return raw;
}

function applyEnv(file: Record<string, unknown>, env: NodeJS.ProcessEnv, sources: Map<string, string>) {
  const defaults = defaultConfig() as unknown as Record<string, Record<string, unknown>>;
  const merged: Record<string, unknown> = { ...file };
  for (const [section, keys] of Object.entries(defaults)) {
    for (const [key, sample] of Object.entries(keys)) {
      const name = envName(section, key);
      const raw = env[name];
      if (raw === undefined) continue;
      const current = merged[section];
      const target = typeof current === 'object' && current !== null ? { ...current } : {};
      merged[section] = { ...target, [key]: fromEnv(raw, sample) };
      sources.set(`${section}.${key}`, name);
    }
  }
  return merged;
}

function describeIssue(issue: z.core.$ZodIssue, sources: Map<string, string>, path: string): string {
  const parts = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') parts.push(issue.keys.join(', '));
  const key = parts.join('.') || '(root)';
  const from = sources.get(key) ?? path;
  const what = issue.code === 'unrecognized_keys' ? 'is not a known key' : issue.message;
  return `Invalid configuration: ${key} (from ${from}): ${what}`;
}

/** Loads the file, applies `HEARTH_*` overrides and validates. Throws ConfigError with one line. */
export function loadConfig(options: { path?: string; env?: NodeJS.ProcessEnv } = {}): PanelConfig {
  const env = options.env ?? process.env;
  const path = configPath(options.path, env);
  // It may hold the mail password and the database URL's credentials: owner-only (docs/security.md).
  secureSecretFile(path);
  const sources = new Map<string, string>();
  const merged = applyEnv(readConfigFile(path), env, sources);
  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new ConfigError(first ? describeIssue(first, sources, path) : `Invalid configuration in ${path}`);
  }
  return result.data;
}
