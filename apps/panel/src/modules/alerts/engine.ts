/**
 * The alert engine (docs/alerts.md § Rules): it listens to the activity log as entries are recorded
 * (ActivityService.onRecorded), so every event the panel or a node reports — a node going offline or coming
 * back, a crash or a failed backup delivered through the node link — is matched against the enabled rules
 * once, whichever way it arrived. Thresholds, empty servers and console patterns are evaluated on the node
 * (alert-watches.ts hands them over), whose `server.threshold.reached` / `server.console.matched` events name
 * the rule: the engine checks them against the rule as it stands now. Matching alerts pass the per-rule rate
 * limit and go to the dispatcher.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityEntry, AlertCondition, AlertConditionType, AlertEvent } from '@hearth/contract';
import type { AlertRuleWithTarget, AlertsRepository } from './alerts.repository';
import { lineMatches } from './console-match';
import type { AlertDispatcher } from './dispatcher';
import { RuleRateLimit } from './rate-limit';

/** The activity actions each condition listens to (the crash and backup ones come from the node outbox:
 * packages/contract/src/node-events.ts). */
const actionsOf: Partial<Record<AlertConditionType, readonly string[]>> = {
  crash: ['server.crashed'],
  crashLoop: ['server.crashed'],
  nodeOffline: ['node.offline'],
  nodeOnline: ['node.online'],
  backupFailed: ['server.backup.failed', 'server.backup.scheduled.failed'],
  // Evaluated by the node that runs the server (alert-watches.ts, docs/alerts.md § Where conditions are evaluated).
  cpuAbove: ['server.threshold.reached'],
  memoryAbove: ['server.threshold.reached'],
  diskAbove: ['server.threshold.reached'],
  serverEmpty: ['server.threshold.reached'],
  consoleMatch: ['server.console.matched'],
};

/** Crash times kept per (rule, server) for crash-loop windows: at most the rule's count. */
type Window = number[];

export class AlertEngine {
  #rules: Promise<AlertRuleWithTarget[]> | null = null;
  readonly #windows = new Map<string, Window>();
  readonly #limit: RuleRateLimit;

  constructor(
    private readonly repo: AlertsRepository,
    private readonly dispatcher: AlertDispatcher,
    private readonly log: () => FastifyBaseLogger,
  ) {
    this.#limit = new RuleRateLimit((ruleId, count) => void this.#summary(ruleId, count));
  }

  /** Rules changed: the next event reads them again. */
  invalidate(ruleId?: string): void {
    this.#rules = null;
    if (ruleId) {
      this.#limit.forget(ruleId);
      for (const key of [...this.#windows.keys()])
        if (key.startsWith(`${ruleId}:`)) this.#windows.delete(key);
    }
  }

  /** The rules as the engine knows them (the watches pushed to nodes are built from them: alert-watches.ts). */
  rules(): Promise<AlertRuleWithTarget[]> {
    const rules = (this.#rules ??= this.repo.list());
    // A failed read (database down) is not kept: the next event reads again.
    rules.catch(() => {
      if (this.#rules === rules) this.#rules = null;
    });
    return rules;
  }

  close(): void {
    this.#limit.close();
    this.dispatcher.close();
  }

  /** The activity listener: never throws (recording must not fail because of alerts). */
  onActivity(entry: ActivityEntry): void {
    void this.#match(entry).catch((err: unknown) => this.log().warn({ err }, 'alert rules not evaluated'));
  }

  /** "Send test": straight to the dispatcher, past the rate limit; answers the delivery id. */
  test(rule: AlertRuleWithTarget): Promise<string> {
    return this.dispatcher.enqueue(rule.target, {
      ...this.#event(rule, 'test', null),
      title: `Test alert from Hearth: ${rule.rule.name}`,
    });
  }

  async #match(entry: ActivityEntry): Promise<void> {
    const rules = await this.rules();
    for (const rule of rules) {
      if (!rule.rule.enabled) continue;
      if (rule.rule.server_id !== null && rule.rule.server_id !== entry.serverId) continue;
      const condition = JSON.parse(rule.rule.condition) as AlertCondition;
      if (!actionsOf[condition.type]?.includes(entry.action)) continue;
      const details = this.#fires(rule, condition, entry);
      if (details) await this.#fire(rule, condition.type, entry, details);
    }
  }

  /** The details to send when `entry` makes the condition true; null when it does not. */
  #fires(
    rule: AlertRuleWithTarget,
    condition: AlertCondition,
    entry: ActivityEntry,
  ): Record<string, unknown> | null {
    const d = entry.details;
    switch (condition.type) {
      case 'crashLoop': {
        const key = `${rule.rule.id}:${entry.serverId ?? ''}`;
        const since = entry.time - condition.minutes * 60_000;
        const window = (this.#windows.get(key) ?? []).filter((t) => t > since);
        window.push(entry.time);
        this.#windows.set(key, window.slice(-condition.count));
        if (window.length < condition.count) return null;
        return { crashes: window.length, minutes: condition.minutes, exitCode: d.exitCode ?? null };
      }
      case 'consoleMatch': {
        // The node names the rule it matched for; the line must still match the rule as it stands now.
        if (d.rule !== rule.rule.id || typeof d.line !== 'string') return null;
        if (!lineMatches(condition.pattern, condition.mode, d.line)) return null;
        return {
          line: d.line.slice(0, 500),
          ...(typeof d.suppressed === 'number' ? { suppressed: d.suppressed } : {}),
        };
      }
      case 'cpuAbove':
      case 'memoryAbove':
      case 'diskAbove':
      case 'serverEmpty': {
        // A node reports the watch it was given; one given before an edit (another threshold) alerts nobody.
        if (d.rule !== rule.rule.id || d.condition !== condition.type) return null;
        if ('threshold' in condition && d.threshold !== condition.threshold) return null;
        if (d.minutes !== condition.minutes) return null;
        return { ...d };
      }
      case 'crash':
      case 'nodeOffline':
      case 'nodeOnline':
      case 'backupFailed':
        return { ...d };
    }
  }

  async #fire(
    rule: AlertRuleWithTarget,
    type: AlertConditionType,
    entry: ActivityEntry,
    details: Record<string, unknown>,
  ): Promise<void> {
    if (!this.#limit.admit(rule.rule.id)) {
      await this.dispatcher.suppressed(rule.rule.id, type);
      return;
    }
    const event = this.#event(rule, type, entry);
    await this.dispatcher.enqueue(rule.target, { ...event, details });
  }

  async #summary(ruleId: string, count: number): Promise<void> {
    const rule = (await this.rules()).find((r) => r.rule.id === ruleId);
    if (!rule) return;
    await this.dispatcher.enqueue(rule.target, {
      ...this.#event(rule, 'summary', null),
      title: `${rule.rule.name}: ${count} more alerts suppressed in the last minute`,
      details: { suppressed: count },
    });
  }

  #event(rule: AlertRuleWithTarget, type: AlertEvent['type'], entry: ActivityEntry | null): AlertEvent {
    const where = entry?.serverId
      ? ` (server ${entry.serverId})`
      : entry?.nodeId
        ? ` (node ${entry.nodeId})`
        : '';
    return {
      id: randomUUID(),
      rule: { id: rule.rule.id, name: rule.rule.name },
      type,
      time: entry?.time ?? Date.now(),
      serverId: entry?.serverId ?? rule.rule.server_id,
      nodeId: entry?.nodeId ?? null,
      title: `${rule.rule.name}: ${titles[type]}${where}`,
      details: entry?.details ?? {},
    };
  }
}

const titles: Record<AlertEvent['type'], string> = {
  crash: 'server crashed',
  crashLoop: 'server is crash-looping',
  nodeOffline: 'node went offline',
  nodeOnline: 'node is back online',
  backupFailed: 'backup failed',
  cpuAbove: 'CPU above threshold',
  memoryAbove: 'memory above threshold',
  diskAbove: 'disk above threshold',
  serverEmpty: 'server empty',
  consoleMatch: 'console line matched',
  test: 'test',
  summary: 'suppressed alerts',
};
