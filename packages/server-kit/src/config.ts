/**
 * The one configuration loader of the panel and the daemon: a JSON file, then `HEARTH_*` environment overrides,
 * then the app's zod schema. Every problem is one readable line naming the key and where its value came from
 * (docs/configuration.md), so the command prints it without a stack.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { z } from 'zod';

/** A configuration problem: its message is one readable line naming the key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** What the messages call the file: `configuration` (panel) or `daemon configuration`. */
export interface ConfigLabel {
  label?: string;
}

/** `['console', 'bufferBytes']` with prefix `HEARTH_DAEMON_` → `HEARTH_DAEMON_CONSOLE_BUFFER_BYTES`. */
export function envName(prefix: string, path: readonly string[]): string {
  return prefix + path.map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()).join('_');
}

/**
 * Reads a JSON object. A missing file is `{}` when `optional` (every key has a default), else an error.
 */
export function readConfigFile(path: string, options: ConfigLabel & { optional?: boolean } = {}) {
  const label = options.label ?? 'configuration';
  if (options.optional && !existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`Invalid ${label}: cannot read ${path} (${(err as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Invalid ${label}: ${path} is not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`Invalid ${label}: ${path} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf key with its default (arrays are leaves: their schema reads a comma list from the env). */
function leaves(value: Record<string, unknown>, prefix: string[] = []): Array<[string[], unknown]> {
  return Object.entries(value).flatMap(([key, v]): Array<[string[], unknown]> =>
    isPlainObject(v) ? leaves(v, [...prefix, key]) : [[[...prefix, key], v]],
  );
}

/** Env values are text; convert them to the type of the key's default so zod can judge them. */
function fromEnv(raw: string, sample: unknown): unknown {
  if (typeof sample === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (typeof sample === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
  }
  return raw;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node[key] = isPlainObject(next) ? { ...next } : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] ?? ''] = value;
}

/**
 * Applies `<envPrefix><PATH>` for every leaf of `defaults` onto a copy of `file`; `sources` records which
 * variable set which key, so a bad value names the variable instead of the file.
 */
function applyEnv(
  file: Record<string, unknown>,
  options: { defaults: Record<string, unknown>; envPrefix: string; env: NodeJS.ProcessEnv },
  sources: Map<string, string>,
): Record<string, unknown> {
  const merged = structuredClone(file);
  for (const [path, sample] of leaves(options.defaults)) {
    const name = envName(options.envPrefix, path);
    const raw = options.env[name];
    if (raw === undefined) continue;
    setPath(merged, path, fromEnv(raw, sample));
    sources.set(path.join('.'), name);
  }
  return merged;
}

function describeIssue(issue: z.core.$ZodIssue, label: string, origin: string, sources: Map<string, string>) {
  const parts = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') parts.push(issue.keys.join(', '));
  const key = parts.join('.') || '(root)';
  const what = issue.code === 'unrecognized_keys' ? 'is not a known key' : issue.message;
  return `Invalid ${label}: ${key} (from ${sources.get(key) ?? origin}): ${what}`;
}

/** Validates an already merged object; the first problem becomes a one-line ConfigError. */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  options: ConfigLabel & { origin?: string; sources?: Map<string, string> } = {},
): z.output<S> {
  const label = options.label ?? 'configuration';
  const origin = options.origin ?? 'config';
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new ConfigError(
    first
      ? describeIssue(first, label, origin, options.sources ?? new Map<string, string>())
      : `Invalid ${label} in ${origin}`,
  );
}

export interface LoadConfigOptions extends ConfigLabel {
  /** The JSON file. */
  file: string;
  /** A missing file means "all defaults" (the panel); otherwise it is an error (a node needs its key). */
  optional?: boolean;
  /** `HEARTH_` (panel: `HEARTH_WEB_PORT`) or `HEARTH_DAEMON_`. */
  envPrefix: string;
  /** Every key with its default: decides the env variable names and how their text is read. */
  defaults: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
}

/** Reads the file, applies the env overrides and validates. Throws ConfigError with one line. */
export function loadConfig<S extends z.ZodType>(schema: S, options: LoadConfigOptions): z.output<S> {
  const sources = new Map<string, string>();
  const file = readConfigFile(options.file, options);
  const merged = applyEnv(file, { ...options, env: options.env ?? process.env }, sources);
  return parseConfig(schema, merged, { label: options.label, origin: options.file, sources });
}
