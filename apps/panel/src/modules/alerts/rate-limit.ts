/**
 * Per-rule rate limit (docs/alerts.md § Rate limits): at most one alert per rule per WINDOW_MS. Alerts inside
 * the window are counted, and when it ends a single summary ("N more suppressed") goes out, so a crash loop of
 * 100 restarts sends a handful of messages. Memory is one small entry per rule that fired recently.
 */
export const WINDOW_MS = 60_000;

interface Entry {
  lastSent: number;
  suppressed: number;
  timer: NodeJS.Timeout | null;
}

export class RuleRateLimit {
  readonly #entries = new Map<string, Entry>();

  /** `summary(ruleId, count)` is called when a window ends with suppressed alerts. */
  constructor(private readonly summary: (ruleId: string, count: number) => void) {}

  /** True: send now. False: counted into the next summary. */
  admit(ruleId: string, now = Date.now()): boolean {
    this.#prune(now);
    const entry = this.#entries.get(ruleId);
    if (!entry || now - entry.lastSent >= WINDOW_MS) {
      if (entry?.timer) clearTimeout(entry.timer);
      this.#entries.set(ruleId, { lastSent: now, suppressed: 0, timer: null });
      return true;
    }
    entry.suppressed += 1;
    entry.timer ??= setTimeout(() => this.#flush(ruleId), entry.lastSent + WINDOW_MS - now);
    return false;
  }

  forget(ruleId: string): void {
    const entry = this.#entries.get(ruleId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.#entries.delete(ruleId);
  }

  close(): void {
    for (const id of [...this.#entries.keys()]) this.forget(id);
  }

  #flush(ruleId: string): void {
    const entry = this.#entries.get(ruleId);
    if (!entry) return;
    entry.timer = null;
    if (entry.suppressed === 0) return;
    const count = entry.suppressed;
    // The summary opens a new window: alerts right after it are counted into the next one.
    this.#entries.set(ruleId, { lastSent: Date.now(), suppressed: 0, timer: null });
    this.summary(ruleId, count);
  }

  /** Entries idle for a whole window carry nothing: dropped, so the map holds only recent rules. */
  #prune(now: number): void {
    if (this.#entries.size < 1000) return;
    for (const [id, entry] of this.#entries)
      if (!entry.timer && now - entry.lastSent >= WINDOW_MS) this.#entries.delete(id);
  }
}
