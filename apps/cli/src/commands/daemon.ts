import type { Command } from 'commander';
import type { Logger } from 'pino';
import { commandLogger, componentLogger } from '../console/loggers';
import { consoleSink } from '../console/sink';

/** Stops the daemon on SIGINT/SIGTERM: servers get their bounded stop, then the process exits. */
function closeOnSignals(close: () => Promise<void>, log: Logger): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log.info(`hearth daemon: ${signal} received, stopping servers`);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error(`hearth daemon: shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * SIGUSR2: leave for an upgrade — the daemon stops serving and exits, every server keeps running under its
 * holder (or container) and the next daemon re-adopts it (docs/daemon.md § Supervision).
 */
function detachOnSignal(detach: () => Promise<void>, log: Logger): void {
  process.once('SIGUSR2', () => {
    log.info('hearth daemon: SIGUSR2 received, leaving servers running for the next daemon');
    detach().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error(`hearth daemon: detach failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    );
  });
}

/** `hearth daemon --config node.json`: a remote node only (the config comes from the Node page). */
export function registerDaemonCommand(program: Command): void {
  program
    .command('daemon')
    .description('run a node daemon alone (config from the panel: Nodes → deployment)')
    .option('-c, --config <file>', 'daemon configuration file (node.json)', 'node.json')
    .action(async (_opts: unknown, command: Command) => {
      // The program has its own --config; whichever the user gave names the daemon's file here.
      const { config: path } = command.optsWithGlobals<{ config: string }>();
      const { loadDaemonConfig, startDaemon } = await import('@hearth/daemon');
      const config = loadDaemonConfig(path);
      // JSON lines for journald and files, short lines on a terminal (docs/configuration.md § Console); the
      // messages keep their `hearth daemon:` prefix, which scripts look for.
      const sink = consoleSink('auto');
      const log = commandLogger(config.logLevel, sink);
      const daemon = await startDaemon(config, componentLogger('daemon', config.logLevel, sink));
      log.info(
        `hearth daemon: node ${config.nodeId} listening on ${daemon.scheme}://${config.host}:${daemon.port}`,
      );
      // The operator compares this with the fingerprint on the Node page (docs/security.md § Node link).
      if (daemon.tlsFingerprint) log.info(`hearth daemon: certificate SHA-256 ${daemon.tlsFingerprint}`);
      log.info(`hearth daemon: SFTP ${daemon.sftpPort === null ? 'off' : `on port ${daemon.sftpPort}`}`);
      closeOnSignals(() => daemon.close(), log);
      detachOnSignal(() => daemon.detach(), log);
    });
}
