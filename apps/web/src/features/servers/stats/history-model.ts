/**
 * The Statistics tab's ranges beside the live charts (docs/api.md § Statistics): `live` is SPEC's 40 points
 * over the socket; the others are the node's stored history (`GET …/history?range=`), 1-minute points for 1 h
 * and 24 h, 15-minute points for 7 d and 30 d. A step without a sample stays a gap (null), not a zero.
 */
import type { HistoryRange, HistoryResponse } from '@hearth/contract';

export const statsRanges = ['live', '1h', '24h', '7d', '30d'] as const;
export type StatsRange = (typeof statsRanges)[number];

export const isHistoryRange = (range: StatsRange): range is HistoryRange => range !== 'live';

export interface HistoryCharts {
  /** Unix seconds (uPlot's x unit). */
  times: number[];
  cpu: Array<number | null>;
  /** Bytes. */
  memory: Array<number | null>;
  disk: Array<number | null>;
  players: Array<number | null>;
  /** The most player slots seen in the range; 0 when players were never known (the chart is hidden). */
  maxPlayers: number;
}

const known = (values: ReadonlyArray<number | null>) => values.filter((v): v is number => v !== null);

export function chartsOf(history: HistoryResponse): HistoryCharts {
  return {
    times: history.times.map((ms) => Math.round(ms / 1000)),
    cpu: history.cpu,
    memory: history.memory,
    disk: history.disk,
    players: history.players,
    maxPlayers: Math.max(0, ...known(history.maxPlayers)),
  };
}

/** The largest known value (0 when none), for a chart's y axis. */
export function maxKnown(values: ReadonlyArray<number | null>): number {
  return Math.max(0, ...known(values));
}

/** Bytes → MB or MiB with the live charts' rounding; gaps stay gaps. */
export function inUnit(values: ReadonlyArray<number | null>, binary: boolean): Array<number | null> {
  const step = binary ? 1024 : 1000;
  return values.map((v) => (v === null ? null : Math.round((v / (step * step)) * 100) / 100));
}

/** The history is refreshed once a minute: its newest point is the minute in progress. */
export const HISTORY_REFRESH_MS = 60_000;
