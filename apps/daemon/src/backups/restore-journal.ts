/**
 * The swap that makes a restore atomic (docs/backups.md § Restore). restic writes the snapshot into a staging
 * folder beside the server folder (same filesystem); nothing of the server changes until that is complete. Then
 * a journal is written and each restored path is swapped in by renames: the current one moves aside into the
 * `old` folder, the restored one takes its place. A daemon killed during the swap finishes it at its next start
 * (roll forward: everything to swap in is complete). A daemon killed before the journal exists leaves only the
 * staging folder, which the next start removes: the server is as it was.
 */
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readIfExists, writePrivate } from './atomic-file';

export interface Journal {
  /** The server folder. */
  root: string;
  /** Where restic restored (complete). */
  staging: string;
  /** Where replaced paths go until the swap is done. */
  old: string;
  /** Relative paths to swap in; `''` = the whole folder. */
  paths: string[];
}

async function present(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Swaps one path in; safe to run again after a crash at any point (each step checks what is done). */
async function swapOne(journal: Journal, path: string): Promise<void> {
  const current = path === '' ? journal.root : join(journal.root, path);
  const restored = path === '' ? journal.staging : join(journal.staging, path);
  const aside = path === '' ? join(journal.old, 'root') : join(journal.old, 'paths', path);
  if (!(await present(restored))) return; // already swapped in
  if (await present(current)) {
    await mkdir(dirname(aside), { recursive: true, mode: 0o700 });
    await rename(current, aside);
  }
  await mkdir(dirname(current), { recursive: true, mode: 0o700 });
  await rename(restored, current);
}

export async function completeSwap(journalFile: string, journal: Journal): Promise<void> {
  for (const path of journal.paths) await swapOne(journal, path);
  await rm(journalFile, { force: true });
  await rm(journal.old, { recursive: true, force: true });
  await rm(journal.staging, { recursive: true, force: true });
}

export async function swapIn(journalFile: string, journal: Journal): Promise<void> {
  await writePrivate(journalFile, JSON.stringify(journal));
  await completeSwap(journalFile, journal);
}

const JOURNAL_SUFFIX = '.restore-journal.json';
const STAGING = /^\.restore-[A-Za-z0-9_-]+-[0-9a-f-]{36}(\.old)?$/;

export function journalFileOf(serversDir: string, serverId: string): string {
  return join(serversDir, `.${serverId}${JOURNAL_SUFFIX}`);
}

/**
 * At start: finishes interrupted swaps, then removes staging and old folders no journal needs (a restore cut
 * short before its swap: the server folder was never touched). Returns what it did, for the log.
 */
export async function recoverRestores(serversDir: string): Promise<string[]> {
  const done: string[] = [];
  const names = await readdir(serversDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('.') && n.endsWith(JOURNAL_SUFFIX))) {
    const file = join(serversDir, name);
    const text = await readIfExists(file);
    if (text === null) continue;
    await completeSwap(file, JSON.parse(text) as Journal);
    done.push(`finished the interrupted restore swap of ${name.slice(1, -JOURNAL_SUFFIX.length)}`);
  }
  for (const name of (await readdir(serversDir).catch(() => [] as string[])).filter((n) => STAGING.test(n))) {
    await rm(join(serversDir, name), { recursive: true, force: true });
    done.push(`removed the unfinished restore ${name}`);
  }
  return done;
}
