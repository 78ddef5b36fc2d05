/**
 * `POST /api/servers/{id}/transfer`'s checks before anything moves — same node, a transfer already running, an
 * unknown or unreachable target — then the move runs in the background (transfer-runner.ts) and the caller gets
 * its first state at once (202). One transfer per server at a time (transfer-registry.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  AppError,
  DAEMON_TOKEN_ANY_SERVER,
  type ServerTransferBody,
  type TransferState,
} from '@hearth/contract';
import type { Identity, ServerAccess } from '../../../app-types';
import { contextActor } from '../../activity/request-context';
import { systemActor } from '../../activity/activity.service';
import { PANEL_GRANT } from './transfer-copy';
import { TransferRunner, type TransferDeps } from './transfer-runner';

/** The target is asked once before anything stops: a node that does not answer fails the request itself. */
const PROBE_TIMEOUTS = { connectMs: 3_000, responseMs: 10_000 };

export class TransferService {
  private readonly runs = new Map<string, { runner: TransferRunner; done: Promise<unknown> }>();

  constructor(private readonly d: TransferDeps) {}

  moving(serverId: string): boolean {
    return this.d.registry.moving(serverId);
  }

  current(serverId: string): TransferState {
    const state = this.d.registry.of(serverId);
    if (!state) throw new AppError('ErrTransferNotFound');
    return state;
  }

  async start(identity: Identity, access: ServerAccess, body: ServerTransferBody): Promise<TransferState> {
    const { link, registry } = this.d;
    const from = await link.address(access.nodeId);
    if (body.node === access.nodeId) throw new AppError('ErrTransferSameNode', { node: from.name });
    if (registry.moving(access.serverId)) throw new AppError('ErrTransferInProgress');
    const to = await link.address(body.node);
    await link.json(to.id, PANEL_GRANT, { method: 'GET', path: '/daemon/features' }, PROBE_TIMEOUTS);
    const state: TransferState = {
      id: randomUUID(),
      server: access.serverId,
      from: from.id,
      to: to.id,
      phase: 'stopping',
      bytes: 0,
      total: 0,
      files: 0,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
      wasRunning: false,
      leftover: null,
    };
    registry.begin(state);
    const actor = contextActor() ?? systemActor;
    await this.d.activity.record({
      actor,
      action: 'server.transfer.started',
      serverId: access.serverId,
      nodeId: from.id,
      details: { from: from.id, to: to.id },
    });
    const runner = new TransferRunner(this.d, {
      serverId: access.serverId,
      from: { id: from.id, name: from.name },
      to: { id: to.id, name: to.name },
      grant: { sub: identity.userId, server: DAEMON_TOKEN_ANY_SERVER, perms: [], admin: true },
      actor,
    });
    const done = runner
      .run()
      .catch((err: unknown) => this.d.log().error({ err, serverId: access.serverId }, 'transfer: run failed'))
      .finally(() => this.runs.delete(state.id));
    this.runs.set(state.id, { runner, done });
    return state;
  }

  /** The panel is closing: copies under way stop, roll back (the server stays on its node) and settle. */
  async close(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const { runner } of runs) runner.abort();
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
