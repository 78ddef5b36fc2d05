/**
 * SSRF guard for template downloads (ARCHITECTURE §5.5): unless the admin allows it, downloads may not reach
 * loopback, private, link-local, CGNAT or unspecified addresses. The check runs at connect time through a
 * custom `lookup`, so the address checked is the address connected to (no DNS-rebinding gap); IP literals
 * (which skip lookup) are checked before connecting.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type LookupFunction } from 'node:net';
import { isPrivateAddress } from '@hearth/server-kit/private-address';
import { AppError } from '@hearth/contract';

export { isPrivateAddress };

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
