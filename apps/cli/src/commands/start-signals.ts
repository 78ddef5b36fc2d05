/**
 * Signals of `hearth start` (panel + local node in one process), as `hearth daemon` answers them
 * (docs/daemon.md § Supervision, docs/operations.md § Upgrades):
 * - SIGTERM/SIGINT stop the node's servers, drain the panel, close the database; a second one forces exit.
 * - SIGUSR2 leaves for an upgrade: the local node stops serving without stopping any server (each keeps running
 *   under its holder, or its container), the panel closes, the process exits 0 and the next `hearth start`
 *   re-adopts the servers. The package's prerm sends it (packaging/debian/prerm) instead of a stop.
 */
import type { Logger } from 'pino';

export interface Closable {
  close(): Promise<void>;
}

/** The local node: a stop ends its servers, a detach leaves them running. */
export interface Detachable extends Closable {
  detach(): Promise<void>;
}

export interface StartParts {
  node?: Detachable;
  panel: Closable;
}

export function handleStartSignals(parts: StartParts, log: Logger): void {
  let leaving = false;
  const leave = (signal: string, node: () => Promise<void>) => {
    if (leaving) process.exit(1);
    leaving = true;
    void (async () => {
      let failed = false;
      const step = (what: string) => (err: unknown) => {
        failed = true;
        log.error({ err }, `${signal}: ${what} failed`);
      };
      // The node first: it must not call a panel that is already gone.
      await node().catch(step('the local node'));
      await parts.panel.close().catch(step('closing the panel'));
      process.exit(failed ? 1 : 0);
    })();
  };
  const stop = (signal: string) => {
    log.info(`${signal}: shutting down…`);
    leave(signal, () => parts.node?.close() ?? Promise.resolve());
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.once('SIGUSR2', () => {
    log.info('SIGUSR2 received: leaving the servers running for the next hearth start');
    leave('SIGUSR2', () => parts.node?.detach() ?? Promise.resolve());
  });
}
