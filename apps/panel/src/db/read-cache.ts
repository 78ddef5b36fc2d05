import type { WriteGeneration } from './write-generation';

interface Entry<V> {
  value: V;
  generation: number;
  until: number;
}

/**
 * A small LRU of database reads for hot paths. An entry is dropped as soon as this process writes anything
 * (see WriteGeneration), so this process never serves what it changed; writes by another panel process are
 * seen within `ttlMs`. A value read while a write ran is not kept (the write may have changed it).
 */
export class ReadCache<V> {
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    private readonly writes: WriteGeneration,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The cached value, or `read()` now; `expiresAt` (epoch ms) caps how long a value may be kept. */
  async get(key: string, read: () => Promise<V>, expiresAt?: (value: V) => number): Promise<V> {
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      if (hit.generation === this.writes.value && hit.until > now) {
        this.#entries.set(key, hit); // most recently used last
        return hit.value;
      }
    }
    const generation = this.writes.value;
    const value = await read();
    if (value !== undefined && generation === this.writes.value) {
      if (this.#entries.size >= this.maxEntries)
        this.#entries.delete(this.#entries.keys().next().value ?? '');
      const until = Math.min(now + this.ttlMs, expiresAt ? expiresAt(value) : Infinity);
      this.#entries.set(key, { value, generation, until });
    }
    return value;
  }
}
