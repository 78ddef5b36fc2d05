import { AppError } from '@hearth/contract';

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Fixed-window counters in memory, keyed by e.g. `login:ip:1.2.3.4` or `login:account:a@b.c`.
 * One panel process holds its own counters; behind a load balancer each process limits on its own
 * (documented in docs/security.md). Old windows are swept as keys are touched.
 */
export class RateLimiter {
  #hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one attempt; throws 429 ErrRateLimited (with `retryAfter` seconds) when over the limit. */
  hit(key: string, limit: Limit): void {
    const now = this.now();
    this.#sweep(now);
    let entry = this.#hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + limit.windowMs };
      this.#hits.set(key, entry);
    }
    entry.count += 1;
    if (entry.count > limit.max) {
      throw new AppError('ErrRateLimited', {
        retryAfter: Math.max(1, Math.ceil((entry.resetAt - now) / 1000)),
      });
    }
  }

  /** Forgets a key (a successful login clears the account's failure count). */
  reset(key: string): void {
    this.#hits.delete(key);
  }

  #sweep(now: number): void {
    if (this.#hits.size < 10_000) return;
    for (const [key, entry] of this.#hits) if (entry.resetAt <= now) this.#hits.delete(key);
  }
}

/** Attempts per minute (docs/security.md lists the same numbers). */
export interface AuthLimits {
  loginPerIp: Limit;
  loginPerAccount: Limit;
  otpPerIp: Limit;
  otpPerAccount: Limit;
  registerPerIp: Limit;
  tokenPerIp: Limit;
  tokenPerClient: Limit;
}

const perMinute = (max: number): Limit => ({ max, windowMs: 60_000 });

export const defaultAuthLimits: AuthLimits = {
  loginPerIp: perMinute(20),
  loginPerAccount: perMinute(5),
  otpPerIp: perMinute(20),
  otpPerAccount: perMinute(5),
  registerPerIp: perMinute(5),
  tokenPerIp: perMinute(30),
  tokenPerClient: perMinute(10),
};
