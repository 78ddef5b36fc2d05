/**
 * Statistics history: the latest 40 points, 3 s apart. SPEC seeds the 40 points with zeros; a zero there reads as
 * "the server used nothing", which is false before the page opened, so the seed keeps SPEC's 40 times 3 s apart
 * but leaves their values unknown (gaps), like the stored history does (docs/web.md § Statistics).
 * CPU in percent on an axis from 0 to at least 100; memory in MB (1000² bytes) or MiB (1024² bytes) on an axis
 * scaled to the server's own use (a round step above the largest value) instead of SPEC's fixed 1000 floor,
 * which flattened a 60 MB server into a line at the bottom.
 */
export const STATS_INTERVAL_MS = 3000;
export const HISTORY_POINTS = 40;
export const CPU_AXIS_MIN_MAX = 100;
/** The smallest memory axis (1 MB or 1 MiB), so an idle server's few bytes do not look like a full chart. */
export const MEMORY_AXIS_MIN = 1;

export interface StatsHistory {
  /** Unix seconds (uPlot's x unit). */
  times: number[];
  /** null: not known (before the page opened). */
  cpu: Array<number | null>;
  /** Bytes, converted for display by the chosen unit; null: not known. */
  memory: Array<number | null>;
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;

const known = (values: ReadonlyArray<number | null>) => values.filter((v): v is number => v !== null);

export function seedHistory(nowMs: number): StatsHistory {
  const times = Array.from({ length: HISTORY_POINTS }, (_, i) =>
    Math.round((nowMs - (HISTORY_POINTS - 1 - i) * STATS_INTERVAL_MS) / 1000),
  );
  return { times, cpu: times.map(() => null), memory: times.map(() => null) };
}

/** A new history with the point appended and the oldest dropped beyond 40. */
export function pushPoint(history: StatsHistory, nowMs: number, cpu: number, memory: number): StatsHistory {
  const keep = <T>(list: T[], value: T) => [...list, value].slice(-HISTORY_POINTS);
  return {
    times: keep(history.times, Math.round(nowMs / 1000)),
    cpu: keep(history.cpu, round2(cpu)),
    memory: keep(history.memory, memory),
  };
}

export function memoryInUnit(bytes: number, binary: boolean): number {
  const step = binary ? 1024 : 1000;
  return round2(bytes / (step * step));
}

/** The newest known value, or null before the first sample. */
export function latest(values: ReadonlyArray<number | null>): number | null {
  return known(values).at(-1) ?? null;
}

export function cpuAxisMax(values: ReadonlyArray<number | null>): number {
  return Math.max(CPU_AXIS_MIN_MAX, ...known(values));
}

/** The next round value (1, 2, 2.5 or 5 × 10ⁿ) at or above `value`, so axis ticks land on readable numbers. */
export function niceCeil(value: number): number {
  if (value <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= value - 1e-9) ?? 10;
  return round2(step * power);
}

/**
 * Top of the memory axis: the server's memory limit when the page knows it (the line then shows how close it is),
 * else a round value a fifth above the largest value shown, at least MEMORY_AXIS_MIN.
 */
export function memoryAxisMax(valuesInUnit: ReadonlyArray<number | null>, limitInUnit?: number): number {
  const top = Math.max(0, ...known(valuesInUnit));
  if (limitInUnit !== undefined && limitInUnit >= top) return limitInUnit;
  return Math.max(MEMORY_AXIS_MIN, niceCeil(top * 1.2));
}
