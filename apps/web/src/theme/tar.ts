/** One regular file of a tar archive. */
export interface TarEntry {
  name: string;
  data: Uint8Array;
}

const BLOCK = 512;

function readString(block: Uint8Array, offset: number, length: number): string {
  const bytes = block.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/**
 * Parses a ustar archive the way themes are read: 512-byte blocks, octal size at offset
 * 124, the ustar prefix joined to the name, entries ending in `/` (folders) skipped. Stops at the
 * first all-zero header. Names are normalised without a leading `./`.
 */
export function parseTar(buffer: ArrayBuffer | Uint8Array): TarEntry[] {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    const name = readString(header, 0, 100);
    if (name === '') break;
    const size = parseInt(readString(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = readString(header, 257, 6).startsWith('ustar') ? readString(header, 345, 155) : '';
    const fullName = (prefix ? `${prefix}/${name}` : name).replace(/^\.\//, '');
    offset += BLOCK;
    const isFile = type === '0' || type === '\0';
    if (isFile && !fullName.endsWith('/') && fullName !== '') {
      entries.push({ name: fullName, data: bytes.slice(offset, offset + size) });
    }
    offset += Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}
