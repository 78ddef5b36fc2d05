/**
 * The node link's wire format (docs/adr/0015-outbound-node-link.md): one binary WebSocket message per frame,
 * `type (u8) | stream id (u32 BE) | payload`. Every frame is checked before it is acted on: anything malformed
 * is a protocol error that closes the whole link (never a crash, never a half-understood frame).
 */

export const FRAME = { open: 1, data: 2, end: 3, reset: 4, window: 5 } as const;
export type FrameType = (typeof FRAME)[keyof typeof FRAME];

export type Frame =
  | { type: typeof FRAME.open; id: number; kind: string }
  | { type: typeof FRAME.data; id: number; data: Buffer }
  | { type: typeof FRAME.end; id: number }
  | { type: typeof FRAME.reset; id: number; reason: string }
  | { type: typeof FRAME.window; id: number; credit: number };

const HEADER = 5;
/**
 * Largest DATA payload: big enough for throughput, small enough that one frame never hogs the link — and, with
 * its header, under the panel's 64 KiB WebSocket message limit (app.ts), which the link's route shares.
 */
export const MAX_DATA = 60 * 1024;
const MAX_KIND = 32;
const MAX_REASON = 200;

export class LinkProtocolError extends Error {
  readonly code = 'ELINKPROTO';
}

function header(type: FrameType, id: number, payload: number): Buffer {
  const buf = Buffer.allocUnsafe(HEADER + payload);
  buf.writeUInt8(type, 0);
  buf.writeUInt32BE(id, 1);
  return buf;
}

export function encodeFrame(frame: Frame): Buffer {
  switch (frame.type) {
    case FRAME.open:
    case FRAME.reset: {
      const text = Buffer.from(frame.type === FRAME.open ? frame.kind : frame.reason.slice(0, MAX_REASON));
      const buf = header(frame.type, frame.id, text.length);
      text.copy(buf, HEADER);
      return buf;
    }
    case FRAME.data: {
      const buf = header(frame.type, frame.id, frame.data.length);
      frame.data.copy(buf, HEADER);
      return buf;
    }
    case FRAME.end:
      return header(frame.type, frame.id, 0);
    case FRAME.window: {
      const buf = header(frame.type, frame.id, 4);
      buf.writeUInt32BE(frame.credit, HEADER);
      return buf;
    }
  }
}

const fail = (why: string): never => {
  throw new LinkProtocolError(`node link protocol error: ${why}`);
};

/** One received message as a frame; throws LinkProtocolError for anything not exactly well-formed. */
export function decodeFrame(buf: Buffer): Frame {
  if (buf.length < HEADER) fail('short frame');
  const type = buf.readUInt8(0);
  const id = buf.readUInt32BE(1);
  if (id === 0) fail('stream id 0');
  const payload = buf.subarray(HEADER);
  switch (type) {
    case FRAME.open: {
      const kind = payload.toString('latin1');
      if (!/^[a-z]{1,32}$/.test(kind) || payload.length > MAX_KIND) fail('bad stream kind');
      return { type, id, kind };
    }
    case FRAME.data:
      if (payload.length === 0 || payload.length > MAX_DATA) fail('bad data length');
      return { type, id, data: payload };
    case FRAME.end:
      if (payload.length !== 0) fail('end with payload');
      return { type, id };
    case FRAME.reset:
      if (payload.length > MAX_REASON) fail('reset reason too long');
      return { type, id, reason: payload.toString('utf8') };
    case FRAME.window: {
      if (payload.length !== 4) fail('bad window frame');
      const credit = payload.readUInt32BE(0);
      if (credit === 0) fail('zero credit');
      return { type, id, credit };
    }
    default:
      return fail(`unknown frame type ${type}`);
  }
}
