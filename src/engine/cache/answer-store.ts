import { jsonBytes, utf8Length } from "./json-length";
import type { AnswerChanges, AnswerStore, KeyValueStore, StoredAnswer } from "./store";

/**
 * The add-in's AnswerStore over OfficeRuntime.storage (or any KeyValueStore): answers spread over
 * numbered keys (shards) in the order they were saved, so a save rewrites only the shards whose answers
 * changed — new answers fill the newest shard, then an empty or a new one — never one blob of
 * everything. OfficeRuntime.storage gives 10 MB per domain,
 * shared with every other add-in served from the same domain, so the persisted answers are capped
 * well below that (8 MB by default); past the cap the least recently used answers leave the store
 * (they stay in memory for this session) and the cache reports it.
 */
export interface KvAnswerStoreOptions {
  /** Keys are `<prefix>meta` and `<prefix><shard>`. @default "firma.c2." */
  prefix?: string;
  /**
   * Shards the byte cap fills (a shard is filled up to maxBytes / shards, then the next begins); also the
   * keys a store without its meta is read from. More are added as needed (4,096 at most). @default 64
   */
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
        ? `The add-in's storage did not answer within ${ms} ms; the cache starts empty.`
        : `The add-in's storage did not confirm a write within ${ms} ms.`,
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
  key: string;
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

/** Shards at most. */
const MAX_SHARDS = 4096;
/** Shards read at once by a load: all at once, every shard's text (and IndexedDB's inflated copy) was alive together. */
const LOAD_CONCURRENCY = 8;

/** UTF-8 bytes of an answer's row in its shard's JSON, and its separating comma. */
function rowBytes(key: string, a: StoredAnswer): number {
  return 7 + jsonBytes(key) + jsonBytes(a.value) + jsonBytes(a.expires) + jsonBytes(a.fetched) + jsonBytes(a.used);
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
  /** The rows' bytes of each shard as it is now (its JSON is one more, its bracket). */
  private rowsBytes: number[] = [];
  /** The shard new answers go to, until it holds `fill` bytes; -1: none yet. */
  private open = -1;
  private readonly fill: number;
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
    if (!(this.shardCount >= 1 && this.shardCount <= MAX_SHARDS)) throw new TypeError("shards must be between 1 and 4096");
    if (!(this.maxBytes > 0)) throw new TypeError("maxBytes must be a positive number");
    this.fill = Math.max(4096, Math.floor(this.maxBytes / this.shardCount));
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
    if (typeof meta.shards === "number" && meta.shards >= 1 && meta.shards <= MAX_SHARDS) this.shardCount = meta.shards;
    this.reset();
    this.staleBefore = typeof meta.staleBefore === "number" ? meta.staleBefore : 0;
    // A few shards at a time, each parsed as it arrives and its text let go.
    let next = 0;
    let failed = false;
    const reader = async (): Promise<void> => {
      while (!failed && next < this.shardCount) {
        const i = next++;
        const raw = await read(`${this.prefix}${i}`);
        if (!failed) this.take(raw, i);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, this.shardCount) }, reader));
    } catch (e) {
      failed = true;
      this.reset();
      throw e;
    }
    this.open = this.leastFilled();
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
        const shard = this.openShard();
        this.hold(k, answer, shard);
        this.dirty.add(shard);
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
      // An answer saved before stays in its shard; a new one goes to the open shard.
      const shard = this.held.get(k)?.shard ?? this.openShard();
      this.hold(k, a, shard);
      this.dirty.add(shard);
    }
    for (const [k, used] of changes.touched) {
      // Only the order changes: the shard is not rewritten for it (the saved `used` catches up when it is).
      const h = this.held.get(k);
      if (!h) continue;
      const d = jsonBytes(used) - jsonBytes(h.answer.used);
      h.answer.used = used;
      h.bytes += d;
      this.rowsBytes[h.shard] += d;
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
    this.rowsBytes = new Array<number>(this.shardCount).fill(0);
    this.dirty.clear();
    this.open = -1;
  }

  /** A shard's rows as read (its text let go); an unreadable shard is rewritten at the next save rather than left taking room. */
  private take(raw: string | null, i: number): void {
    const rows = parse<Row[]>(raw);
    if (!Array.isArray(rows)) {
      if (raw) this.dirty.add(i);
      return;
    }
    this.shardBytes[i] = utf8Length(raw as string);
    for (const r of rows) {
      if (!Array.isArray(r) || typeof r[0] !== "string" || r[1] === undefined) continue;
      const fetched = +r[3] || 0;
      const had = this.held.get(r[0]);
      if (had && had.answer.fetched >= fetched) {
        this.dirty.add(i); // a second copy, older: this shard is rewritten without it
        continue;
      }
      this.hold(r[0], { value: r[1], expires: +r[2] || 0, fetched, used: +r[4] || 0 }, i);
    }
  }

  /** The shard a new answer goes to: the open one until it is full, then an empty one, else one more (the meta counts it). */
  private openShard(): number {
    const o = this.open;
    if (o >= 0 && o < this.shardCount && this.rowsBytes[o] < this.fill) return o;
    let i = this.members.findIndex((m, j) => m.size === 0 && j !== o);
    if (i < 0 && this.shardCount < MAX_SHARDS) {
      i = this.shardCount++;
      this.members.push(new Set<string>());
      this.shardBytes.push(0);
      this.rowsBytes.push(0);
      this.metaDirty = true;
    }
    this.open = i >= 0 ? i : this.leastFilled();
    return this.open;
  }

  /** Of the shards that hold answers and have room, the one with the fewest bytes (after a load, new answers fill it first); else -1. */
  private leastFilled(): number {
    let best = -1;
    for (let i = 0; i < this.shardCount; i++) {
      if (this.members[i].size === 0 || this.rowsBytes[i] >= this.fill) continue;
      if (best < 0 || this.rowsBytes[i] < this.rowsBytes[best]) best = i;
    }
    return best;
  }

  /** Holds an answer in a shard (out of the one it was in, which is then rewritten). */
  private hold(key: string, answer: StoredAnswer, shard: number): void {
    const old = this.held.get(key);
    if (old) {
      this.rowsBytes[old.shard] -= old.bytes;
      if (old.shard !== shard) {
        this.members[old.shard].delete(key);
        this.dirty.add(old.shard);
      }
    }
    const bytes = rowBytes(key, answer);
    this.held.set(key, { key, shard, answer, bytes });
    this.members[shard].add(key);
    this.rowsBytes[shard] += bytes;
  }

  /** A shard's JSON bytes as it would be written now: "[" + rows joined by "," + "]" (each row counts its comma). */
  private estimate(shard: number): number {
    return this.members[shard].size === 0 ? 0 : 1 + this.rowsBytes[shard];
  }

  private metaJson(): string {
    return JSON.stringify({ v: 2, shards: this.shardCount, staleBefore: this.staleBefore });
  }

  /** Drops least recently used answers until the store would take at most `limit` bytes; how many went. */
  private evictTo(limit: number): number {
    let total = this.persistedBytes;
    if (total <= limit) return 0;
    const byAge = Array.from(this.held.values()).sort((a, b) => a.answer.used - b.answer.used);
    let n = 0;
    for (const h of byAge) {
      if (total <= limit) break;
      const s = h.shard;
      // A clean shard is counted by what was written; from here on, by its estimate, which lacks this answer.
      const before = this.dirty.has(s) ? this.estimate(s) : this.shardBytes[s];
      this.held.delete(h.key);
      this.members[s].delete(h.key);
      this.rowsBytes[s] -= h.bytes;
      this.dirty.add(s);
      total += this.estimate(s) - before;
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
  return `The cache could not be saved in ${where}: ${why}`;
}
