/** Failed SFTP logins per client address and per account, in fixed one-minute windows (memory only). */
export class LoginLimiter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while `key` has used up its failures for the window. */
  blocked(key: string): boolean {
    const entry = this.failures.get(key);
    return entry !== undefined && entry.resetAt > this.now() && entry.count >= this.max;
  }

  fail(key: string): void {
    const now = this.now();
    if (this.failures.size > 10_000) {
      for (const [k, e] of this.failures) if (e.resetAt <= now) this.failures.delete(k);
    }
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
