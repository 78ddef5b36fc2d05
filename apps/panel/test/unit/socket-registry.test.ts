/** The panel's socket caps (modules/servers/socket-registry.ts): per user per server, and per server. */
import { describe, expect, it } from 'vitest';
import { isAppError } from '@hearth/contract';
import { SocketRegistry } from '../../src/modules/servers/socket-registry';

const socket = () => ({
  closed: [] as number[],
  close(code: number) {
    this.closed.push(code);
  },
});
const refusal = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return isAppError(err) ? { code: err.code, status: err.status, metadata: err.metadata } : err;
  }
};

describe('socket caps', () => {
  it('refuses a user beyond their cap on one server with 429 ErrSocketLimit; other users and servers are unaffected', () => {
    const registry = new SocketRegistry({ perServer: 10, perUser: 3 });
    for (let i = 0; i < 3; i += 1) registry.add('s1', 'mallory', socket());
    expect(refusal(() => registry.add('s1', 'mallory', socket()))).toEqual({
      code: 'ErrSocketLimit',
      status: 429,
      metadata: { max: 3 },
    });
    expect(registry.count('s1', 'mallory')).toBe(3);
    expect(refusal(() => registry.add('s1', 'owner', socket()))).toBeNull();
    expect(refusal(() => registry.add('s2', 'mallory', socket()))).toBeNull();
  });

  it('refuses anyone once the server holds its cap, and admits again after a socket ends', () => {
    const registry = new SocketRegistry({ perServer: 4, perUser: 2 });
    const ends = ['a', 'a', 'b', 'b'].map((user) => registry.add('s1', user, socket()));
    expect(refusal(() => registry.add('s1', 'c', socket()))).toMatchObject({ metadata: { max: 4 } });
    ends[0]?.();
    expect(registry.count('s1')).toBe(3);
    expect(refusal(() => registry.add('s1', 'c', socket()))).toBeNull();
  });

  it('a refused socket is not registered (closing the user later does not touch it)', () => {
    const registry = new SocketRegistry({ perServer: 5, perUser: 1 });
    const first = socket();
    const extra = socket();
    registry.add('s1', 'u', first);
    expect(refusal(() => registry.add('s1', 'u', extra))).not.toBeNull();
    registry.closeUser('s1', 'u');
    expect(first.closed).toEqual([4003]);
    expect(extra.closed).toEqual([]);
  });
});
