import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sendPacked } from '../../src/sftp/coalesce';

describe('sendPacked', () => {
  it('re-cuts the parts into packets of at most the packet size, the byte stream unchanged', () => {
    const parts = [
      randomBytes(13),
      randomBytes(32_768),
      randomBytes(13),
      randomBytes(100),
      randomBytes(70_000),
    ];
    const packets: { chan: number; data: Buffer }[] = [];
    sendPacked(
      { channelData: (chan, data) => void packets.push({ chan, data: Buffer.from(data) }) },
      7,
      parts,
      32_768,
    );
    expect(packets.every((p) => p.chan === 7 && p.data.length <= 32_768)).toBe(true);
    expect(packets.slice(0, -1).every((p) => p.data.length === 32_768)).toBe(true);
    expect(Buffer.concat(packets.map((p) => p.data)).equals(Buffer.concat(parts))).toBe(true);
  });
});
