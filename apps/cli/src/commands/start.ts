import type { Command } from 'commander';
import type { PanelConfig } from '@hearth/panel';
import { resolve } from 'node:path';
import { configFlag } from '../options';
import { commandLogger, componentLogger } from '../console/loggers';
import { printSetupLink } from '../console/setup-link';
import { consoleSink, type LogSink } from '../console/sink';
import { holdPidFile } from '../backup/panel-pid';
import { handleStartSignals, type Detachable } from './start-signals';

/** The local node beside the panel, on the addresses of the config's `node` section. */
async function startLocalNode(
  config: PanelConfig,
  panel: { address: string; localNodeSecret?: string },
  sink: LogSink,
): Promise<Detachable> {
  const [{ localDaemonConfig, startDaemon }, { readPublicKeyPem }] = await Promise.all([
    import('@hearth/daemon'),
    import('@hearth/panel'),
  ]);
  const dataDir = resolve(config.panel.dataDir);
  // Plain HTTP on loopback by default, and its panel row is `plain`: this link never leaves the machine
  // (docs/security.md § Node link).
  const daemonConfig = localDaemonConfig({
    dataDir,
    panelUrl: panel.address,
    publicKeyPem: readPublicKeyPem(dataDir),
    clientSecret: panel.localNodeSecret,
    host: config.node.host,
    port: config.node.port,
    sftpHost: config.node.sftpHost,
    sftpPort: config.node.sftpPort,
    logLevel: config.log.level,
    accessLog: config.log.accessLog,
    metrics: config.metrics,
  });
  return startDaemon(daemonConfig, componentLogger('daemon', config.log.level, sink));
}

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('start the panel and a local node (daemon) in one process')
    .option('--no-node', 'start the panel only, without the local node')
    .action(async (opts: { node: boolean }, command: Command) => {
      const { configPath, createConfigFile, loadConfig, startPanel } = await import('@hearth/panel');
      const path = configPath(configFlag(command));
      // The README promises a config file to edit: the first start writes one (docs/configuration.md).
      const created = createConfigFile(path);
      const config = loadConfig({ path });
      // `hearth restore` refuses while this file names a live process (docs/backups.md § The panel's own data).
      holdPidFile(resolve(config.panel.dataDir));
      const sink = consoleSink(config.log.format);
      const log = commandLogger(config.log.level, sink);
      if (created) log.info(`created the config file ${path}`);
      // The panel issues the local node's credential in-process: the two only meet here (composition root).
      const panel = await startPanel(config, { localNode: opts.node, logStream: sink });
      let node: Detachable | undefined;
      log.info(`panel listening on ${panel.address}`);
      if (opts.node) {
        try {
          node = await startLocalNode(config, panel, sink);
          const { host, port, sftpHost, sftpPort } = config.node;
          log.info(`Local node started on ${host}:${port} (SFTP on ${sftpHost}:${sftpPort})`);
        } catch (err) {
          // The panel stays useful without its local node (remote nodes, settings, users).
          log.error(`Local node did not start: ${err instanceof Error ? err.message : String(err)}`);
        }
      } else {
        log.info('local node not started (--no-node): the panel shows it offline and never calls it');
      }
      handleStartSignals({ node, panel }, log);
      // Last, so it is not lost among the start-up lines.
      if (panel.setupUrl) printSetupLink(panel.setupUrl, sink, log);
    });
}
