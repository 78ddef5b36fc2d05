/**
 * The pre-pass of streamed formats (tar, compressed tar, RAR through bsdtar): their entries are only known by
 * reading the stream, so without it the entry limit (`files.maxExtractEntries`) would stop an archive of
 * 100,001 entries only after writing 100,000 files. The pre-pass reads the stream once without writing
 * anything, counting entries and their declared sizes, and refuses (ErrArchiveTooLarge) before the first file
 * is written. It stops at the first entry over a limit, so a bomb costs at most one limit's worth of reading.
 * Zip and 7z need no pre-pass: their entry count is in the central directory / listing (docs/files.md).
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser } from 'tar';
import { AppError } from '@hearth/contract';
import type { ExtractLimits } from './limits';

/**
 * Reads `source` to its end (or to the first limit exceeded). Resolves when the archive is within the limits,
 * rejects with ErrArchiveTooLarge when it is not. A stream that breaks off is not judged here: the extraction
 * that follows reports it as it always did.
 */
export async function checkTarEntries(source: Readable, limits: ExtractLimits): Promise<void> {
  let entries = 0;
  let bytes = 0;
  let over = false;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      entries += 1;
      bytes += entry.size ?? 0;
      if (!over && (entries > limits.maxEntries || bytes > limits.maxBytes)) {
        over = true;
        source.destroy();
      }
      entry.resume();
    },
  });
  await pipeline(source, parser as unknown as NodeJS.WritableStream).catch((err: unknown) => {
    if (!over) return; // not ours to report: the extraction reads it again and says what is wrong
    throw new AppError('ErrArchiveTooLarge', undefined, { cause: err });
  });
  if (over) throw new AppError('ErrArchiveTooLarge');
}
