import type { AnswerChanges, AnswerStore, KeyValueStore, StoredAnswer } from "./store";

/**
 * The add-in's AnswerStore over OfficeRuntime.storage (or any KeyValueStore): answers spread over a
 * fixed number of keys (shards, by a hash of the answer's key), so a save rewrites only the shards
 * whose answers changed, never one blob of everything. OfficeRuntime.storage gives 10 MB per domain,
 * shared with every other add-in served from the same domain, so the persisted answers are capped
 * well below that (8 MB by default); past the cap the least recently used answers leave the store
 * (they stay in memory for this session) and the cache reports it.
 */
export interface KvAnswerStoreOptions {
  /** Keys are `<prefix>meta` and `<prefix><shard>`. @default "firma.c2." */
  prefix?: string;
  /** Shards used when the store is new (a saved store keeps its own count). @default 64 */
  shards?: number;
  /** Persisted bytes at most (UTF-8 bytes of the stored strings). @default 8 MB */
  maxBytes?: number;
  /** A read that has not settled by then counts as failed (office-js #1058: reads may never settle). @default 3000 */
  readTimeoutMs?: number;
  /** A write that has not settled by then counts as failed: a save must end. @default 10000 */
  writeTimeoutMs?: number;
  /** The single-blob cache of earlier versions: read once, moved into shards, removed. @default "firma.cache.v1" */
  legacyKey?: string;
}

export const KV_DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/** A read or write of the backing store that did not settle in time. */
export class StoreTimeoutError extends Error {
  constructor(
    readonly op: "read" | "write",
    readonly ms: number,
  ) {
    super(
      op === "read"
        ? `Memoria add-in-ului nu a răspuns în ${ms} ms; cache-ul pornește gol. / The add-in's storage did not answer within ${ms} ms; the cache starts empty.`
        : `Memoria add-in-ului nu a confirmat scrierea în ${ms} ms. / The add-in's storage did not confirm a write within ${ms} ms.`,
    );
    this.name = "StoreTimeoutError";
  }
}

/** The store refused a write (its quota, or anything else), after the least recently used answers were dropped to make room. */
export class StoreWriteError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
    readonly evicted: number,
  ) {
    super(message);
    this.name = "StoreWriteError";
  }
}

/** [key, value, expires, fetched, used]: one answer as a shard stores it. */
type Row = [string, unknown, number, number, number];

interface Held {
  shard: number;
  answer: StoredAnswer;
  /** UTF-8 bytes of the row's JSON, plus its separating comma. */
  bytes: number;
}

/**
 * `p`, or a StoreTimeoutError once `ms` of the event loop's time have passed without it settling. Time
 * the loop spends busy elsewhere does not count: a recalculation that invokes 500,000 cells keeps the
 * page busy for seconds, and a plain timer would then fire before the store's answer, already there,
 * got its turn (a false timeout that drops a tier of answers). So the wait is counted in short ticks,
 * each worth at most its own length, however late it fires.
 */
export function withTimeout<T>(p: Promise<T>, ms: number, op: "read" | "write"): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Ten ticks at least: after the loop was busy, the first counts one tenth and the answer gets its turn.
    const step = Math.max(1, Math.min(ms / 10, 100));
    let waited = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      waited += step;
      if (waited >= ms) return reject(new StoreTimeoutError(op, ms));
      timer = setTimeout(tick, step);
      (timer as { unref?: () => void }).unref?.();
    };
    timer = setTimeout(tick, step);
    (timer as { unref?: () => void }).unref?.();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** UTF-8 length without an encoder (Romanian letters are 2 bytes; quotas count bytes, not characters). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) n += c > 0x7ff && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}

/** FNV-1a: a stable, cheap spread of keys over shards (the same key lands in the same shard every session). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: string })?.name ?? "";
  const msg = String((e as { message?: string })?.message ?? e);
  return /quota/i.test(name) || /quota|exceed|full|too large|no space/i.test(msg);
}

export class KvAnswerStore implements AnswerStore {
  readonly where = "OfficeRuntime.storage";
  private readonly prefix: string;
  private shardCount: number;
  private readonly maxBytes: number;
  private readonly readTimeoutMs: number;
  private readonly writeTimeoutMs: number;
  private readonly legacyKey: string;
  private readonly held = new Map<string, Held>();
  private members: Set<string>[] = [];
  /** Bytes of each shard as last written (or read); dirty shards are re-measured when written. */
  private shardBytes: number[] = [];
  private readonly dirty = new Set<number>();
  private staleBefore = 0;
  private metaDirty = false;
  private legacyToRemove = false;

  constructor(
    private readonly store: KeyValueStore,
    options: KvAnswerStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? "firma.c2.";
    this.shardCount = options.shards ?? 64;
    this.maxBytes = options.maxBytes ?? KV_DEFAULT_MAX_BYTES;
    this.readTimeoutMs = options.readTimeoutMs ?? 3000;
    this.writeTimeoutMs = options.writeTimeoutMs ?? 10_000;
    this.legacyKey = options.legacyKey ?? "firma.cache.v1";
    if (!(this.shardCount >= 1 && this.shardCount <= 4096)) throw new TypeError("shards must be between 1 and 4096");
    if (!(this.maxBytes > 0)) throw new TypeError("maxBytes must be a positive number");
    this.reset();
  }

  /** Bytes the saved answers take (as last written), the figure the cap applies to. */
  get persistedBytes(): number {
    let n = utf8Length(this.metaJson());
    for (let i = 0; i < this.shardCount; i++) n += this.dirty.has(i) ? this.estimate(i) : this.shardBytes[i];
    return n;
  }

  get maxPersistedBytes(): number {
    return this.maxBytes;
  }

  async load(): Promise<{ entries: Iterable<[string, StoredAnswer]>; staleBefore: number; pending: boolean }> {
    const read = (key: string) => withTimeout(this.store.getItem(key), this.readTimeoutMs, "read");
    const [metaRaw, legacyRaw] = await Promise.all([read(`${this.prefix}meta`), read(this.legacyKey)]);
    const meta = parse<{ shards?: number; staleBefore?: number }>(metaRaw) ?? {};
    if (typeof meta.shards === "number" && meta.shards >= 1 && meta.shards <= 4096) this.shardCount = meta.shards;
    this.reset();
    this.staleBefore = typeof meta.staleBefore === "number" ? meta.staleBefore : 0;
    const raws = await Promise.all(Array.from({ length: this.shardCount }, (_, i) => read(`${this.prefix}${i}`)));
    raws.forEach((raw, i) => {
      const rows = parse<Row[]>(raw);
      if (!Array.isArray(rows)) {
        // An unreadable shard is rewritten at the next save rather than left taking room.
        if (raw) this.dirty.add(i);
        return;
      }
      this.shardBytes[i] = utf8Length(raw as string);
      for (const r of rows) {
        if (!Array.isArray(r) || typeof r[0] !== "string" || r[1] === undefined) continue;
        this.hold(r[0], { value: r[1], expires: +r[2] || 0, fetched: +r[3] || 0, used: +r[4] || 0 }, i);
      }
    });
    // The one-blob cache of earlier versions: its answers move into shards at the next save, which removes it first
    // (it may take most of the quota the shards need).
    const legacy = parse<{ entries?: [string, [unknown, number, number]][]; staleBefore?: number }>(legacyRaw);
    if (legacyRaw !== null) this.legacyToRemove = true;
    if (legacy && Array.isArray(legacy.entries)) {
      let used = 0;
      for (const [k, e] of legacy.entries) {
        used++; // the blob kept LRU order: least recently used first
        if (typeof k !== "string" || !Array.isArray(e) || this.held.has(k)) continue;
        const answer = { value: e[0], expires: +e[1] || 0, fetched: +e[2] || 0, used };
        this.hold(k, answer, this.shardOf(k));
        this.dirty.add(this.shardOf(k));
      }
      this.staleBefore = Math.max(this.staleBefore, legacy.staleBefore ?? 0);
      this.metaDirty = true;
    }
    const entries = [...this.held].map(([k, h]) => [k, h.answer] as [string, StoredAnswer]);
    entries.sort((a, b) => a[1].used - b[1].used);
    return { entries, staleBefore: this.staleBefore, pending: this.legacyToRemove || this.dirty.size > 0 };
  }

  async write(changes: AnswerChanges): Promise<{ evicted: number }> {
    for (const [k, a] of changes.put) {
      const shard = this.shardOf(k);
      this.hold(k, a, shard);
      this.dirty.add(shard);
    }
    for (const [k, used] of changes.touched) {
      // Only the order changes: the shard is not rewritten for it (the saved `used` catches up when it is).
      const h = this.held.get(k);
      if (h) h.answer.used = used;
    }
    if (changes.staleBefore !== this.staleBefore) {
      this.staleBefore = changes.staleBefore;
      this.metaDirty = true;
    }
    let evicted = this.evictTo(this.maxBytes);
    if (this.legacyToRemove) {
      await withTimeout(this.store.removeItem(this.legacyKey), this.writeTimeoutMs, "write");
      this.legacyToRemove = false;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await this.flush();
        return { evicted };
      } catch (e) {
        // Fuller than the documented quota (other add-ins share the domain's 10 MB): half as much, up to six times
        // (the platform does not say how much room there is).
        if (!isQuotaError(e) || attempt === 6 || this.held.size === 0) throw new StoreWriteError(writeFailed(this.where, e), e, evicted);
        evicted += this.evictTo(Math.floor(this.persistedBytes / 2));
      }
    }
  }

  /** The answers of these keys this store keeps. */
  async read(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    const out = new Map<string, StoredAnswer>();
    for (const k of keys) {
      const h = this.held.get(k);
      if (h) out.set(k, h.answer);
    }
    return out;
  }

  async clear(): Promise<void> {
    const keys = [`${this.prefix}meta`, ...Array.from({ length: this.shardCount }, (_, i) => `${this.prefix}${i}`)];
    this.reset();
    await Promise.all(keys.map((k) => withTimeout(this.store.removeItem(k), this.writeTimeoutMs, "write")));
  }

  private reset(): void {
    this.held.clear();
    this.members = Array.from({ length: this.shardCount }, () => new Set<string>());
    this.shardBytes = new Array<number>(this.shardCount).fill(0);
    this.dirty.clear();
  }

  private shardOf(key: string): number {
    return hash(key) % this.shardCount;
  }

  private hold(key: string, answer: StoredAnswer, shard: number): void {
    const bytes = utf8Length(JSON.stringify([key, answer.value, answer.expires, answer.fetched, answer.used])) + 1;
    this.held.set(key, { shard, answer, bytes });
    this.members[shard].add(key);
  }

  private estimate(shard: number): number {
    let n = 1; // "[" + rows joined by "," + "]": each row counts its comma
    for (const k of this.members[shard]) n += (this.held.get(k) as Held).bytes;
    return n;
  }

  private metaJson(): string {
    return JSON.stringify({ v: 2, shards: this.shardCount, staleBefore: this.staleBefore });
  }

  /** Drops least recently used answers until the store would take at most `limit` bytes; how many went. */
  private evictTo(limit: number): number {
    let total = this.persistedBytes;
    if (total <= limit) return 0;
    const byAge = [...this.held].sort((a, b) => a[1].answer.used - b[1].answer.used);
    let n = 0;
    for (const [k, h] of byAge) {
      if (total <= limit) break;
      this.held.delete(k);
      this.members[h.shard].delete(k);
      if (!this.dirty.has(h.shard)) {
        // From here on this shard is counted by its estimate, which already lacks this answer.
        total += this.estimate(h.shard) - this.shardBytes[h.shard];
        this.dirty.add(h.shard);
      } else total -= h.bytes;
      n++;
    }
    return n;
  }

  /**
   * Writes the dirty shards, then the meta; a shard that fails stays dirty for the next save. One shard
   * at a time: written all at once, every shard's JSON (and, in IndexedDB, its compressed copy) was alive
   * together until the last write ended — on a fill of 100,000 names about 40 MB at each save, held long
   * enough to reach the old generation, and the page's heap peaked with it. A full store refuses some
   * shards and takes others (those that shrank): the flush goes on past a quota error. Any other failure
   * ends it (a store that does not answer costs one timeout, not one per shard); the rest stay dirty.
   */
  private async flush(): Promise<void> {
    const shards = [...this.dirty];
    let failed: { reason: unknown } | null = null;
    for (const i of shards) {
      try {
        await this.writeShard(i);
        this.dirty.delete(i);
      } catch (e) {
        failed ??= { reason: e };
        if (!isQuotaError(e)) break;
      }
    }
    if (failed) throw failed.reason;
    if (this.metaDirty || shards.length > 0) {
      await withTimeout(this.store.setItem(`${this.prefix}meta`, this.metaJson()), this.writeTimeoutMs, "write");
      this.metaDirty = false;
    }
  }

  private async writeShard(i: number): Promise<void> {
    const key = `${this.prefix}${i}`;
    if (this.members[i].size === 0) {
      await withTimeout(this.store.removeItem(key), this.writeTimeoutMs, "write");
      this.shardBytes[i] = 0;
      return;
    }
    const rows: Row[] = [];
    for (const k of this.members[i]) {
      const a = (this.held.get(k) as Held).answer;
      rows.push([k, a.value, a.expires, a.fetched, a.used]);
    }
    const json = JSON.stringify(rows);
    await withTimeout(this.store.setItem(key, json), this.writeTimeoutMs, "write");
    this.shardBytes[i] = utf8Length(json);
  }
}

function parse<T>(raw: string | null): T | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function writeFailed(where: string, e: unknown): string {
  const why = (e as Error)?.message ?? String(e);
  return `Cache-ul nu a putut fi salvat în ${where}: ${why} / The cache could not be saved in ${where}: ${why}`;
}
