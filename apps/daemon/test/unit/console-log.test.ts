import { describe, expect, it } from 'vitest';
import { ConsoleLog } from '../../src/server/console-log';

describe('ConsoleLog', () => {
  it('stays within its byte bound, evicting the oldest chunks first (bytes of UTF-8, not characters)', () => {
    const log = new ConsoleLog(100);
    for (let i = 0; i < 50; i++) log.append(`line ${String(i).padStart(2, '0')}\n`); // 8 bytes each
    expect(log.bytes()).toBeLessThanOrEqual(100);
    const texts = log.since(0).map((c) => c.text);
    expect(texts.at(-1)).toBe('line 49\n');
    expect(texts[0]).toBe('line 38\n'); // 12 newest × 8 bytes = 96
    const wide = new ConsoleLog(10);
    const chunk = wide.append('é✓'); // 2 characters, 5 bytes
    expect(chunk.bytes).toBe(5);
    wide.append('🎮🎮'); // 8 bytes: 13 > 10 evicts the first
    expect(wide.since(0).map((c) => c.text)).toEqual(['🎮🎮']);
  });

  it('keeps the newest chunk even when it alone is larger than the bound', () => {
    const log = new ConsoleLog(4);
    log.append('ab');
    log.append('0123456789');
    expect(log.since(0).map((c) => c.text)).toEqual(['0123456789']);
  });

  it('stamps strictly increasing epochs even within one millisecond or with a clock going back', () => {
    const log = new ConsoleLog(1 << 20);
    const epochs = [1000, 1000, 1000, 999, 1005, 1005].map((now) => log.append('x', now).epoch);
    expect(epochs).toEqual([1000, 1001, 1002, 1003, 1005, 1006]);
    expect(log.latestEpoch()).toBe(1006);
  });

  it('replays exactly the chunks after an epoch, none missed or repeated', () => {
    const log = new ConsoleLog(1 << 20);
    for (let i = 0; i < 10; i++) log.append(`${i}`, 5000); // all in the same millisecond
    const all = log.since(0);
    expect(all.map((c) => c.text).join('')).toBe('0123456789');
    const after = log.since(all[3]?.epoch ?? 0);
    expect(after.map((c) => c.text).join('')).toBe('456789');
    expect(log.since(log.latestEpoch())).toEqual([]);
    // Replaying in pieces by the last seen epoch yields the whole stream once.
    let seen = 0;
    let text = '';
    for (let i = 0; i < 3; i++) {
      const batch = log.since(seen).slice(0, 4);
      text += batch.map((c) => c.text).join('');
      seen = batch.at(-1)?.epoch ?? seen;
    }
    expect(text).toBe('0123456789');
  });

  it('replays only what is still held after eviction, and keeps working after many evictions', () => {
    const log = new ConsoleLog(10);
    for (let i = 0; i < 5000; i++) log.append(`${i % 10}`, 1);
    expect(
      log
        .since(0)
        .map((c) => c.text)
        .join(''),
    ).toBe('0123456789');
    expect(log.bytes()).toBe(10);
  });
});
