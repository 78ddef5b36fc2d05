/**
 * Hand-crafted RAR 4.x archives: no free tool in Debian can create RAR, so tests build them byte by byte.
 * Only what readers need: the marker block, the main header, file headers with stored (method 0x30) data
 * and the end block. Each header carries the low 16 bits of the CRC-32 of its bytes after the CRC field.
 */
import { crc32 } from 'node:zlib';

export interface RarEntry {
  name: string;
  kind?: 'file' | 'folder' | 'symlink';
  /** File bytes, or the link target of a symlink. */
  data?: Buffer | string;
  /** What the header claims the unpacked size is (defaults to the real one): bombs lie here. */
  declaredSize?: number;
}

const MARKER = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00]);
const LONG_BLOCK = 0x8000;
const LARGE = 0x0100; // HIGH_PACK_SIZE and HIGH_UNP_SIZE follow: sizes over 4 GiB
const DIRECTORY = 0x00e0; // dictionary bits 111 mean "directory"
const HOST_UNIX = 3;
const MODES = { file: 0o100644, folder: 0o040755, symlink: 0o120777 } as const;

/** A block: the CRC over `body` (type, flags, size field and the rest), then `body`. */
function block(type: number, flags: number, rest: Buffer): Buffer {
  const body = Buffer.alloc(5 + rest.length);
  body.writeUInt8(type, 0);
  body.writeUInt16LE(flags, 1);
  body.writeUInt16LE(body.length + 2, 3);
  rest.copy(body, 5);
  const crc = Buffer.alloc(2);
  crc.writeUInt16LE(crc32(body) & 0xffff, 0);
  return Buffer.concat([crc, body]);
}

function fileBlock(entry: RarEntry): Buffer {
  const kind = entry.kind ?? 'file';
  const data = Buffer.from(entry.data ?? '');
  const unpacked = entry.declaredSize ?? data.length;
  const large = unpacked > 0xffffffff;
  const name = Buffer.from(entry.name, 'utf8');
  const fixed = Buffer.alloc(25 + (large ? 8 : 0));
  fixed.writeUInt32LE(data.length, 0); // PACK_SIZE
  fixed.writeUInt32LE(unpacked % 2 ** 32, 4); // UNP_SIZE (low half)
  fixed.writeUInt8(HOST_UNIX, 8);
  fixed.writeUInt32LE(crc32(data), 9); // FILE_CRC
  fixed.writeUInt32LE(0x5a210000, 13); // FTIME, DOS format: 2025-01-01 00:00
  fixed.writeUInt8(20, 17); // UNP_VER 2.0
  fixed.writeUInt8(0x30, 18); // METHOD: stored
  fixed.writeUInt16LE(name.length, 19);
  fixed.writeUInt32LE(MODES[kind], 21); // ATTR: a Unix mode, as HOST_OS is Unix
  if (large) fixed.writeUInt32LE(Math.floor(unpacked / 2 ** 32), 29); // HIGH_UNP_SIZE (HIGH_PACK_SIZE 0)
  const flags = LONG_BLOCK | (large ? LARGE : 0) | (kind === 'folder' ? DIRECTORY : 0);
  return Buffer.concat([block(0x74, flags, Buffer.concat([fixed, name])), data]);
}

export function craftRar(entries: RarEntry[]): Buffer {
  return Buffer.concat([
    MARKER,
    block(0x73, 0, Buffer.alloc(6)), // main header: RESERVED1 (2) and RESERVED2 (4)
    ...entries.map(fileBlock),
    block(0x7b, 0x4000, Buffer.alloc(0)), // end of archive
  ]);
}
