/**
 * The swap that makes a restore atomic, cut at every point a killed daemon could leave it (docs/backups.md
 * § Restore): with a journal, the next start finishes the swap (everything swapped in was complete); without one
 * (killed while restic still wrote), the staging folder is removed and the server folder is untouched.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalFileOf, recoverRestores, type Journal } from '../../src/backups/restore-journal';

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function layout(paths: string[], withJournal = true) {
  const serversDir = mkdtempSync(join(tmpdir(), 'hearth-swap-'));
  const root = join(serversDir, 's1');
  const staging = join(serversDir, '.restore-s1-0b6f1c2e-3a4d-4c5e-8f90-123456789abc');
  put(join(root, 'world/level.dat'), 'current');
  put(join(root, 'config.txt'), 'current config');
  put(join(staging, 'world/level.dat'), 'restored');
  put(join(staging, 'config.txt'), 'restored config');
  const journal: Journal = { root, staging, old: `${staging}.old`, paths };
  if (withJournal) writeFileSync(journalFileOf(serversDir, 's1'), JSON.stringify(journal));
  return { serversDir, root, staging, journal };
}

describe('restore swap recovery', () => {
  it('whole folder, killed between moving the folder aside and moving the restored one in: finished', async () => {
    const { serversDir, root, journal } = layout(['']);
    mkdirSync(journal.old, { recursive: true });
    renameSync(root, join(journal.old, 'root'));
    expect(existsSync(root)).toBe(false);
    expect(await recoverRestores(serversDir)).toHaveLength(1);
    expect(readFileSync(join(root, 'world/level.dat'), 'utf8')).toBe('restored');
    expect(readdirSync(serversDir)).toEqual(['s1']);
  });

  it('selected paths, killed after the first was swapped: the rest is swapped, the rest of the folder kept', async () => {
    const { serversDir, root, journal } = layout(['world/level.dat', 'config.txt']);
    put(join(root, 'other.txt'), 'untouched');
    mkdirSync(join(journal.old, 'paths/world'), { recursive: true });
    renameSync(join(root, 'world/level.dat'), join(journal.old, 'paths/world/level.dat'));
    renameSync(join(journal.staging, 'world/level.dat'), join(root, 'world/level.dat'));
    await recoverRestores(serversDir);
    expect(readFileSync(join(root, 'world/level.dat'), 'utf8')).toBe('restored');
    expect(readFileSync(join(root, 'config.txt'), 'utf8')).toBe('restored config');
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('untouched');
    expect(readdirSync(serversDir)).toEqual(['s1']);
  });

  it('killed before the swap began (no journal): the staging folder goes, the server folder stays', async () => {
    const { serversDir, root, staging } = layout([''], false);
    expect(await recoverRestores(serversDir)).toEqual([
      `removed the unfinished restore ${staging.split('/').at(-1) ?? ''}`,
    ]);
    expect(readFileSync(join(root, 'world/level.dat'), 'utf8')).toBe('current');
    expect(readdirSync(serversDir)).toEqual(['s1']);
  });
});
