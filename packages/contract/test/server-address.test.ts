import { describe, expect, it } from 'vitest';
import { playerAddress } from '../src/server-address';

const node = (publicHost: string) => ({ publicHost });

describe('the address players connect to (issue 16 item 19)', () => {
  it('uses a routable server ip as SPEC does', () => {
    expect(playerAddress({ ip: '203.0.113.5', port: 30000, node: node('play.example.com') }, 'panel')).toBe(
      '203.0.113.5:30000',
    );
  });

  it("puts the node's public host in place of a bind-all or missing ip", () => {
    for (const ip of ['0.0.0.0', '::', '[::]', '', '{ip}']) {
      expect(playerAddress({ ip, port: 30000, node: node('play.example.com') }, 'panel')).toBe(
        'play.example.com:30000',
      );
    }
  });

  it("falls back to the page's host when the node's public host is {ip} or unroutable", () => {
    expect(playerAddress({ ip: '0.0.0.0', port: 5000, node: node('{ip}') }, 'hearth.lan')).toBe(
      'hearth.lan:5000',
    );
    expect(playerAddress({ ip: '0.0.0.0', port: 5000, node: node('0.0.0.0') }, 'hearth.lan')).toBe(
      'hearth.lan:5000',
    );
  });

  it('brackets an IPv6 host before the port and leaves the port off when there is none', () => {
    expect(playerAddress({ ip: '2001:db8::7', port: 25565, node: node('x') }, 'p')).toBe(
      '[2001:db8::7]:25565',
    );
    expect(playerAddress({ ip: '0.0.0.0', port: null, node: node('play.example.com') }, 'p')).toBe(
      'play.example.com',
    );
  });
});
