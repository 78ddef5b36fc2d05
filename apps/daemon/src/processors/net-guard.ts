/**
 * SSRF guard for template downloads (ARCHITECTURE §5.5): unless the admin allows it, downloads may not reach
 * loopback, private, link-local, CGNAT or unspecified addresses. The check runs at connect time through a
 * custom `lookup`, so the address checked is the address connected to (no DNS-rebinding gap); IP literals
 * (which skip lookup) are checked before connecting.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '@hearth/contract';

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
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: refuse rather than guess
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export function refused(url: string, reason: string): AppError {
  return new AppError('ErrDownloadRefused', { url, reason });
}

/** A `lookup` for http(s).request that fails when any resolved address is private. */
export function guardedLookup(url: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad)
        return callback(refused(url, `${hostname} resolves to a private address (${bad.address})`), '', 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return first
        ? callback(null, first.address, first.family)
        : callback(new Error(`no address for ${hostname}`), '', 0);
    });
  };
}
