import type { PanelConfig } from './config/schema';
import { buildApp } from './app';
import type { LogDestination } from './logger';
import { migrateToLatest } from './db/migrate';
import { ensurePanelKeys } from './lib/keys';
import { dataDir } from './lib/paths';
import { secureDataDir } from './lib/file-modes';

export interface RunningPanel {
  /** `http://host:port` the panel listens on. */
  address: string;
  /** Present on a first start with no users: the one-time link that creates the first admin. */
  setupUrl?: string;
  /** With `localNode`: a fresh credential secret for the local node (its daemon's `sftp.clientSecret`). */
  localNodeSecret?: string;
  /** Stops accepting connections, drains requests in flight, closes the database. */
  close(): Promise<void>;
}

export interface StartPanelOptions {
  /**
   * The caller runs the local node beside the panel: issue its credential (the secret is in no file). Without
   * it the panel never calls the local node (it shows offline).
   */
  localNode?: boolean;
  /** Where the panel's log lines go (the CLI's console: JSON or short human lines); stdout by default. */
  logStream?: LogDestination;
}

/** Migrates, prepares keys and the setup link, then listens. Signal handling belongs to the caller (CLI). */
export async function startPanel(
  config: PanelConfig,
  options: StartPanelOptions = {},
): Promise<RunningPanel> {
  secureDataDir(dataDir(config));
  ensurePanelKeys(dataDir(config));
  const { app, db, services } = await buildApp(config, {
    localNodeRuns: options.localNode === true,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  try {
    await migrateToLatest(db.kysely);
    const setupToken = await services.setup.prepare();
    // Closed before the database (onClose hooks run last-added first): a sweep may still be reading the nodes.
    app.addHook('onClose', () => services.sftpRelay.stop());
    await app.listen({ host: config.web.host, port: config.web.port });
    // Users' SFTP to the nodes that dial in, relayed once the panel serves (nodes-link/sftp-relay.ts).
    await services.sftpRelay.start(() => app.log);
    const info = app.server.address();
    const port = typeof info === 'object' && info ? info.port : config.web.port;
    const shownHost =
      config.web.host === '0.0.0.0' || config.web.host === '::' ? 'localhost' : config.web.host;
    const address = `http://${shownHost}:${port}`;
    const base = (config.panel.masterUrl || address).replace(/\/+$/, '');
    return {
      address,
      setupUrl: setupToken ? `${base}/auth/setup?token=${setupToken}` : undefined,
      localNodeSecret: options.localNode ? await services.nodes.issueLocalSecret() : undefined,
      close: () => app.close(),
    };
  } catch (err) {
    await app.close();
    throw err;
  }
}
