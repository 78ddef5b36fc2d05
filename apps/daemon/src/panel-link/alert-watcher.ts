/**
 * The node's half of the alert rules it can see as they happen (docs/alerts.md § Where conditions are evaluated;
 * wire: packages/contract/src/alert-watches.ts). The panel hands over the watches (`PUT /daemon/alert-watches`);
 * they live in memory only — the version answered in each outbox page is null after a restart, and the panel
 * pushes them again on its next pull.
 *
 * - Thresholds (`cpuAbove`, `memoryAbove`, `diskAbove`) and `serverEmpty` are evaluated on the sampler's samples
 *   (every `stats.sampleIntervalMs`): a condition that holds on every sample for `minutes` records one
 *   `server.threshold.reached` event; it is re-armed only by a sample where it does not hold, so a server that
 *   stays hot is reported once, not at every sample. CPU and memory hold only while the server runs; an empty
 *   server is a running one whose player count is known and 0 (unknown counts never hold).
 * - Console patterns (`consoleMatch`) are matched against the complete lines of the servers that have one (only
 *   those: a server without a pattern costs nothing), daemon lines excepted. A matching line records one
 *   `server.console.matched` event per rule and server per minute at most; matches inside that minute are counted
 *   and reported with the next event (`suppressed`). A partial line is kept up to 4 KiB, then matched in pieces.
 *
 * Memory: one small state per watch and server that holds or matched recently, one line buffer per watched server.
 */
import {
  CONSOLE_LINE_MAX,
  DAEMON_LINE_PREFIX,
  lineMatches,
  type AlertCondition,
  type AlertWatch,
  type AlertWatches,
} from '@hearth/contract';
import type { Sample } from '../history/recorder';
import type { Server } from '../server/server';
import { nodeActor } from './node-events';
import type { NodeEventInput } from './outbox';

export type WatchEventSink = (event: NodeEventInput) => void;

/** One console event per rule and server per this many ms. */
export const CONSOLE_EVENT_EVERY_MS = 60_000;
const LINE_CHARS_SENT = 500;
const MIB = 1024 * 1024;

type ThresholdCondition = Extract<
  AlertCondition,
  { type: 'cpuAbove' | 'memoryAbove' | 'diskAbove' | 'serverEmpty' }
>;
type ConsoleWatch = AlertWatch & { condition: Extract<AlertCondition, { type: 'consoleMatch' }> };

interface Held {
  since: number;
  fired: boolean;
}

interface Tap {
  server: Server;
  unsubscribe: () => void;
  partial: string;
}

function isConsole(w: AlertWatch): w is ConsoleWatch {
  return w.condition.type === 'consoleMatch';
}

function thresholdOf(w: AlertWatch): ThresholdCondition | null {
  const c = w.condition;
  return c.type === 'cpuAbove' ||
    c.type === 'memoryAbove' ||
    c.type === 'diskAbove' ||
    c.type === 'serverEmpty'
    ? c
    : null;
}

// eslint-disable-next-line no-control-regex -- console output's colour codes are exactly control characters
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export class AlertWatcher {
  #watches: AlertWatches | null = null;
  /** Per `${rule}:${server}`: since when the condition holds, and whether it was reported. */
  readonly #held = new Map<string, Held>();
  /** Per `${rule}:${server}`: when the last console event went out, and the matches since then not sent. */
  readonly #sent = new Map<string, { at: number; suppressed: number }>();
  /** Console subscriptions of the servers that have a pattern. */
  readonly #taps = new Map<string, Tap>();

  constructor(
    private readonly servers: () => Server[],
    private readonly sink: WatchEventSink,
    private readonly now: () => number = Date.now,
  ) {}

  /** The version the panel gave with the watches held (null: none yet). */
  get version(): string | null {
    return this.#watches?.version ?? null;
  }

  set(watches: AlertWatches): void {
    this.#watches = watches;
    // States of watches that went (or changed: a new threshold starts over) are dropped.
    const keys = new Set<string>();
    for (const server of this.servers())
      for (const w of this.#of(server.id)) keys.add(`${this.#key(w)}:${server.id}`);
    for (const key of [...this.#held.keys()]) if (!keys.has(key)) this.#held.delete(key);
    for (const key of [...this.#sent.keys()]) if (!keys.has(key)) this.#sent.delete(key);
    this.#tapServers(this.servers());
  }

  /** Unsubscribes from every console (daemon close). */
  close(): void {
    for (const tap of this.#taps.values()) tap.unsubscribe();
    this.#taps.clear();
  }

  /** After a sampler pass: thresholds and empty servers, and console taps for servers that appeared. */
  onSamples(servers: Server[], now: number, sampleOf: (id: string) => Sample | undefined): void {
    this.#tapServers(servers);
    if (!this.#watches) return;
    const seen = new Set<string>();
    for (const server of servers) {
      const sample = sampleOf(server.id);
      for (const watch of this.#of(server.id)) {
        const condition = thresholdOf(watch);
        if (!condition) continue;
        const key = `${this.#key(watch)}:${server.id}`;
        seen.add(key);
        const value = sample ? valueOf(condition, server, sample) : null;
        if (value === null) {
          this.#held.delete(key); // re-armed: the next time it holds for the whole window is reported
          continue;
        }
        const held = this.#held.get(key) ?? { since: now, fired: false };
        this.#held.set(key, held);
        if (held.fired || now - held.since < condition.minutes * 60_000) continue;
        held.fired = true;
        this.sink({
          action: 'server.threshold.reached',
          serverId: server.id,
          actor: nodeActor,
          ip: null,
          details: {
            rule: watch.rule,
            condition: condition.type,
            ...('threshold' in condition ? { threshold: condition.threshold } : {}),
            minutes: condition.minutes,
            value: Math.round(value * 100) / 100,
            since: held.since,
          },
        });
      }
    }
    // A deleted server's states go with it.
    for (const key of [...this.#held.keys()]) if (!seen.has(key)) this.#held.delete(key);
  }

  /** The watches that apply to a server: the global ones and its own. */
  #of(serverId: string): AlertWatch[] {
    const w = this.#watches;
    if (!w) return [];
    const own = Object.hasOwn(w.servers, serverId) ? (w.servers[serverId] ?? []) : [];
    return own.length === 0 ? w.all : [...w.all, ...own];
  }

  /** A watch's identity: its rule and what it asks (a changed threshold or pattern starts over). */
  #key(w: AlertWatch): string {
    return `${w.rule}/${JSON.stringify(w.condition)}`;
  }

  /** Console taps on exactly the servers that have a pattern (servers of `list`; others' taps go). */
  #tapServers(list: Server[]): void {
    const wanted = new Map<string, Server>();
    for (const server of list) if (this.#of(server.id).some(isConsole)) wanted.set(server.id, server);
    for (const [id, tap] of this.#taps) {
      if (wanted.get(id) === tap.server) continue;
      tap.unsubscribe();
      this.#taps.delete(id);
    }
    for (const [id, server] of wanted) {
      if (this.#taps.has(id)) continue;
      const tap: Tap = { server, partial: '', unsubscribe: () => undefined };
      tap.unsubscribe = server.onOutput((text) => this.#output(tap, text));
      this.#taps.set(id, tap);
    }
  }

  #output(tap: Tap, text: string): void {
    let rest = tap.partial + text;
    for (let at = rest.indexOf('\n'); at !== -1; at = rest.indexOf('\n')) {
      this.#line(tap.server.id, rest.slice(0, at));
      rest = rest.slice(at + 1);
    }
    // A line that never ends is matched 4 KiB at a time (each piece as a line): bounded memory.
    while (rest.length > CONSOLE_LINE_MAX) {
      this.#line(tap.server.id, rest.slice(0, CONSOLE_LINE_MAX));
      rest = rest.slice(CONSOLE_LINE_MAX);
    }
    tap.partial = rest;
  }

  #line(serverId: string, raw: string): void {
    if (raw.startsWith(DAEMON_LINE_PREFIX)) return;
    const line = raw.replace(ANSI, '').replace(/\r$/, '');
    for (const watch of this.#of(serverId)) {
      if (!isConsole(watch) || !lineMatches(watch.condition.pattern, watch.condition.mode, line)) continue;
      const key = `${this.#key(watch)}:${serverId}`;
      const now = this.now();
      const last = this.#sent.get(key);
      if (last && now - last.at < CONSOLE_EVENT_EVERY_MS) {
        last.suppressed++;
        continue;
      }
      this.#sent.set(key, { at: now, suppressed: 0 });
      const suppressed = last?.suppressed ?? 0;
      this.sink({
        action: 'server.console.matched',
        serverId,
        actor: nodeActor,
        ip: null,
        details: {
          rule: watch.rule,
          line: line.length > LINE_CHARS_SENT ? `${line.slice(0, LINE_CHARS_SENT)}…` : line,
          ...(suppressed > 0 ? { suppressed } : {}),
        },
      });
    }
  }
}

/** The measured value when the watch's condition holds on this sample, else null. */
function valueOf(c: ThresholdCondition, server: Server, sample: Sample): number | null {
  const running = server.isRunning();
  switch (c.type) {
    case 'cpuAbove':
      return running && sample.cpu > c.threshold ? sample.cpu : null;
    case 'memoryAbove':
      return running && sample.memory > c.threshold * MIB ? sample.memory / MIB : null;
    case 'diskAbove':
      return sample.disk > c.threshold * MIB ? sample.disk / MIB : null;
    case 'serverEmpty':
      return running && sample.players !== null && sample.players.online === 0 ? 0 : null;
  }
}
