/** Starts a daemon: loads definitions, listens, autostarts; `close()` stops every server (bounded) then exits. */
import { join, resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import type { DaemonConfig } from './config/schema';
import { tlsMaterialOf } from './config/tls';
import { extractOptionsOf } from './filesystem/archive/extract-options';
import { ServerManager } from './manager/manager';
import { systemClock, type SchedulerClock } from './scheduler/clock';
import { panelLinkOf } from './panel-link/node-credential';
import { panelOwnerAccess } from './panel-link/owner-access';
import { bindNodeEvents } from './panel-link/node-events';
import { Outbox } from './panel-link/outbox';
import { AlertWatcher } from './panel-link/alert-watcher';
import { OutboundLink, outboundListenHosts, type OutboundLinkOptions } from './panel-link/outbound-link';
import { DefinitionStore } from './manager/store';
import { protectDataDirs } from './isolation/data-modes';
import { detectIsolation, type IsolationRuntime } from './isolation/runtime';
import type { ServerSettings } from './server/server';
import { startSftpFor } from './sftp';
import { createBackups } from './backups/setup';
import { Telemetry } from './metrics/telemetry';
import { buildDaemonApp } from './transport/app';
import { TokenVerifier } from './transport/token';

export function serverSettingsOf(
  config: DaemonConfig,
  isolation: IsolationRuntime = detectIsolation(config).runtime,
  clock: SchedulerClock = systemClock,
): ServerSettings {
  return {
    isolation,
    console: config.console,
    stopTimeoutMs: config.power.stopTimeoutMs,
    crash: config.crash,
    http: config.downloads,
    upstream: config.upstream,
    extract: extractOptionsOf(config),
    docker: { ...config.docker, serversDir: resolve(config.serversDir ?? '') },
    // Tasks run with their owner's current access, asked of the panel (docs/daemon.md § Tasks).
    tasks: { ...config.tasks, ownerAccess: panelOwnerAccess(panelLinkOf(config)), clock },
    runDir: join(resolve(config.dataDir), 'run'),
  };
}

/** 127.0.0.0/8, ::1 or localhost: plain HTTP there never leaves the machine. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The node → panel calls (SFTP logins, task owner checks) carry the node credential: http:// off-host is clear. */
function panelUrlInClear(panelUrl: string): boolean {
  try {
    const url = new URL(panelUrl);
    return url.protocol === 'http:' && !isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false; // empty or invalid: SFTP and tasks are off, nothing is sent
  }
}

/** The connector of a `link: outbound` node, started; null for a node the panel dials. */
function outboundLinkOf(
  config: DaemonConfig,
  log: Logger,
  httpPort: number,
  sftpPort: number | null,
  telemetry: Telemetry,
  httpServer: OutboundLinkOptions['httpServer'],
): OutboundLink | null {
  if (config.link !== 'outbound') return null;
  const settings = panelLinkOf(config);
  if (!settings) {
    log.error(
      'link is outbound but panelUrl or sftp.clientSecret is missing: the panel cannot reach this node',
    );
    return null;
  }
  const link = new OutboundLink({
    settings,
    httpPort,
    sftpPort,
    httpServer,
    httpHost: config.host,
    sftpHost: config.sftp.host,
    reconnect: config.linkReconnect,
    log,
    registry: telemetry.registry,
  });
  link.start();
  return link;
}

export interface RunningDaemon {
  close(): Promise<void>;
  /**
   * Stops serving but leaves every server running, for the next daemon to re-adopt (an upgrade; docs/daemon.md
   * § Supervision). The process can exit afterwards; docker attach streams may keep it alive until it does.
   */
  detach(): Promise<void>;
  port: number;
  /** The SFTP port, or null when SFTP is off (no panel URL or node secret). */
  sftpPort: number | null;
  /** `https` with the config's `tls` certificate, else `http` (docs/security.md § Node link). */
  scheme: 'http' | 'https';
  /** SHA-256 of the served certificate (the Node page's pin), or null over HTTP. */
  tlsFingerprint: string | null;
}

/** What a daemon is built with besides its config; a test gives the task scheduler a clock it moves by hand. */
export interface DaemonDeps {
  /** The task scheduler's time (scheduler/clock.ts); the system clock when absent. */
  clock?: SchedulerClock;
}

export async function startDaemon(
  given: DaemonConfig,
  logger?: Logger,
  deps: DaemonDeps = {},
): Promise<RunningDaemon> {
  // A node that dials the panel serves its listeners on loopback only (docs/daemon.md § Outbound link).
  const config = outboundListenHosts(given);
  const log = logger ?? pino({ level: config.logLevel, name: 'daemon' });
  const verifier = await TokenVerifier.create(config.publicKeyPem, config.nodeId);
  // Decided once, said once (docs/security.md "Isolation model"); a root daemon that cannot drop privileges stops here.
  const isolation = detectIsolation(config);
  log[isolation.level](isolation.line);
  await protectDataDirs(config, isolation.runtime.switchIds, log);
  const settings = serverSettingsOf(config, isolation.runtime, deps.clock);
  // Events only this node sees wait here until the panel pulls them (docs/activity.md § Node events).
  const outbox = await Outbox.open({ dir: join(resolve(config.dataDir), 'events'), log });
  bindNodeEvents(settings, outbox);
  const manager = new ServerManager(new DefinitionStore(config.serversDir ?? ''), settings, log);
  // Metrics, history and player counts (docs/daemon.md § Metrics); Minetest servers announce to its server list.
  const telemetry = new Telemetry(manager, config, log);
  // Alert conditions only this node sees as they happen, reported through the outbox (docs/alerts.md).
  const watcher = new AlertWatcher(
    () => manager.list(),
    (event) => outbox.append(event),
  );
  telemetry.sampler.afterTick = (servers, now) =>
    watcher.onSamples(servers, now, (id) => telemetry.sampler.sampleOf(id));
  settings.serverListUrl = (id) => telemetry.serverListUrl(id);
  // Read before anything starts: a bad certificate stops start-up with one line naming the key.
  const tls = tlsMaterialOf(config.tls);
  await manager.load();
  // Restores cut short by a killed daemon are finished or undone before any server starts (docs/backups.md).
  const backups = createBackups(config, manager, settings, log);
  await backups.start(manager.list().map((server) => server.id));
  const app = await buildDaemonApp({ manager, verifier, config }, log, {
    backups,
    ...(tls ? { https: { cert: tls.cert, key: tls.key } } : {}),
    accessLog: config.accessLog || config.logLevel === 'debug' || config.logLevel === 'trace',
    telemetry,
    outbox,
    watcher,
  });
  await app.listen({ host: config.host, port: config.port });
  if (tls) log.info({ fingerprint: tls.fingerprint, source: tls.source }, 'serving HTTPS');
  else if (!isLoopbackHost(config.host)) {
    log.warn('serving plain HTTP beyond loopback: tokens and files cross the network in clear (set tls)');
  }
  if (panelUrlInClear(config.panelUrl)) {
    log.warn('panelUrl is plain HTTP beyond loopback: the node credential crosses the network in clear');
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const sftp = await startSftpFor(config, manager, log, (event) => outbox.append(event));
  await telemetry.start();
  const outbound = outboundLinkOf(config, log, port, sftp?.port ?? null, telemetry, app.server);
  manager.startAutostart(config.power.autostartIntervalMs);
  let closing: Promise<void> | null = null;
  return {
    port,
    sftpPort: sftp?.port ?? null,
    scheme: tls ? 'https' : 'http',
    tlsFingerprint: tls?.fingerprint ?? null,
    close: () => {
      closing ??= (async () => {
        outbound?.close();
        backups.stop();
        await sftp?.close();
        // Before the servers go: a sampler that saw them vanish would take their history for deletions.
        await telemetry.close();
        watcher.close();
        await manager.shutdown(config.power.shutdownTimeoutMs);
        await app.close();
        await outbox.close();
      })();
      return closing;
    },
    detach: () => {
      closing ??= (async () => {
        outbound?.close();
        backups.stop();
        await sftp?.close();
        await telemetry.close();
        watcher.close();
        await manager.detach();
        await app.close();
        await outbox.close();
      })();
      return closing;
    },
  };
}
