/**
 * Bomb protection shared by every extractor: a budget of bytes and entries counted while streaming (not
 * trusted from headers), and entry-name checks with the sandbox's own rules.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import { AppError } from '@hearth/contract';
import { segmentsOf } from '../paths';

export interface ExtractLimits {
  maxBytes: number;
  maxEntries: number;
}

export interface ExtractReport {
  files: number;
  folders: number;
  bytes: number;
  /** Entries not extracted (links, devices, bad names), with the reason: shown to the user. */
  skipped: Array<{ name: string; reason: string }>;
}

export class Budget {
  readonly report: ExtractReport = { files: 0, folders: 0, bytes: 0, skipped: [] };
  private entries = 0;
  constructor(readonly limits: ExtractLimits) {}

  entry(): void {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) throw new AppError('ErrArchiveTooLarge');
  }

  /** Refuses before writing when the header already says too much. */
  declared(size: number): void {
    if (this.report.bytes + size > this.limits.maxBytes) throw new AppError('ErrArchiveTooLarge');
  }

  /**
   * `source` with its real bytes counted as they stream; the result errors past the limit. Joined by
   * `pipeline`, so that error also ends `source` and every error has a listener: with `pipe`, the limit's
   * error reached the process as an uncaught exception.
   */
  meter(source: Readable): Readable {
    const counter = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.report.bytes += chunk.length;
        if (this.report.bytes > this.limits.maxBytes) done(new AppError('ErrArchiveTooLarge'));
        else done(null, chunk);
      },
    });
    // The reader of `counter` sees the error; the callback only keeps it from being unhandled.
    pipeline(source, counter, () => undefined);
    return counter;
  }

  skip(name: string, reason: string): void {
    this.report.skipped.push({ name, reason });
  }
}

/**
 * The destination-relative path of an entry, or null when its name is unsafe (absolute, `..`, NUL, drive
 * letter). Zip-slip cannot happen: the result is then resolved by the sandbox, below the destination.
 */
export function entryPath(destination: string, name: string): string | null {
  const cleaned = name.replace(/\\/g, '/');
  if (cleaned.startsWith('/') || /^[a-zA-Z]:/.test(cleaned)) return null;
  try {
    const segments = segmentsOf(cleaned);
    if (segments.length === 0) return null;
    return [...segmentsOf(destination), ...segments].join('/');
  } catch {
    return null; // an illegal name: the caller skips the entry and reports it
  }
}
