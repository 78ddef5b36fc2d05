/**
 * One lock per server for power actions (start, stop, restart, install). Acquired synchronously, so the
 * caller learns at once whether the action was accepted (and can answer 202). Kill does not take it.
 */
import { AppError } from '@hearth/contract';

export class PowerLock {
  private holder: string | null = null;

  held(): string | null {
    return this.holder;
  }

  /**
   * Takes the lock or throws ErrServerBusy (ErrServerInstalling while an install holds it, ErrTransferInProgress
   * while the server's folder streams to another node: transfer/export.ts).
   */
  acquire(action: string): () => void {
    if (this.holder === 'install') throw new AppError('ErrServerInstalling');
    if (this.holder === 'transfer') throw new AppError('ErrTransferInProgress');
    if (this.holder) throw new AppError('ErrServerBusy', { action: this.holder });
    this.holder = action;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holder = null;
    };
  }
}
