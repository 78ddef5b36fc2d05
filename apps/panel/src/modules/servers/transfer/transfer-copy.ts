/**
 * The copy itself: node A's export (a tar stream) piped through the panel into node B's import, never held in
 * memory — `pipe` carries backpressure end to end, so a slow B slows A's reading of its disk. The bytes are
 * counted on the way for progress. Whichever side fails, the other stream is destroyed at once, and the error
 * names the node at fault: A's export ending early is A's failure even though B's request then fails too.
 */
import type { IncomingMessage } from 'node:http';
import { pipeline, Transform } from 'node:stream';
import {
  AppError,
  DAEMON_TOKEN_ANY_SERVER,
  DAEMON_TOKEN_PANEL_SUBJECT,
  type DaemonTokenGrant,
} from '@hearth/contract';
import {
  TRANSFER_BYTES_HEADER,
  TRANSFER_FILES_HEADER,
  TRANSFER_MEDIA_TYPE,
  TRANSFER_SHA256_TRAILER,
  type TransferDataReport,
} from '@hearth/contract/transfer-routes';
import { daemonError, readBody } from '../../../nodes-link/daemon-client';
import type { NodeLink } from '../../../nodes-link/node-link';

/** The panel's own token: the transfer rows refuse every user's, an administrator's included (need `panel`). */
export const PANEL_GRANT: DaemonTokenGrant = {
  sub: DAEMON_TOKEN_PANEL_SUBJECT,
  server: DAEMON_TOKEN_ANY_SERVER,
  perms: [],
  admin: true,
};
/** The import answers only when every byte is in: the wait for its answer is the copy's length. */
const COPY_RESPONSE_MS = 24 * 60 * 60_000;
const EXPORT_RESPONSE_MS = 120_000;

export interface NodeRef {
  id: string;
  name: string;
}

export interface OpenExport {
  res: IncomingMessage;
  /** File contents' total and file count as A announced them. */
  total: number;
  files: number;
}

/** Asks A for the stopped server's tar; nothing is read from it yet (B is prepared first). */
export async function openExport(link: NodeLink, from: NodeRef, serverId: string): Promise<OpenExport> {
  const res = await link.stream(from.id, PANEL_GRANT, {
    method: 'GET',
    path: `/daemon/transfer/${serverId}/export`,
    responseMs: EXPORT_RESPONSE_MS,
  });
  const status = res.statusCode ?? 502;
  if (status >= 400) throw daemonError(status, await readBody(res));
  const count = (name: string) => {
    const value = Number(res.headers[name]);
    return Number.isFinite(value) && value >= 0 ? value : 0;
  };
  return { res, total: count(TRANSFER_BYTES_HEADER), files: count(TRANSFER_FILES_HEADER) };
}

export interface CopyOptions {
  link: NodeLink;
  from: NodeRef;
  to: NodeRef;
  serverId: string;
  /** Tar bytes passed so far (called on every chunk: the caller throttles). */
  onBytes: (bytes: number) => void;
  /** No byte for this long (a link that hangs without closing) fails the copy. */
  idleMs: number;
  /** The panel is closing: the copy stops with ErrTransferFailed. */
  signal: AbortSignal;
}

export interface CopyResult {
  /** What B received and computed. */
  report: TransferDataReport;
  /** A's SHA-256 of what it sent (the export's trailer). */
  sent: string;
}

/** Streams the opened export into B's import; resolves with both sides' checksums (compared by the caller). */
export async function copyInto(source: OpenExport, options: CopyOptions): Promise<CopyResult> {
  const { res } = source;
  let bytes = 0;
  let lastByteAt = Date.now();
  /** Why the panel itself stopped the copy (a hung link, the panel closing); null while it runs. */
  const halted: { why: AppError | null } = { why: null };
  let sourceFailed = false;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      lastByteAt = Date.now();
      options.onBytes(bytes);
      done(null, chunk);
    },
  });
  pipeline(res, counter, (err) => {
    if (err && !halted.why) sourceFailed = true;
  });
  const stop = (why: AppError) => {
    halted.why = why;
    res.destroy();
    counter.destroy();
  };
  const watchdog = setInterval(() => {
    if (Date.now() - lastByteAt < options.idleMs) return;
    const seconds = Math.round(options.idleMs / 1000);
    stop(new AppError('ErrTransferFailed', { reason: `no data moved for ${seconds} s` }));
  }, 1_000);
  watchdog.unref();
  const onAbort = () => stop(new AppError('ErrTransferFailed', { reason: 'the panel stopped' }));
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const report = await options.link.json<TransferDataReport>(
      options.to.id,
      PANEL_GRANT,
      {
        method: 'PUT',
        path: `/daemon/transfer/${options.serverId}/data`,
        headers: { 'content-type': TRANSFER_MEDIA_TYPE },
        body: counter,
      },
      { responseMs: COPY_RESPONSE_MS },
    );
    const sent = res.trailers[TRANSFER_SHA256_TRAILER];
    if (!res.complete || typeof sent !== 'string') {
      throw new AppError('ErrTransferFailed', { reason: `${options.from.name} sent no checksum` });
    }
    return { report, sent };
  } catch (err) {
    // The pipeline reports A's early end a moment after B's request is torn down by it.
    await new Promise((resolve) => setImmediate(resolve));
    if (halted.why) throw halted.why;
    if (sourceFailed || res.errored) throw new AppError('ErrNodeOffline', { node: options.from.name });
    throw err;
  } finally {
    clearInterval(watchdog);
    options.signal.removeEventListener('abort', onAbort);
    res.destroy();
    counter.destroy();
  }
}
