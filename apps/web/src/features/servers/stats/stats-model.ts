/**
 * Statistics history: the latest 40 points, seeded with zeros 3 s apart; CPU in percent on an
 * axis from 0 to at least 100; memory in MB (1000² bytes) or MiB (1024² bytes) on an axis from 0 to at least
 * 1000 (1025 in binary mode), mirroring the CPU rule so a small server does not fill the chart with noise.
 */
export const STATS_INTERVAL_MS = 3000;
export const HISTORY_POINTS = 40;
export const CPU_AXIS_MIN_MAX = 100;
export const MEMORY_AXIS_MIN_MAX = { decimal: 1000, binary: 1025 } as const;

export interface StatsHistory {
  /** Unix seconds (uPlot's x unit). */
  times: number[];
  cpu: number[];
  /** Bytes, converted for display by the chosen unit. */
  memory: number[];
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;

export function seedHistory(nowMs: number): StatsHistory {
  const times = Array.from({ length: HISTORY_POINTS }, (_, i) =>
    Math.round((nowMs - (HISTORY_POINTS - 1 - i) * STATS_INTERVAL_MS) / 1000),
  );
  return { times, cpu: times.map(() => 0), memory: times.map(() => 0) };
}

/** A new history with the point appended and the oldest dropped beyond 40. */
export function pushPoint(history: StatsHistory, nowMs: number, cpu: number, memory: number): StatsHistory {
  const keep = (list: number[], value: number) => [...list, value].slice(-HISTORY_POINTS);
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

export function cpuAxisMax(values: readonly number[]): number {
  return Math.max(CPU_AXIS_MIN_MAX, ...values);
}

export function memoryAxisMax(valuesInUnit: readonly number[], binary: boolean): number {
  return Math.max(binary ? MEMORY_AXIS_MIN_MAX.binary : MEMORY_AXIS_MIN_MAX.decimal, ...valuesInUnit);
}
