/**
 * The add-in's answers in two tiers: OfficeRuntime.storage shards (8 MB, the tier that is always
 * there; the engine's KvAnswerStore) and, where the runtime has it, IndexedDB (src/office/indexeddb-answers.ts:
 * compressed, sized from the browser's estimate, 256 MB of answers at most). Every save writes both;
 * a load reads both and keeps, for each answer, the newer. IndexedDB is best-effort: absent, it is
 * not used; when it fails to open, to read, to write, or has no room, the add-in goes on with
 * OfficeRuntime.storage alone for the session and says so (a `tier` problem), never failing a save
 * or a load for it. docs/cache.md says which tier holds what on each platform.
 */
import { KvAnswerStore, KvAnswerStoreOptions, StoreTimeoutError, StoreWriteError } from "../engine/cache/answer-store";
import type { AnswerChanges, AnswerStore, KeyValueStore, StoreNotice, StoredAnswer } from "../engine/cache/store";
import { t, type MessageKey, type Params } from "../shared/messages";
import { browserEstimate, browserIndexedDb, capFromEstimate, IdbKeyValueStore, openAnswerDb } from "./indexeddb-answers";

/** Uncompressed bytes of answers IndexedDB may keep at most: 200,000 answers take ~45 MB. */
export const IDB_DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** Writes in a row IndexedDB may leave unsettled (a busy page, a large tier) before it is given up for the session. */
const IDB_TIMEOUTS_TOLERATED = 3;

export interface TieredOptions {
  /** Opens the IndexedDB tier's store; null: this runtime has none. @default the browser's IndexedDB */
  open?: () => Promise<(KeyValueStore & { corrupt?: number }) | null>;
  /** The browser's room for it. @default navigator.storage.estimate() */
  estimate?: () => Promise<{ quota?: number; usage?: number } | null>;
  /** Options of the IndexedDB tier's KvAnswerStore. @default 256 shards, 256 MB, 3 s reads, 10 s writes */
  idb?: KvAnswerStoreOptions;
  /**
   * IndexedDB is written at most this often: its shards hold every answer, so a save rewrites most of them
   * (~1 s of compression per 40 MB); meanwhile the most recent answers are in OfficeRuntime.storage's shards,
   * and what waits is written by a timer. 0: every save. @default 5000
   */
  idbEveryMs?: number;
  now?: () => number;
}

type Loaded = Awaited<ReturnType<AnswerStore["load"]>>;

/** A notice: a short English line for developers and logs (as PersistentCache's problems carry); the pane says it in the user's language from `detail`. */
function notice(kind: StoreNotice["kind"], key: MessageKey, params: Record<string, string | number>): StoreNotice {
  return { kind, message: t("en", key, params), detail: { key, params } };
}

function reasonOf(e: unknown): string {
  if (e instanceof StoreWriteError) return reasonOf(e.cause);
  const name = (e as { name?: string })?.name;
  const msg = (e as { message?: string })?.message ?? String(e);
  return name && name !== "Error" && !msg.includes(name) ? `${name}: ${msg}` : msg;
}

function isQuota(e: unknown): boolean {
  const cause = e instanceof StoreWriteError ? e.cause : e;
  return /quota/i.test(`${(cause as { name?: string })?.name ?? ""} ${reasonOf(cause)}`);
}

export class TieredAnswerStore implements AnswerStore {
  readonly where = "OfficeRuntime.storage";
  /** The IndexedDB tier while it works (null: absent, or given up on for this session). */
  private idb: KvAnswerStore | null = null;
  private readonly kv: KvAnswerStore;
  /** Changes IndexedDB has not been given yet (it is written at most every idbEveryMs). */
  private waiting: { put: Map<string, StoredAnswer>; touched: Map<string, number>; staleBefore: number } | null = null;
  private idbAt = -Infinity;
  /** IndexedDB writes in a row that did not settle in time. */
  private idbTimeouts = 0;
  private idbBusy = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Notices of IndexedDB writes made by the timer, for the next save to report. */
  private readonly late: StoreNotice[] = [];

  constructor(
    kv: KeyValueStore,
    private readonly options: TieredOptions = {},
    kvOptions: KvAnswerStoreOptions = {},
  ) {
    this.kv = new KvAnswerStore(kv, kvOptions);
  }

  /** Which tier keeps everything this session: "indexeddb", or "storage" (OfficeRuntime.storage alone). */
  get tier(): "indexeddb" | "storage" {
    return this.idb ? "indexeddb" : "storage";
  }

  /** What the tiers hold (uncompressed bytes), for the pane. */
  get persistedBytes(): number {
    return Math.max(this.kv.persistedBytes, this.idb?.persistedBytes ?? 0);
  }

  get maxPersistedBytes(): number {
    return this.idb?.maxPersistedBytes ?? this.kv.maxPersistedBytes;
  }

  async load(): Promise<Loaded> {
    const notices: StoreNotice[] = [];
    const [kv, idb] = await Promise.allSettled([this.kv.load(), this.loadIdb(notices)]);
    if (kv.status === "rejected") {
      if (idb.status !== "fulfilled" || idb.value === null) throw kv.reason;
      const timeout = kv.reason instanceof StoreTimeoutError;
      notices.push({ kind: timeout ? "read_timeout" : "read_failed", message: reasonOf(kv.reason) });
    }
    const a = kv.status === "fulfilled" ? kv.value : null;
    const b = idb.status === "fulfilled" ? idb.value : null;
    if (idb.status === "rejected") {
      const timeout = idb.reason instanceof StoreTimeoutError;
      this.giveUp(notices, timeout ? "read_timeout" : "read_failed", "cache.idb.unavailable", idb.reason);
    }
    const merged = new Map<string, StoredAnswer>();
    for (const part of [b, a]) {
      for (const [k, x] of part?.entries ?? []) {
        const y = merged.get(k);
        // The newer answer wins; of two of the same fetch, the one marked stale (a refresh asked for it).
        if (!y || x.fetched > y.fetched || (x.fetched === y.fetched && x.expires < y.expires)) merged.set(k, x);
      }
    }
    const entries = [...merged].sort((x, y) => x[1].used - y[1].used);
    return {
      entries,
      staleBefore: Math.max(a?.staleBefore ?? 0, b?.staleBefore ?? 0),
      pending: Boolean(a?.pending || b?.pending),
      notices,
    };
  }

  async write(changes: AnswerChanges): Promise<{ evicted: number; notices: StoreNotice[] }> {
    const notices = this.late.splice(0);
    this.merge(changes);
    const now = (this.options.now ?? Date.now)();
    const due = this.idb !== null && !this.idbBusy && now - this.idbAt >= (this.options.idbEveryMs ?? 5000);
    if (this.idb && !due) this.later();
    const [kv, big] = await Promise.allSettled([this.kv.write(changes), due ? this.flushIdb(notices) : Promise.resolve(null)]);
    const kept = big.status === "fulfilled" ? big.value : null;
    if (kv.status === "rejected") {
      // OfficeRuntime.storage failed: a save that IndexedDB kept is reported, not failed (the shards stay to be written).
      if (!kept) throw kv.reason;
      notices.push({ kind: "write_failed", message: reasonOf(kv.reason) });
    }
    // With IndexedDB, answers leaving the 8 MB shards are still kept: only IndexedDB's evictions count.
    const evicted = kept ? kept.evicted : this.idb ? 0 : kv.status === "fulfilled" ? kv.value.evicted : 0;
    return { evicted, notices };
  }

  /** The answers of these keys, the newer of the two tiers' (IndexedDB's waiting changes included). */
  async read(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    const [a, b] = await Promise.all([this.kv.read(keys), this.idb ? this.idb.read(keys) : new Map<string, StoredAnswer>()]);
    for (const k of keys) {
      const x = this.waiting?.put.get(k) ?? b.get(k);
      const y = a.get(k);
      if (x && (!y || x.fetched > y.fetched)) a.set(k, x);
    }
    return a;
  }

  async clear(): Promise<void> {
    this.waiting = null;
    await Promise.all([this.kv.clear(), this.idb?.clear().catch(() => undefined)]);
  }

  /** Adds a save's changes to those IndexedDB has not been given yet. */
  private merge(c: AnswerChanges): void {
    const w = (this.waiting ??= { put: new Map(), touched: new Map(), staleBefore: c.staleBefore });
    for (const [k, a] of c.put) {
      w.put.set(k, a);
      w.touched.delete(k);
    }
    for (const [k, used] of c.touched) {
      const a = w.put.get(k);
      if (a) a.used = used;
      else w.touched.set(k, used);
    }
    w.staleBefore = c.staleBefore;
  }

  /** Gives IndexedDB what waits; a failure gives it up for the session, with a notice. Resolves null then. */
  private async flushIdb(notices: StoreNotice[]): Promise<{ evicted: number } | null> {
    const idb = this.idb;
    const w = this.waiting;
    if (!idb || !w) return null;
    this.waiting = null;
    this.idbBusy = true;
    this.idbAt = (this.options.now ?? Date.now)();
    try {
      const done = await idb.write({ put: [...w.put], touched: [...w.touched], staleBefore: w.staleBefore });
      this.idbTimeouts = 0;
      return done;
    } catch (e) {
      const cause = e instanceof StoreWriteError ? e.cause : e;
      if (cause instanceof StoreTimeoutError && ++this.idbTimeouts < IDB_TIMEOUTS_TOLERATED) {
        // Slow, not refusing: the tier keeps what it was given (its shards stay to be written) and tries again.
        this.waiting ??= { put: new Map(), touched: new Map(), staleBefore: w.staleBefore };
        this.later();
        return { evicted: 0 };
      }
      this.giveUp(notices, "write_failed", isQuota(e) ? "cache.idb.quota" : "cache.idb.writeFailed", e);
      return null;
    } finally {
      this.idbBusy = false;
    }
  }

  /** Writes what waits once IndexedDB's interval has passed; its notices go with the next save's. */
  private later(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.idbAt + (this.options.idbEveryMs ?? 5000) - (this.options.now ?? Date.now)());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.idbBusy) return this.later();
      void this.flushIdb(this.late);
    }, wait);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Opens and reads the IndexedDB tier: null when this runtime has none, or no room; rejects when it fails. */
  private async loadIdb(notices: StoreNotice[]): Promise<Loaded | null> {
    const o = this.options;
    const idbOptions = { shards: 256, prefix: "a.", ...o.idb };
    const readTimeoutMs = idbOptions.readTimeoutMs ?? 3000;
    const open = o.open ?? (async () => openFactory(readTimeoutMs));
    const [store, estimate] = await Promise.all([open(), (o.estimate ?? browserEstimate)().catch(() => null)]);
    if (!store) return null;
    const cap = capFromEstimate(estimate, idbOptions.maxBytes ?? IDB_DEFAULT_MAX_BYTES);
    if (cap === 0) {
      const free = Math.max(0, (estimate?.quota ?? 0) - (estimate?.usage ?? 0));
      this.giveUp(notices, "write_failed", "cache.idb.quota", null, { free: `${Math.round(free / 1024)} kB` });
      return null;
    }
    const tier = new KvAnswerStore(store, { ...idbOptions, maxBytes: cap });
    const loaded = await tier.load();
    if (store.corrupt) notices.push(notice("read_failed", "cache.idb.corrupt", { shards: store.corrupt }));
    this.idb = tier;
    return loaded;
  }

  private giveUp(notices: StoreNotice[], kind: StoreNotice["kind"], key: MessageKey, e: unknown, params: Params = {}): void {
    this.idb = null;
    notices.push(notice(kind, key, { reason: e === null ? "" : reasonOf(e), free: "?", ...params }));
  }
}

async function openFactory(timeoutMs: number): Promise<IdbKeyValueStore | null> {
  const factory = browserIndexedDb();
  return factory ? new IdbKeyValueStore(await openAnswerDb(factory, timeoutMs)) : null;
}
