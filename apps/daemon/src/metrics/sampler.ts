/**
 * One sampling path for /metrics and the history (docs/daemon.md § Metrics): every `intervalMs` each server's
 * CPU and memory (running ones only: a stopped server is zeros without a look at /proc), its cached disk size and
 * its last player count are taken once, kept as the latest sample, and given to the history recorder. A scrape
 * reads the latest samples and never measures anything itself, so its cost does not grow with what it would
 * measure. A server that disappears (deleted) takes its history with it.
 */
import type { Logger } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from '../server/server';
import type { HistoryRecorder, Sample } from '../history/recorder';
import type { HistoryStore } from '../history/store';
import type { DiskUsage } from './disk-usage';

/** Servers measured at once (each is a scan of /proc or a Docker stats call). */
const PARALLEL = 4;

export class Sampler {
  private readonly latest = new Map<string, Sample>();
  /** Told after each pass, with the servers sampled and the pass's time (the alert watcher: docs/alerts.md). */
  afterTick: ((servers: Server[], now: number) => void) | null = null;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly servers: () => Server[],
    private readonly disk: DiskUsage,
    private readonly recorder: HistoryRecorder,
    private readonly store: HistoryStore,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  /** The latest sample of a server (undefined before its first). */
  sampleOf(id: string): Sample | undefined {
    return this.latest.get(id);
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** Samples every server once (the loop's body). */
  private async tick(): Promise<void> {
    const now = Date.now();
    const servers = this.servers();
    const present = new Set(servers.map((s) => s.id));
    for (const id of [...this.latest.keys()].filter((known) => !present.has(known))) {
      this.latest.delete(id);
      this.recorder.forget(id);
      await this.store.remove(id).catch((err: unknown) => this.log.warn({ err, id }, 'history not removed'));
    }
    const queue = [...servers];
    const worker = async () => {
      for (let server = queue.shift(); server; server = queue.shift()) {
        const sample = await this.measure(server);
        this.latest.set(server.id, sample);
        this.recorder.add(server.id, now, sample);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    this.afterTick?.(servers, now);
  }

  private async measure(server: Server): Promise<Sample> {
    const stats = await server.stats().catch(() => ({ cpu: 0, memory: 0 }));
    return {
      cpu: stats.cpu,
      memory: stats.memory,
      disk: this.disk.bytes(server.id),
      players: server.isRunning() ? server.players : null,
    };
  }

  private async loop(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      await this.tick().catch((err: unknown) => this.log.warn({ err }, 'metrics sample failed'));
      await sleep(this.intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
