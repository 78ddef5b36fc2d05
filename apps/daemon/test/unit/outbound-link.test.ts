/**
 * The outbound connector's pure parts: the reconnect wait (doubling, capped, jittered within [ceiling/2,
 * ceiling]), the link URL from the panel URL, and loopback listeners in outbound mode. The connector itself runs
 * against a real panel in e2e/link-outbound.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseDaemonConfig } from '../../src/config/load';
import {
  backoffMs,
  linkUrlOf,
  maskingUseless,
  outboundListenHosts,
} from '../../src/panel-link/outbound-link';

const KEY = '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----';
const settings = (panelUrl: string) => ({ panelUrl, nodeId: 'n1', clientSecret: 's' });

describe('outbound link', () => {
  it('waits longer after each failure, never past the cap, with jitter', () => {
    const range = { minMs: 1000, maxMs: 30_000 };
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, range, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffMs(2, range, () => 0)).toBe(2000);
    expect(backoffMs(500, range, () => 0.5)).toBe(22_500);
  });

  it('dials ws:// or wss:// at the panel URL', () => {
    expect(linkUrlOf(settings('http://panel.example:8080'))).toBe('ws://panel.example:8080/api/nodes/link');
    expect(linkUrlOf(settings('https://panel.example'))).toBe('wss://panel.example/api/nodes/link');
  });

  it('listens on loopback in outbound mode unless a specific address is set', () => {
    const outbound = parseDaemonConfig({ publicKeyPem: KEY, link: 'outbound' });
    expect(outbound.linkReconnect).toEqual({ minMs: 1000, maxMs: 30_000 });
    const effective = outboundListenHosts(outbound);
    expect([effective.host, effective.sftp.host]).toEqual(['127.0.0.1', '127.0.0.1']);
    const chosen = outboundListenHosts(
      parseDaemonConfig({ publicKeyPem: KEY, link: 'outbound', host: '10.0.0.5' }),
    );
    expect(chosen.host).toBe('10.0.0.5');
    const inbound = parseDaemonConfig({ publicKeyPem: KEY });
    expect(inbound.link).toBe('inbound');
    expect(outboundListenHosts(inbound).host).toBe('0.0.0.0');
  });

  it('masks frames only where a cleartext proxy could read them', () => {
    expect(maskingUseless('wss://panel.example/api/nodes/link')).toBe(true);
    expect(maskingUseless('ws://127.0.0.1:8080/api/nodes/link')).toBe(true);
    expect(maskingUseless('ws://[::1]:8080/api/nodes/link')).toBe(true);
    expect(maskingUseless('ws://panel.example/api/nodes/link')).toBe(false);
    expect(maskingUseless('ws://10.0.0.1/api/nodes/link')).toBe(false);
  });
});
