import type { Command } from 'commander';
import { resolve } from 'node:path';
import { panelConfigOf } from '../options';

interface Closable {
  close(): Promise<void>;
}

/** SIGTERM/SIGINT: stop the node, drain the panel, close the database; a second signal forces exit. */
function onShutdown(parts: Closable[]): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal}: shutting down…`);
    void (async () => {
      for (const part of parts) await part.close().catch((err: unknown) => console.error(String(err)));
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('start the panel and a local node (daemon) in one process')
    .option('--no-node', 'start the panel only, without the local node')
    .action(async (opts: { node: boolean }, command: Command) => {
      const config = await panelConfigOf(command);
      const { readPublicKeyPem, startPanel } = await import('@hearth/panel');
      // The panel issues the local node's credential in-process: the two only meet here (composition root).
      const panel = await startPanel(config, { localNode: opts.node });
      const parts: Closable[] = [];
      console.log(`Hearth panel listening on ${panel.address}`);
      if (panel.setupUrl) console.log(`\nFirst start: create the administrator at\n  ${panel.setupUrl}\n`);
      if (opts.node) {
        const { localDaemonConfig, startDaemon } = await import('@hearth/daemon');
        // The local node listens on loopback only and its panel row is `plain`: this link never leaves the
        // machine, so it carries no certificate (docs/security.md § Node link).
        const dataDir = resolve(config.panel.dataDir);
        const daemonConfig = localDaemonConfig({
          dataDir,
          panelUrl: panel.address,
          publicKeyPem: readPublicKeyPem(dataDir),
          clientSecret: panel.localNodeSecret,
        });
        try {
          parts.push(await startDaemon(daemonConfig));
          console.log('Local node started');
        } catch (err) {
          // The panel stays useful without its local node (remote nodes, settings, users).
          console.error(`Local node did not start: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      parts.push(panel);
      onShutdown(parts);
    });
}
