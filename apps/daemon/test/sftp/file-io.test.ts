import { openSync, closeSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileIo } from '../../src/sftp/file-io';

const dirs: string[] = [];
function tempFile(content: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-file-io-'));
  dirs.push(dir);
  const path = join(dir, 'f.bin');
  writeFileSync(path, content);
  return path;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const readAt = (io: FileIo, offset: number, length: number) =>
  new Promise<Buffer | null>((resolve, reject) =>
    io.read(offset, length, (err, data) => (err ? reject(err) : resolve(data && Buffer.from(data)))),
  );
const writeAt = (io: FileIo, offset: number, data: Buffer) =>
  new Promise<void>((resolve, reject) => io.write(offset, data, (err) => (err ? reject(err) : resolve())));

describe('FileIo', () => {
  it('answers queued reads with the right bytes, short at the end and null past it', async () => {
    const content = randomBytes(100_000);
    const fd = openSync(tempFile(content), 'r');
    let groups = 0;
    const io = new FileIo(fd, (replies) => {
      groups += 1;
      replies();
    });
    const offsets = Array.from({ length: 8 }, (_, i) => i * 16_384); // the last two reach past the end
    const results = await Promise.all([...offsets.map((o) => readAt(io, o, 16_384)), readAt(io, 7, 10)]);
    offsets.forEach((o, i) => {
      const expected = content.subarray(o, o + 16_384);
      if (expected.length === 0) expect(results[i]).toBeNull();
      else expect(results[i]?.equals(expected)).toBe(true);
    });
    expect(results[8]?.equals(content.subarray(7, 17))).toBe(true);
    expect(groups).toBeLessThan(results.length); // contiguous requests queued behind the first went together
    await io.idle();
    closeSync(fd);
  });

  it('lands queued writes byte for byte, overlapping ones in the order they came', async () => {
    const path = tempFile(Buffer.alloc(0));
    const fd = openSync(path, 'r+');
    const io = new FileIo(fd);
    const expected = randomBytes(300_000);
    const writes: Promise<void>[] = [];
    for (let o = 0; o < expected.length; o += 32_768)
      writes.push(writeAt(io, o, expected.subarray(o, o + 32_768)));
    writes.push(writeAt(io, 1000, Buffer.alloc(50, 1)));
    expected.fill(1, 1000, 1050);
    await Promise.all(writes);
    await io.idle();
    closeSync(fd);
    expect(readFileSync(path).equals(expected)).toBe(true);
  });

  it('reports errors to every request of the batch', async () => {
    const fd = openSync(tempFile(Buffer.from('x')), 'r');
    const io = new FileIo(fd);
    const results = await Promise.allSettled([
      writeAt(io, 0, Buffer.from('a')),
      writeAt(io, 1, Buffer.from('b')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await io.idle();
    closeSync(fd);
  });
});
