/**
 * The node's alert watcher (docs/alerts.md § Where conditions are evaluated) on samples and output given by
 * hand, with its clock moved by hand: a threshold is reported once when it has held for its minutes and
 * re-armed only by a sample where it does not hold; an empty server needs a known count; console patterns
 * match whole lines (split across pieces of output, daemon lines skipped) and a flood of matches makes one
 * event per minute, the rest counted.
 */
import { describe, expect, it } from 'vitest';
import type { AlertWatches, NodeEventAction } from '@hearth/contract';
import { DAEMON_LINE_PREFIX } from '@hearth/contract';
import { AlertWatcher, CONSOLE_EVENT_EVERY_MS } from '../../src/panel-link/alert-watcher';
import type { NodeEventInput } from '../../src/panel-link/outbox';
import type { Sample } from '../../src/history/recorder';
import type { Server } from '../../src/server/server';

const MIB = 1024 * 1024;

class StubServer {
  running = true;
  readonly listeners = new Set<(text: string) => void>();
  constructor(readonly id: string) {}
  isRunning(): boolean {
    return this.running;
  }
  onOutput(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  print(text: string): void {
    for (const l of this.listeners) l(text);
  }
}

function setup(watches: Omit<AlertWatches, 'version'>) {
  const a = new StubServer('a');
  const b = new StubServer('b');
  const servers = [a, b] as unknown as Server[];
  const events: NodeEventInput[] = [];
  let now = 1_000_000;
  const watcher = new AlertWatcher(
    () => servers,
    (e) => events.push(e),
    () => now,
  );
  watcher.set({ version: 'v1', ...watches });
  const samples = new Map<string, Sample>();
  const tick = (at: number) => {
    now = at;
    watcher.onSamples(servers, at, (id) => samples.get(id));
  };
  const of = (action: NodeEventAction) => events.filter((e) => e.action === action);
  return { a, b, watcher, events, samples, tick, of, setNow: (t: number) => (now = t) };
}

const sample = (s: Partial<Sample>): Sample => ({ cpu: 0, memory: 0, disk: 0, players: null, ...s });

describe('the alert watcher', () => {
  it('reports a threshold held for its minutes once, and again only after it cleared', () => {
    const { samples, tick, of, watcher } = setup({
      all: [{ rule: 'r1', condition: { type: 'cpuAbove', threshold: 80, minutes: 2 } }],
      servers: {},
    });
    expect(watcher.version).toBe('v1');
    samples.set('a', sample({ cpu: 95 }));
    tick(0);
    tick(60_000);
    expect(of('server.threshold.reached')).toHaveLength(0);
    tick(120_000);
    tick(135_000);
    tick(600_000); // still hot: no repeat
    const reached = of('server.threshold.reached');
    expect(reached).toHaveLength(1);
    expect(reached[0]).toMatchObject({
      serverId: 'a',
      details: { rule: 'r1', condition: 'cpuAbove', threshold: 80, minutes: 2, value: 95 },
    });
    samples.set('a', sample({ cpu: 10 }));
    tick(615_000); // cleared: re-armed
    samples.set('a', sample({ cpu: 99 }));
    tick(630_000);
    tick(700_000);
    expect(of('server.threshold.reached')).toHaveLength(1);
    tick(750_000);
    expect(of('server.threshold.reached')).toHaveLength(2);
  });

  it('memory and disk compare in MiB; CPU and memory of a stopped server never hold, disk does', () => {
    const { a, samples, tick, of } = setup({
      all: [],
      servers: {
        a: [
          { rule: 'mem', condition: { type: 'memoryAbove', threshold: 100, minutes: 1 } },
          { rule: 'disk', condition: { type: 'diskAbove', threshold: 500, minutes: 1 } },
        ],
      },
    });
    samples.set('a', sample({ memory: 200 * MIB, disk: 600 * MIB }));
    samples.set('b', sample({ memory: 200 * MIB, disk: 600 * MIB })); // b has no watch
    a.running = false;
    tick(0);
    tick(60_000);
    expect(of('server.threshold.reached').map((e) => e.details.rule)).toEqual(['disk']);
    a.running = true;
    tick(70_000);
    tick(130_000);
    expect(of('server.threshold.reached').map((e) => [e.details.rule, e.serverId])).toEqual([
      ['disk', 'a'],
      ['mem', 'a'],
    ]);
  });

  it('an empty server needs a known player count of 0 while it runs', () => {
    const { samples, tick, of } = setup({
      all: [{ rule: 'empty', condition: { type: 'serverEmpty', minutes: 1 } }],
      servers: {},
    });
    samples.set('a', sample({ players: null }));
    samples.set('b', sample({ players: { online: 0, max: 10 } }));
    tick(0);
    samples.set('b', sample({ players: { online: 1, max: 10 } }));
    tick(30_000); // someone joined: re-armed
    samples.set('b', sample({ players: { online: 0, max: 10 } }));
    tick(40_000);
    tick(90_000);
    expect(of('server.threshold.reached')).toHaveLength(0);
    tick(100_000);
    expect(of('server.threshold.reached').map((e) => e.serverId)).toEqual(['b']);
  });

  it('a changed watch starts over, and watches taken away stop', () => {
    const { samples, tick, of, watcher } = setup({
      all: [{ rule: 'r', condition: { type: 'cpuAbove', threshold: 50, minutes: 1 } }],
      servers: {},
    });
    samples.set('a', sample({ cpu: 90 }));
    tick(0);
    watcher.set({
      version: 'v2',
      all: [{ rule: 'r', condition: { type: 'cpuAbove', threshold: 60, minutes: 1 } }],
      servers: {},
    });
    tick(50_000);
    tick(100_000);
    expect(of('server.threshold.reached')).toHaveLength(0);
    tick(110_000);
    expect(of('server.threshold.reached')).toHaveLength(1);
    watcher.set({ version: 'v3', all: [], servers: {} });
    samples.set('a', sample({ cpu: 5 }));
    tick(120_000);
    samples.set('a', sample({ cpu: 90 }));
    tick(200_000);
    tick(400_000);
    expect(of('server.threshold.reached')).toHaveLength(1);
    expect(watcher.version).toBe('v3');
  });

  it('matches whole console lines of watched servers only; a flood makes one event a minute', () => {
    const { a, b, of, setNow, watcher } = setup({
      all: [],
      servers: {
        a: [{ rule: 'oom', condition: { type: 'consoleMatch', pattern: '*OutOfMemory*', mode: 'glob' } }],
      },
    });
    expect(b.listeners.size).toBe(0); // no pattern, no tap
    a.print('java.lang.OutOf');
    expect(of('server.console.matched')).toHaveLength(0);
    a.print('MemoryError: heap\r\nnext');
    expect(of('server.console.matched')).toEqual([
      expect.objectContaining({
        serverId: 'a',
        details: { rule: 'oom', line: 'java.lang.OutOfMemoryError: heap' },
      }),
    ]);
    a.print(`\n${DAEMON_LINE_PREFIX}OutOfMemory in a daemon line\n`);
    for (let i = 0; i < 10_000; i++) a.print(`\u001b[31mOutOfMemory ${i}\u001b[0m\n`);
    expect(of('server.console.matched')).toHaveLength(1);
    setNow(1_000_000 + CONSOLE_EVENT_EVERY_MS);
    a.print('OutOfMemory again\n');
    expect(of('server.console.matched')[1]?.details).toEqual({
      rule: 'oom',
      line: 'OutOfMemory again',
      suppressed: 10_000,
    });
    // A line that never ends is matched by its first 4 KiB, and memory stays bounded.
    setNow(1_000_000 + 2 * CONSOLE_EVENT_EVERY_MS);
    a.print(`OutOfMemory${'x'.repeat(10_000)}`);
    expect(of('server.console.matched')).toHaveLength(3);
    watcher.set({ version: 'v2', all: [], servers: {} });
    expect(a.listeners.size).toBe(0);
  });
});
