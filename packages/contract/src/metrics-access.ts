/**
 * Who may read a /metrics endpoint, the panel's and each daemon's alike (docs/configuration.md § Metrics): the
 * bearer token from `metrics.token` (compared in constant time, never a session or panel token), or a client
 * address in `metrics.allow`. Neither → 401 ErrTokenInvalid. Node-only (imported by path, not from the index).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { AppError } from './errors';

export interface MetricsAccess {
  token: string;
  allow: readonly string[];
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function allowListOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** `::ffff:10.0.0.5` (an IPv4 client on a dual-stack socket) is 10.0.0.5. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

export function metricsAccessCheck(config: MetricsAccess): (authorization: unknown, ip: string) => void {
  const allow = allowListOf(config.allow);
  const expected = config.token ? digest(config.token) : null;
  return (authorization, ip) => {
    const address = plainAddress(ip);
    const family = isIP(address);
    if (family !== 0 && allow.check(address, family === 6 ? 'ipv6' : 'ipv4')) return;
    const given = typeof authorization === 'string' ? /^Bearer (.+)$/i.exec(authorization)?.[1] : undefined;
    if (expected && given !== undefined && timingSafeEqual(digest(given), expected)) return;
    throw new AppError('ErrTokenInvalid');
  };
}
