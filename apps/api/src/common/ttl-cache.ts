import { LRUCache } from 'lru-cache';

/**
 * The in-process cache of the hot paths (API keys, worker sessions, projects, confirmed webhook
 * addresses): entries live `ttlMs` (CACHE_TTL_MS; 0 turns caching off) and at most `max` are kept,
 * least recently used first out, so keys that are never seen again (a flood of made-up API keys, say)
 * cannot grow the heap.
 *
 * Concurrent misses of one key share one load: when a popular project's entry expires, the hundreds of
 * requests that arrive before the reload has answered wait for that one query instead of each sending
 * their own (docs/decisions.md, "One in-process cache").
 */
export class TtlCache<K extends string, V extends object> {
  private readonly entries: LRUCache<K, V> | undefined;
  private readonly loading = new Map<K, Promise<V | undefined>>();

  /**
   * `weight`, for values whose size the caller does not control (a project's template is up to 100,000
   * characters): the sum of `sizeOf` over the entries is kept under `maxSize` too, so a count alone
   * cannot hold gigabytes.
   */
  constructor(ttlMs: number, max: number, weight?: { maxSize: number; sizeOf: (value: V) => number }) {
    this.entries =
      ttlMs > 0
        ? new LRUCache<K, V>({
            max,
            ttl: ttlMs,
            ...(weight ? { maxSize: weight.maxSize, sizeCalculation: (value: V) => Math.max(1, weight.sizeOf(value)) } : {}),
          })
        : undefined;
  }

  /** The cached value, or `load`'s; a value `load` resolves to undefined is answered but not kept. */
  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries?.get(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loaded = load()
      .then((value) => {
        // A delete() while loading dropped this load: its value may predate the change, so keep it out.
        if (this.loading.get(key) === loaded && value !== undefined) this.entries?.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  /** The cached value without loading it. */
  peek(key: K): V | undefined {
    return this.entries?.get(key);
  }

  set(key: K, value: V): void {
    this.entries?.set(key, value);
  }

  /** Forgets `key`, including a load in flight, so the next get() reads the current state. */
  delete(key: K): void {
    this.entries?.delete(key);
    this.loading.delete(key);
  }

  /** Forgets every entry and keeps every load in flight out (a process that may have missed invalidations). */
  clear(): void {
    this.loading.clear();
    this.entries?.clear();
  }

  /**
   * Forgets every entry whose value matches (a logged-out session, cached under its token's hash), and
   * keeps every load in flight out of the cache, since any of them may have read the value before it changed.
   */
  deleteWhere(matches: (value: V) => boolean): void {
    this.loading.clear();
    if (!this.entries) return;
    const gone: K[] = [];
    for (const [key, value] of this.entries.entries()) if (matches(value)) gone.push(key);
    for (const key of gone) this.entries.delete(key);
  }
}
