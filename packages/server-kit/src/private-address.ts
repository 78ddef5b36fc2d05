/**
 * Which addresses count as private for the SSRF guards (ARCHITECTURE §5.5): loopback, private, link-local,
 * CGNAT, multicast, reserved and unspecified addresses, and IPv6 addresses embedding such an IPv4 address.
 * Shared by the daemon's template downloads (apps/daemon/src/processors/net-guard.ts) and the panel's alert
 * webhooks (docs/alerts.md § SSRF), so both refuse the same addresses.
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['fec0::', 10], // site-local (deprecated, still routed privately)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): the embedding depends on the local prefix length
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The 8 hextets of an IPv6 address (with or without a trailing dotted quad), or null when it is not one. */
function hextets(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const gap = 8 - front.length - back.length;
  return [...front, ...new Array<number>(tail === undefined ? 0 : gap).fill(0), ...back];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/**
 * IPv4 addresses an IPv6 address carries, by the well-known ways of embedding one: IPv4-compatible (::/96),
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16, the
 * gateway) and Teredo (2001::/32, server and de-obfuscated client). `[::127.0.0.1]`, `[64:ff9b::7f00:1]` and
 * `[2002:7f00:1::]` all lead to loopback on hosts that translate or tunnel them.
 */
function embeddedIPv4(h: number[]): string[] {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  const zeroTo = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeroTo(6) || (zeroTo(5) && h5 === 0xffff) || (zeroTo(4) && h4 === 0xffff && h5 === 0))
    return [v4(h6, h7)];
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0) return [v4(h6, h7)];
  if (h0 === 0x2002) return [v4(h1, h2)];
  if (h0 === 0x2001 && h1 === 0) return [v4(h2, h3), v4(~h6 & 0xffff, ~h7 & 0xffff)];
  return [];
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  if (family === 4) return blocked.check(address, 'ipv4');
  const h = hextets(address);
  if (!h || h.length !== 8 || h.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffff)) return true;
  if (embeddedIPv4(h).some((inner) => blocked.check(inner, 'ipv4'))) return true;
  return blocked.check(address, 'ipv6');
}
