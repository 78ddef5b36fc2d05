/**
 * One server's move from node A to node B (docs/operations.md § Moving a server between nodes, ADR 0016), in an
 * order where every failure before the switch leaves the server on A, whole and runnable:
 * stop on A → read A's definition → open A's export → prepare B (free space checked for the announced size) →
 * stream A into B → compare A's checksum with B's → commit B → switch the panel's row to B (one statement in a
 * transaction) → delete from A → start on B if it was running. Before the switch any failure aborts B's staging
 * (best effort: a B that is down removes it at its next start) and starts the server on A again if it was
 * running. After the switch the server is B's; a failure to delete it from A is recorded as a leftover only.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  AppError,
  isAppError,
  type DaemonTokenGrant,
  type TransferPhase,
  type TransferState,
} from '@hearth/contract';
import type { NodeLink } from '../../../nodes-link/node-link';
import type { ActivityActor, ActivityService } from '../../activity/activity.service';
import type { ServersRepository } from '../servers.repository';
import type { SocketRegistry } from '../socket-registry';
import { TransferCalls } from './transfer-calls';
import { tellOutcome, transferErrorOf } from './transfer-outcome';
import { copyInto, openExport, type NodeRef } from './transfer-copy';
import type { TransferRegistry } from './transfer-registry';

/** At most ~4 progress events a second reach the sockets. */
const PROGRESS_EVERY_MS = 250;
/** A copy during which no byte moves for this long has a hung link. */
export const DEFAULT_IDLE_MS = 60_000;

export interface TransferDeps {
  link: NodeLink;
  servers: ServersRepository;
  sockets: SocketRegistry;
  activity: ActivityService;
  registry: TransferRegistry;
  log: () => FastifyBaseLogger;
  idleMs?: number;
}

export interface TransferJob {
  serverId: string;
  from: NodeRef;
  to: NodeRef;
  /** The administrator's node-admin grant: the power calls on the nodes name them, not the panel. */
  grant: DaemonTokenGrant;
  actor: ActivityActor;
}

export class TransferRunner {
  private lastProgressAt = 0;
  /** The commit was sent to B: B may hold the server even if its answer never came. */
  private commitSent = false;
  private readonly aborting = new AbortController();
  private readonly calls: TransferCalls;

  constructor(
    private readonly d: TransferDeps,
    private readonly job: TransferJob,
  ) {
    this.calls = new TransferCalls(d.link, job.serverId, job.grant);
  }

  /** The panel is closing: a copy under way stops and is rolled back like any failure. */
  abort(): void {
    this.aborting.abort();
  }

  private get state(): TransferState {
    const state = this.d.registry.of(this.job.serverId);
    if (!state) throw new AppError('ErrTransferNotFound');
    return state;
  }

  private set(patch: Partial<TransferState>): TransferState {
    return this.d.registry.update(this.job.serverId, patch);
  }

  private phase(phase: TransferPhase): void {
    const { bytes, total } = this.set({ phase });
    this.d.sockets.broadcast(this.job.serverId, { type: 'transfer-progress', data: { phase, bytes, total } });
  }

  /** Runs the whole move; never throws (the outcome is the final state, the socket event and the log). */
  async run(): Promise<TransferState> {
    let switched = false;
    try {
      await this.stopOnA();
      await this.copyToB();
      this.phase('switching');
      await this.switchToB();
      switched = true;
      await this.removeFromA();
      if (this.state.wasRunning) {
        this.phase('starting');
        await this.start(this.job.to, 'started on the target');
      }
      return await this.finish(null);
    } catch (err) {
      if (!switched) await this.rollBack();
      return await this.finish(err);
    } finally {
      this.d.registry.end(this.job.serverId);
    }
  }

  private async stopOnA(): Promise<void> {
    this.phase('stopping');
    const status = await this.calls.status(this.job.from);
    if (status.installing) throw new AppError('ErrTransferFailed', { reason: 'the server is installing' });
    this.set({ wasRunning: status.running });
    if (status.running) await this.calls.power(this.job.from, 'stop');
  }

  /** Prepares B, copies, verifies and commits; answers once B holds the committed copy. */
  private async copyToB(): Promise<void> {
    this.phase('preparing');
    const { link } = this.d;
    const { from, to, serverId } = this.job;
    const definition = await this.calls.definition(from);
    // Read while task edits are refused (the transfer is registered): what B stores is what A held.
    const carry = await this.calls.carry(from);
    const source = await openExport(link, from, serverId);
    try {
      this.set({ total: source.total, files: source.files });
      await this.calls.prepare(to, definition, source.total, carry);
    } catch (err) {
      source.res.destroy();
      throw err;
    }
    this.phase('copying');
    const { report, sent } = await copyInto(source, {
      link,
      from,
      to,
      serverId,
      idleMs: this.d.idleMs ?? DEFAULT_IDLE_MS,
      onBytes: (bytes) => this.progress(bytes),
      signal: this.aborting.signal,
    });
    this.set({ bytes: report.bytes, files: report.files });
    this.phase('verifying');
    if (report.sha256 !== sent) throw new AppError('ErrTransferChecksum', { node: to.name });
    this.commitSent = true;
    await this.calls.commit(to, sent);
  }

  /** Tar bytes include headers and padding: the figure shown is capped at the announced total until the end. */
  private progress(tarBytes: number): void {
    const now = Date.now();
    if (now - this.lastProgressAt < PROGRESS_EVERY_MS) return;
    this.lastProgressAt = now;
    const { total } = this.state;
    const bytes = Math.min(tarBytes, total);
    this.set({ bytes });
    this.d.sockets.broadcast(this.job.serverId, {
      type: 'transfer-progress',
      data: { phase: 'copying', bytes, total },
    });
  }

  private async switchToB(): Promise<void> {
    const { serverId, from, to } = this.job;
    const moved = await this.d.servers.moveNode(serverId, from.id, to.id);
    if (!moved) throw new AppError('ErrServerNotFound');
    // The open consoles follow the server: each relay re-reads its access (the row's new node) and reopens.
    await this.d.sockets.reconnectServer(serverId);
  }

  private async removeFromA(): Promise<void> {
    const { from } = this.job;
    try {
      await this.calls.deleteServer(from);
    } catch (err) {
      if (isAppError(err) && err.code === 'ErrServerNotFound') return;
      this.d
        .log()
        .warn({ err, serverId: this.job.serverId, node: from.id }, 'transfer: folder left on source');
      this.set({ leftover: from.id });
    }
  }

  private async start(node: NodeRef, what: string): Promise<void> {
    try {
      await this.calls.power(node, 'start');
    } catch (err) {
      this.d.log().warn({ err, serverId: this.job.serverId, node: node.id }, `transfer: server not ${what}`);
    }
  }

  /**
   * Before the switch: B's staging goes — and the server B registered, once the commit was sent (prepare refused
   * an id B already had, so a server of that id on B can only be this copy) — and A runs again as it did.
   */
  private async rollBack(): Promise<void> {
    const { to } = this.job;
    await this.cleanB(() => this.calls.abort(to));
    if (this.commitSent) await this.cleanB(() => this.calls.deleteServer(to));
    if (this.state.wasRunning) await this.start(this.job.from, 'restarted on the source');
  }

  private async cleanB(clean: () => Promise<void>): Promise<void> {
    const { to, serverId } = this.job;
    try {
      await clean();
    } catch (err) {
      if (isAppError(err) && err.code === 'ErrServerNotFound') return;
      this.d
        .log()
        .warn(
          { err, serverId, node: to.id },
          'transfer: target not cleaned (its staging goes at its next start)',
        );
    }
  }

  private async finish(err: unknown): Promise<TransferState> {
    if (err !== null && !isAppError(err))
      this.d.log().error({ err, serverId: this.job.serverId }, 'transfer failed unexpectedly');
    const error = err === null ? null : transferErrorOf(err);
    const state = this.set({
      phase: error ? 'failed' : 'done',
      finishedAt: new Date().toISOString(),
      error,
    });
    await tellOutcome(this.d, this.job, state);
    return state;
  }
}
