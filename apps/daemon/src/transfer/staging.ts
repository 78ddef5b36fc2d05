/**
 * The receiving side of a transfer (docs/daemon.md § Transfer): prepare → data → commit, or abort at any point.
 * Each incoming copy waits in `<serversDir>/.transfers/<id>/` — on the servers' filesystem, so the commit is a
 * rename, and outside every server's folder, so no listing, SFTP session, backup or disk figure sees it (as the
 * tus uploads' `.uploads`; a server id never starts with a dot) — as `files/` with `definition.json` beside it.
 * What a transfer has reached lives in memory: a daemon that restarts removes every staging folder at start,
 * and the panel, whose next call then answers ErrTransferNotFound, leaves the server on its first node.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, rm, statfs, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  AppError,
  isAppError,
  type Template,
  type TransferCarry,
  type TransferDataReport,
} from '@hearth/contract';
import { checkDefinition } from '../manager/definition';
import type { ServerManager } from '../manager/manager';
import { extractInto } from './extract';

export const TRANSFERS_FOLDER = '.transfers';

const run = promisify(execFile);

/** Room kept beyond the announced bytes: folders, inode blocks, a tar's rounding. */
export function marginFor(bytes: number): number {
  return Math.ceil(bytes / 50) + 1024 * 1024;
}

interface Incoming {
  definition: Template;
  bytes: number;
  /** The source node's marks (contract transfer-routes.ts); none: a user-written definition, no tasks. */
  carry: TransferCarry;
  /** Set while a data request streams in: cuts it (an abort, or a second prepare). */
  cancel: (() => void) | null;
  receiving: Promise<unknown> | null;
  received: TransferDataReport | null;
}

const isNoSpace = (err: unknown) => ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException).code ?? '');

export class TransferStaging {
  private readonly incoming = new Map<string, Incoming>();
  readonly dir: string;

  constructor(
    serversDir: string,
    private readonly manager: ServerManager,
    private readonly nodeId: string,
  ) {
    this.dir = join(serversDir, TRANSFERS_FOLDER);
  }

  private folderOf(id: string): string {
    return join(this.dir, id);
  }

  private noSpace(needed: number): AppError {
    return new AppError('ErrTransferNoSpace', { node: this.nodeId, needed });
  }

  /** At start: copies a killed daemon was receiving are dropped (their transfers failed; the panel knows). */
  /** Drops what a killed daemon was receiving; the folder itself is made by the next prepare, not here. */
  async sweep(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  async prepare(
    id: string,
    parsed: Template,
    bytes: number,
    carry: TransferCarry = { adminEdited: false, tasks: {} },
  ): Promise<void> {
    if (this.manager.list().some((s) => s.id === id)) throw new AppError('ErrServerAlreadyExists', { id });
    const definition = checkDefinition(parsed);
    if (this.incoming.get(id)?.receiving) throw new AppError('ErrTransferInProgress');
    const needed = bytes + marginFor(bytes);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const fs = await statfs(this.dir);
    if (fs.bavail * fs.bsize < needed) throw this.noSpace(needed);
    const folder = this.folderOf(id);
    await rm(folder, { recursive: true, force: true });
    this.incoming.delete(id);
    try {
      await mkdir(join(folder, 'files'), { recursive: true, mode: 0o700 });
      const temp = join(folder, 'definition.json.tmp');
      await writeFile(temp, JSON.stringify(definition), { mode: 0o600 });
      await rename(temp, join(folder, 'definition.json'));
    } catch (err) {
      await rm(folder, { recursive: true, force: true });
      throw isNoSpace(err) ? this.noSpace(needed) : err;
    }
    this.incoming.set(id, { definition, bytes, carry, cancel: null, receiving: null, received: null });
  }

  private expect(id: string): Incoming {
    const state = this.incoming.get(id);
    if (!state) throw new AppError('ErrTransferNotFound');
    if (state.receiving) throw new AppError('ErrTransferInProgress');
    return state;
  }

  /** Unpacks the stream into the staging folder; any failure removes the folder (the transfer is over). */
  async receive(id: string, input: AsyncIterable<Buffer>, cut: () => void): Promise<TransferDataReport> {
    const state = this.expect(id);
    const folder = this.folderOf(id);
    const files = join(folder, 'files');
    const hash = createHash('sha256');
    const work = (async () => {
      // A second data request starts from an empty copy.
      await rm(files, { recursive: true, force: true });
      await mkdir(files, { mode: 0o700 });
      return extractInto(files, input, (chunk) => hash.update(chunk));
    })();
    state.cancel = cut;
    state.receiving = work;
    state.received = null;
    try {
      const report = await work;
      state.received = { bytes: report.bytes, files: report.files, sha256: hash.digest('hex') };
      return state.received;
    } catch (err) {
      this.incoming.delete(id);
      await rm(folder, { recursive: true, force: true });
      if (isNoSpace(err)) throw this.noSpace(state.bytes + marginFor(state.bytes));
      if (isAppError(err)) throw err;
      throw new AppError('ErrTransferFailed', { reason: err instanceof Error ? err.message : String(err) });
    } finally {
      state.cancel = null;
      state.receiving = null;
    }
  }

  /** Checks the checksum, flushes the copy to disk once, then hands it to the manager as a server. */
  async commit(id: string, sha256: string): Promise<void> {
    const state = this.expect(id);
    if (!state.received) throw new AppError('ErrTransferFailed', { reason: 'no data was received' });
    const folder = this.folderOf(id);
    if (state.received.sha256 !== sha256) {
      this.incoming.delete(id);
      await rm(folder, { recursive: true, force: true });
      throw new AppError('ErrTransferChecksum', { node: this.nodeId });
    }
    const files = join(folder, 'files');
    const work = (async () => {
      // One syncfs(2) of the servers' filesystem (coreutils `sync -f`) instead of an fsync per file.
      await run('sync', ['-f', files]);
      await this.manager.adopt(id, state.definition, files, state.carry);
    })();
    state.receiving = work; // a commit under way: no data, second commit or prepare meanwhile
    try {
      await work;
    } catch (err) {
      if (isNoSpace(err)) throw this.noSpace(state.bytes + marginFor(state.bytes));
      if (isAppError(err)) throw err;
      throw new AppError('ErrTransferFailed', { reason: err instanceof Error ? err.message : String(err) });
    } finally {
      state.receiving = null;
    }
    this.incoming.delete(id);
    await rm(folder, { recursive: true, force: true });
  }

  /** Drops the copy, cutting a data request still streaming in; nothing there is not an error. */
  async abort(id: string): Promise<void> {
    const state = this.incoming.get(id);
    this.incoming.delete(id);
    if (state?.cancel) state.cancel();
    await state?.receiving?.catch(() => undefined);
    await rm(this.folderOf(id), { recursive: true, force: true });
  }
}
