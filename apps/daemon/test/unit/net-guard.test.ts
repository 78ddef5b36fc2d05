/** The download guard's address check (processors/net-guard.ts), including IPv4 addresses embedded in IPv6. */
import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/processors/net-guard';

describe('isPrivateAddress', () => {
  it('refuses IPv4 loopback, private, link-local, CGNAT and unspecified addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses IPv6 loopback, ULA, link-local and multicast', () => {
    for (const a of ['::1', '::', 'fd00::1', 'fe80::1', 'ff02::1', 'fec0::1', '64:ff9b:1::a00:1'])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('refuses loopback and private IPv4 embedded in IPv6 (mapped, compatible, translated, NAT64, 6to4, Teredo)', () => {
    for (const a of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1', // the same, hex form
      '::127.0.0.1', // IPv4-compatible: what URL parsing makes of [::127.0.0.1]
      '::7f00:1',
      '::ffff:0:7f00:1', // IPv4-translated
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2002:c0a8:101::1', // 6to4 of 192.168.1.1
      '2001:0:7f00:1::1', // Teredo with a loopback server
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (obfuscated)
      '::FFFF:A9FE:A9FE', // 169.254.169.254, upper case
    ])
      expect(isPrivateAddress(a), a).toBe(true);
  });

  it('allows public addresses, including public IPv4 embedded the same ways', () => {
    for (const a of [
      '1.1.1.1',
      '93.184.216.34',
      '2606:4700:4700::1111',
      '2a00:1450:4001:82b::200e',
      '::ffff:1.1.1.1',
      '64:ff9b::101:101', // NAT64 of 1.1.1.1
      '2002:101:101::1', // 6to4 of 1.1.1.1
    ])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses what is not an address', () => {
    expect(isPrivateAddress('localhost')).toBe(true);
    expect(isPrivateAddress('')).toBe(true);
  });
});
