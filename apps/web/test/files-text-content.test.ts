import { describe, expect, it } from 'vitest';
import { looksBinary, SNIFF_BYTES, textOrBinary } from '../src/features/servers/files/text-content';

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('binary detection by content', () => {
  it('plain and UTF-8 text is text, whatever its language', () => {
    expect(looksBinary(utf8('server-name = Hearth\n'))).toBe(false);
    expect(looksBinary(utf8('名前 = ハース — ñ é ü\n'))).toBe(false);
    expect(looksBinary(new Uint8Array())).toBe(false);
  });

  it('a NUL byte or a sequence that is not UTF-8 is binary', () => {
    expect(looksBinary(bytes(0x50, 0x4b, 0x03, 0x04, 0x00, 0x00))).toBe(true); // a zip's header
    expect(looksBinary(bytes(0x61, 0xff, 0x62))).toBe(true);
    expect(looksBinary(bytes(0x89, 0x50, 0x4e, 0x47))).toBe(true); // PNG signature
  });

  it('a character cut at the 8 KiB boundary is not mistaken for binary', () => {
    const text = utf8('a'.repeat(SNIFF_BYTES - 1) + 'é');
    expect(looksBinary(text.subarray(0, SNIFF_BYTES))).toBe(false);
  });

  it('only the first 8 KiB count', () => {
    const late = new Uint8Array(SNIFF_BYTES + 10).fill(0x61);
    late[SNIFF_BYTES + 5] = 0;
    expect(looksBinary(late)).toBe(false);
  });

  it('textOrBinary reads a text blob and refuses a binary one', async () => {
    expect(await textOrBinary(new Blob(['hello']))).toBe('hello');
    expect(await textOrBinary(new Blob([bytes(1, 0, 2)]))).toBeNull();
  });
});
