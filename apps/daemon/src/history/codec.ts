/**
 * The bytes of a history file and of its journal (docs/daemon.md § Metric history). Little-endian throughout.
 * - `<id>.hist`: a 16-byte header (`HHS1`, version 1, slots, 0) then each ring's columns in turn: stamps (u32),
 *   cpu, memory, disk (f32), players, max players (u16). 2 rings × 2,880 slots × 20 bytes + 16 = 115,216 bytes,
 *   whatever the server's age: the file never grows.
 * - `<id>.journal`: the minutes recorded since the file was last rewritten, 20 bytes each (u32 minute, f32 ×3,
 *   u16 ×2). A torn last record (a crash mid-append) is shorter than 20 bytes and ignored.
 */
import { Series, SLOTS, type Point, type Ring } from './series';

const MAGIC = 0x31534848; // "HHS1" read as a little-endian u32
const VERSION = 1;
const HEADER_BYTES = 16;
export const RECORD_BYTES = 20;
const RING_BYTES = SLOTS * RECORD_BYTES;
export const FILE_BYTES = HEADER_BYTES + 2 * RING_BYTES;

type Column = Uint32Array | Float32Array | Uint16Array;
const columnsOf = (ring: Ring): Column[] => [
  ring.stamp,
  ring.cpu,
  ring.memory,
  ring.disk,
  ring.players,
  ring.maxPlayers,
];

export function encodeSeries(series: Series): Buffer {
  const out = Buffer.alloc(FILE_BYTES);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(VERSION, 4);
  out.writeUInt32LE(SLOTS, 8);
  let at = HEADER_BYTES;
  for (const ring of [series.minutes, series.quarters]) {
    for (const column of columnsOf(ring)) {
      const bytes = new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
      out.set(bytes, at);
      at += column.byteLength;
    }
  }
  return out;
}

/** A series from a file's bytes; null when they are not a whole file of this format (then the file is ignored). */
export function decodeSeries(bytes: Buffer): Series | null {
  if (bytes.length !== FILE_BYTES) return null;
  if (bytes.readUInt32LE(0) !== MAGIC || bytes.readUInt32LE(4) !== VERSION) return null;
  if (bytes.readUInt32LE(8) !== SLOTS) return null;
  const series = new Series();
  let at = HEADER_BYTES;
  for (const ring of [series.minutes, series.quarters]) {
    for (const column of columnsOf(ring)) {
      // A copy into the column's own (aligned) memory: the file's bytes may sit at any offset of a pooled buffer.
      new Uint8Array(column.buffer, column.byteOffset, column.byteLength).set(
        bytes.subarray(at, at + column.byteLength),
      );
      at += column.byteLength;
    }
  }
  return series;
}

export function encodeRecord(minute: number, point: Point): Buffer {
  const out = Buffer.alloc(RECORD_BYTES);
  out.writeUInt32LE(minute, 0);
  out.writeFloatLE(point.cpu, 4);
  out.writeFloatLE(point.memory, 8);
  out.writeFloatLE(point.disk, 12);
  out.writeUInt16LE(point.players, 16);
  out.writeUInt16LE(point.maxPlayers, 18);
  return out;
}

/** The whole records of a journal, oldest first; a torn tail is left out. */
export function* decodeRecords(bytes: Buffer): Generator<{ minute: number; point: Point }> {
  for (let at = 0; at + RECORD_BYTES <= bytes.length; at += RECORD_BYTES) {
    yield {
      minute: bytes.readUInt32LE(at),
      point: {
        cpu: bytes.readFloatLE(at + 4),
        memory: bytes.readFloatLE(at + 8),
        disk: bytes.readFloatLE(at + 12),
        players: bytes.readUInt16LE(at + 16),
        maxPlayers: bytes.readUInt16LE(at + 18),
      },
    };
  }
}
