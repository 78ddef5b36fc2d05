/**
 * One byte stream of a node link, as a Node `Duplex` that passes for a socket: Node's http client and server
 * and `tls.connect({socket})` run over it unchanged. Flow control is per stream and credit-based: the writer
 * sends no more than the reader has granted, and the reader grants only what its consumer has actually read,
 * so a slow consumer (a browser downloading at 1 MB/s) makes the far side stop reading its source instead of
 * buffering the whole file in memory — and a 2 GiB upload cannot crowd out the console stream beside it.
 */
import { Duplex } from 'node:stream';
import { MAX_DATA } from './frames';

/** What a stream needs of its link (mux.ts). */
export interface StreamLink {
  sendData(id: number, data: Buffer): void;
  sendEnd(id: number): void;
  sendReset(id: number, reason: string): void;
  sendWindow(id: number, credit: number): void;
  /** False while the WebSocket's own send buffer is over its mark; `waitDrain` calls back when it is not. */
  canSend(): boolean;
  waitDrain(stream: MuxStream): void;
  forget(id: number): void;
}

export interface MuxStreamOptions {
  window: number;
  remoteAddress: string | null;
}

/** An error that names why a stream ended: `ELINKLOST`, `ELINKRESET`, or the far side's errno (`ECONNREFUSED`). */
export function streamError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** The far side's RESET reason as an error; an errno-like reason becomes the code (a refused local connect). */
export function resetError(reason: string): NodeJS.ErrnoException {
  const code = /^E[A-Z]{2,20}$/.test(reason) ? reason : 'ELINKRESET';
  return streamError(code, `node link stream reset: ${reason || 'no reason'}`);
}

/** What a RESET tells the far side: an errno code as such (resetError turns it back into the code). */
function reasonOf(err: NodeJS.ErrnoException | null): string {
  const code = err?.code;
  if (typeof code === 'string' && /^E[A-Z]{2,20}$/.test(code)) return code;
  return err?.message ?? 'closed';
}

export class MuxStream extends Duplex {
  /** Socket look-alike fields Node's http code reads. */
  readonly connecting = false;
  readonly remoteAddress: string | undefined;
  readonly remotePort: number | undefined = undefined;
  readonly remoteFamily: string | undefined = undefined;
  readonly localAddress: string | undefined = undefined;
  readonly localPort: number | undefined = undefined;
  timeout = 0;

  #credit: number;
  #received = 0;
  #granted = 0;
  #pending: { buf: Buffer; cb: (err?: Error | null) => void } | null = null;
  #remoteEnded = false;
  #remoteReset = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    readonly id: number,
    readonly kind: string,
    private readonly link: StreamLink,
    private readonly options: MuxStreamOptions,
  ) {
    super({ allowHalfOpen: true });
    this.#credit = options.window;
    this.remoteAddress = options.remoteAddress ?? undefined;
  }

  // ---- from the link ----

  onData(data: Buffer): void {
    if (this.destroyed || this.#remoteEnded) return;
    this.#received += data.length;
    // A peer that sends past its credit ignores flow control: this stream fails, the link goes on.
    if (this.#received - this.#granted > this.options.window) {
      this.link.sendReset(this.id, 'flow control violated');
      this.#remoteReset = true;
      this.destroy(streamError('ELINKPROTO', 'node link peer exceeded its stream window'));
      return;
    }
    this.#touch();
    this.push(data);
    this.#grant();
  }

  onEnd(): void {
    if (this.destroyed || this.#remoteEnded) return;
    this.#remoteEnded = true;
    this.push(null);
  }

  onReset(reason: string): void {
    this.#remoteReset = true;
    this.destroy(resetError(reason));
  }

  onWindow(credit: number): void {
    this.#credit += credit;
    this.pump();
  }

  /** Destroyed because the link is gone: no frame can be sent any more. */
  lose(err: Error): void {
    this.#remoteReset = true;
    this.destroy(err);
  }

  /** Sends as much of the pending write as credit and the link allow. */
  pump(): void {
    const pending = this.#pending;
    if (!pending || this.destroyed) return;
    while (pending.buf.length > 0) {
      if (this.#credit <= 0) return; // onWindow resumes
      if (!this.link.canSend()) return this.link.waitDrain(this);
      const n = Math.min(pending.buf.length, this.#credit, MAX_DATA);
      this.link.sendData(this.id, pending.buf.subarray(0, n));
      this.#credit -= n;
      pending.buf = pending.buf.subarray(n);
    }
    this.#pending = null;
    pending.cb();
  }

  // ---- Duplex ----

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.#touch();
    this.#pending = { buf: chunk, cb };
    this.pump();
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.link.sendEnd(this.id);
    cb();
  }

  override _read(): void {
    this.#grant();
  }

  /** Every consumption passes here (flowing mode calls it too): the credit follows what was really read. */
  override read(size?: number): unknown {
    const chunk: unknown = super.read(size);
    this.#grant();
    return chunk;
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.#clearTimer();
    const clean = this.#remoteEnded && this.writableFinished;
    if (!clean && !this.#remoteReset) this.link.sendReset(this.id, reasonOf(err));
    this.link.forget(this.id);
    const pending = this.#pending;
    this.#pending = null;
    pending?.cb(err ?? streamError('ELINKRESET', 'stream destroyed'));
    cb(err);
  }

  // ---- socket look-alikes (no-ops where the far side's real socket does the work) ----

  /** An idle timer like net.Socket's: Node's http client uses it for request and keep-alive timeouts. */
  setTimeout(ms: number, callback?: () => void): this {
    this.timeout = ms;
    if (callback) {
      if (ms === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    this.#touch();
    return this;
  }
  setNoDelay(_noDelay?: boolean): this {
    return this;
  }
  setKeepAlive(_enable?: boolean, _delay?: number): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  address(): Record<string, never> {
    return {};
  }
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  #touch(): void {
    this.#clearTimer();
    if (this.timeout > 0 && !this.destroyed) {
      this.#timer = setTimeout(() => this.emit('timeout'), this.timeout);
      this.#timer.unref();
    }
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Grants the far side what the consumer read since the last grant, in batches of a quarter window. */
  #grant(): void {
    if (this.destroyed || this.#remoteEnded) return;
    const consumed = this.#received - this.readableLength;
    const credit = consumed - this.#granted;
    if (credit >= this.options.window / 4) {
      this.#granted += credit;
      this.link.sendWindow(this.id, credit);
    }
  }
}
