/**
 * Many byte streams over one WebSocket (the outbound node link, docs/adr/0015-outbound-node-link.md). Only the
 * `opener` side (the panel) opens streams, so ids need no odd/even split; the `acceptor` (the daemon) is told of
 * each by a 'stream' event. When the WebSocket closes, errs, misses its pongs or sends a malformed frame, every
 * open stream is destroyed at once with `code: 'ELINKLOST'`, so requests in flight fail fast.
 */
import { EventEmitter } from 'node:events';
import { decodeFrame, encodeFrame, FRAME, LinkProtocolError, type Frame } from './frames';
import { MuxStream, streamError, type StreamLink } from './stream';

/** The part of a `ws` WebSocket the link uses (server-kit does not depend on `ws` itself). */
export interface LinkSocket {
  readonly readyState: number;
  send(data: Buffer, options: { binary: true }, cb: (err?: Error) => void): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): this;
  on(event: 'close', listener: () => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'pong', listener: () => void): this;
}

export interface LinkMuxOptions {
  role: 'opener' | 'acceptor';
  /** Per-stream credit, bytes (default 1 MiB). */
  window?: number;
  /** Bytes queued on the WebSocket beyond which writers wait (default 1 MiB). */
  highWater?: number;
  /** Keepalive ping interval (default 15 s); the link is dead after `maxMissedPongs` (default 2) unanswered. */
  pingMs?: number;
  maxMissedPongs?: number;
  remoteAddress?: string | null;
}

export const DEFAULT_WINDOW = 1024 * 1024;
const OPEN = 1; // ws.OPEN

export class LinkMux extends EventEmitter<{
  stream: [stream: MuxStream, kind: string];
  close: [err: NodeJS.ErrnoException];
}> {
  readonly #streams = new Map<number, MuxStream>();
  readonly #waiting = new Set<MuxStream>();
  readonly #window: number;
  readonly #highWater: number;
  #queued = 0;
  #nextId = 1;
  #highestSeen = 0;
  #missed = 0;
  #closed: NodeJS.ErrnoException | null = null;
  readonly #pinger: NodeJS.Timeout;
  readonly #link: StreamLink;

  constructor(
    private readonly socket: LinkSocket,
    private readonly options: LinkMuxOptions,
  ) {
    super();
    this.#window = options.window ?? DEFAULT_WINDOW;
    this.#highWater = options.highWater ?? 1024 * 1024;
    this.#link = this.#streamLink();
    socket.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    socket.on('pong', () => (this.#missed = 0));
    socket.on('close', () => this.#shutdown('the node link closed'));
    socket.on('error', (err) => this.#shutdown(`the node link failed: ${err.message}`));
    const maxMissed = options.maxMissedPongs ?? 2;
    this.#pinger = setInterval(() => {
      if (this.#missed >= maxMissed) {
        this.#shutdown('the node link stopped answering');
        return socket.terminate();
      }
      this.#missed += 1;
      if (socket.readyState === OPEN) socket.ping();
    }, options.pingMs ?? 15_000);
    this.#pinger.unref();
    // A socket that closed while its owner was still authenticating it will never emit 'close' again; the
    // link is lost from the start (on the next tick, once the caller has attached its listeners).
    if (socket.readyState !== OPEN) process.nextTick(() => this.#shutdown('the node link closed'));
  }

  get closed(): boolean {
    return this.#closed !== null;
  }

  /** Open streams (tests, metrics). */
  get size(): number {
    return this.#streams.size;
  }

  /** A new stream of `kind` ('http', 'sftp'); on a closed link it is already destroyed with ELINKLOST. */
  open(kind: string): MuxStream {
    if (this.options.role !== 'opener') throw new Error('only the opener side opens node link streams');
    const id = this.#nextId++;
    const stream = this.#newStream(id, kind);
    if (this.#closed) {
      const lost = this.#closed;
      process.nextTick(() => stream.lose(lost));
    } else this.#send({ type: FRAME.open, id, kind });
    return stream;
  }

  /** Ends the link (code 1000) and every stream with ELINKLOST. */
  close(reason = 'closed'): void {
    this.#shutdown(`the node link was closed: ${reason}`);
    if (this.socket.readyState === OPEN) this.socket.close(1000, reason.slice(0, 100));
  }

  #newStream(id: number, kind: string): MuxStream {
    const stream = new MuxStream(id, kind, this.#link, {
      window: this.#window,
      remoteAddress: this.options.remoteAddress ?? null,
    });
    this.#streams.set(id, stream);
    return stream;
  }

  #streamLink(): StreamLink {
    return {
      sendData: (id, data) => this.#send({ type: FRAME.data, id, data }),
      sendEnd: (id) => this.#send({ type: FRAME.end, id }),
      sendReset: (id, reason) => this.#send({ type: FRAME.reset, id, reason }),
      sendWindow: (id, credit) => this.#send({ type: FRAME.window, id, credit }),
      canSend: () => this.#queued < this.#highWater,
      waitDrain: (stream) => this.#waiting.add(stream),
      forget: (id) => {
        const stream = this.#streams.get(id);
        if (stream) this.#waiting.delete(stream);
        this.#streams.delete(id);
      },
    };
  }

  #send(frame: Frame): void {
    if (this.#closed || this.socket.readyState !== OPEN) return;
    const buf = encodeFrame(frame);
    this.#queued += buf.length;
    this.socket.send(buf, { binary: true }, (err) => {
      this.#queued -= buf.length;
      if (err) return this.#shutdown(`the node link failed: ${err.message}`);
      if (this.#queued < this.#highWater / 2 && this.#waiting.size > 0) this.#drain();
    });
  }

  /** Resumes writers that waited for the WebSocket's buffer, oldest first, while it stays under its mark. */
  #drain(): void {
    for (const stream of this.#waiting) {
      if (this.#queued >= this.#highWater) return;
      this.#waiting.delete(stream);
      stream.pump();
    }
  }

  #onMessage(data: unknown, isBinary: boolean): void {
    if (this.#closed) return;
    this.#missed = 0;
    try {
      if (!isBinary || !Buffer.isBuffer(data)) throw new LinkProtocolError('node link protocol error: text');
      this.#dispatch(decodeFrame(data));
    } catch (err) {
      const why = err instanceof LinkProtocolError ? err.message : `node link frame failed: ${String(err)}`;
      this.#shutdown(why);
      this.socket.close(1002, 'protocol error');
    }
  }

  #dispatch(frame: Frame): void {
    if (frame.type === FRAME.open) return this.#accept(frame.id, frame.kind);
    const stream = this.#streams.get(frame.id);
    if (!stream) {
      // A frame for a stream that already ended here (its RESET crossed this frame) is expected; one for an id
      // never opened is not.
      const known = this.options.role === 'opener' ? frame.id < this.#nextId : frame.id <= this.#highestSeen;
      if (!known) throw new LinkProtocolError(`node link protocol error: unknown stream ${frame.id}`);
      return;
    }
    switch (frame.type) {
      case FRAME.data:
        return stream.onData(frame.data);
      case FRAME.end:
        return stream.onEnd();
      case FRAME.reset:
        return stream.onReset(frame.reason);
      case FRAME.window:
        return stream.onWindow(frame.credit);
    }
  }

  #accept(id: number, kind: string): void {
    if (this.options.role !== 'acceptor')
      throw new LinkProtocolError('node link protocol error: peer opened');
    if (id <= this.#highestSeen) throw new LinkProtocolError('node link protocol error: reused stream id');
    this.#highestSeen = id;
    const stream = this.#newStream(id, kind);
    if (this.listenerCount('stream') > 0) this.emit('stream', stream, kind);
    else stream.destroy();
  }

  #shutdown(message: string): void {
    if (this.#closed) return;
    const err = streamError('ELINKLOST', message);
    this.#closed = err;
    clearInterval(this.#pinger);
    this.#waiting.clear();
    for (const stream of [...this.#streams.values()]) stream.lose(err);
    this.#streams.clear();
    this.emit('close', err);
  }
}
