/**
 * The add-in's two answer tiers (src/office/tiered-answers.ts, indexeddb-answers.ts) in Node, over
 * fake-indexeddb: everything kept in IndexedDB (compressed) while OfficeRuntime.storage keeps its
 * 8 MB; and the bad input of issue 22 — IndexedDB absent, failing to open, failing every write, a
 * shard that does not decompress, a quota of zero or refused, a read that never settles — each time
 * the answers stay on the other tier and a problem says so. The same in real Chromium:
 * test/taskpane/indexeddb.browser.test.ts.
 */
import { IDBFactory } from "fake-indexeddb";
import { PersistentCache } from "../../src/engine/cache/cache";
import { MemoryStore, type AnswerChanges, type KeyValueStore, type StoredAnswer } from "../../src/engine/cache/store";
import { IdbKeyValueStore, openAnswerDb, capFromEstimate } from "../../src/office/indexeddb-answers";
import { TieredAnswerStore, type TieredOptions } from "../../src/office/tiered-answers";

const answer = (i: number, fetched = 1000): StoredAnswer => ({
  value: { denumire: `FIRMA ${i} SRL`, judet: "Cluj", adresa: `Str. Lungă nr. ${i}, Cluj-Napoca` },
  expires: 10_000_000,
  fetched,
  used: i + 1,
});
const changes = (n: number, from = 0): AnswerChanges => ({
  put: Array.from({ length: n }, (_, i) => [`p:${from + i}`, answer(from + i)] as [string, StoredAnswer]),
  touched: [],
  staleBefore: 0,
});

let factory: IDBFactory;
beforeEach(() => {
  factory = new IDBFactory();
});

const idbStore = async () => new IdbKeyValueStore(await openAnswerDb(factory as unknown as globalThis.IDBFactory, 1000));
/** A tiered store over `kv` and this test's IndexedDB; KV capped at 20 kB so that IndexedDB must keep the rest. */
function tiered(kv: KeyValueStore, options: TieredOptions = {}): TieredAnswerStore {
  return new TieredAnswerStore(kv, { open: idbStore, estimate: async () => null, ...options }, { maxBytes: 20_000 });
}
const keysOf = async (s: TieredAnswerStore) => new Set([...(await s.load()).entries].map(([k]) => k));
/** Resolves once `cond` holds (checked every 20 ms); fails after 10 s. */
async function until(cond: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 10_000; !(await cond()); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > end) throw new Error("timed out waiting for a condition");
}

describe("the IndexedDB tier", () => {
  test("keeps every answer, compressed, while the 8 MB shards keep the most recent; a new session reads them all", async () => {
    const kv = new MemoryStore();
    const first = tiered(kv);
    await first.load();
    expect(first.tier).toBe("indexeddb");
    const { evicted, notices } = await first.write(changes(2000));
    expect(evicted).toBe(0); // the shards dropped answers, IndexedDB kept them
    expect(notices).toEqual([]);
    const kvKept = [...kv.data.keys()].length;
    expect(kvKept).toBeGreaterThan(0);

    const again = tiered(kv);
    const loaded = await again.load();
    const entries = [...loaded.entries];
    expect(entries).toHaveLength(2000);
    expect(entries[0][0]).toBe("p:0"); // least recently used first
    expect(entries.at(-1)?.[1]).toEqual(answer(1999));
    expect(loaded.notices).toEqual([]);

    // Compressed: what IndexedDB holds is a fraction of the JSON.
    const store = await idbStore();
    const json = JSON.stringify(changes(2000).put).length;
    const stored = [...Array(256).keys()].reduce((n, i) => n + (store.stored.get(`a.${i}`) ?? 0), 0);
    for (let i = 0; i < 256; i++) await store.getItem(`a.${i}`);
    const compressed = [...store.stored.values()].reduce((n, b) => n + b, 0);
    expect(stored).toBe(0);
    expect(compressed).toBeGreaterThan(0);
    expect(compressed).toBeLessThan(json / 3);
  });

  test("of two copies of an answer the newer wins; of the same fetch, the one marked stale", async () => {
    const kv = new MemoryStore();
    const s = tiered(kv);
    await s.load();
    await s.write(changes(3));
    // The shards alone learn of a newer answer and of a stale mark.
    const shardsOnly = new TieredAnswerStore(kv, { open: async () => null });
    await shardsOnly.load();
    await shardsOnly.write({
      put: [
        ["p:0", { ...answer(0, 2000), value: "newer" }],
        ["p:1", { ...answer(1), expires: 0 }],
      ],
      touched: [],
      staleBefore: 5,
    });
    const loaded = await tiered(kv).load();
    const m = new Map(loaded.entries);
    expect(m.get("p:0")?.value).toBe("newer");
    expect(m.get("p:1")?.expires).toBe(0);
    expect(m.get("p:2")).toEqual(answer(2));
    expect(loaded.staleBefore).toBe(5);
  });

  test("absent: the shards alone, as before, with no problem", async () => {
    const kv = new MemoryStore();
    const s = tiered(kv, { open: async () => null });
    const loaded = await s.load();
    expect(loaded.notices).toEqual([]);
    expect(s.tier).toBe("storage");
    const { evicted } = await s.write(changes(2000));
    expect(evicted).toBeGreaterThan(0); // the 20 kB shards are all there is: their evictions count
  });

  test("open throws: the shards' answers load, and a read_failed problem says IndexedDB cannot be used", async () => {
    const kv = new MemoryStore();
    await tiered(kv, { open: async () => null }).write(changes(5));
    const s = tiered(kv, {
      open: async () => {
        throw new DOMException("The user denied permission to access the database.", "SecurityError");
      },
    });
    const loaded = await s.load();
    expect([...loaded.entries]).toHaveLength(5);
    expect(loaded.notices).toHaveLength(1);
    expect(loaded.notices?.[0]).toMatchObject({ kind: "read_failed", detail: { key: "cache.idb.unavailable" } });
    expect(loaded.notices?.[0].message).toMatch(/^The add-in's large storage \(IndexedDB\) cannot be used \(SecurityError/);
    expect(s.tier).toBe("storage");
  });

  test("opens but fails every write: the save succeeds on the shards, one write_failed problem, then IndexedDB is left alone", async () => {
    const kv = new MemoryStore();
    let writes = 0;
    const failing = async () => {
      const store = await idbStore();
      store.setItem = async () => {
        writes++;
        throw new Error("disk I/O error");
      };
      return store;
    };
    const cache = new PersistentCache(kv, { backend: tiered(kv, { open: failing }), saveDelayMs: 0 });
    await cache.load();
    cache.set("p:1", { denumire: "A" }, 60_000);
    await expect(cache.save()).resolves.toBeUndefined();
    expect(cache.problems).toHaveLength(1);
    expect(cache.problems[0]).toMatchObject({ kind: "write_failed", detail: { key: "cache.idb.writeFailed" } });
    expect(cache.problems[0].message).toMatch(/disk I\/O error/);
    const tried = writes;
    cache.set("p:2", { denumire: "B" }, 60_000);
    await cache.save();
    expect(writes).toBe(tried);
    expect(cache.problems).toHaveLength(1);
    const next = new PersistentCache(kv, { backend: new TieredAnswerStore(kv, { open: async () => null }) });
    await next.load();
    expect(next.freshValue("p:2")).toEqual({ denumire: "B" });
  });

  test("a shard that does not decompress: the others load, its answers come from the shards, a problem says so, the shard is rewritten", async () => {
    const kv = new MemoryStore();
    const s = tiered(kv);
    await s.load();
    await s.write(changes(40));
    const raw = await idbStore();
    // Garbage in one shard's record: a shard that holds p:0, which the KV tier also holds.
    let bad = "";
    for (let i = 0; i < 256 && !bad; i++) if ((await raw.getItem(`a.${i}`))?.includes('"p:0"')) bad = `a.${i}`;
    const db = await openAnswerDb(factory as unknown as globalThis.IDBFactory, 1000);
    await new Promise<void>((resolve) => {
      const tx = db.transaction("shards", "readwrite");
      tx.objectStore("shards").put(new Uint8Array([1, 2, 3, 4, 5]), bad);
      tx.oncomplete = () => resolve();
    });
    const again = tiered(kv);
    const loaded = await again.load();
    expect(new Map(loaded.entries).get("p:0")).toEqual(answer(0));
    expect([...loaded.entries].length).toBe(40);
    expect(loaded.notices).toEqual([
      expect.objectContaining({ kind: "read_failed", detail: { key: "cache.idb.corrupt", params: { shards: 1 } } }),
    ]);
    expect(loaded.pending).toBe(true);
    expect(again.tier).toBe("indexeddb");
  });

  test("a quota of zero: the shards alone, and a write_failed problem names the quota", async () => {
    const kv = new MemoryStore();
    const s = tiered(kv, { estimate: async () => ({ quota: 0, usage: 0 }) });
    const loaded = await s.load();
    expect(s.tier).toBe("storage");
    expect(loaded.notices).toEqual([
      expect.objectContaining({
        kind: "write_failed",
        detail: { key: "cache.idb.quota", params: expect.objectContaining({ free: "0 kB" }) },
      }),
    ]);
    const { notices } = await s.write(changes(3));
    expect(notices).toEqual([]);
    expect(kv.data.size).toBeGreaterThan(0);
  });

  test("the quota refused on write: halved, then given up with a quota problem; the shards keep the answers", async () => {
    const kv = new MemoryStore();
    const refusing = async () => {
      const store = await idbStore();
      store.setItem = async () => {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      };
      return store;
    };
    const s = tiered(kv, { open: refusing });
    await s.load();
    const { notices } = await s.write(changes(50));
    expect(notices).toEqual([
      expect.objectContaining({ kind: "write_failed", detail: expect.objectContaining({ key: "cache.idb.quota" }) }),
    ]);
    expect(s.tier).toBe("storage");
    expect([...(await keysOf(new TieredAnswerStore(kv, { open: async () => null })))].length).toBeGreaterThan(0);
  });

  test("IndexedDB is written at most every idbEveryMs: a save in between waits for the timer, the shards have it at once", async () => {
    const kv = new MemoryStore();
    let failing = false;
    const open = async () => {
      const store = await idbStore();
      const set = store.setItem.bind(store);
      store.setItem = (k, v) => (failing ? Promise.reject(new Error("disk full")) : set(k, v));
      return store;
    };
    // The clock the interval is measured by stands still: only the timer (300 ms of real time) makes
    // IndexedDB's next write due, never a slow machine taking 300 ms between two of these lines.
    const s = tiered(kv, { open, idbEveryMs: 300, now: () => 0 });
    await s.load();
    await s.write(changes(5));
    await s.write(changes(5, 5));
    const idbOnly = () => tiered(new MemoryStore(), { open: idbStore });
    expect((await keysOf(idbOnly())).size).toBe(5); // the second save waits
    expect((await keysOf(new TieredAnswerStore(kv, { open: async () => null }))).size).toBe(10);
    // the timer (300 ms after the first write) writes what waited: waited for, not slept for
    await until(async () => (await keysOf(idbOnly())).size === 10);
    expect((await keysOf(idbOnly())).size).toBe(10);
    // A write by the timer that fails is reported with the next save.
    failing = true;
    await s.write(changes(1, 20));
    await s.write(changes(1, 21));
    await until(async () => s.tier === "storage"); // the timer's write has failed: IndexedDB is given up
    const { notices } = await s.write(changes(1, 22));
    expect(notices).toEqual([
      expect.objectContaining({ kind: "write_failed", detail: expect.objectContaining({ key: "cache.idb.writeFailed" }) }),
    ]);
    expect(s.tier).toBe("storage");
  });

  test("a write that is slow, not refused: the tier is kept and written later; only writes that never settle give it up", async () => {
    const kv = new MemoryStore();
    let slow = 2; // the next two writes of a shard do not settle in time
    const open = async () => {
      const store = await idbStore();
      const set = store.setItem.bind(store);
      store.setItem = (k, v) => (slow > 0 ? new Promise<void>(() => undefined) : set(k, v));
      return store;
    };
    const s = tiered(kv, { open, idbEveryMs: 0, idb: { writeTimeoutMs: 50 } });
    await s.load();
    expect((await s.write(changes(3))).notices).toEqual([]);
    slow = 1;
    expect((await s.write(changes(1, 3))).notices).toEqual([]);
    expect(s.tier).toBe("indexeddb");
    slow = 0;
    expect((await s.write(changes(1, 4))).notices).toEqual([]);
    // Everything the slow writes were given is there.
    expect((await keysOf(tiered(new MemoryStore(), { open: idbStore }))).size).toBe(5);
    // Three in a row that never settle: given up for the session, and said.
    slow = 3;
    await s.write(changes(1, 5));
    await s.write(changes(1, 6));
    const { notices } = await s.write(changes(1, 7));
    expect(notices).toEqual([
      expect.objectContaining({ kind: "write_failed", detail: expect.objectContaining({ key: "cache.idb.writeFailed" }) }),
    ]);
    expect(s.tier).toBe("storage");
  });

  test("the room is taken from the browser's estimate", () => {
    expect(capFromEstimate(null, 100)).toBe(100);
    expect(capFromEstimate({ quota: 0, usage: 0 }, 100)).toBe(0);
    expect(capFromEstimate({ quota: 1 << 20, usage: 0 }, 1 << 30)).toBe(2 << 20);
    expect(capFromEstimate({ quota: 1 << 20, usage: (1 << 20) - 1000 }, 1 << 30)).toBe(0);
  });

  test("a read that never settles: after the read timeout, the shards' answers and a read_timeout problem", async () => {
    const kv = new MemoryStore();
    await tiered(kv, { open: async () => null }).write(changes(4));
    const hanging = async () => {
      const store = await idbStore();
      store.getItem = () => new Promise(() => undefined);
      return store;
    };
    const s = new TieredAnswerStore(kv, { open: hanging, estimate: async () => null, idb: { readTimeoutMs: 50 } });
    const loaded = await s.load();
    expect([...loaded.entries]).toHaveLength(4);
    expect(loaded.notices).toEqual([
      expect.objectContaining({ kind: "read_timeout", detail: expect.objectContaining({ key: "cache.idb.unavailable" }) }),
    ]);
  });

  test("the shards fail to read while IndexedDB answers: IndexedDB's answers, and the shards' failure reported", async () => {
    const kv = new MemoryStore();
    const s = tiered(kv);
    await s.load();
    await s.write(changes(10));
    const broken: KeyValueStore = {
      getItem: async () => {
        throw new Error("storage gone");
      },
      setItem: async () => undefined,
      removeItem: async () => undefined,
    };
    const loaded = await tiered(broken).load();
    expect([...loaded.entries]).toHaveLength(10);
    expect(loaded.notices).toEqual([expect.objectContaining({ kind: "read_failed", message: "storage gone" })]);
  });
});
