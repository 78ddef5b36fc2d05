/**
 * One server's metric history in memory: two fixed rings of points (docs/daemon.md § Metric history).
 * - minutes: 2,880 one-minute points (48 hours), slot = minute number mod 2,880;
 * - quarters: 2,880 fifteen-minute points (30 days), slot = quarter number mod 2,880.
 * Each slot carries its own stamp (the minute or quarter number), so a slot left from an older lap reads as empty
 * and no clearing pass is needed. A quarter is recomputed from the minutes it covers each time one of them is put:
 * putting the same minute twice gives the same rings, which is what lets the journal be replayed after a crash.
 */
import { historyRangeSteps, type HistoryRange, type HistoryResponse } from '@hearth/contract';

export const SLOTS = 2880;
export const MINUTES_PER_QUARTER = 15;
/** Players value meaning "not known". */
export const NO_PLAYERS = 0xffff;

/** One point: CPU %, memory and disk bytes; players online and max (NO_PLAYERS when unknown). */
export interface Point {
  cpu: number;
  memory: number;
  disk: number;
  players: number;
  maxPlayers: number;
}

/** A ring's columns; stamp 0 marks an empty slot (minute 0 is 1970). */
export class Ring {
  readonly stamp = new Uint32Array(SLOTS);
  readonly cpu = new Float32Array(SLOTS);
  readonly memory = new Float32Array(SLOTS);
  readonly disk = new Float32Array(SLOTS);
  readonly players = new Uint16Array(SLOTS);
  readonly maxPlayers = new Uint16Array(SLOTS);

  put(stamp: number, point: Point): void {
    const slot = stamp % SLOTS;
    this.stamp[slot] = stamp;
    this.cpu[slot] = point.cpu;
    this.memory[slot] = point.memory;
    this.disk[slot] = point.disk;
    this.players[slot] = clampPlayers(point.players);
    this.maxPlayers[slot] = clampPlayers(point.maxPlayers);
  }

  get(stamp: number): Point | null {
    const slot = stamp % SLOTS;
    if (stamp === 0 || this.stamp[slot] !== stamp) return null;
    return {
      cpu: this.cpu[slot] ?? 0,
      memory: this.memory[slot] ?? 0,
      disk: this.disk[slot] ?? 0,
      players: this.players[slot] ?? NO_PLAYERS,
      maxPlayers: this.maxPlayers[slot] ?? NO_PLAYERS,
    };
  }
}

function clampPlayers(value: number): number {
  if (!Number.isFinite(value) || value < 0 || value >= NO_PLAYERS) return NO_PLAYERS;
  return Math.round(value);
}

/** Usage is averaged over the quarter; players are the quarter's peak (the number an admin asks for). */
function aggregate(points: Point[]): Point {
  const mean = (pick: (p: Point) => number) => points.reduce((sum, p) => sum + pick(p), 0) / points.length;
  const known = points.filter((p) => p.players !== NO_PLAYERS);
  return {
    cpu: mean((p) => p.cpu),
    memory: mean((p) => p.memory),
    disk: mean((p) => p.disk),
    players: known.length ? Math.max(...known.map((p) => p.players)) : NO_PLAYERS,
    maxPlayers: known.length ? Math.max(...known.map((p) => p.maxPlayers)) : NO_PLAYERS,
  };
}

export class Series {
  readonly minutes = new Ring();
  readonly quarters = new Ring();

  /** Records one minute's point and refreshes its quarter. */
  put(minute: number, point: Point): void {
    this.minutes.put(minute, point);
    const quarter = Math.floor(minute / MINUTES_PER_QUARTER);
    const points: Point[] = [];
    for (let m = quarter * MINUTES_PER_QUARTER; m < (quarter + 1) * MINUTES_PER_QUARTER; m++) {
      const p = this.minutes.get(m);
      if (p) points.push(p);
    }
    if (points.length) this.quarters.put(quarter, aggregate(points));
  }

  /**
   * The range's points ending at the step that holds `nowMs`; `live` is the current minute's point not yet
   * recorded (the running average), shown so the newest step is not empty.
   */
  read(range: HistoryRange, nowMs: number, live: Point | null): HistoryResponse {
    const { stepSeconds, points } = historyRangeSteps[range];
    const perStep = stepSeconds / 60;
    const ring = perStep === 1 ? this.minutes : this.quarters;
    const nowMinute = Math.floor(nowMs / 60_000);
    const last = Math.floor(nowMinute / perStep);
    const out: HistoryResponse = {
      range,
      stepSeconds,
      times: [],
      cpu: [],
      memory: [],
      disk: [],
      players: [],
      maxPlayers: [],
    };
    for (let step = last - points + 1; step <= last; step++) {
      const stored = step > 0 ? ring.get(step) : null;
      const point = step === last && live && (perStep === 1 || !stored) ? live : stored;
      out.times.push(step * stepSeconds * 1000);
      out.cpu.push(point ? round(point.cpu, 100) : null);
      out.memory.push(point ? Math.round(point.memory) : null);
      out.disk.push(point ? Math.round(point.disk) : null);
      const known = point && point.players !== NO_PLAYERS;
      out.players.push(known ? point.players : null);
      out.maxPlayers.push(known ? point.maxPlayers : null);
    }
    return out;
  }
}

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
