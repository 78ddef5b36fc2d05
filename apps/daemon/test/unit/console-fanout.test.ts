import { describe, expect, it } from 'vitest';
import type { ConsoleEventData } from '@hearth/contract';
import { ConsoleFanout, MESSAGE_BYTES } from '../../src/server/console-fanout';
import { ConsoleLog } from '../../src/server/console-log';

class Sink {
  messages: ConsoleEventData[] = [];
  raw: string[] = [];
  blocked = false;
  send(message: string): void {
    this.raw.push(message);
    this.messages.push((JSON.parse(message) as { data: ConsoleEventData }).data);
  }
  congested(): boolean {
    return this.blocked;
  }
  text(): string {
    return this.messages.flatMap((m) => m.logs).join('');
  }
  dropped(): number {
    return this.messages.reduce((n, m) => n + (m.dropped ?? 0), 0);
  }
}

/** Lets the fan-out's timers and setImmediate continuations run until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(done()).toBe(true);
}

function setup(queueBytes = 1 << 20) {
  const log = new ConsoleLog(1 << 20);
  const fanout = new ConsoleFanout(5, queueBytes);
  const publish = (text: string) => fanout.publish(log.append(text));
  return { log, fanout, publish };
}

describe('ConsoleFanout', () => {
  it('coalesces the output of one tick into one message per subscriber, with the last epoch', async () => {
    const { log, fanout, publish } = setup();
    const a = new Sink();
    const b = new Sink();
    fanout.subscribe(a);
    fanout.subscribe(b);
    for (let i = 0; i < 100; i++) publish(`line ${i}\n`);
    await until(() => a.messages.length > 0 && b.messages.length > 0);
    expect(a.messages).toHaveLength(1);
    expect(a.messages[0]?.logs).toHaveLength(100);
    expect(a.messages[0]?.epoch).toBe(log.latestEpoch());
    expect(b.raw).toEqual(a.raw); // the same batch is serialised once and shared
    fanout.close();
  });

  it('splits a large backlog into messages of at most MESSAGE_BYTES, in order, losing nothing', async () => {
    const { fanout, publish } = setup(8 << 20);
    const sink = new Sink();
    fanout.subscribe(sink);
    let expected = '';
    for (let i = 0; i < 3000; i++) {
      const line = `${String(i).padStart(6, '0')} ${'x'.repeat(1000)}\n`;
      expected += line;
      publish(line);
    }
    await until(() => sink.text().length === expected.length);
    expect(sink.text()).toBe(expected);
    expect(sink.messages.length).toBeGreaterThan(1);
    for (const m of sink.messages)
      expect(Buffer.byteLength(m.logs.join(''))).toBeLessThanOrEqual(MESSAGE_BYTES);
    expect(sink.dropped()).toBe(0);
    fanout.close();
  });

  it('holds output for a congested subscriber, drops its oldest beyond the queue bound and says how much', async () => {
    const { fanout, publish } = setup(1000);
    const slow = new Sink();
    const fast = new Sink();
    slow.blocked = true;
    fanout.subscribe(slow);
    fanout.subscribe(fast);
    // 100 bytes a line, 10 lines a tick: exactly the queue bound, so only the congested one overflows.
    for (let tick = 0; tick < 5; tick++) {
      for (let i = tick * 10; i < tick * 10 + 10; i++) publish(`${String(i).padStart(99, '.')}\n`);
      await until(() => fast.text().length === (tick + 1) * 1000);
    }
    expect(slow.messages).toEqual([]); // nothing sent while congested; the fast one was not held back
    slow.blocked = false;
    publish('after\n');
    await until(() => slow.text().endsWith('after\n'));
    // 5006 bytes through a 1000-byte queue: the newest 906 (9 lines + "after\n") arrive, 4100 are dropped.
    expect(slow.dropped()).toBe(4100);
    expect(Buffer.byteLength(slow.text())).toBe(906);
    expect(slow.text().startsWith(`${String(41).padStart(99, '.')}\n`)).toBe(true);
    expect(fast.dropped()).toBe(0);
    fanout.close();
  });

  it('stops sending to a subscriber once it unsubscribes', async () => {
    const { fanout, publish } = setup();
    const sink = new Sink();
    const unsubscribe = fanout.subscribe(sink);
    publish('one\n');
    await until(() => sink.messages.length === 1);
    unsubscribe();
    publish('two\n');
    const other = new Sink();
    fanout.subscribe(other);
    publish('three\n');
    await until(() => other.messages.length === 1);
    expect(sink.text()).toBe('one\n');
    expect(fanout.count()).toBe(1);
    fanout.close();
  });
});
