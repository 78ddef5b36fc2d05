/**
 * The panel's side of the node outbox (docs/activity.md § Node events, docs/adr/0012-node-event-outbox.md): every
 * few seconds, and at once when a node comes back online, each node's outbox is drained — a page after the
 * node's cursor is pulled, recorded with the cursor in one transaction, then acknowledged so the node forgets it.
 * One drain per node at a time. A node that cannot be reached keeps its events until the next round.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  DAEMON_TOKEN_ANY_SERVER,
  DAEMON_TOKEN_PANEL_SUBJECT,
  activityActions,
  type NodeEvent,
  type NodeEventsPage,
} from '@hearth/contract';
import type { ActivityRow } from '../modules/activity/activity.repository';
import type { NodeEventsRepository } from '../modules/activity/node-events.repository';
import { scrubDetails } from '../modules/activity/scrub';
import type { NodeLink } from './node-link';

/** The panel's own token: the outbox routes refuse every user's (contract daemon-routes.ts, need `panel`). */
const PANEL_GRANT = {
  sub: DAEMON_TOKEN_PANEL_SUBJECT,
  server: DAEMON_TOKEN_ANY_SERVER,
  perms: [],
  admin: true,
};
const PAGE = 200;
/** Pages per node per round: a node that was cut off for long catches up over a few rounds. */
const PAGES_PER_ROUND = 25;
const EVERY_MS = 5_000;
const TIMEOUTS = { connectMs: 2_000, responseMs: 10_000 };
const known = new Set<string>(activityActions);

export interface NodeEventsPullDeps {
  link: NodeLink;
  repo: NodeEventsRepository;
  /** The ids of the nodes to drain (every node the panel knows). */
  nodeIds: () => Promise<string[]>;
  /** The ids of a node's servers: an event naming another node's server keeps the claim in its details only. */
  serverIds: (nodeId: string) => Promise<Set<string>>;
  everyMs?: number;
  /** Told the rows once they are stored, so the activity log's listeners (alerts: docs/alerts.md) see them. */
  onStored?: (rows: ActivityRow[]) => void;
}

export class NodeEventsPuller {
  private readonly draining = new Map<string, Promise<void>>();
  /**
   * Told the alert-watches version each node answers with its first page of a round (docs/alerts.md § Where
   * conditions are evaluated); set by the alerts module, which pushes the watches when they differ.
   */
  onWatches: ((nodeId: string, held: string | null | undefined) => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The app's logger, given at start (the puller is built before the app's logger is there to pass). */
  private log: () => FastifyBaseLogger = () => {
    throw new Error('node events: pulled before start');
  };

  constructor(private readonly deps: NodeEventsPullDeps) {}

  start(log: () => FastifyBaseLogger): void {
    this.log = log;
    if (this.timer) return;
    this.timer = setInterval(() => void this.pullAll(), this.deps.everyMs ?? EVERY_MS);
    this.timer.unref();
    void this.pullAll();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.draining.values()]);
  }

  async pullAll(): Promise<void> {
    let ids: string[];
    try {
      ids = await this.deps.nodeIds();
    } catch (err) {
      this.log().warn({ err }, 'node events: nodes not listed; next round soon');
      return;
    }
    await Promise.allSettled(ids.map((id) => this.pull(id)));
  }

  /** Drains one node's outbox (joins a drain already under way). */
  pull(nodeId: string): Promise<void> {
    if (!this.timer) return Promise.resolve(); // stopped, or not started yet: the first round comes with start
    const running = this.draining.get(nodeId);
    if (running) return running;
    const drain = this.drain(nodeId)
      .catch((err: unknown) => this.log().debug({ err, nodeId }, 'node events not pulled this round'))
      .finally(() => this.draining.delete(nodeId));
    this.draining.set(nodeId, drain);
    return drain;
  }

  private async drain(nodeId: string): Promise<void> {
    for (let round = 0; round < PAGES_PER_ROUND; round++) {
      const cursor = await this.deps.repo.cursor(nodeId);
      let page = await this.page(nodeId, cursor?.seq ?? 0);
      // Another outbox (the node's data folder was wiped or replaced): its numbering starts again.
      if (cursor && page.outbox !== cursor.outbox && cursor.seq > 0) page = await this.page(nodeId, 0);
      if (round === 0 && this.onWatches) {
        const held = page.watches;
        void this.onWatches(nodeId, held).catch((err: unknown) =>
          this.log().debug({ err, nodeId }, 'alert watches not pushed this round'),
        );
      }
      const last = page.events.at(-1)?.seq;
      if (last === undefined) {
        // Recorded before but maybe never acknowledged (the panel stopped in between): tell the node again.
        if (cursor && cursor.outbox === page.outbox && cursor.seq > 0 && cursor.seq <= page.last)
          await this.ack(nodeId, page.outbox, cursor.seq);
        return;
      }
      const servers = await this.deps.serverIds(nodeId);
      const rows = page.events.flatMap((event) => this.rowOf(nodeId, event, servers));
      // Only the rows this page added: a page pulled again after a lost acknowledgement alerts nobody twice.
      const stored = await this.deps.repo.store(nodeId, page.outbox, last, rows);
      if (stored.length > 0) this.deps.onStored?.(stored);
      await this.ack(nodeId, page.outbox, last);
      if (page.events.length < PAGE) return;
    }
  }

  private page(nodeId: string, after: number): Promise<NodeEventsPage> {
    const path = `/daemon/events?after=${after}&limit=${PAGE}`;
    return this.deps.link.json<NodeEventsPage>(nodeId, PANEL_GRANT, { method: 'GET', path }, TIMEOUTS);
  }

  private async ack(nodeId: string, outbox: string, seq: number): Promise<void> {
    await this.deps.link.json(
      nodeId,
      PANEL_GRANT,
      { method: 'POST', path: '/daemon/events/ack', body: JSON.stringify({ outbox, seq }) },
      TIMEOUTS,
    );
  }

  /** The activity row of one event; an action this panel does not know is logged and skipped. */
  private rowOf(
    nodeId: string,
    event: NodeEvent,
    servers: Set<string>,
  ): Array<{ seq: number; row: ActivityRow }> {
    if (!known.has(event.action)) {
      this.log().warn({ nodeId, action: event.action }, 'node event with an unknown action skipped');
      return [];
    }
    const ours = event.serverId === null || servers.has(event.serverId);
    const details = ours ? event.details : { ...event.details, claimedServer: event.serverId };
    const row: ActivityRow = {
      id: randomUUID(),
      time: event.time,
      actor_type: event.actor.type,
      actor_id: event.actor.id,
      actor_label: event.actor.label.slice(0, 191),
      ip: event.ip,
      server_id: ours ? event.serverId : null,
      node_id: nodeId,
      action: event.action,
      details: JSON.stringify(scrubDetails(details)),
    };
    return [{ seq: event.seq, row }];
  }
}
