/**
 * The few DER (ASN.1) encodings a self-signed X.509 certificate needs (ITU-T X.690; RFC 5280 for the shapes).
 * Only writing, never parsing: what comes in is the panel's own data, and node:crypto's X509Certificate parses
 * and checks the result before it is stored (node-certificate.ts). docs/adr/0003-node-link-tls.md says why this
 * is written here rather than taken from a package.
 */

function lengthOf(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One tag-length-value. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthOf(content.length), content]);
}

export const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
/** `[n]` EXPLICIT, constructed. */
export const explicit = (n: number, content: Buffer) => tlv(0xa0 | n, content);
export const octetString = (content: Buffer) => tlv(0x04, content);
export const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
/** A BIT STRING of whole bytes (no unused bits). */
export const bitString = (content: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));

/** A non-negative INTEGER from its big-endian bytes (minimal: no redundant leading zeros, sign byte added). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = bytes.subarray(start);
  const needsSign = ((body[0] ?? 0) & 0x80) !== 0;
  return tlv(0x02, needsSign ? Buffer.concat([Buffer.from([0]), body]) : body);
}

export function smallInteger(n: number): Buffer {
  return unsignedInteger(Buffer.from([n]));
}

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = arcs;
  const out: number[] = [first * 40 + second];
  for (const arc of rest) {
    const groups: number[] = [];
    let value = arc;
    do {
      groups.unshift(value % 128);
      value = Math.floor(value / 128);
    } while (value > 0);
    groups.forEach((g, i) => out.push(i < groups.length - 1 ? g | 0x80 : g));
  }
  return tlv(0x06, Buffer.from(out));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050, both in UTC with seconds. */
export function time(date: Date): Buffer {
  const y = date.getUTCFullYear();
  const rest =
    pad(date.getUTCMonth() + 1) +
    pad(date.getUTCDate()) +
    pad(date.getUTCHours()) +
    pad(date.getUTCMinutes()) +
    pad(date.getUTCSeconds()) +
    'Z';
  return y < 2050 ? tlv(0x17, Buffer.from(pad(y % 100) + rest)) : tlv(0x18, Buffer.from(pad(y, 4) + rest));
}
