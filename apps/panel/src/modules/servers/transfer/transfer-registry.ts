/**
 * Which servers are being moved, and each server's last transfer (`GET /api/servers/{id}/transfer`).
 *
 * In-process on purpose: the transfer itself runs in this process (its streams cannot move), and the proxy and
 * socket checks that refuse power actions and file writes meanwhile (ErrTransferInProgress) read it on every
 * request. With several panel processes behind one address, another process would not see the mark; such a
 * set-up needs a row lock in the database instead (docs/operations.md § Moving a server between nodes).
 */
import { AppError, type TransferState } from '@hearth/contract';

export class TransferRegistry {
  private readonly last = new Map<string, TransferState>();
  private readonly running = new Set<string>();

  /** Marks the server as moving; refuses a second transfer of the same server. */
  begin(state: TransferState): void {
    if (this.running.has(state.server)) throw new AppError('ErrTransferInProgress');
    this.running.add(state.server);
    this.last.set(state.server, state);
  }

  moving(serverId: string): boolean {
    return this.running.has(serverId);
  }

  /** The running transfer's state, changed (a copy: readers never see a half-made update). */
  update(serverId: string, patch: Partial<TransferState>): TransferState {
    const now = this.last.get(serverId);
    if (!now) throw new AppError('ErrTransferNotFound');
    const next = { ...now, ...patch };
    this.last.set(serverId, next);
    return next;
  }

  end(serverId: string): void {
    this.running.delete(serverId);
  }

  /** The current or last transfer of the server, if this process ran one. */
  of(serverId: string): TransferState | undefined {
    return this.last.get(serverId);
  }

  /** The servers being moved now (the panel's close waits for them to settle). */
  active(): string[] {
    return [...this.running];
  }
}
