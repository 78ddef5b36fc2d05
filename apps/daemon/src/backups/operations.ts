/**
 * One backup operation at a time per server (docs/backups.md § One operation at a time): a backup, restore or
 * deletion while another one of the same server runs is refused with ErrBackupBusy, never queued. A restore
 * into another server (a clone) holds both servers.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '@hearth/contract';

export type OperationKind = 'backup' | 'restore' | 'delete';

export interface Operation {
  id: string;
  kind: OperationKind;
}

export class OperationBook {
  private readonly running = new Map<string, Operation>();

  current(serverId: string): Operation | null {
    return this.running.get(serverId) ?? null;
  }

  /** Takes every server in `serverIds` for one operation, or none of them (ErrBackupBusy). */
  begin(serverIds: readonly string[], kind: OperationKind): { operation: Operation; end: () => void } {
    for (const id of serverIds) {
      const busy = this.running.get(id);
      if (busy) throw new AppError('ErrBackupBusy', { kind: busy.kind });
    }
    const operation = { id: randomUUID(), kind };
    for (const id of serverIds) this.running.set(id, operation);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      for (const id of serverIds) if (this.running.get(id) === operation) this.running.delete(id);
    };
    return { operation, end };
  }
}
