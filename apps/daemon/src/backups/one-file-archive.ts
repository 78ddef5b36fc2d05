/**
 * A single file from a snapshot as an archive: `restic dump` gives a file's bytes, not an archive, so its
 * one-entry tar (a 512-byte ustar header, the bytes, padding, the end blocks) or zip is written here, streamed.
 */
import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** The ustar header of one regular file (names up to 100 bytes; longer ones keep their last 100). */
export function tarHeader(name: string, size: number, mtime: number): Buffer {
  const header = Buffer.alloc(512);
  const short = Buffer.from(name).subarray(-100);
  short.copy(header, 0);
  header.write(octal(0o644, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(size, 12), 124, 'ascii');
  header.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\x0000', 257, 'binary');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

export function tarOfOne(bytes: Readable, name: string, size: number, mtime: number): Readable {
  const out = new PassThrough();
  out.write(tarHeader(name, size, mtime));
  bytes.on('error', (err) => out.destroy(err));
  bytes.pipe(out, { end: false });
  bytes.once('end', () => {
    const pad = (512 - (size % 512)) % 512;
    out.end(Buffer.concat([Buffer.alloc(pad), Buffer.alloc(1024)]));
  });
  return out;
}

export function zipOfOne(bytes: Readable, name: string, mtime: number): Readable {
  const zip = new yazl.ZipFile();
  zip.addReadStream(bytes, name, { mtime: new Date(mtime), mode: 0o100644 });
  zip.end();
  return zip.outputStream as Readable;
}
