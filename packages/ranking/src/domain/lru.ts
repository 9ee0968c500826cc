// A bounded map that forgets the least recently used entry when full (Map keeps insertion order).

/**
 * Least-recently-used map with a fixed capacity. get() and set() count as a use; peek() does not,
 * so reads through peek() leave the eviction order to the writes alone.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value of `key` without counting as a use (the eviction order is unchanged). */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Forgets `key`; true when it was there. */
  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }
}
