/**
 * The sending side of a transfer (docs/daemon.md § Transfer): the stopped server's folder as an uncompressed tar
 * stream, its SHA-256 computed from the bytes as they leave (nothing is read twice) and sent as the HTTP trailer
 * `x-hearth-transfer-sha256`. While it streams the server's power lock is held as `transfer`, so a start (a
 * user's, a task's, the crash policy's) is refused with ErrTransferInProgress; the lock is given back when the
 * stream ends, fails or the reader goes away. The tar itself is written by pack.ts (a descriptor walk).
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  AppError,
  TRANSFER_BYTES_HEADER,
  TRANSFER_FILES_HEADER,
  TRANSFER_MEDIA_TYPE,
  TRANSFER_SHA256_TRAILER,
} from '@hearth/contract';
import { folderSize } from '../backups/folder-size';
import type { Server } from '../server/server';
import { packFolder, type PackCounts } from './pack';

/** Writes to the socket of about this size (small entries are gathered up to it). */
const BATCH_BYTES = 1024 * 1024;

/** What else may keep a server busy: a backup or restore of it running (backups/operations.ts). */
/** Where a cut export is reported (the request's logger). */
export interface WarnLog {
  warn(details: object, message: string): void;
}

export type BusyProbe = (serverId: string) => string | null;

/** Refuses a server that is not plainly stopped, then takes its power lock for the transfer. */
export function holdForExport(server: Server, busy: BusyProbe): () => void {
  const check = () => {
    const { state } = server;
    if (state === 'running' || state === 'starting') throw new AppError('ErrServerRunning');
    if (state === 'installing') throw new AppError('ErrServerInstalling');
    if (state !== 'stopped') throw new AppError('ErrServerBusy', { action: state });
    const operation = busy(server.id);
    if (operation) throw new AppError('ErrServerBusy', { action: operation });
  };
  check();
  const release = server.lock.acquire('transfer');
  try {
    check(); // again under the lock: nothing may have begun between the first look and the lock
  } catch (err) {
    release();
    throw err;
  }
  return release;
}

/** Resolves once `raw` may take more, or rejects when the reader is gone. */
function drained(raw: ServerResponse): Promise<void> {
  if (raw.destroyed) return Promise.reject(new Error('the reader went away'));
  return new Promise((resolve, reject) => {
    const done = (gone: boolean) => {
      raw.off('drain', onDrain).off('close', onClose);
      if (gone) reject(new Error('the reader went away'));
      else resolve();
    };
    const onDrain = () => done(false);
    const onClose = () => done(true);
    raw.on('drain', onDrain).on('close', onClose);
  });
}

/**
 * Streams the folder of `server` into `raw` (headers not yet sent). Resolves when done; a failure after the
 * headers cannot become an error answer any more, so the connection is cut (no trailer: the reader knows).
 */
export async function streamExport(server: Server, raw: ServerResponse, log: WarnLog): Promise<void> {
  const root = server.sandbox.root;
  const size = await folderSize(root);
  raw.writeHead(200, {
    'content-type': TRANSFER_MEDIA_TYPE,
    'cache-control': 'no-store',
    trailer: TRANSFER_SHA256_TRAILER,
    [TRANSFER_BYTES_HEADER]: String(size.bytes),
    [TRANSFER_FILES_HEADER]: String(size.files),
  });
  const hash = createHash('sha256');
  const counts: PackCounts = { skipped: 0 };
  try {
    // Small entries are corked into writes of about BATCH_BYTES: thousands of small files, few syscalls.
    let corked = 0;
    raw.cork();
    for await (const chunk of packFolder(root, counts)) {
      hash.update(chunk);
      corked += chunk.length;
      const room = raw.write(chunk);
      if (corked >= BATCH_BYTES || !room) {
        raw.uncork();
        corked = 0;
        if (raw.writableNeedDrain) await drained(raw);
        raw.cork();
      }
    }
    raw.uncork();
    if (counts.skipped > 0)
      log.warn({ server: server.id, skipped: counts.skipped }, 'transfer export: special files left out');
    raw.addTrailers({ [TRANSFER_SHA256_TRAILER]: hash.digest('hex') });
    raw.end();
  } catch (err) {
    log.warn({ err, server: server.id }, 'transfer export cut');
    raw.destroy();
  }
}
