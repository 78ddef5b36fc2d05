/**
 * Disk used by each server's folder, measured in the background and read from a cache (docs/daemon.md
 * § Metrics): a scrape or a history sample never walks a folder. One folder is walked at a time, every server once
 * per `intervalMs`; symbolic links are not followed (a link out of the folder costs nothing), and the size is the
 * space allocated (st_blocks), which is what fills a disk.
 */
import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Entries looked at before the walk yields the event loop (a folder of a million files stays responsive). */
const YIELD_EVERY = 500;

async function folderBytes(root: string, signal: AbortSignal): Promise<number> {
  let total = 0;
  let seen = 0;
  const pending = [root];
  while (pending.length > 0 && !signal.aborted) {
    const dir = pending.pop() ?? root;
    const handle = await opendir(dir).catch(() => null); // removed meanwhile, or unreadable: counts as empty
    if (!handle) continue;
    for await (const entry of handle) {
      const path = join(dir, entry.name);
      const info = await lstat(path).catch(() => null);
      if (!info) continue;
      total += info.blocks * 512;
      if (entry.isDirectory()) pending.push(path);
      if (++seen % YIELD_EVERY === 0) await sleep(0);
    }
  }
  return total;
}

export class DiskUsage {
  private readonly sizes = new Map<string, number>();
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    /**
     * The folders to measure now (server id → its folders, added up: the server folder and its unfinished
     * uploads, uploads/tus-store.ts), asked again before every pass.
     */
    private readonly folders: () => Array<[string, ...string[]]>,
    private readonly intervalMs: number,
  ) {}

  /** The last measured size; 0 until the first pass reached the server. */
  bytes(id: string): number {
    return this.sizes.get(id) ?? 0;
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** One pass over every folder (the loop's body). */
  private async measure(): Promise<void> {
    const folders = this.folders();
    const ids = new Set(folders.map(([id]) => id));
    for (const id of this.sizes.keys()) if (!ids.has(id)) this.sizes.delete(id);
    for (const [id, ...paths] of folders) {
      if (this.abort.signal.aborted) return;
      let bytes = 0;
      for (const folder of paths) bytes += await folderBytes(folder, this.abort.signal);
      if (!this.abort.signal.aborted) this.sizes.set(id, bytes);
    }
  }

  private async loop(): Promise<void> {
    const { signal } = this.abort;
    while (!signal.aborted) {
      await this.measure();
      await sleep(this.intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
