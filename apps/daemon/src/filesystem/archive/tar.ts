/**
 * Tar extraction (plain, gzip auto-detected; bz2/xz/lzma decompressed by 7-Zip first). node-tar's Parser
 * only parses: every entry is written by us through the sandbox, one at a time, so links and absolute or
 * `..` names never reach the disk.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '@hearth/contract';
import type { Sandbox } from '../sandbox';
import { entryPath, type Budget } from './limits';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

async function extractEntry(
  entry: ReadEntry,
  ctx: { sandbox: Sandbox; destination: string; budget: Budget },
): Promise<void> {
  const { sandbox, budget } = ctx;
  budget.entry();
  const target = entryPath(ctx.destination, entry.path);
  if (target === null) {
    entry.resume();
    return budget.skip(entry.path, 'unsafe name');
  }
  if (entry.type === 'Directory') {
    entry.resume();
    await sandbox.mkdirp(target);
    budget.report.folders += 1;
    return;
  }
  if (!FILE_TYPES.has(entry.type)) {
    entry.resume();
    return budget.skip(entry.path, 'link or special file');
  }
  budget.declared(entry.size);
  await sandbox.writeStreamAtomic(target, budget.meter(entry as unknown as Readable));
  budget.report.files += 1;
}

export async function extractTar(
  sandbox: Sandbox,
  source: Readable,
  destination: string,
  budget: Budget,
): Promise<void> {
  let chain = Promise.resolve();
  let failure: Error | null = null;
  const parser = new Parser({
    strict: true,
    noResume: true,
    onReadEntry: (entry) => {
      chain = chain.then(() =>
        failure === null
          ? extractEntry(entry, { sandbox, destination, budget }).catch((err: unknown) => {
              failure = err instanceof Error ? err : new Error(String(err));
              entry.resume();
              source.destroy();
            })
          : void entry.resume(),
      );
    },
  });
  try {
    await pipeline(source, parser as unknown as NodeJS.WritableStream);
  } catch (err) {
    if (failure === null) failure = new AppError('ErrArchiveInvalid', { reason: (err as Error).message });
  }
  await chain;
  if (failure !== null) throw failure;
}
