/**
 * The shared queue hears the store's notices (shared-queue.ts): a leader takes wants handed to its
 * kind at once, an asking instance collects its settled wants at once, with the period's poll a minute
 * away; a notice about another kind or another instance makes no poll. The database is a stand-in
 * here (the notices themselves, over PostgreSQL, are in shared-queue.test.ts).
 */
import { SharedQueue } from "../../src/server/firm/shared-queue";
import { Leases } from "../../src/server/firm/lease";
import type { FirmStore, HandedWant, QueueNews, WantOutcome } from "../../src/server/firm/firm-store";
import type { Entry } from "../../src/server/firm/loader-calls";
import type { Want } from "../../src/server/firm/request-wants";

/** This instance ("me"), leading every kind or none ("them" leads). */
function instance(leads: boolean, handFails = false, toTake: HandedWant[] = []) {
  let hear: (n: QueueNews) => void = () => undefined;
  const polls: string[] = [];
  const handed: HandedWant[] = [];
  const released: string[] = [];
  const told: string[] = [];
  /** The database refuses every write and notice (handFails: from the start). */
  let down = handFails;
  const errors: unknown[] = [];
  /** The callbacks of handed wants taken here, called once they are queued (the loader's claim). */
  const queuedLater: Array<() => void> = [];
  const store = {
    takeLease: async (_name: string, holder: string, _now: number, until: number) =>
      leads ? { holder, until } : { holder: "them", until },
    releaseLease: async () => undefined,
    handWants: async (rows: readonly HandedWant[]) => {
      if (down) throw new Error("connection terminated");
      handed.push(...rows);
    },
    releaseClaims: async (keys: readonly string[]) => void released.push(...keys),
    othersCalling: async () => new Set<string>(),
    tellCalling: async () => undefined,
    tellComing: async (_owner: string, kind: string, on: boolean) => {
      if (down) throw new Error("connection terminated");
      told.push(`${on ? "coming" : "none"} ${kind}`);
    },
    notifies: true,
    takeWants: async (kinds: readonly string[]) => {
      polls.push(`take ${kinds.join(",")}`);
      return toTake.splice(0);
    },
    settleWants: async () => undefined,
    collectWants: async (origin: string): Promise<WantOutcome[]> => {
      polls.push(`collect ${origin}`);
      return [];
    },
    onQueueNews: (fn: (n: QueueNews) => void) => {
      hear = fn;
      return () => (hear = () => undefined);
    },
  } as unknown as FirmStore;
  const leases = new Leases({ store, holder: "me" });
  const queue = new SharedQueue({
    store,
    leases,
    write: (_what, fn) => fn(),
    pollMs: 60_000,
    onError: (e) => errors.push(e),
    host: {
      owner: "me",
      working: () => false,
      queueHere: () => undefined,
      entriesFor: (_wants, queued) => (queuedLater.push(queued), []),
      settled: () => undefined,
      failed: () => undefined,
    },
  });
  const close = async () => {
    queue.close();
    await leases.close();
  };
  const setDown = (on: boolean) => void (down = on);
  return { queue, leases, polls, handed, released, told, queuedLater, errors, setDown, hear: (n: QueueNews) => hear(n), close };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const want = { kind: "fin", family: "batch", year: 2024, cui: 14399840 } as unknown as Want;
const entry = (): Entry => ({ id: "f 2024 14399840", want, waiters: [], since: Date.now(), sent: false }) as unknown as Entry;

test("a leader takes the wants handed to its kind as soon as it hears of them; other kinds' and instances' notices make no poll", async () => {
  const me = instance(true);
  try {
    expect(await me.queue.handOver([entry()])).toHaveLength(1); // it leads f:2024 now: kept here
    await wait(50);
    me.polls.length = 0;
    me.hear({ kind: "f:2023" });
    me.hear({ origin: "them" });
    await wait(50);
    expect(me.polls).toEqual([]);
    me.hear({ kind: "f:2024" });
    me.hear({ kind: "f:2024" }); // two notices at once: one poll
    await wait(50);
    expect(me.polls).toEqual(["take f:2024"]);
  } finally {
    await me.close();
  }
});

test("an instance that handed wants collects them as soon as their settling is announced", async () => {
  const me = instance(false);
  try {
    expect(await me.queue.handOver([entry()])).toEqual([]); // "them" leads f:2024: handed
    expect(me.handed.map((h) => h.grp)).toEqual(["f:2024"]);
    await wait(50);
    me.polls.length = 0;
    me.hear({ origin: "them" });
    await wait(50);
    expect(me.polls).toEqual([]);
    me.hear({ origin: "me" });
    await wait(50);
    expect(me.polls).toEqual(["collect me"]);
  } finally {
    await me.close();
  }
});

test("a partial batch handed over lets go of its claims first; one the database does not take comes back to be fetched here", async () => {
  const ok = instance(false);
  const failing = instance(false, true);
  try {
    const e = entry();
    expect(await ok.queue.handOver([e])).toEqual([]);
    expect(ok.released).toEqual([e.id]);
    expect(e.sent).toBe(true); // its payer is chosen among the people waiting at the hand
    const f = entry();
    expect(await failing.queue.handOver([f])).toEqual([f]);
    expect(failing.handed).toEqual([]);
    expect(f.sent).toBe(false);
  } finally {
    await ok.close();
    await failing.close();
  }
});

test("another instance's calls count while they are on their way and a moment (150 ms) after they end", async () => {
  const me = instance(true);
  let t = Date.now();
  const clock = jest.spyOn(Date, "now").mockImplementation(() => t);
  try {
    expect(await me.queue.handOver([entry()])).toHaveLength(1); // it leads f:2024 now
    expect(me.queue.othersAtWork()).toBe(false);
    me.hear({ calling: "them", on: true });
    t += 5_000;
    expect(me.queue.othersAtWork()).toBe(true); // however long they take
    me.hear({ calling: "them", on: false });
    t += 149;
    expect(me.queue.othersAtWork()).toBe(true); // their answers set their people going
    t += 2;
    expect(me.queue.othersAtWork()).toBe(false);
    me.queue.calling(true); // its own calls are the loader's to count (loader.ts flush)
    expect(me.queue.othersAtWork()).toBe(false);
  } finally {
    clock.mockRestore();
    await me.close();
  }
});

test("an instance that will hand wants of a kind says so once, and says 'none any more' only when none are queued here", async () => {
  const me = instance(false);
  try {
    me.queue.announce(["f:2024", "i:"], true);
    me.queue.announce(["f:2024"], true); // said already
    me.queue.unannounce(["f:2024", "i:"], (k) => k === "f:2024"); // f:2024 still queued here
    me.queue.unannounce(["f:2023"], () => false); // never said
    await wait(20);
    expect(me.told).toEqual(["coming f:2024", "coming i:", "none i:"]);
    expect(await me.queue.handOver([entry()])).toEqual([]); // handed: the next wants of f:2024 are said again
    const t = Date.now();
    const clock = jest.spyOn(Date, "now").mockImplementation(() => t);
    me.queue.announce(["f:2024"], true);
    clock.mockImplementation(() => t + 499);
    me.queue.announce(["f:2024"], true); // said a moment ago
    clock.mockImplementation(() => t + 501);
    me.queue.announce(["f:2024"], true); // half the leader's wait (1 s) has passed: a word gone stale is renewed
    clock.mockRestore();
    await wait(20);
    expect(me.told.slice(3)).toEqual(["coming f:2024", "coming f:2024"]);
  } finally {
    await me.close();
  }
});

test("a leader counts on the wants another instance said it will hand (up to 1 s), until they are handed or it says none are coming", async () => {
  const me = instance(true);
  let t = Date.now();
  const clock = jest.spyOn(Date, "now").mockImplementation(() => t);
  try {
    expect(await me.queue.handOver([entry()])).toHaveLength(1); // it leads f:2024 now
    me.queue.announce(["f:2024"], true); // its own kind: nothing to say
    await new Promise(setImmediate);
    expect(me.told).toEqual([]);
    expect(me.queue.expects("f:2024")).toBe(0);
    me.hear({ coming: "them", grp: "f:2024", on: true });
    expect(me.queue.expects("f:2024")).toBe(2000); // its partial batch may wait up to twice the 1 s
    expect(me.queue.expects("f:2023")).toBe(0);
    t += 999;
    expect(me.queue.expects("f:2024")).toBe(2000);
    t += 2;
    expect(me.queue.expects("f:2024")).toBe(0); // said too long ago
    me.hear({ coming: "them", grp: "f:2024", on: true });
    me.hear({ coming: "them", grp: "f:2024", on: false });
    expect(me.queue.expects("f:2024")).toBe(0);
    me.hear({ coming: "me", grp: "f:2024", on: true }); // its own notice, heard back
    expect(me.queue.expects("f:2024")).toBe(0);
  } finally {
    clock.mockRestore();
    await me.close();
  }
});

test("the wants said to come stop counting once those handed before the take are queued here; a word heard after the take counts on", async () => {
  const row = (key: string): HandedWant => ({
    key,
    origin: "them",
    grp: "f:2024",
    want: JSON.stringify(want),
    users: [[1, "ana"]],
    since: Date.now(),
  });
  const toTake: HandedWant[] = [];
  const me = instance(true, false, toTake);
  try {
    expect(await me.queue.handOver([entry()])).toHaveLength(1); // it leads f:2024 now
    me.hear({ coming: "them", grp: "f:2024", on: true });
    toTake.push(row("f 2024 1"));
    me.hear({ kind: "f:2024" }); // they handed: taken at once
    await wait(50);
    expect(me.queuedLater).toHaveLength(1);
    expect(me.queue.expects("f:2024")).toBe(2000); // taken, being claimed here: still counted on
    me.queuedLater[0]();
    expect(me.queue.expects("f:2024")).toBe(0); // in the queue here
    // Again, with a word of more wants heard between the take and the queueing.
    me.hear({ coming: "them", grp: "f:2024", on: true });
    toTake.push(row("f 2024 2"));
    me.hear({ kind: "f:2024" });
    await wait(50);
    expect(me.queuedLater).toHaveLength(2);
    await wait(5);
    me.hear({ coming: "them", grp: "f:2024", on: true }); // more to come, after those taken
    me.queuedLater[1]();
    expect(me.queue.expects("f:2024")).toBe(2000);
  } finally {
    await me.close();
  }
});

test("a word the database does not take is logged, and the words after it are still said", async () => {
  const me = instance(false, true);
  try {
    me.queue.announce(["f:2024"], true);
    await wait(20);
    expect(me.told).toEqual([]);
    expect(me.errors).toHaveLength(1);
    me.setDown(false);
    me.queue.unannounce(["f:2024"], () => false);
    me.queue.announce(["i:"], true);
    await wait(20);
    expect(me.told).toEqual(["none f:2024", "coming i:"]);
  } finally {
    await me.close();
  }
});
