/**
 * Turns the sampler's samples into one point per server per minute: samples of the same minute are averaged
 * (players: the minute's peak), and when a sample of a later minute arrives the finished minute goes to the store.
 * The minute in progress is readable (`live`) so charts show it, and `flush` writes it at daemon close so a
 * restart loses no minute that had samples.
 */
import type { Logger } from 'pino';
import { NO_PLAYERS, type Point } from './series';
import type { HistoryStore } from './store';

export interface Sample {
  cpu: number;
  memory: number;
  disk: number;
  players: { online: number; max: number } | null;
}

interface Minute {
  minute: number;
  count: number;
  cpu: number;
  memory: number;
  disk: number;
  players: number;
  maxPlayers: number;
}

function pointOf(m: Minute): Point {
  return {
    cpu: m.cpu / m.count,
    memory: m.memory / m.count,
    disk: m.disk / m.count,
    players: m.players,
    maxPlayers: m.maxPlayers,
  };
}

export class HistoryRecorder {
  private readonly open = new Map<string, Minute>();

  constructor(
    private readonly store: HistoryStore,
    private readonly log: Logger,
  ) {}

  add(id: string, atMs: number, sample: Sample): void {
    const minute = Math.floor(atMs / 60_000);
    const current = this.open.get(id);
    if (current && current.minute !== minute) void this.write(id, current);
    const m =
      current && current.minute === minute
        ? current
        : { minute, count: 0, cpu: 0, memory: 0, disk: 0, players: NO_PLAYERS, maxPlayers: NO_PLAYERS };
    m.count++;
    m.cpu += sample.cpu;
    m.memory += sample.memory;
    m.disk += sample.disk;
    if (sample.players) {
      m.players =
        m.players === NO_PLAYERS ? sample.players.online : Math.max(m.players, sample.players.online);
      m.maxPlayers = sample.players.max;
    }
    this.open.set(id, m);
  }

  /**
   * Continues a minute written before a restart (the daemon's last point, when it is this minute): it counts as
   * one sample, so a restart within a minute averages both daemons' samples instead of losing the first's.
   */
  resume(id: string, minute: number, point: Point): void {
    if (this.open.has(id)) return;
    this.open.set(id, { minute, count: 1, ...point });
  }

  /** The point of the minute in progress, if it had a sample (and is the minute of `nowMs`). */
  live(id: string, nowMs: number): Point | null {
    const m = this.open.get(id);
    return m && m.minute === Math.floor(nowMs / 60_000) ? pointOf(m) : null;
  }

  forget(id: string): void {
    this.open.delete(id);
  }

  /** Writes every minute in progress (daemon close, upgrade). */
  async flush(): Promise<void> {
    const open = [...this.open.entries()];
    this.open.clear();
    await Promise.all(open.map(([id, m]) => this.write(id, m)));
  }

  private write(id: string, m: Minute): Promise<void> {
    return this.store
      .record(id, m.minute, pointOf(m))
      .catch((err: unknown) => this.log.warn({ err, id }, 'history point not written'));
  }
}
