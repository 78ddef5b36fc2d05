/**
 * What a node measures in the background, composed once per daemon (docs/daemon.md § Metrics, § Metric history,
 * § Player counts): the sampler (one pass over the servers every `stats.sampleIntervalMs`), the folder sizes, the
 * player queries, the history store and recorder, and the Prometheus registry reading them. Built without
 * starting anything (the route-table test builds the app from it); `start` begins the loops, `close` stops them
 * and writes the minute in progress.
 */
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { HistoryRange, HistoryResponse, PlayerCount, ServerLive } from '@hearth/contract';
import type { DaemonConfig } from '../config/schema';
import type { ServerManager } from '../manager/manager';
import { HistoryRecorder } from '../history/recorder';
import { HistoryStore } from '../history/store';
import { UPLOADS_FOLDER } from '../uploads/tus-store';
import { DiskUsage } from './disk-usage';
import { GamedigSource, type PlayerSource } from './gamedig-source';
import { PlayerQuerier } from './players';
import { daemonRegistry } from './registry';
import { Sampler } from './sampler';
import { ServerListReceiver } from './server-list';

export class Telemetry {
  readonly store: HistoryStore;
  readonly recorder: HistoryRecorder;
  readonly disk: DiskUsage;
  readonly sampler: Sampler;
  readonly players: PlayerQuerier;
  readonly registry: Registry;
  private readonly gamedig: GamedigSource;
  private serverList: ServerListReceiver | null = null;
  private started = false;

  constructor(
    private readonly manager: ServerManager,
    private readonly config: DaemonConfig,
    private readonly log: Logger,
  ) {
    const servers = () => manager.list();
    this.store = new HistoryStore(join(resolve(config.dataDir), 'history'));
    this.recorder = new HistoryRecorder(this.store, log);
    // A server's unfinished tus uploads wait beside its folder and count as its disk use (docs/files.md).
    const uploads = join(resolve(config.serversDir ?? ''), UPLOADS_FOLDER);
    this.disk = new DiskUsage(
      () => servers().map((s) => [s.id, s.sandbox.root, join(uploads, s.id)]),
      config.stats.diskIntervalMs,
    );
    this.sampler = new Sampler(
      servers,
      this.disk,
      this.recorder,
      this.store,
      config.stats.sampleIntervalMs,
      log,
    );
    this.gamedig = new GamedigSource(config.players.timeoutMs);
    this.players = new PlayerQuerier(servers, (type) => this.sourceFor(type), config.players.intervalMs, log);
    this.registry = daemonRegistry(servers, this.sampler, config.nodeId);
  }

  private sourceFor(type: string): PlayerSource {
    return type === 'minetest' && this.serverList ? this.serverList : this.gamedig;
  }

  /** The `serverlist_url` a Minetest server announces to (`${hearthServerList}`); empty when not listening. */
  serverListUrl(id: string): string {
    return this.serverList?.urlFor(id) ?? '';
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.store.init();
    await this.listenServerList();
    await this.resumeMinutes();
    this.disk.start();
    this.players.start();
    this.sampler.start();
  }

  /** A node without the port (two daemons on one host) still runs: its Minetest servers show no players. */
  private async listenServerList(): Promise<void> {
    const keyFile = join(resolve(this.config.dataDir), 'serverlist.key');
    const receiver = await ServerListReceiver.create(keyFile, (id) => this.exists(id));
    try {
      await receiver.listen(this.config.players.serverListPort);
      this.serverList = receiver;
    } catch (err) {
      this.log.warn({ err, port: this.config.players.serverListPort }, 'Minetest server list not listening');
    }
  }

  private exists(id: string): boolean {
    return this.manager.list().some((s) => s.id === id);
  }

  /** The last minute written before a restart continues if it is this minute (HistoryRecorder.resume). */
  private async resumeMinutes(): Promise<void> {
    const minute = Math.floor(Date.now() / 60_000);
    for (const server of this.manager.list()) {
      const last = await this.store.lastRecord(server.id).catch(() => null);
      if (last?.minute === minute) this.recorder.resume(server.id, minute, last.point);
    }
  }

  history(id: string, range: HistoryRange): Promise<HistoryResponse> {
    const now = Date.now();
    return this.store.read(id, range, now, this.recorder.live(id, now));
  }

  /** The known counts, by server id (`GET /daemon/players`). */
  playerCounts(): Record<string, PlayerCount> {
    const out: Record<string, PlayerCount> = {};
    for (const server of this.manager.list()) {
      if (server.players && server.isRunning()) out[server.id] = server.players;
    }
    return out;
  }

  /**
   * Every server's state for the panel's list, by id: running, and the sampler's latest CPU and memory (no new
   * measurement: the list is polled, the sampler already measures every `stats.sampleIntervalMs`).
   */
  liveStates(): Record<string, ServerLive> {
    const out: Record<string, ServerLive> = {};
    for (const server of this.manager.list()) {
      const running = server.isRunning();
      const sample = running ? this.sampler.sampleOf(server.id) : undefined;
      out[server.id] = { running, cpu: sample?.cpu ?? 0, memory: sample?.memory ?? 0 };
    }
    return out;
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await Promise.all([this.sampler.stop(), this.players.stop(), this.disk.stop()]);
    await this.serverList?.close();
    await this.recorder.flush();
    await this.store.settle();
  }
}
