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
  type ServerDefinitionView,
  type StatusResponse,
  type TransferPhase,
  type TransferState,
} from '@hearth/contract';
import type { NodeLink } from '../../../nodes-link/node-link';
import type { ActivityActor, ActivityService } from '../../activity/activity.service';
import type { ServersRepository } from '../servers.repository';
import type { SocketRegistry } from '../socket-registry';
import { copyInto, openExport, PANEL_GRANT, type NodeRef } from './transfer-copy';
import type { TransferRegistry } from './transfer-registry';

/** At most ~4 progress events a second reach the sockets. */
const PROGRESS_EVERY_MS = 250;
const STOP_RESPONSE_MS = 120_000;
const COMMIT_RESPONSE_MS = 10 * 60_000;
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

  constructor(
    private readonly d: TransferDeps,
    private readonly job: TransferJob,
  ) {}

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

  private server(path = ''): string {
    return `/daemon/server/${this.job.serverId}${path}`;
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
    const { from, grant } = this.job;
    const status = await this.d.link.json<StatusResponse>(from.id, grant, {
      method: 'GET',
      path: this.server('/status'),
    });
    if (status.installing) throw new AppError('ErrTransferFailed', { reason: 'the server is installing' });
    this.set({ wasRunning: status.running });
    if (!status.running) return;
    await this.d.link.json(
      from.id,
      grant,
      { method: 'POST', path: this.server('/stop?wait=true') },
      { responseMs: STOP_RESPONSE_MS },
    );
  }

  /** Prepares B, copies, verifies and commits; answers once B holds the committed copy. */
  private async copyToB(): Promise<void> {
    this.phase('preparing');
    const { link } = this.d;
    const { from, to, serverId } = this.job;
    const definition = await link.json<ServerDefinitionView>(from.id, this.job.grant, {
      method: 'GET',
      path: this.server(),
    });
    const source = await openExport(link, from, serverId);
    try {
      this.set({ total: source.total, files: source.files });
      await link.json(to.id, PANEL_GRANT, {
        method: 'POST',
        path: `/daemon/transfer/${serverId}/prepare`,
        body: JSON.stringify({ definition, bytes: source.total }),
      });
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
    await link.json(
      to.id,
      PANEL_GRANT,
      { method: 'POST', path: `/daemon/transfer/${serverId}/commit`, body: JSON.stringify({ sha256: sent }) },
      { responseMs: COMMIT_RESPONSE_MS },
    );
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
    const { from, grant } = this.job;
    try {
      await this.d.link.json(from.id, grant, { method: 'DELETE', path: this.server() });
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
      await this.d.link.json(
        node.id,
        this.job.grant,
        { method: 'POST', path: this.server('/start?wait=true') },
        { responseMs: STOP_RESPONSE_MS },
      );
    } catch (err) {
      this.d.log().warn({ err, serverId: this.job.serverId, node: node.id }, `transfer: server not ${what}`);
    }
  }

  /**
   * Before the switch: B's staging goes — and the server B registered, once the commit was sent (prepare refused
   * an id B already had, so a server of that id on B can only be this copy) — and A runs again as it did.
   */
  private async rollBack(): Promise<void> {
    await this.cleanB(PANEL_GRANT, `/daemon/transfer/${this.job.serverId}`);
    if (this.commitSent) await this.cleanB(this.job.grant, this.server());
    if (this.state.wasRunning) await this.start(this.job.from, 'restarted on the source');
  }

  private async cleanB(grant: DaemonTokenGrant, path: string): Promise<void> {
    const { to, serverId } = this.job;
    try {
      await this.d.link.json(to.id, grant, { method: 'DELETE', path });
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
    const { serverId, from, to, actor } = this.job;
    const failure =
      err === null
        ? null
        : isAppError(err)
          ? err
          : new AppError('ErrTransferFailed', {
              reason: err instanceof Error ? err.message : 'unknown',
            });
    if (failure && !isAppError(err)) this.d.log().error({ err, serverId }, 'transfer failed unexpectedly');
    const error = failure ? { code: failure.code, metadata: { ...failure.metadata } } : null;
    const state = this.set({
      phase: failure ? 'failed' : 'done',
      finishedAt: new Date().toISOString(),
      error,
    });
    const node = failure ? from.id : to.id;
    this.d.sockets.broadcast(serverId, {
      type: 'transfer-done',
      data: { ok: !failure, node, ...(error ? { error } : {}) },
    });
    await this.d.activity.record({
      actor,
      action: failure ? 'server.transfer.failed' : 'server.transfer.finished',
      serverId,
      nodeId: node,
      details: {
        from: from.id,
        to: to.id,
        bytes: state.bytes,
        ...(error ? { error: error.code } : {}),
        ...(state.leftover ? { leftover: state.leftover } : {}),
      },
    });
    return state;
  }
}
