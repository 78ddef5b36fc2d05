import { join, resolve } from 'node:path';
import { ConfigError, envName, loadConfig, parseConfig } from '@hearth/server-kit';
import { daemonConfigSchema, type DaemonConfig, type DaemonConfigInput } from './schema';

/** A configuration problem; the message is one readable line naming the key (the shared ConfigError). */
export { ConfigError as DaemonConfigError };

const PLACEHOLDER_KEY = '-----BEGIN PUBLIC KEY-----';
const label = 'daemon configuration';

/** `console.bufferBytes` → `HEARTH_DAEMON_CONSOLE_BUFFER_BYTES`. */
export function daemonEnvName(path: string[]): string {
  return envName('HEARTH_DAEMON_', path);
}

/** serversDir defaults to `<dataDir>/servers`, made absolute. */
function withDerived(config: DaemonConfig): DaemonConfig {
  return { ...config, serversDir: resolve(config.serversDir ?? join(config.dataDir, 'servers')) };
}

/** Validates raw config (already merged with env) and fills derived defaults. */
export function parseDaemonConfig(raw: unknown, origin = 'config'): DaemonConfig {
  return withDerived(parseConfig(daemonConfigSchema, raw, { label, origin }));
}

/** Reads `path` (JSON), applies `HEARTH_DAEMON_*` overrides, validates. Throws DaemonConfigError (one line). */
export function loadDaemonConfig(path: string, env: NodeJS.ProcessEnv = process.env): DaemonConfig {
  // Every key's default decides its variable name and how its text is read; the two required keys get samples.
  const defaults = daemonConfigSchema.parse({ publicKeyPem: PLACEHOLDER_KEY, serversDir: 'placeholder' });
  return withDerived(
    loadConfig(daemonConfigSchema, { file: path, label, envPrefix: 'HEARTH_DAEMON_', defaults, env }),
  );
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
