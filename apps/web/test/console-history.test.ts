import { describe, expect, it } from 'vitest';
import {
  HISTORY_LIMIT,
  historyKey,
  loadHistory,
  pushHistory,
  stepHistory,
  type HistoryStorage,
} from '../src/features/servers/console/command-history';

/** A Storage with localStorage's string semantics (Node has no localStorage). */
function memoryStorage(): HistoryStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, String(v)) };
}

describe('console command history', () => {
  it('is kept per server, oldest first, and survives a reload', () => {
    const s = memoryStorage();
    let a = loadHistory(s, 'aaaa1111');
    a = pushHistory(s, 'aaaa1111', a, 'say hi');
    pushHistory(s, 'aaaa1111', a, 'list');
    pushHistory(s, 'bbbb2222', [], 'stop');
    expect(loadHistory(s, 'aaaa1111')).toEqual(['say hi', 'list']);
    expect(loadHistory(s, 'bbbb2222')).toEqual(['stop']);
  });

  it('keeps the newest 100 and a repeated command once', () => {
    const s = memoryStorage();
    let h: string[] = [];
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) h = pushHistory(s, 'x', h, `cmd ${i}`);
    h = pushHistory(s, 'x', h, `cmd ${HISTORY_LIMIT + 19}`);
    expect(HISTORY_LIMIT).toBe(100);
    expect(loadHistory(s, 'x')).toHaveLength(100);
    expect(loadHistory(s, 'x')[0]).toBe('cmd 20');
    expect(loadHistory(s, 'x').at(-1)).toBe(`cmd ${HISTORY_LIMIT + 19}`);
  });

  it('reads a damaged or foreign entry as empty, and a refused write keeps the history in memory', () => {
    const s = memoryStorage();
    s.data.set(historyKey('x'), '{not json');
    expect(loadHistory(s, 'x')).toEqual([]);
    s.data.set(historyKey('x'), JSON.stringify({ a: 1 }));
    expect(loadHistory(s, 'x')).toEqual([]);
    s.data.set(historyKey('x'), JSON.stringify(['ok', 3, null]));
    expect(loadHistory(s, 'x')).toEqual(['ok']);
    const full: HistoryStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(pushHistory(full, 'x', ['a'], 'b')).toEqual(['a', 'b']);
  });

  it('↑ walks back to the oldest and stops there; ↓ returns to the typed draft', () => {
    const h = ['one', 'two'];
    let pos = { index: h.length, text: 'dra' };
    pos = stepHistory(h, pos.index, -1, 'dra');
    expect(pos).toEqual({ index: 1, text: 'two' });
    pos = stepHistory(h, pos.index, -1, 'dra');
    pos = stepHistory(h, pos.index, -1, 'dra');
    expect(pos).toEqual({ index: 0, text: 'one' });
    pos = stepHistory(h, pos.index, 1, 'dra');
    pos = stepHistory(h, pos.index, 1, 'dra');
    expect(pos).toEqual({ index: 2, text: 'dra' });
    expect(stepHistory(h, pos.index, 1, 'dra')).toEqual({ index: 2, text: 'dra' });
    expect(stepHistory([], 0, -1, 'x')).toEqual({ index: 0, text: 'x' });
  });
});
