/**
 * `GET …/backup/{id}/download` (docs/backups.md § Download): a folder (or the whole snapshot) as the archive
 * `restic dump --archive` writes, a file as a one-entry archive; tar is gzipped on the fly. Nothing is staged on
 * the node: restic's output is the response body. The repository stays readable for the stream's life.
 */
import { createGzip } from 'node:zlib';
import { posix } from 'node:path';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { BackupDownloadQuery } from '@hearth/contract';
import type { Repository } from './repository';
import { streamRestic } from './restic';
import { tarOfOne, zipOfOne } from './one-file-archive';
import { entryAt } from './tree';

export interface Download {
  body: Readable;
  fileName: string;
  contentType: string;
  /** Stops restic (the client went away). */
  abort: () => void;
}

export async function openDownload(
  repo: Repository,
  snapshot: { id: string; short_id: string },
  serverId: string,
  query: BackupDownloadQuery,
): Promise<Download> {
  const entry = query.path === '' ? null : await entryAt(repo, snapshot.id, query.path);
  const single = entry !== null && entry.type === 'file';
  const format = query.format === 'zip' ? 'zip' : 'tar';
  const args = ['dump', '--no-lock', ...(single ? [] : ['--archive', format]), snapshot.id, `/${query.path}`];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const run = await new Promise<ReturnType<typeof streamRestic>>((resolve, reject) => {
    void repo.gate.with('read', async () => {
      try {
        resolve(streamRestic(await repo.streamTarget(), args));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      await held;
    });
  });
  void run.done.catch(() => undefined).finally(release);
  // The bytes end only once restic has exited well: a failure half-way cuts the response instead of ending it,
  // so no truncated archive ever looks complete.
  const raw = new PassThrough();
  const stdout = run.stdout as Readable;
  stdout.pipe(raw, { end: false });
  Promise.all([once(stdout, 'end'), run.done]).then(
    () => raw.end(),
    (err: unknown) => raw.destroy(err instanceof Error ? err : new Error(String(err))),
  );
  const base = entry ? posix.basename(query.path) : `${serverId}-${snapshot.short_id}`;
  let body: Readable;
  if (single && format === 'zip') body = zipOfOne(raw, base, entry.mtime);
  else if (single) body = tarOfOne(raw, base, entry.size, entry.mtime).pipe(createGzip());
  else body = format === 'zip' ? raw : raw.pipe(createGzip());
  raw.once('error', (err) => body.destroy(err));
  const ext = query.format === 'zip' ? 'zip' : 'tar.gz';
  return {
    body,
    fileName: `${base}.${ext}`,
    contentType: query.format === 'zip' ? 'application/zip' : 'application/gzip',
    abort: () => run.kill(),
  };
}
