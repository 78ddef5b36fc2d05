import { describe, expect, it } from 'vitest';
import type { HistoryResponse } from '@hearth/contract';
import {
  chartsOf,
  inUnit,
  isHistoryRange,
  maxKnown,
  statsRanges,
} from '../src/features/servers/stats/history-model';

const history: HistoryResponse = {
  range: '1h',
  stepSeconds: 60,
  times: [60_000, 120_000, 180_000],
  cpu: [null, 12.5, 3],
  memory: [null, 2_000_000, 1_048_576],
  disk: [null, 5_000_000, 5_000_000],
  players: [null, 2, null],
  maxPlayers: [null, 16, null],
};

describe('statistics history model', () => {
  it('offers live and the four stored ranges, live first', () => {
    expect(statsRanges).toEqual(['live', '1h', '24h', '7d', '30d']);
    expect(statsRanges.filter(isHistoryRange)).toEqual(['1h', '24h', '7d', '30d']);
  });

  it('turns the response into chart columns in unix seconds, keeping gaps as gaps', () => {
    const charts = chartsOf(history);
    expect(charts.times).toEqual([60, 120, 180]);
    expect(charts.cpu).toEqual([null, 12.5, 3]);
    expect(charts.players).toEqual([null, 2, null]);
    expect(charts.maxPlayers).toBe(16);
  });

  it('has no player slots when players were never known (the chart is hidden)', () => {
    expect(
      chartsOf({ ...history, players: [null, null, null], maxPlayers: [null, null, null] }).maxPlayers,
    ).toBe(0);
  });

  it('converts bytes to MB or MiB and finds the largest known value', () => {
    expect(inUnit(history.memory, false)).toEqual([null, 2, 1.05]);
    expect(inUnit(history.memory, true)).toEqual([null, 1.91, 1]);
    expect(maxKnown(history.cpu)).toBe(12.5);
    expect(maxKnown([null, null])).toBe(0);
  });
});
