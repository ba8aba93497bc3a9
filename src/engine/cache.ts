import { KeyValueStore, readJson } from "./store";

/** How long each kind of answer stays fresh. A stale entry is still served when a refresh fails. */
export const TTL = {
  profile: 7 * 86_400_000,
  /** A closed financial year does not change. */
  closedYear: 365 * 86_400_000,
  latestYear: 7 * 86_400_000,
  notFound: 86_400_000,
  list: 86_400_000,
  counties: 30 * 86_400_000,
} as const;

export interface CacheOptions {
  /** Key under which the cache is persisted. @default "firma.cache.v1" */
  storageKey?: string;
  /** Entries kept at most; the least recently used go first. @default 20000 */
  maxEntries?: number;
  /** Delay before a change is written to the store (writes are coalesced). @default 500 */
  saveDelayMs?: number;
  now?: () => number;
}

/** [value, expiresAt, fetchedAt] */
type Entry = [unknown, number, number];

export interface Hit<V> {
  value: V;
  fresh: boolean;
}

/**
 * An LRU map of JSON values with per-entry lifetimes, persisted to a KeyValueStore.
 * Expired entries are kept (until evicted) so that a failed refresh can fall back to them.
 */
export class PersistentCache {
  private readonly map = new Map<string, Entry>();
  private readonly store: KeyValueStore;
  private readonly storageKey: string;
  private readonly maxEntries: number;
  private readonly saveDelayMs: number;
  private readonly now: () => number;
  private staleBefore = 0;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private loaded: Promise<void> | null = null;
  hits = 0;

  constructor(store: KeyValueStore, options: CacheOptions = {}) {
    this.store = store;
    this.storageKey = options.storageKey ?? "firma.cache.v1";
    this.maxEntries = options.maxEntries ?? 20000;
    this.saveDelayMs = options.saveDelayMs ?? 500;
    this.now = options.now ?? Date.now;
    if (!(this.maxEntries > 0)) throw new TypeError("cache maxEntries must be a positive number");
  }

  /** Loads the persisted entries once; later calls return the same promise. */
  load(): Promise<void> {
    if (!this.loaded) {
      this.loaded = readJson<{ entries?: [string, Entry][]; staleBefore?: number }>(this.store, this.storageKey, {}).then((saved) => {
        for (const [k, e] of saved.entries ?? []) if (!this.map.has(k)) this.map.set(k, e);
        this.staleBefore = Math.max(this.staleBefore, saved.staleBefore ?? 0);
        this.evict();
      });
    }
    return this.loaded;
  }

  /** The entry for a key, fresh or stale; undefined when there is none. Marks it recently used. */
  peek<V>(key: string): Hit<V> | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return { value: e[0] as V, fresh: e[1] > this.now() && e[2] >= this.staleBefore };
  }

  /**
   * getFresh() without the Hit object, for the engine's per-cell path: the fresh value (counted as a
   * hit, marked recently used), or undefined when there is none. Values are JSON, never undefined.
   */
  freshValue<V>(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    if (!(e[1] > this.now() && e[2] >= this.staleBefore)) return undefined;
    this.hits++;
    return e[0] as V;
  }

  /** A fresh value, or undefined. Counts a hit. */
  getFresh<V>(key: string): Hit<V> | undefined {
    const h = this.peek<V>(key);
    if (!h || !h.fresh) return undefined;
    this.hits++;
    return h;
  }

  set(key: string, value: unknown, ttlMs: number): void {
    const now = this.now();
    this.map.delete(key);
    this.map.set(key, [value, now + ttlMs, now]);
    this.evict();
    this.scheduleSave();
  }

  /** Everything fetched until now counts as stale (a user-asked refresh); values stay as fallbacks. */
  markAllStale(): void {
    this.staleBefore = this.now() + 1;
    this.scheduleSave();
  }

  clear(): void {
    this.map.clear();
    this.scheduleSave();
  }

  get size(): number {
    return this.map.size;
  }

  /** Writes now (and cancels a pending delayed write). */
  async save(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const payload = JSON.stringify({ entries: [...this.map], staleBefore: this.staleBefore });
    await this.store.setItem(this.storageKey, payload);
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save().catch(() => undefined);
    }, this.saveDelayMs);
    (this.saveTimer as { unref?: () => void }).unref?.();
  }

  private evict(): void {
    const it = this.map.keys();
    while (this.map.size > this.maxEntries) this.map.delete(it.next().value as string);
  }
}
