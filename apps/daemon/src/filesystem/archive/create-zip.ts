/**
 * `POST …/archive/{dest}` and the `archive` processor: a zip of the given paths, read and written only
 * through the sandbox (files opened lazily, one at a time; symlinks are not followed and not stored).
 * The destination gets ` (2)`, ` (3)`… before its extension when taken.
 */
import { PassThrough } from 'node:stream';
import type yazl from 'yazl';
import { AppError } from '@hearth/contract';
import { canonical } from '../listing';
import type { Sandbox } from '../sandbox';

const MAX_NAME_TRIES = 1000;

/** `world.zip` → `world (2).zip` → `world (3).zip` … the first name not taken. */
export async function uniqueName(sandbox: Sandbox, dest: string): Promise<string> {
  const dot = dest.lastIndexOf('.');
  const slash = dest.lastIndexOf('/');
  const [stem, ext] = dot > slash + 1 ? [dest.slice(0, dot), dest.slice(dot)] : [dest, ''];
  for (let n = 1; n <= MAX_NAME_TRIES; n += 1) {
    const candidate = n === 1 ? dest : `${stem} (${n})${ext}`;
    if (!(await sandbox.exists(candidate))) return candidate;
  }
  throw new AppError('ErrFileExists', { path: dest });
}

async function addPath(zip: yazl.ZipFile, sandbox: Sandbox, path: string, name: string): Promise<void> {
  const stats = await sandbox.lstat(path);
  if (stats.isSymbolicLink()) return; // links are entries of the folder, not content to archive
  if (stats.isDirectory()) {
    zip.addEmptyDirectory(name, { mtime: stats.mtime });
    for (const entry of await sandbox.list(path)) {
      await addPath(zip, sandbox, `${path}/${entry.name}`, `${name}/${entry.name}`);
    }
    return;
  }
  if (!stats.isFile()) return;
  zip.addReadStreamLazy(name, { mtime: stats.mtime, mode: stats.mode & 0o777 }, (done) => {
    sandbox.open(path).then(
      (handle) => done(null, handle.createReadStream()),
      (err: unknown) => done(err, new PassThrough()),
    );
  });
}

/** Writes the zip atomically; returns the name it was given. Sources are checked before anything is written. */
export async function createZip(sandbox: Sandbox, dest: string, sources: string[]): Promise<string> {
  const paths = sources.map((source) => {
    const path = canonical(source);
    if (path === '')
      throw new AppError('ErrIllegalFileAccess', { path: source, reason: 'the server folder itself' });
    return path;
  });
  for (const path of paths) await sandbox.lstat(path);
  const target = await uniqueName(sandbox, canonical(dest));
  // The zip writer loads with the first archive made, not at start (docs/performance.md § Start-up).
  const { ZipFile } = (await import('yazl')).default;
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  const written = sandbox.writeStreamAtomic(target, output);
  // It may fail while entries are still being added: observe it now, report it below.
  written.catch(() => undefined);
  try {
    for (const path of paths) await addPath(zip, sandbox, path, path.split('/').at(-1) ?? path);
  } catch (err) {
    // No error on the stream itself (nobody may be listening yet): the writer sees a premature close.
    output.destroy();
    await written.catch(() => undefined); // the temp file is removed; report the first error
    throw err;
  }
  zip.end();
  await written;
  return target;
}
