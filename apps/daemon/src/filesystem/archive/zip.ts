/** Zip and jar extraction with yauzl: every entry is checked and written through the sandbox. */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { AppError } from '@hearth/contract';
import type { Sandbox } from '../sandbox';
import { entryPath, type Budget } from './limits';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** Unix mode from the external attributes (0 when the zip was made elsewhere: then a plain file). */
function kindOf(entry: yauzl.Entry): 'file' | 'folder' | 'other' {
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (entry.fileName.endsWith('/') || mode === S_IFDIR) return 'folder';
  return mode === 0 || mode === S_IFREG ? 'file' : 'other';
}

async function extractEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  ctx: { sandbox: Sandbox; destination: string; budget: Budget },
): Promise<void> {
  const { sandbox, budget } = ctx;
  budget.entry();
  // decodeStrings is off (yauzl would throw on a `..` name and abort the whole archive): bit 11 = UTF-8.
  const raw = entry.fileName as unknown as Buffer;
  entry.fileName = raw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1');
  const target = entryPath(ctx.destination, entry.fileName);
  if (target === null) return budget.skip(entry.fileName, 'unsafe name');
  const kind = kindOf(entry);
  if (kind === 'other') return budget.skip(entry.fileName, 'link or special file');
  if (kind === 'folder') {
    await sandbox.mkdirp(target);
    budget.report.folders += 1;
    return;
  }
  if (entry.isEncrypted()) return budget.skip(entry.fileName, 'encrypted');
  budget.declared(entry.uncompressedSize);
  const stream: Readable = await zip.openReadStreamPromise(entry);
  await sandbox.writeStreamAtomic(target, budget.meter(stream));
  budget.report.files += 1;
}

export async function extractZip(
  sandbox: Sandbox,
  archive: string,
  destination: string,
  budget: Budget,
): Promise<void> {
  const handle = await sandbox.open(archive);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromFdPromise(handle.fd, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
      decodeStrings: false,
    });
  } catch (err) {
    await handle.close();
    throw new AppError('ErrArchiveInvalid', { reason: (err as Error).message }, { cause: err });
  }
  try {
    // The central directory's count is what yauzl will read: over the limit, refuse before the first write.
    if (zip.entryCount > budget.limits.maxEntries) throw new AppError('ErrArchiveTooLarge');
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) =>
        reject(new AppError('ErrArchiveInvalid', { reason: err.message }, { cause: err })),
      );
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        extractEntry(zip, entry, { sandbox, destination, budget }).then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } finally {
    // Not zip.close(): it would close the descriptor the FileHandle owns (double close → EBADF, or worse,
    // closing a reused number). The zip holds its own reference until then; the handle closes the fd.
    await handle.close();
  }
}
