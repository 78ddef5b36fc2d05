import type { Command } from 'commander';

/** Stops the daemon on SIGINT/SIGTERM: servers get their bounded stop, then the process exits. */
function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    console.log(`hearth daemon: ${signal} received, stopping servers`);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`hearth daemon: shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
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
function detachOnSignal(detach: () => Promise<void>): void {
  process.once('SIGUSR2', () => {
    console.log('hearth daemon: SIGUSR2 received, leaving servers running for the next daemon');
    detach().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`hearth daemon: detach failed: ${err instanceof Error ? err.message : String(err)}`);
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
      const daemon = await startDaemon(config);
      console.log(
        `hearth daemon: node ${config.nodeId} listening on ${daemon.scheme}://${config.host}:${daemon.port}`,
      );
      // The operator compares this with the fingerprint on the Node page (docs/security.md § Node link).
      if (daemon.tlsFingerprint) console.log(`hearth daemon: certificate SHA-256 ${daemon.tlsFingerprint}`);
      console.log(`hearth daemon: SFTP ${daemon.sftpPort === null ? 'off' : `on port ${daemon.sftpPort}`}`);
      closeOnSignals(() => daemon.close());
      detachOnSignal(() => daemon.detach());
    });
}
