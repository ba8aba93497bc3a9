/**
 * The cache as the user meets it: how many answers it keeps, what survives a reopened workbook, and
 * that a full or failing store is told, never silent. Records are the sandbox's own companies.
 */
import { CacheProblem, PersistentCache, TTL } from "../../src/engine/cache/cache";
import { KvAnswerStore, KV_DEFAULT_MAX_BYTES } from "../../src/engine/cache/answer-store";
import { KeyValueStore, MemoryStore } from "../../src/engine/cache/store";
import { company, financialYear, sampleCuis, LATEST_YEAR } from "../../sandbox/dataset";

const DAY = 86_400_000;

/** `n` profile + latest-year financial answers, as the engine keys and stores them. */
function answers(n: number, offset = 0): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const cui of sampleCuis(n, offset)) {
    out.push([`p:${cui}`, company(cui)]);
    out.push([`f:${cui}:${LATEST_YEAR}`, financialYear(cui, LATEST_YEAR)]);
  }
  return out;
}

/** A MemoryStore that counts writes and can be made to refuse them or to never answer reads. */
class ProbeStore extends MemoryStore {
  sets: string[] = [];
  quotaBytes = Infinity;
  hangReads = false;
  override async getItem(key: string): Promise<string | null> {
    if (this.hangReads) return new Promise<string | null>(() => undefined);
    return super.getItem(key);
  }
  override async setItem(key: string, value: string): Promise<void> {
    let used = value.length;
    for (const [k, v] of this.data) if (k !== key) used += v.length;
    if (used > this.quotaBytes) throw Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
    this.sets.push(key);
    await super.setItem(key, value);
  }
}

function collect(cache: PersistentCache): CacheProblem[] {
  const got: CacheProblem[] = [];
  cache.onProblem((p) => got.push(p));
  return got;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("in memory", () => {
  test("500,000 answers set are all still fresh: nothing evicted, and a cached cell costs microseconds", async () => {
    const cache = new PersistentCache(new MemoryStore(), { saveDelayMs: 0 });
    const problems = collect(cache);
    const sample = answers(500).map(([, v]) => v);
    const keys: string[] = [];
    for (let i = 0; i < 250_000; i++) {
      keys.push(`p:${1_000_000 + i}`, `f:${1_000_000 + i}:${LATEST_YEAR}`);
      cache.set(keys[2 * i], sample[(2 * i) % sample.length], TTL.profile);
      cache.set(keys[2 * i + 1], sample[(2 * i + 1) % sample.length], TTL.latestYear);
    }
    await tick();
    expect(cache.size).toBe(500_000);
    expect(problems).toEqual([]);
    const t0 = performance.now();
    let fresh = 0;
    for (const k of keys) if (cache.freshValue(k) !== undefined) fresh++;
    const perCell = ((performance.now() - t0) * 1000) / keys.length;
    expect(fresh).toBe(500_000);
    expect(cache.hits).toBe(500_000);
    const s = cache.stats();
    console.log(
      `500,000 answers in memory: ~${Math.round(s.bytes / 1048576)} MB estimated of ${s.maxBytes / 1048576} MB; freshValue ${perCell.toFixed(2)} µs per cell`,
    );
    expect(perCell).toBeLessThan(10);
  }, 120_000); // setting 500,000 answers takes 12 s alone, twice that beside the other test files

  test("the order is exactly least recently used: a read makes an answer the newest, and answers set after it are newer still", () => {
    const cache = new PersistentCache(new MemoryStore(), { maxEntries: 3, saveDelayMs: 0 });
    for (const k of ["a", "b", "c"]) cache.set(k, { k }, TTL.profile);
    expect(cache.freshValue("a")).toEqual({ k: "a" }); // a: newest
    cache.set("d", { k: "d" }, TTL.profile); // b goes, the least recently used
    expect(cache.peek("b")).toBeUndefined();
    cache.set("e", { k: "e" }, TTL.profile); // c goes
    expect(cache.peek("c")).toBeUndefined();
    cache.set("f", { k: "f" }, TTL.profile); // a goes: read before d, e and f were set
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.peek("d")).toBeDefined(); // d: newest again
    cache.set("g", { k: "g" }, TTL.profile); // e goes, not d
    expect([cache.peek("e"), cache.peek("d"), cache.peek("f"), cache.peek("g")].map((h) => h?.value ?? null)).toEqual([
      null,
      { k: "d" },
      { k: "f" },
      { k: "g" },
    ]);
    cache.set("d", { k: "d2" }, TTL.profile); // set again: newest, counted once
    expect(cache.size).toBe(3);
  });
  test("past the byte cap the least recently used answers go, and the user is told how many", async () => {
    const cache = new PersistentCache(new MemoryStore(), { maxBytes: 200_000, saveDelayMs: 0 });
    const problems = collect(cache);
    const all = answers(1000);
    cache.set(all[0][0], all[0][1], TTL.profile);
    for (const [k, v] of all.slice(1)) {
      cache.set(k, v, TTL.profile);
      cache.peek(all[0][0]); // used all the time: it stays
    }
    await tick();
    expect(cache.stats().bytes).toBeLessThanOrEqual(200_000);
    expect(cache.size).toBeLessThan(all.length);
    expect(cache.getFresh(all[0][0])).toBeDefined();
    expect(cache.getFresh(all[1][0])).toBeUndefined(); // the oldest not used since
    expect(cache.getFresh(all[all.length - 1][0])).toBeDefined();
    const full = problems.filter((p) => p.kind === "full");
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(full.reduce((s, p) => s + (p.evicted ?? 0), 0)).toBe(all.length - cache.size);
    expect(full[0].message).toMatch(/^The in-memory cache is full/);
  });
});

describe("memory capped, the store keeping what leaves it", () => {
  test("answers evicted before any save are still saved: the store keeps what memory let go, and a reopen has them all", async () => {
    const store = new MemoryStore();
    const cache = new PersistentCache(store, { maxBytes: 60_000, saveDelayMs: 0 });
    const all = answers(500);
    for (const [k, v] of all) cache.set(k, v, TTL.profile);
    expect(cache.stats().bytes).toBeLessThanOrEqual(60_000);
    expect(cache.size).toBeLessThan(all.length);
    await cache.save();
    const reopened = new PersistentCache(store, { saveDelayMs: 0 });
    await reopened.load();
    expect(reopened.size).toBe(all.length);
    for (const [k, v] of [all[0], all[250], all[499]]) expect(reopened.freshValue(k)).toEqual(v);
  });

  test("an evicted answer is read back from the store (recall), fresh, without a fetch; the cap still holds", async () => {
    const store = new MemoryStore();
    const cache = new PersistentCache(store, { maxBytes: 60_000, saveDelayMs: 0 });
    const all = answers(500);
    for (const [k, v] of all) cache.set(k, v, TTL.profile);
    const [first, value] = all[0];
    expect(cache.freshValue(first)).toBeUndefined(); // left memory
    expect(cache.spilled(first)).toBe(true);
    // Before the save wrote it: from what waits to be saved.
    expect(await cache.recall([first])).toBe(1);
    expect(cache.freshValue(first)).toEqual(value);
    await cache.save();
    // After: from the store's copy.
    const [second, value2] = all[1];
    expect(cache.spilled(second)).toBe(true);
    expect(await cache.recall([second, "p:never-asked"])).toBe(1);
    expect(cache.freshValue(second)).toEqual(value2);
    expect(cache.spilled("p:never-asked")).toBe(false); // only what left memory is read back
    expect(cache.stats().bytes).toBeLessThanOrEqual(60_000);
    await cache.save();
    const reopened = new PersistentCache(store, { saveDelayMs: 0 });
    await reopened.load();
    expect(reopened.size).toBe(all.length);
  });
});

describe("saved in the add-in's storage (sharded keys, a byte cap)", () => {
  test("a reopened workbook is served from storage, with each answer's fetch time", async () => {
    const store = new MemoryStore();
    let now = Date.UTC(2026, 0, 10);
    const a = new PersistentCache(store, { now: () => now, saveDelayMs: 0 });
    await a.load();
    const all = answers(200);
    for (const [k, v] of all) {
      a.set(k, v, TTL.profile);
      now += 1000;
    }
    await a.save();
    expect([...store.data.keys()].every((k) => k.startsWith("firma.c2."))).toBe(true);
    expect(store.data.has("firma.cache.v1")).toBe(false);

    now += DAY;
    const b = new PersistentCache(store, { now: () => now, saveDelayMs: 0 });
    await b.load();
    expect(b.size).toBe(all.length);
    for (const [i, [k, v]] of all.entries()) {
      expect(b.getFresh(k)?.value).toEqual(v);
      expect(b.fetchedAt(k)).toBe(Date.UTC(2026, 0, 10) + i * 1000);
    }
  });

  test("a save writes only the shards whose answers changed", async () => {
    const store = new ProbeStore();
    const cache = new PersistentCache(store, { saveDelayMs: 0 });
    await cache.load();
    for (const [k, v] of answers(1000)) cache.set(k, v, TTL.profile);
    await cache.save();
    // 2,000 answers, ~440 kB: shards filled in turn up to 8 MB / 64 = 128 kB, and the meta
    expect(store.sets.length).toBe(5);
    store.sets = [];
    await cache.save();
    expect(store.sets).toEqual([]); // nothing changed: nothing written
    cache.set("p:14399840", { cui: 14399840, denumire: "X SRL" }, TTL.profile);
    await cache.save();
    expect(store.sets.length).toBe(2); // its shard and the meta
    store.sets = [];
    cache.markStale("p:14399840");
    await cache.save();
    expect(store.sets.length).toBe(2);
    store.sets = [];
    const first = answers(1000)[0][0];
    cache.markStale(first); // an answer of an earlier save: its own shard is rewritten, no other
    await cache.save();
    expect(store.sets).toEqual(["firma.c2.0", "firma.c2.meta"]);
  });

  test("a save of new answers writes only the shards they fill: the full shards of earlier saves are left alone", async () => {
    // Shards by a hash of the key spread every save's answers over every shard, so each save of a fill
    // rewrote all of them (bench W7: ~15 saves of up to 37 MB of JSON each in the IndexedDB tier).
    const store = new ProbeStore();
    const cache = new PersistentCache(store, { saveDelayMs: 0 });
    await cache.load();
    for (const [k, v] of answers(2000)) cache.set(k, v, TTL.profile);
    await cache.save();
    const shards = store.sets.filter((k) => k !== "firma.c2.meta");
    expect(shards.length).toBeGreaterThanOrEqual(7); // ~880 kB in 128 kB shards
    const before = new Map(store.data);
    store.sets = [];
    for (const [k, v] of answers(100, 2000)) cache.set(k, v, TTL.profile); // 200 more answers, ~44 kB
    await cache.save();
    const written = store.sets.filter((k) => k !== "firma.c2.meta");
    expect(written.length).toBeLessThanOrEqual(2); // the last shard, and at most one new one
    const untouched = shards.filter((k) => !written.includes(k));
    expect(untouched.length).toBeGreaterThanOrEqual(shards.length - 1);
    for (const k of untouched) expect(store.data.get(k)).toBe(before.get(k));
    const reopened = new PersistentCache(store, { saveDelayMs: 0 });
    await reopened.load();
    expect(reopened.size).toBe(4200);
    // Reopened, new answers go on filling the least filled shard, not the full ones.
    store.sets = [];
    reopened.set("p:14399840", { cui: 14399840, denumire: "X SRL" }, TTL.profile);
    await reopened.save();
    expect(store.sets.length).toBe(2);
    expect(written).toContain(store.sets[0]);
  });

  test("how many answers fit under the 8 MB cap: the least recently used go first, and the user is told", async () => {
    const store = new MemoryStore();
    const cache = new PersistentCache(store, { saveDelayMs: 0 });
    await cache.load();
    const problems = collect(cache);
    const all = answers(40_000); // 80,000 answers: more than fit
    for (const [k, v] of all) cache.set(k, v, TTL.profile);
    await cache.save();
    const s = cache.stats();
    expect(s.persistedBytes).toBeLessThanOrEqual(KV_DEFAULT_MAX_BYTES);
    let stored = 0;
    for (const v of store.data.values()) stored += Buffer.byteLength(v, "utf8");
    expect(stored).toBeLessThanOrEqual(KV_DEFAULT_MAX_BYTES);
    const full = problems.find((p) => p.kind === "full");
    expect(full?.evicted).toBeGreaterThan(0);
    expect(cache.size).toBe(all.length); // still all in memory for this session

    const reopened = new PersistentCache(store, { saveDelayMs: 0 });
    await reopened.load();
    const kept = reopened.size;
    expect(kept).toBe(all.length - full!.evicted!);
    expect(reopened.getFresh(all[all.length - 1][0])).toBeDefined(); // the newest kept
    expect(reopened.getFresh(all[0][0])).toBeUndefined(); // the oldest gone
    console.log(
      `8 MB of OfficeRuntime.storage keeps ${kept} answers (${Math.floor(kept / 2)} companies' profile + latest year), ` +
        `${(stored / kept).toFixed(0)} bytes each, ${(stored / 1048576).toFixed(2)} MB in ${store.data.size} keys`,
    );
  });

  test("a store over its quota: answers go least recently used first until it fits, and the user is told", async () => {
    const store = new ProbeStore();
    store.quotaBytes = 300_000; // another add-in on the domain took the rest
    const cache = new PersistentCache(store, { saveDelayMs: 0 });
    await cache.load();
    const problems = collect(cache);
    const all = answers(2000);
    for (const [k, v] of all) cache.set(k, v, TTL.profile);
    await cache.save();
    const full = problems.find((p) => p.kind === "full");
    expect(full?.evicted).toBeGreaterThan(0);
    const reopened = new PersistentCache(store, { saveDelayMs: 0 });
    await reopened.load();
    expect(reopened.size).toBe(all.length - full!.evicted!);
    expect(reopened.getFresh(all[all.length - 1][0])).toBeDefined();
  });

  test("a save writes its shards one at a time, and a store that fails stops it at the first shard (the rest wait for the next save)", async () => {
    const store = new ProbeStore();
    // 1 MB / 64: shards of 16 kB, so that 800 answers take many
    const cache = new PersistentCache(store, { saveDelayMs: 0, kv: { maxBytes: 1024 * 1024 } });
    await cache.load();
    collect(cache);
    let writing = 0;
    let most = 0;
    const setItem = store.setItem.bind(store);
    store.setItem = async (k, v) => {
      most = Math.max(most, ++writing);
      await new Promise((r) => setTimeout(r, 1));
      await setItem(k, v);
      writing--;
    };
    for (const [k, v] of answers(400)) cache.set(k, v, TTL.profile);
    await cache.save();
    expect(store.sets.filter((k) => k !== "firma.c2.meta").length).toBeGreaterThan(8); // many shards
    expect(most).toBe(1); // written all at once, every shard's JSON was alive together
    // A failure that is not the quota: one attempt, not one per dirty shard.
    let attempts = 0;
    store.setItem = async () => {
      attempts++;
      throw new Error("disk I/O error");
    };
    for (const [k, v] of answers(800).slice(400)) cache.set(k, v, TTL.profile);
    await expect(cache.save()).rejects.toThrow(/disk I\/O error/);
    expect(attempts).toBe(1);
    // The next save writes what was left.
    store.setItem = setItem;
    store.sets = [];
    await cache.save();
    expect(store.sets.filter((k) => k !== "firma.c2.meta").length).toBeGreaterThan(8);
    const reopened = new PersistentCache(store, { saveDelayMs: 0, kv: { maxBytes: 1024 * 1024 } });
    await reopened.load();
    expect(reopened.size).toBe(cache.size); // every answer, the ones the failed save left included
    expect(cache.size).toBe(1_600);
  });

  test("a store that refuses every write: save() rejects, the user is told, and the next save tries again", async () => {
    const store = new ProbeStore();
    const cache = new PersistentCache(store, { saveDelayMs: 0 });
    await cache.load();
    const problems = collect(cache);
    store.setItem = async () => {
      throw new Error("disk I/O error");
    };
    cache.set("p:14399840", { cui: 14399840 }, TTL.profile);
    await expect(cache.save()).rejects.toThrow(/disk I\/O error/);
    expect(problems.map((p) => p.kind)).toEqual(["write_failed"]);
    expect(problems[0].message).toMatch(/^The cache could not be saved in OfficeRuntime.storage/);
    store.setItem = ProbeStore.prototype.setItem;
    await cache.save();
    const reopened = new PersistentCache(store, { saveDelayMs: 0 });
    await reopened.load();
    expect(reopened.getFresh("p:14399840")?.value).toEqual({ cui: 14399840 });
  });

  test("a read that never settles: the cache starts empty after the timeout and says so", async () => {
    const store = new ProbeStore();
    store.hangReads = true;
    const cache = new PersistentCache(store, { kv: { readTimeoutMs: 50 }, saveDelayMs: 0 });
    const problems = collect(cache);
    const t0 = Date.now();
    await cache.load();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(cache.size).toBe(0);
    expect(problems.map((p) => p.kind)).toEqual(["read_timeout"]);
    expect(problems[0].message).toMatch(/did not answer within 50 ms/);
    cache.set("p:14399840", { cui: 14399840 }, TTL.profile); // still usable
    expect(cache.freshValue("p:14399840")).toEqual({ cui: 14399840 });
  });

  test("a store that answered while the page was busy past the timeout is read, not timed out", async () => {
    // A recalculation of 500,000 cells keeps the page busy for seconds: the store's answer arrives
    // meanwhile (a task like IndexedDB's) and must not lose to a timer that only looks at the clock.
    const store = new MemoryStore();
    const first = new PersistentCache(store, { saveDelayMs: 0 });
    first.set("p:14399840", { cui: 14399840 }, TTL.profile);
    await first.save();
    const later: KeyValueStore = {
      // Two turns of the event loop, as IndexedDB's open takes several.
      getItem: (k) => new Promise((r) => setImmediate(() => setImmediate(() => r(store.data.get(k) ?? null)))),
      setItem: (k, v) => store.setItem(k, v),
      removeItem: (k) => store.removeItem(k),
    };
    const cache = new PersistentCache(later, { kv: { readTimeoutMs: 50 }, saveDelayMs: 0 });
    const problems = collect(cache);
    const loading = cache.load();
    const busyUntil = Date.now() + 200; // four times the timeout, without a turn of the event loop
    while (Date.now() < busyUntil);
    await loading;
    expect(problems).toEqual([]);
    expect(cache.freshValue("p:14399840")).toEqual({ cui: 14399840 });
  });

  test("the one-blob cache of earlier versions is read once, moved into shards, and removed", async () => {
    const store = new MemoryStore();
    const now = Date.UTC(2026, 0, 10);
    const old = answers(50).map(([k, v], i) => [k, [v, now + DAY, now - 1000 * i]]);
    store.data.set("firma.cache.v1", JSON.stringify({ entries: old, staleBefore: 0 }));
    const a = new PersistentCache(store, { now: () => now, saveDelayMs: 0 });
    await a.load();
    expect(a.size).toBe(100);
    expect(a.fetchedAt(old[7][0] as string)).toBe(now - 7000);
    await a.save();
    expect(store.data.has("firma.cache.v1")).toBe(false);
    const b = new PersistentCache(store, { now: () => now, saveDelayMs: 0 });
    await b.load();
    expect(b.size).toBe(100);
    expect(b.getFresh(old[3][0] as string)?.value).toEqual((old[3][1] as unknown[])[0]);
  });

  test("a user-asked refresh (markAllStale) survives reopening: the answers stay as fallbacks, not fresh", async () => {
    const store = new MemoryStore();
    let now = 1_000_000;
    const a = new PersistentCache(store, { now: () => now, saveDelayMs: 0 });
    await a.load();
    a.set("p:1", { cui: 1 }, TTL.profile);
    now += 10;
    a.markAllStale();
    await a.save();
    const b = new PersistentCache(store, { now: () => now, saveDelayMs: 0 });
    await b.load();
    expect(b.getFresh("p:1")).toBeUndefined();
    expect(b.peek("p:1")).toEqual({ value: { cui: 1 }, fresh: false });
  });

  test("the engine's constructor form keeps working: new PersistentCache(store, { maxEntries, now })", async () => {
    const store: KeyValueStore = new MemoryStore();
    const cache = new PersistentCache(store, { maxEntries: 3, now: () => 5 });
    for (const k of ["a", "b", "c", "d"]) cache.set(k, k, 10);
    expect(cache.size).toBe(3);
    expect(cache.peek("a")).toBeUndefined();
    await cache.save();
    expect(new KvAnswerStore(store)).toBeDefined();
  });
});
