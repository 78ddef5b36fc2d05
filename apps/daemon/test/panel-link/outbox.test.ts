/**
 * The node outbox on a real folder (docs/activity.md § Node events): appends get increasing sequence numbers
 * that survive a restart of the outbox, only fsync'd events are handed out, an acknowledgement trims memory and
 * the file, the bound refuses events and a marker tells how many, and concurrent appends lose nothing.
 */
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox, type NodeEventInput } from '../../src/panel-link/outbox';

const log = pino({ level: 'silent' });
const event = (n: number, extra: Record<string, unknown> = {}): NodeEventInput => ({
  action: 'sftp.file.write',
  serverId: 's1',
  actor: { type: 'user', id: 'u1', label: 'u1@example.com' },
  ip: '127.0.0.1',
  details: { path: `/file-${n}.txt`, ...extra },
});

describe('node outbox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-outbox-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('hands out appended events in order once they are on disk', async () => {
    const outbox = await Outbox.open({ dir, log });
    for (let n = 1; n <= 3; n++) outbox.append(event(n));
    await outbox.flush();
    const page = outbox.page(0, 10);
    expect(page.outbox).toBe(outbox.id);
    expect(page.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(page.events.map((e) => e.details.path)).toEqual(['/file-1.txt', '/file-2.txt', '/file-3.txt']);
    expect(page.last).toBe(3);
    expect(outbox.page(2, 10).events.map((e) => e.seq)).toEqual([3]);
    expect(outbox.page(0, 2).events.map((e) => e.seq)).toEqual([1, 2]);
    await outbox.close();
  });

  it('keeps unacknowledged events and the sequence across a restart', async () => {
    const first = await Outbox.open({ dir, log });
    for (let n = 1; n <= 4; n++) first.append(event(n));
    await first.flush();
    await first.ack(first.id, 2);
    await first.close();

    const second = await Outbox.open({ dir, log });
    expect(second.id).toBe(first.id);
    expect(second.page(0, 10).events.map((e) => e.seq)).toEqual([3, 4]);
    second.append(event(5));
    await second.flush();
    expect(second.page(0, 10).events.map((e) => e.seq)).toEqual([3, 4, 5]);
    // Everything acknowledged, then restarted: numbering goes on, never back to 1.
    await second.ack(second.id, 5);
    await second.close();
    const third = await Outbox.open({ dir, log });
    third.append(event(6));
    await third.flush();
    expect(third.page(0, 10).events.map((e) => e.seq)).toEqual([6]);
    await third.close();
  });

  it('trims acknowledged events from memory and from the file', async () => {
    const outbox = await Outbox.open({ dir, log });
    for (let n = 1; n <= 10; n++) outbox.append(event(n));
    await outbox.flush();
    const before = outbox.bytes();
    await outbox.ack(outbox.id, 7);
    expect(outbox.bytes()).toBeLessThan(before);
    expect(outbox.page(0, 100).events.map((e) => e.seq)).toEqual([8, 9, 10]);
    const lines = (await readFile(join(dir, 'outbox.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([8, 9, 10]);
    await outbox.close();
  });

  it('refuses an acknowledgement of another outbox or of a number never handed out', async () => {
    const outbox = await Outbox.open({ dir, log });
    outbox.append(event(1));
    await outbox.flush();
    await expect(outbox.ack('another-outbox', 1)).rejects.toMatchObject({ field: 'outbox' });
    await expect(outbox.ack(outbox.id, 2)).rejects.toMatchObject({ field: 'seq' });
    expect(outbox.page(0, 10).events).toHaveLength(1);
    await outbox.close();
  });

  it('skips a line torn by a crash and goes on numbering after the last whole event', async () => {
    const first = await Outbox.open({ dir, log });
    first.append(event(1));
    first.append(event(2));
    await first.close();
    await appendFile(join(dir, 'outbox.jsonl'), '{"seq":3,"time":1,"act');
    const second = await Outbox.open({ dir, log });
    expect(second.page(0, 10).events.map((e) => e.seq)).toEqual([1, 2]);
    second.append(event(3));
    await second.flush();
    const reopened = await Outbox.open({ dir, log });
    expect(reopened.page(0, 10).events.map((e) => e.seq)).toEqual([1, 2, 3]);
    await second.close();
    await reopened.close();
  });

  it('stays within its bound and tells how many events it refused once there is room', async () => {
    const outbox = await Outbox.open({ dir, log, maxBytes: 2_000 });
    for (let n = 1; n <= 100; n++) outbox.append(event(n));
    await outbox.flush();
    expect(outbox.bytes()).toBeLessThanOrEqual(2_000);
    const kept = outbox.page(0, 500).events;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(100);
    expect(kept.map((e) => e.seq)).toEqual(kept.map((_, i) => i + 1));

    await outbox.ack(outbox.id, kept.at(-1)?.seq ?? 0);
    await outbox.flush();
    const after = outbox.page(0, 500).events;
    expect(after).toHaveLength(1);
    expect(after[0]?.action).toBe('node.events.dropped');
    expect(after[0]?.details.count).toBe(100 - kept.length);
    expect(after[0]?.seq).toBe(kept.length + 1);
    await outbox.close();
  });

  it('keeps the count of refused events across a restart', async () => {
    const first = await Outbox.open({ dir, log, maxBytes: 1_000 });
    for (let n = 1; n <= 20; n++) first.append(event(n));
    await first.close();
    const kept = first.page(0, 500).events;
    const second = await Outbox.open({ dir, log, maxBytes: 1_000 });
    await second.ack(second.id, kept.at(-1)?.seq ?? 0);
    await second.flush();
    const marker = second.page(0, 500).events;
    expect(marker.map((e) => [e.action, e.details.count])).toEqual([
      ['node.events.dropped', 20 - kept.length],
    ]);
    await second.close();
  });

  it('loses nothing to concurrent appends while batches are written and acknowledged', async () => {
    const outbox = await Outbox.open({ dir, log });
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let n = 0; n < 50; n++) {
        outbox.append(event(w * 1000 + n, { writer: w }));
        if (n % 10 === 0) await new Promise((r) => setImmediate(r));
      }
    });
    const acks = (async () => {
      for (let i = 0; i < 5; i++) {
        await outbox.flush();
        const page = outbox.page(0, 500);
        const last = page.events.at(-1)?.seq;
        if (last) await outbox.ack(outbox.id, Math.max(1, last - 5));
      }
    })();
    await Promise.all([...writers, acks]);
    await outbox.close();
    const reopened = await Outbox.open({ dir, log });
    const remaining = reopened.page(0, 500);
    const first = remaining.events[0]?.seq ?? 0;
    // What is left is a gapless run up to the 400th event: nothing was skipped or written twice.
    expect(remaining.events.map((e) => e.seq)).toEqual(
      Array.from({ length: 400 - first + 1 }, (_, i) => first + i),
    );
    expect(remaining.last).toBe(400);
    await reopened.close();
  });

  it('cuts an oversized event to its action', async () => {
    const outbox = await Outbox.open({ dir, log });
    outbox.append(event(1, { huge: 'x'.repeat(64 * 1024) }));
    await outbox.flush();
    expect(outbox.page(0, 10).events[0]?.details).toEqual({ truncated: true });
    await outbox.close();
  });

  it('does not hand out events before they are on disk', async () => {
    const outbox = await Outbox.open({ dir, log });
    outbox.append(event(1));
    expect(outbox.page(0, 10).events).toEqual([]);
    await outbox.flush();
    expect(outbox.page(0, 10).events).toHaveLength(1);
    await outbox.close();
  });
});
