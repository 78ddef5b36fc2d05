/**
 * The SFTP login limiter's window on an injected clock (the daemon passes Date.now): `max` failures block a key
 * until one minute after its first failure, keys are independent, and a reset forgets a key at once. The
 * whole path (real OpenSSH client, daemon, panel) is in e2e/sftp-limits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LoginLimiter } from '../../src/sftp/login-limiter';

function limiterAt(start: number, max = 3) {
  const clock = { now: start };
  return { clock, limiter: new LoginLimiter(max, 60_000, () => clock.now) };
}

describe('SFTP login limiter', () => {
  it('blocks a key after max failures until the window from its first failure ends', () => {
    const { clock, limiter } = limiterAt(1_000_000);
    limiter.fail('ip:a');
    clock.now += 20_000;
    limiter.fail('ip:a');
    expect(limiter.blocked('ip:a')).toBe(false);
    clock.now += 20_000;
    limiter.fail('ip:a');
    expect(limiter.blocked('ip:a')).toBe(true);
    clock.now = 1_000_000 + 59_999;
    expect(limiter.blocked('ip:a')).toBe(true);
    clock.now = 1_000_000 + 60_000;
    expect(limiter.blocked('ip:a')).toBe(false);
    // A failure after the window starts a new one with a count of one.
    limiter.fail('ip:a');
    limiter.fail('ip:a');
    expect(limiter.blocked('ip:a')).toBe(false);
    limiter.fail('ip:a');
    expect(limiter.blocked('ip:a')).toBe(true);
  });

  it('keeps keys apart and forgets a reset key', () => {
    const { limiter } = limiterAt(5_000);
    for (let i = 0; i < 3; i += 1) limiter.fail('account:ann@example.com');
    expect(limiter.blocked('account:ann@example.com')).toBe(true);
    expect(limiter.blocked('account:bob@example.com')).toBe(false);
    expect(limiter.blocked('ip:127.0.0.1')).toBe(false);
    limiter.reset('account:ann@example.com');
    expect(limiter.blocked('account:ann@example.com')).toBe(false);
    limiter.fail('account:ann@example.com');
    expect(limiter.blocked('account:ann@example.com')).toBe(false);
  });

  it('sheds expired keys when it holds many, without unblocking live ones', () => {
    const { clock, limiter } = limiterAt(0, 1);
    for (let i = 0; i <= 10_001; i += 1) limiter.fail(`ip:old-${i}`);
    clock.now += 30_000;
    limiter.fail('ip:live');
    clock.now += 31_000; // the old keys' window is over, the live key's is not
    limiter.fail('ip:new');
    expect(limiter.blocked('ip:live')).toBe(true);
    expect(limiter.blocked('ip:old-1')).toBe(false);
    expect(limiter.blocked('ip:new')).toBe(true);
  });
});
