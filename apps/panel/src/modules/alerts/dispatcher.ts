/**
 * The delivery queue (docs/alerts.md § Delivery): bounded (a full queue refuses the newest alert and logs it
 * as failed), a few workers so one slow receiver never holds up the rest, each attempt bounded by the
 * channel's own timeout, and up to ATTEMPTS tries with exponential backoff. A retry waits on a timer, not in a
 * worker. Every alert has one row in the delivery log, updated after each attempt.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertEvent } from '@hearth/contract';
import type { AlertsRepository, AlertTargetRow } from './alerts.repository';

export const ATTEMPTS = 5;
const BACKOFF_MS = 1_000;
const WORKERS = 4;
const QUEUE_MAX = 500;
/** Deliveries kept per rule in the log. */
const LOG_KEEP = 200;

export type Send = (target: AlertTargetRow, event: AlertEvent) => Promise<void>;

interface Job {
  deliveryId: string;
  target: AlertTargetRow;
  event: AlertEvent;
  attempts: number;
}

export class AlertDispatcher {
  readonly #queue: Job[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #running = 0;
  #closed = false;

  constructor(
    private readonly repo: AlertsRepository,
    private readonly send: Send,
    private readonly log: () => FastifyBaseLogger,
  ) {}

  /** Logs the alert as pending and queues it; answers the delivery's id. */
  async enqueue(target: AlertTargetRow, event: AlertEvent): Promise<string> {
    const deliveryId = randomUUID();
    const now = Date.now();
    const full = this.#queue.length >= QUEUE_MAX;
    await this.repo.insertDelivery({
      id: deliveryId,
      rule_id: event.rule.id,
      time: now,
      event: event.type,
      status: full ? 'failed' : 'pending',
      attempts: 0,
      last_error: full ? 'delivery queue full' : null,
      updated_at: now,
    });
    void this.repo.trimDeliveries(event.rule.id, LOG_KEEP).catch(() => {});
    if (!full && !this.#closed) {
      this.#queue.push({ deliveryId, target, event, attempts: 0 });
      this.#pump();
    }
    return deliveryId;
  }

  /** Records a suppressed alert (the rate limit): in the log, never sent. */
  async suppressed(ruleId: string, type: string): Promise<void> {
    const now = Date.now();
    await this.repo.insertDelivery({
      id: randomUUID(),
      rule_id: ruleId,
      time: now,
      event: type,
      status: 'suppressed',
      attempts: 0,
      last_error: null,
      updated_at: now,
    });
  }

  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #pump(): void {
    while (this.#running < WORKERS && this.#queue.length > 0 && !this.#closed) {
      const job = this.#queue.shift();
      if (!job) return;
      this.#running += 1;
      void this.#attempt(job).finally(() => {
        this.#running -= 1;
        this.#pump();
      });
    }
  }

  async #attempt(job: Job): Promise<void> {
    job.attempts += 1;
    let error: string | null = null;
    try {
      await this.send(job.target, job.event);
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    }
    const last = error === null || job.attempts >= ATTEMPTS;
    const status = error === null ? 'delivered' : last ? 'failed' : 'pending';
    await this.repo
      .updateDelivery(job.deliveryId, {
        status,
        attempts: job.attempts,
        last_error: error,
        updated_at: Date.now(),
      })
      .catch((err: unknown) => this.log().warn({ err }, 'alert delivery log not updated'));
    if (last || this.#closed) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        if (this.#closed) return;
        this.#queue.push(job);
        this.#pump();
      },
      BACKOFF_MS * 2 ** (job.attempts - 1),
    );
    this.#timers.add(timer);
  }
}
