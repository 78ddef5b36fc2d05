/** Starts the SFTP server when it can authenticate anyone: enabled, with a panel URL and node secret. */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { DaemonConfig } from '../config/schema';
import type { ServerManager } from '../manager/manager';
import { panelAuthenticator } from './panel-auth';
import { startSftp, type RunningSftp } from './server';
import type { SftpEventSink } from './activity';

export type { RunningSftp };

export async function startSftpFor(
  config: DaemonConfig,
  manager: ServerManager,
  log: Logger,
  events?: SftpEventSink,
): Promise<RunningSftp | null> {
  const { sftp } = config;
  if (!sftp.enabled || !config.panelUrl || !sftp.clientSecret) {
    if (sftp.enabled) log.warn('SFTP is off: it needs panelUrl and sftp.clientSecret (the node credential)');
    return null;
  }
  const authenticate = panelAuthenticator({
    panelUrl: config.panelUrl,
    nodeId: config.nodeId,
    clientSecret: sftp.clientSecret,
  });
  const settings = { ...sftp, dataDir: resolve(config.dataDir) };
  const running = await startSftp(settings, manager, authenticate, log, events);
  log.info({ port: running.port }, 'SFTP listening');
  return running;
}
