/** Starts a daemon: loads definitions, listens, autostarts; `close()` stops every server (bounded) then exits. */
import { resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import type { DaemonConfig } from './config/schema';
import { ServerManager } from './manager/manager';
import { DefinitionStore } from './manager/store';
import type { ServerSettings } from './server/server';
import { startSftpFor } from './sftp';
import { buildDaemonApp } from './transport/app';
import { TokenVerifier } from './transport/token';

export function serverSettingsOf(config: DaemonConfig): ServerSettings {
  return {
    console: config.console,
    stopTimeoutMs: config.power.stopTimeoutMs,
    crash: config.crash,
    http: config.downloads,
    upstream: config.upstream,
    docker: { ...config.docker, serversDir: resolve(config.serversDir ?? '') },
    tasks: config.tasks,
  };
}

export interface RunningDaemon {
  close(): Promise<void>;
  port: number;
  /** The SFTP port, or null when SFTP is off (no panel URL or node secret). */
  sftpPort: number | null;
}

export async function startDaemon(config: DaemonConfig, logger?: Logger): Promise<RunningDaemon> {
  const log = logger ?? pino({ level: config.logLevel, name: 'daemon' });
  const verifier = await TokenVerifier.create(config.publicKeyPem, config.nodeId);
  const manager = new ServerManager(
    new DefinitionStore(config.serversDir ?? ''),
    serverSettingsOf(config),
    log,
  );
  await manager.load();
  const app = await buildDaemonApp({ manager, verifier, config }, log);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const sftp = await startSftpFor(config, manager, log);
  manager.startAutostart(config.power.autostartIntervalMs);
  let closing: Promise<void> | null = null;
  return {
    port,
    sftpPort: sftp?.port ?? null,
    close: () => {
      closing ??= (async () => {
        await sftp?.close();
        await manager.shutdown(config.power.shutdownTimeoutMs);
        await app.close();
      })();
      return closing;
    },
  };
}
