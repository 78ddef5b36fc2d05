import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { daemonConfigSchema, type DaemonConfig, type DaemonConfigInput } from './schema';

/** A configuration problem; the message is one readable line naming the key. */
export class DaemonConfigError extends Error {
  override name = 'DaemonConfigError';
}

const PLACEHOLDER_KEY = '-----BEGIN PUBLIC KEY-----';

/** `console.bufferBytes` → `HEARTH_DAEMON_CONSOLE_BUFFER_BYTES`. */
export function daemonEnvName(path: string[]): string {
  const snake = path.map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase());
  return `HEARTH_DAEMON_${snake.join('_')}`;
}

/** Every leaf key of the config with its default value (the sample decides how env text is read). */
function leaves(value: Record<string, unknown>, prefix: string[] = []): Array<[string[], unknown]> {
  return Object.entries(value).flatMap(([key, v]): Array<[string[], unknown]> =>
    typeof v === 'object' && v !== null
      ? leaves(v as Record<string, unknown>, [...prefix, key])
      : [[[...prefix, key], v]],
  );
}

function fromEnv(raw: string, sample: unknown): unknown {
  if (typeof sample === 'number') return raw.trim() === '' ? raw : Number(raw);
  if (typeof sample === 'boolean')
    return /^(true|1|yes)$/i.test(raw) ? true : /^(false|0|no)$/i.test(raw) ? false : raw;
  return raw;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node[key] = typeof next === 'object' && next !== null ? { ...next } : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] ?? ''] = value;
}

function applyEnv(file: Record<string, unknown>, env: NodeJS.ProcessEnv, sources: Map<string, string>) {
  const defaults = daemonConfigSchema.parse({ publicKeyPem: PLACEHOLDER_KEY, serversDir: 'placeholder' });
  const merged = structuredClone(file);
  for (const [path, sample] of leaves(defaults)) {
    const name = daemonEnvName(path);
    const raw = env[name];
    if (raw === undefined) continue;
    setPath(merged, path, fromEnv(raw, sample));
    sources.set(path.join('.'), name);
  }
  return merged;
}

function describeIssue(issue: z.core.$ZodIssue, sources: Map<string, string>, origin: string): string {
  const parts = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') parts.push(issue.keys.join(', '));
  const key = parts.join('.') || '(root)';
  const what = issue.code === 'unrecognized_keys' ? 'is not a known key' : issue.message;
  return `Invalid daemon configuration: ${key} (from ${sources.get(key) ?? origin}): ${what}`;
}

/** Validates raw config (already merged with env) and fills derived defaults. */
export function parseDaemonConfig(
  raw: unknown,
  origin = 'config',
  sources = new Map<string, string>(),
): DaemonConfig {
  const result = daemonConfigSchema.safeParse(raw);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new DaemonConfigError(
      first ? describeIssue(first, sources, origin) : 'Invalid daemon configuration',
    );
  }
  const config = result.data;
  return { ...config, serversDir: resolve(config.serversDir ?? join(config.dataDir, 'servers')) };
}

function readJsonObject(path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DaemonConfigError(
      `Invalid daemon configuration: cannot read ${path} (${(err as Error).message})`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DaemonConfigError(`Invalid daemon configuration: ${path} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads `path` (JSON), applies `HEARTH_DAEMON_*` overrides, validates. Throws DaemonConfigError (one line). */
export function loadDaemonConfig(path: string, env: NodeJS.ProcessEnv = process.env): DaemonConfig {
  const sources = new Map<string, string>();
  const merged = applyEnv(readJsonObject(path), env, sources);
  return parseDaemonConfig(merged, path, sources);
}

/**
 * The local node beside the panel (`hearth start`): loopback by default, servers under `<dataDir>/servers`.
 * Its addresses come from the panel config's `node` section, as does the panel's row for it.
 */
export function localDaemonConfig(opts: {
  dataDir: string;
  panelUrl: string;
  publicKeyPem: string;
  /** The local node's credential secret, issued by the panel at start (SFTP logins are checked with it). */
  clientSecret?: string;
  /** HTTP listen address and port; defaults 127.0.0.1 and 5656. */
  host?: string;
  port?: number;
  /** SFTP listen address and port; defaults 0.0.0.0 and 5657. */
  sftpHost?: string;
  sftpPort?: number;
  logLevel?: DaemonConfig['logLevel'];
  accessLog?: boolean;
  /** The panel's `metrics` section: one token (or allow list) opens both /metrics of `hearth start`. */
  metrics?: DaemonConfigInput['metrics'];
}): DaemonConfig {
  return parseDaemonConfig({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 5656,
    dataDir: opts.dataDir,
    serversDir: join(opts.dataDir, 'servers'),
    panelUrl: opts.panelUrl,
    publicKeyPem: opts.publicKeyPem,
    ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
    ...(opts.accessLog !== undefined ? { accessLog: opts.accessLog } : {}),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    sftp: {
      ...(opts.sftpHost ? { host: opts.sftpHost } : {}),
      port: opts.sftpPort ?? 5657,
      clientSecret: opts.clientSecret ?? '',
    },
  });
}
