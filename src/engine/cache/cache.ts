import { KvAnswerStore, KvAnswerStoreOptions, StoreTimeoutError, StoreWriteError } from "./answer-store";
import { EntryMap } from "./entry-map";
import { ENGINE_DEFAULTS } from "../engine-options";
import { entry, Entry, entrySize, LruOrder } from "./lru-order";
import { turnClock } from "../cells/turn-clock";
import { SaveTimer } from "./save-timer";
import { AnswerStore, hasAnswerStore, KeyValueStore, StoreNotice, StoredAnswer } from "./store";

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

/**
 * Memory the answers may take, estimated as the key's length and the value's JSON bytes plus ENTRY_OVERHEAD (lru-order.ts): close
 * to what V8 holds for them (a parsed record takes about its JSON's length; docs/cache.md). A profile
 * is ~220 bytes of JSON and a financial year ~140. Node (the CLI) gets 512 MB. A webview (the add-in)
 * gets 96 MB, ~300,000 answers: W7's 200,000 and a 100,000-name sheet fit whole, and past it the
 * least recently used leave memory for the persistent tiers, which keep them (docs/cache.md says why).
 */
export const DEFAULT_MAX_BYTES = typeof process !== "undefined" && process.versions?.node ? 512 * 1024 * 1024 : 96 * 1024 * 1024;

export interface CacheOptions {
  /** Where the answers are kept. @default the store's own (SQLite for the CLI), else a KvAnswerStore over the store */
  backend?: AnswerStore;
  /** Options of the default KvAnswerStore (byte cap, shards, read timeout). */
  kv?: KvAnswerStoreOptions;
  /** Answers kept in memory at most; the least recently used go first. @default 500,000 (the engine's, ENGINE_DEFAULTS.maxCacheEntries) */
  maxEntries?: number;
  /** Memory the answers may take (estimated from their JSON bytes); the least recently used go first. @default 512 MB in Node, 96 MB elsewhere */
  maxBytes?: number;
  /**
   * A save this long after the last change, as a safety net: the engine and the CLI save when a
   * refresh ends, which does not depend on a timer that a closing document may never fire. 0 = none. @default 500
   */
  saveDelayMs?: number;
  /** While answers keep arriving, the longest a change waits for its save (save-timer.ts). @default 5,000 */
  maxSaveDelayMs?: number;
  now?: () => number;
}

/** Something the user must be told about: answers that had to go, a store that failed or did not answer. */
export interface CacheProblem {
  kind: "full" | "write_failed" | "read_timeout" | "read_failed";
  /** For developers and logs, in English: the surfaces tell the user from `kind`, in the user's language. */
  message: string;
  /** Answers dropped (least recently used first). */
  evicted?: number;
  /** The catalog's words for it, when more precise than the kind's (a tier of the add-in's storage: StoreNotice). */
  detail?: StoreNotice["detail"];
}

export interface CacheStats {
  /** Answers in memory. */
  entries: number;
  /** Memory they take, estimated. */
  bytes: number;
  maxBytes: number;
  /** What the saved answers take in the store, when the store can tell (the add-in's storage). */
  persistedBytes?: number;
  maxPersistedBytes?: number;
}

export interface Hit<V> {
  value: V;
  fresh: boolean;
}

/**
 * An LRU map of JSON values with per-entry lifetimes, bounded by bytes, saved one entry per answer
 * to an AnswerStore, incrementally: save() writes only what changed since the last save.
 * Expired entries are kept (until evicted) so that a failed refresh can fall back to them.
 * Every eviction and every failure of the store is reported (onProblem), never swallowed.
 */
export class PersistentCache {
  /** By key, a company's answers by number (entry-map.ts). */
  private readonly map = new EntryMap();
  /** Least recently used first (lru-order.ts); the Map only finds entries. */
  private readonly order = new LruOrder();
  private readonly backend: AnswerStore;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly readNow: () => number;
  private readonly listeners = new Set<(p: CacheProblem) => void>();
  private staleBefore = 0;
  /** Answers older than this count as stale (`firma refresh --max-age`); null: only their lifetimes. */
  private maxAgeMs: number | null = null;
  private bytes = 0;
  /** Recency clock: an entry's `used` is the clock when it was last set or read. */
  private clock = 0;
  /** The clock at the last save: entries read after it have moved on in the LRU order. */
  private savedClock = 0;
  /** Keys set or marked stale since the last save. */
  private dirty = new Set<string>();
  /** Answers evicted from memory before a save wrote them: the next save does, so the persistent tiers keep them. */
  private leaving = new Map<string, StoredAnswer>();
  /** Answers evicted from memory that the store keeps (or will, at the next save): recall() reads them back. */
  private readonly spilledKeys = new Set<string>();
  private cleared = false;
  private metaDirty = false;
  private evictedUnreported = 0;
  private readonly saveTimer: SaveTimer;
  private saving: Promise<void> = Promise.resolve();
  private loaded: Promise<void> | null = null;
  /** The latest problems, newest last, for a pane opened after they happened. */
  readonly problems: CacheProblem[] = [];
  hits = 0;

  constructor(store: KeyValueStore, options: CacheOptions = {}) {
    this.backend = options.backend ?? (hasAnswerStore(store) ? store.answers : new KvAnswerStore(store, options.kv));
    this.maxEntries = options.maxEntries ?? ENGINE_DEFAULTS.maxCacheEntries;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const saveDelayMs = options.saveDelayMs ?? 500;
    // Reported through onProblem by saveNow; nothing more to do with the rejection here.
    this.saveTimer = new SaveTimer(
      saveDelayMs,
      Math.max(saveDelayMs, options.maxSaveDelayMs ?? 5000),
      () => void this.save().catch(() => undefined),
    );
    this.now = options.now ?? Date.now;
    this.readNow = turnClock(this.now); // freshness: one clock read per run of cells
    if (!(this.maxEntries > 0)) throw new TypeError("cache maxEntries must be a positive number");
    if (!(this.maxBytes > 0)) throw new TypeError("cache maxBytes must be a positive number");
  }

  /** Tells `listener` about every problem from now on; returns the function that stops it. */
  onProblem(listener: (p: CacheProblem) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Loads the saved entries once; later calls return the same promise. A store that fails or does not
   * answer in time leaves the cache empty (answers are fetched again) and is reported; it never rejects,
   * so no cell waits on storage.
   */
  load(): Promise<void> {
    if (!this.loaded) {
      this.loaded = this.backend.load().then(
        (saved) => {
          // Saved entries are least recently used first: in that order, before the entries set during the load.
          const newer: Entry[] = [];
          for (let e = this.order.head; e; e = e[7]) newer.push(e);
          this.order.clear();
          let top = 0;
          for (const [k, a] of saved.entries) {
            if (this.map.has(k)) continue; // set() during the load is newer
            const e = entry(k, a.value, a.expires, a.fetched, a.used, entrySize(k, a.value));
            this.map.set(k, e);
            this.order.append(e);
            this.bytes += e[4];
            if (a.used > top) top = a.used;
          }
          for (const e of newer) this.order.append(e);
          // Entries set during the load keep their place above the saved ones.
          for (const e of this.map.values()) if (e[3] <= top) e[3] = top + e[3];
          this.clock = Math.max(this.clock, top) + this.map.size;
          this.savedClock = this.clock;
          this.staleBefore = Math.max(this.staleBefore, saved.staleBefore);
          if (saved.pending) this.metaDirty = true;
          this.evict();
          for (const n of saved.notices ?? []) this.report(n);
        },
        (e) => {
          const timeout = e instanceof StoreTimeoutError;
          this.report({
            kind: timeout ? "read_timeout" : "read_failed",
            message: timeout
              ? e.message
              : `The cache in ${this.backend.where} could not be read (${(e as Error)?.message ?? e}); it starts empty.`,
          });
        },
      );
    }
    return this.loaded;
  }

  /** The entry for a key, fresh or stale; undefined when there is none. Marks it recently used. */
  peek<V>(key: string): Hit<V> | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.order.touch(e);
    e[3] = ++this.clock;
    return { value: e[0] as V, fresh: this.isFresh(e) };
  }

  private isFresh(e: Entry): boolean {
    const now = this.readNow();
    return e[1] > now && e[2] >= this.staleBefore && (this.maxAgeMs === null || e[2] >= now - this.maxAgeMs);
  }

  /** How old an answer may be to count as fresh, whatever its lifetime (null: its lifetime decides). */
  setMaxAge(ms: number | null): void {
    if (ms !== null && !(Number.isFinite(ms) && ms >= 0)) throw new TypeError("maxAge is a number of ms ≥ 0, or null");
    this.maxAgeMs = ms;
  }

  /**
   * getFresh() without the Hit object, for the engine's per-cell path: the fresh value (counted as a
   * hit, marked recently used), or undefined when there is none. Values are JSON, never undefined.
   */
  freshValue<V>(key: string): V | undefined {
    return this.fresh<V>(this.map.get(key));
  }

  /** freshValue() of a company's answer by its number (keys.ts answerNumberOf): no key string made. */
  freshValueAt<V>(n: number): V | undefined {
    return this.fresh<V>(this.map.at(n));
  }

  private fresh<V>(e: Entry | undefined): V | undefined {
    if (e === undefined) return undefined;
    this.order.touch(e);
    e[3] = ++this.clock;
    if (!this.isFresh(e)) return undefined;
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

  /** When the answer for a key was fetched (ms since the epoch); undefined when there is none. Does not mark it used. */
  fetchedAt(key: string): number | undefined {
    return this.map.get(key)?.[2];
  }

  set(key: string, value: unknown, ttlMs: number): void {
    const now = this.now();
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old[4];
      this.order.remove(old);
    }
    const e = entry(key, value, now + ttlMs, now, ++this.clock, entrySize(key, value));
    this.map.set(key, e);
    this.order.append(e);
    this.bytes += e[4];
    this.dirty.add(key);
    this.leaving.delete(key);
    this.spilledKeys.delete(key);
    this.evict();
    this.scheduleSave();
  }

  /** The answer for a key counts as stale (still a fallback); it keeps its value and when it was fetched. */
  markStale(key: string): void {
    const e = this.map.get(key);
    if (!e || e[1] === 0) return;
    e[1] = 0;
    this.dirty.add(key);
    this.scheduleSave();
  }

  /** Everything fetched until now counts as stale (a user-asked refresh); values stay as fallbacks. */
  markAllStale(): void {
    this.staleBefore = this.now() + 1;
    this.metaDirty = true;
    this.scheduleSave();
  }

  clear(): void {
    this.map.clear();
    this.order.clear();
    this.dirty.clear();
    this.leaving.clear();
    this.spilledKeys.clear();
    this.bytes = 0;
    this.cleared = true;
    this.scheduleSave();
  }

  get size(): number {
    return this.map.size;
  }

  /** Whether the answer for a key left memory for the store (recall() reads it back). */
  spilled(key: string): boolean {
    return this.spilledKeys.has(key);
  }

  /**
   * Reads answers that left memory back from the store (one read for all of them): a cell asking for one
   * again costs no call. Resolves with how many came back; a store that cannot read them (or failed) gives 0.
   */
  async recall(keys: Iterable<string>): Promise<number> {
    const want: string[] = [];
    let n = 0;
    for (const k of keys) {
      if (!this.spilledKeys.has(k) || this.map.has(k)) continue;
      const a = this.leaving.get(k);
      if (a) n += this.restore(k, a);
      else want.push(k);
    }
    if (want.length > 0 && this.backend.read) {
      let got: Map<string, StoredAnswer>;
      try {
        got = await this.backend.read(want);
      } catch (e) {
        this.report({ kind: "read_failed", message: `${(e as Error)?.message ?? e}` });
        return n;
      }
      for (const k of want) {
        const a = got.get(k);
        // Set meanwhile: the newer answer stays. Not in the store (its own cap dropped it): no longer spilled.
        if (a && this.spilledKeys.has(k) && !this.map.has(k)) n += this.restore(k, a);
        else this.spilledKeys.delete(k);
      }
    }
    this.evict();
    return n;
  }

  private restore(key: string, a: StoredAnswer): number {
    const e = entry(key, a.value, a.expires, a.fetched, ++this.clock, entrySize(key, a.value));
    this.map.set(key, e);
    this.order.append(e);
    this.bytes += e[4];
    this.spilledKeys.delete(key);
    if (this.leaving.delete(key)) this.dirty.add(key);
    return 1;
  }

  stats(): CacheStats {
    const s: CacheStats = { entries: this.map.size, bytes: this.bytes, maxBytes: this.maxBytes };
    const b = this.backend as Partial<Pick<KvAnswerStore, "persistedBytes" | "maxPersistedBytes">>;
    if (typeof b.persistedBytes === "number" && typeof b.maxPersistedBytes === "number") {
      s.persistedBytes = b.persistedBytes;
      s.maxPersistedBytes = b.maxPersistedBytes;
    }
    return s;
  }

  /**
   * Writes what changed since the last save (and cancels a pending delayed save). Rejects when the
   * store failed, after reporting it; what failed stays to be written by the next save.
   */
  save(): Promise<void> {
    this.saveTimer.cancel();
    // One save at a time: a second waits for the first, then writes what is left.
    const next = this.saving.catch(() => undefined).then(() => this.saveNow());
    this.saving = next;
    return next;
  }

  private async saveNow(): Promise<void> {
    if (this.loaded) await this.loaded; // never write over a store not read yet
    const put: [string, StoredAnswer][] = [];
    const touched: [string, number][] = [];
    const dirty = this.dirty;
    this.dirty = new Set();
    const leaving = this.leaving;
    this.leaving = new Map();
    const since = this.savedClock;
    for (const k of dirty) {
      const e = this.map.get(k);
      if (e) put.push([k, { value: e[0], expires: e[1], fetched: e[2], used: e[3] }]);
    }
    put.push(...leaving);
    // Reads since the last save move entries up the LRU order; the scan is per save, never per read.
    for (const [k, e] of this.map) if (e[3] > since && !dirty.has(k)) touched.push([k, e[3]]);
    const cleared = this.cleared;
    const metaDirty = this.metaDirty;
    if (!cleared && !metaDirty && put.length === 0 && touched.length === 0) return;
    this.cleared = false;
    this.metaDirty = false;
    const clock = this.clock;
    try {
      if (cleared) await this.backend.clear();
      const { evicted, notices } = await this.backend.write({ put, touched, staleBefore: this.staleBefore });
      this.savedClock = clock;
      for (const n of notices ?? []) this.report(n);
      if (evicted > 0)
        this.report({ kind: "full", message: `The cache in ${this.backend.where} is full: ${evicted} answers dropped`, evicted });
    } catch (e) {
      // What was not written is written by the next save.
      for (const k of dirty) if (this.map.has(k)) this.dirty.add(k);
      for (const [k, a] of leaving) if (!this.map.has(k) && !this.leaving.has(k)) this.leaving.set(k, a);
      if (cleared) this.cleared = true;
      if (metaDirty) this.metaDirty = true;
      const evicted = e instanceof StoreWriteError ? e.evicted : 0;
      this.report({
        kind: "write_failed",
        message:
          e instanceof StoreWriteError ? e.message : `The cache could not be saved in ${this.backend.where}: ${(e as Error)?.message ?? e}`,
        ...(evicted ? { evicted } : {}),
      });
      throw e;
    }
  }

  private scheduleSave(): void {
    this.saveTimer.schedule();
  }

  private report(p: CacheProblem): void {
    this.problems.push(p);
    if (this.problems.length > 20) this.problems.shift();
    for (const l of this.listeners) {
      try {
        l(p);
      } catch {
        /* a listener's own failure must not break the cache */
      }
    }
  }

  private evict(): void {
    if (this.map.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
    let n = 0;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const e = this.order.head!;
      const k = e[5];
      this.order.remove(e);
      this.map.delete(k);
      this.bytes -= e[4];
      // Not saved yet: the next save writes it, so that the store keeps what memory lets go.
      if (this.dirty.delete(k)) this.leaving.set(k, { value: e[0], expires: e[1], fetched: e[2], used: e[3] });
      this.spilledKeys.add(k);
      n++;
    }
    // One report per burst of evictions (a refresh may evict thousands, one set() at a time).
    if (this.evictedUnreported === 0) {
      queueMicrotask(() => {
        const evicted = this.evictedUnreported;
        this.evictedUnreported = 0;
        this.report({ kind: "full", message: `The in-memory cache is full: ${evicted} answers left memory`, evicted });
      });
    }
    this.evictedUnreported += n;
  }
}
