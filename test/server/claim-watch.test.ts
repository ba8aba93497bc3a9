/**
 * The claim watch (claim-watch.ts) acts only on what it still watches when the database answers: a want
 * its claimer handed to this instance is unwatched and queued here while a poll is on its way, and that
 * poll must not queue it a second time (it would be sent twice: once in the batch it joined, once again).
 */
import { ClaimWatch } from "../../src/server/firm/claim-watch";
import type { Entry } from "../../src/server/firm/loader-calls";
import type { QueueNews, StoredAnswer } from "../../src/server/firm/firm-store";

const entry = (id: string): Entry => ({ id, want: { kind: "profile", cui: 1 }, waiters: [], since: 0, sent: false }) as unknown as Entry;

test("a want unwatched while a poll is on its way is neither handed back nor settled by that poll", async () => {
  let answer!: () => void;
  const gate = new Promise<void>((r) => (answer = r));
  const polled: string[][] = [];
  const back: string[] = [];
  const found: string[] = [];
  const watch = new ClaimWatch({
    store: {
      // Nobody holds a claim on them any more and nothing is stored: both would go back to the queue.
      claimedKeys: async (keys: readonly string[]) => {
        polled.push([...keys]);
        await gate;
        return new Map<string, string>();
      },
      getAnswers: async () => new Map<string, StoredAnswer>(),
      releaseClaims: async () => undefined,
    },
    pollMs: 1,
    now: Date.now,
    found: (entries) => found.push(...entries.map((e) => e.id)),
    back: (entries) => back.push(...entries.map((e) => e.id)),
  });
  try {
    watch.add([entry("a"), entry("b")]);
    while (polled.length === 0) await new Promise((r) => setTimeout(r, 1));
    expect(watch.unwatch("a")).toBe(true); // handed here by its claimer: queued here, not by the watch
    answer();
    while (back.length === 0) await new Promise((r) => setTimeout(r, 1));
    expect(back).toEqual(["b"]);
    expect(found).toEqual([]);
    expect(watch.unwatch("a")).toBe(false);
  } finally {
    watch.close();
  }
});

test("a notice naming the claims let go has only those looked for, once: the stored handed out, the others queued here again", async () => {
  const asked: string[][] = [];
  const claimsRead: string[][] = [];
  const back: string[] = [];
  const found: string[] = [];
  let hear!: (n: QueueNews) => void;
  const stored = new Map<string, StoredAnswer>([["a", { key: "a", body: { n: 1 }, fetchedAt: 0, expiresAt: Infinity }]]);
  const watch = new ClaimWatch({
    store: {
      claimedKeys: async (keys: readonly string[]) => (claimsRead.push([...keys]), new Map(keys.map((k) => [k, "other"]))),
      getAnswers: async (keys: readonly string[]) => (asked.push([...keys]), new Map([...stored].filter(([k]) => keys.includes(k)))),
      releaseClaims: async () => undefined,
      onQueueNews: (fn) => ((hear = fn), () => undefined),
    },
    owner: "here",
    pollMs: 60_000, // no poll during the test: the notice alone
    now: Date.now,
    found: (entries) => found.push(...entries.map((e) => e.id)),
    back: (entries) => back.push(...entries.map((e) => e.id)),
  });
  try {
    watch.add(["a", "b", "c", "d"].map(entry), Date.now() + 1_000); // watched before any notice
    // Another instance stored "a" and gave up "b" ("x" is not watched here); "c" and "d" are still its.
    hear({ released: "other", keys: ["a", "b", "x"] });
    while (found.length + back.length < 2) await new Promise((r) => setTimeout(r, 1));
    expect(asked).toEqual([["a", "b"]]);
    expect(claimsRead).toEqual([]);
    expect(found).toEqual(["a"]);
    expect(back).toEqual(["b"]);
    // The others stay watched; the instance's own notices are not news.
    hear({ released: "here", keys: ["c"] });
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toHaveLength(1);
    expect(watch.unwatch("c") && watch.unwatch("d")).toBe(true);
  } finally {
    watch.close();
  }
});

test("claims whose owner has stopped for certain are let go by the poll that finds them, and their wants queued here at once; a live owner's stay", async () => {
  // The claims' table: "a" and "b" held by an instance whose process is gone, "c" by one that runs.
  const claims = new Map([
    ["a", "gone"],
    ["b", "gone"],
    ["c", "alive"],
  ]);
  const released: [string[], string][] = [];
  const back: string[] = [];
  const watch = new ClaimWatch({
    store: {
      claimedKeys: async (keys: readonly string[]) => new Map([...claims].filter(([k]) => keys.includes(k))),
      getAnswers: async () => new Map<string, StoredAnswer>(),
      releaseClaims: async (keys: readonly string[], owner: string) => {
        released.push([[...keys], owner]);
        for (const k of keys) if (claims.get(k) === owner) claims.delete(k);
      },
    },
    owner: "here",
    pollMs: 1,
    now: Date.now,
    stopped: (owner) => owner === "gone",
    found: () => undefined,
    back: (entries) => back.push(...entries.map((e) => e.id)),
  });
  try {
    watch.add(["a", "b", "c"].map(entry));
    while (back.length < 2) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20)); // more polls: "c" stays watched, nothing let go twice
    expect(released).toEqual([[["a", "b"], "gone"]]);
    expect(back.sort()).toEqual(["a", "b"]);
    expect(watch.unwatch("c")).toBe(true);
  } finally {
    watch.close();
  }
});

test("a let-go the database refuses leaves the stopped owner's claims watched (they run out as before), said through onError; the owner is asked about once a poll", async () => {
  const asked: string[] = [];
  const errors: unknown[] = [];
  const back: string[] = [];
  const watch = new ClaimWatch({
    store: {
      claimedKeys: async (keys: readonly string[]) => new Map(keys.map((k) => [k, "gone"])),
      getAnswers: async () => new Map<string, StoredAnswer>(),
      releaseClaims: async () => {
        throw new Error("database read-only");
      },
    },
    owner: "here",
    pollMs: 1,
    now: Date.now,
    stopped: (owner) => (asked.push(owner), true),
    found: () => undefined,
    back: (entries) => back.push(...entries.map((e) => e.id)),
    onError: (e) => errors.push(e),
  });
  try {
    watch.add(["a", "b", "c"].map(entry));
    while (errors.length < 2) await new Promise((r) => setTimeout(r, 1));
    expect(back).toEqual([]);
    expect(asked.length).toBe(errors.length); // once a poll for the one owner, not once a claim
    expect(watch.unwatch("a") && watch.unwatch("b") && watch.unwatch("c")).toBe(true);
  } finally {
    watch.close();
  }
});
