/**
 * Who may use the node's one repository at the same time (docs/backups.md § Concurrency). restic 0.14 cannot
 * wait for its own locks, so the daemon orders its runs itself: backups and restores (restic's shared lock) run
 * side by side; `forget` and `prune` (restic's exclusive lock) wait until they are alone, and hold new backups
 * back while they wait, so a delete is not starved; reads (`snapshots`, `ls`, `dump`, run with --no-lock) go on
 * beside everything except a prune, which removes the data they read.
 */
export type GateKind = 'read' | 'shared' | 'exclusive' | 'prune';

interface Waiter {
  kind: GateKind;
  go: () => void;
}

export class RepositoryGate {
  private shared = 0;
  private reads = 0;
  private exclusive: GateKind | null = null;
  private queue: Waiter[] = [];

  private admits(kind: GateKind): boolean {
    const exclusiveWaiting = this.queue.some((w) => w.kind === 'exclusive' || w.kind === 'prune');
    switch (kind) {
      case 'read':
        return this.exclusive !== 'prune';
      case 'shared':
        return this.exclusive === null && !exclusiveWaiting;
      case 'exclusive':
        return this.exclusive === null && this.shared === 0;
      case 'prune':
        return this.exclusive === null && this.shared === 0 && this.reads === 0;
    }
  }

  private take(kind: GateKind): void {
    if (kind === 'read') this.reads += 1;
    else if (kind === 'shared') this.shared += 1;
    else this.exclusive = kind;
  }

  private give(kind: GateKind): void {
    if (kind === 'read') this.reads -= 1;
    else if (kind === 'shared') this.shared -= 1;
    else this.exclusive = null;
    this.wake();
  }

  private wake(): void {
    // In arrival order, skipping those that must still wait (a read passes a waiting exclusive).
    for (const waiter of [...this.queue]) {
      if (!this.admits(waiter.kind)) continue;
      this.queue.splice(this.queue.indexOf(waiter), 1);
      this.take(waiter.kind);
      waiter.go();
    }
  }

  /** Runs `work` once the repository may be used that way. */
  async with<T>(kind: GateKind, work: () => Promise<T>): Promise<T> {
    if (this.queue.length === 0 && this.admits(kind)) this.take(kind);
    else await new Promise<void>((go) => this.queue.push({ kind, go }));
    try {
      return await work();
    } finally {
      this.give(kind);
    }
  }
}
