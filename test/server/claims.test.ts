/**
 * Two server instances on one database pay once for an answer: the loader claims what it is about to
 * fetch (firm-store.ts `claimAnswers`), and an instance that finds a want claimed by the other waits for its
 * answer in the store. Two FirmLoaders on one SQLite file stand for two instances here (the claims live
 * in the database, not in the process); custody-postgres.test.ts does the same through two real
 * instances on PostgreSQL. Failure paths: the claimer's call fails (the other fetches it itself), the
 * claimer stopped (its claim expires, then the other fetches), the database cannot claim (fetched anyway).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { FirmLoader, type LoaderOptions, type Requester } from "../../src/server/firm/loader";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { wantKey, type Want } from "../../src/server/firm/request-wants";
import { upstream, type Upstream } from "../../src/server/firm/upstream";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let dir: string;
let serial = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-claims-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const CUIS = data.sampleCuis(100, 7_301);
const WANTS: Want[] = CUIS.map((cui) => ({ kind: "ident", cui, include: "" }));
const NAMES = CUIS.map((c) => data.company(c)?.denumire);

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

/** The sandbox at `ms` a call, through the server's upstream with a key of its own; `calls` what it was asked. */
function service(ms: number) {
  sb.config.latencyMs = ms;
  sb.config.faults = {};
  const key = `demo-business-claims${++serial}`;
  const up = upstream({ base: () => sb.url, key, timeoutMs: 5000 });
  const calls: string[] = [];
  return {
    calls,
    failNext(n: number) {
      sb.config.faults = { failNext: n };
    },
    upstream: ((p: string) => (calls.push(p), up(p))) as Upstream,
  };
}

async function firm(): Promise<{ a: FirmStore; b: FirmStore; close(): Promise<void> }> {
  const file = path.join(dir, `firm${++serial}.sqlite`);
  const a = await openFirmStore(file);
  const b = await openFirmStore(file);
  await a.addUser("ana", 1000, `hash-ana-${serial}`, Date.now());
  await a.addUser("ion", 1000, `hash-ion-${serial}`, Date.now());
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

const person = (id: number, user: string): Requester => ({ id, user, credits: 0, fetched: false });
const names = (m: Map<string, unknown>) => WANTS.map((w) => (m.get(wantKey(w)) as { denumire?: string } | null)?.denumire);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Instances {
  f: Awaited<ReturnType<typeof firm>>;
  svc: ReturnType<typeof service>;
  /** Two instances on the firm's one database (each with its own connection). */
  one: FirmLoader;
  two: FirmLoader;
}

/** A firm, the sandbox at `ms` a call, two loaders with `over` (on stores `stores` makes of the two connections); closed after `work`. */
async function withInstances(
  ms: number,
  work: (x: Instances) => Promise<void>,
  over: Partial<LoaderOptions> = {},
  stores: (a: FirmStore) => FirmStore = (a) => a,
): Promise<void> {
  const f = await firm();
  const svc = service(ms);
  const loader = (store: FirmStore) =>
    new FirmLoader({ store: stores(store), upstream: svc.upstream, maxPerDay: null, windowMs: 5, ...over });
  const one = loader(f.a);
  const two = loader(f.b);
  try {
    await work({ f, svc, one, two });
  } finally {
    one.close();
    two.close();
    await f.close();
  }
}

/** The `nth` connection opened (1 or 2) with some of its methods replaced; the other as it is. */
function oneStore(nth: number, replace: (t: FirmStore) => Partial<FirmStore>): (s: FirmStore) => FirmStore {
  let opened = 0;
  return (s) => {
    if (++opened !== nth) return s;
    const r = replace(s) as Record<string | symbol, unknown>;
    return new Proxy(s, {
      get: (t, k) => {
        if (k in r) return r[k];
        const v = Reflect.get(t, k) as unknown;
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
  };
}

/** The first instance's database taking 1.5 s to store answers (a new stand-in for each test). */
const slowPuts = () =>
  oneStore(1, (t) => ({
    putAnswers: async (...a: Parameters<FirmStore["putAnswers"]>) => {
      await sleep(1500);
      return t.putAnswers(...a);
    },
  }));

test("the same 100 companies asked through two instances at once: one call upstream, both people answered", () =>
  withInstances(80, async ({ f, svc, one, two }) => {
    const [x, y] = await Promise.all([one.load(WANTS, person(1, "ana")), two.load(WANTS, person(2, "ion"))]);
    expect(svc.calls).toHaveLength(1);
    expect(names(x)).toEqual(NAMES);
    expect(names(y)).toEqual(names(x));
    const month = new Date().toISOString().slice(0, 7);
    const spent = (await f.a.listUsers(month)).reduce((s, u) => s + u.spent, 0);
    expect(spent).toBe(1); // the credits attributed are the service's count
    expect((await f.a.claimedKeys(WANTS.map(wantKey), Date.now())).size).toBe(0); // claims let go once stored
  }));

test("half of them overlapping: the second instance asks only for the half no one is fetching", () =>
  withInstances(80, async ({ svc, one, two }) => {
    const more: Want[] = [...CUIS.slice(50), ...data.sampleCuis(50, 7_501)].map((cui) => ({ kind: "ident", cui, include: "" }));
    const first = one.load(WANTS, person(1, "ana"));
    await sleep(20); // the first call is on its way
    const second = await two.load(more, person(2, "ion"));
    await first;
    expect(svc.calls).toHaveLength(2);
    const asked = svc.calls[1].split("cui=")[1].split(",").map(Number).sort();
    expect(asked).toEqual(
      more
        .slice(50)
        .map((w) => (w as { cui: number }).cui)
        .sort(),
    ); // the new 50 only
    expect((second.get(wantKey(more[0])) as { denumire: string }).denumire).toBe(NAMES[50]);
  }));

test("an instance waiting for the other's answers goes on waiting while it sends calls of its own", () =>
  withInstances(150, async ({ svc, one, two }) => {
    const first = one.load(WANTS, person(1, "ana"));
    await sleep(20);
    const waiting = two.load(WANTS, person(2, "ion")); // one's: two waits
    await sleep(40);
    const others: Want[] = data.sampleCuis(10, 7_701).map((cui) => ({ kind: "profile", cui }));
    await two.load(others, person(2, "ion")); // a flush of two's own while it waits
    expect(names(await waiting)).toEqual(NAMES);
    await first;
    expect(svc.calls).toHaveLength(11);
  }));

test("the claimer's call fails: the waiting instance fetches the answers itself, and its person gets them", () =>
  withInstances(60, async ({ svc, one, two }) => {
    svc.failNext(1);
    const x = one.load(WANTS, person(1, "ana")).then(
      () => "answered",
      (e) => `failed: ${e.code}`,
    );
    await sleep(20);
    const y = await two.load(WANTS, person(2, "ion"));
    expect(await x).toBe("failed: upstream_failed");
    expect(names(y)).toEqual(NAMES);
    expect(svc.calls).toHaveLength(2);
  }));

test("a claim left by an instance that stopped holds until it expires, then the answers are fetched", () =>
  withInstances(10, async ({ f, svc, two }) => {
    const now = Date.now();
    expect((await f.a.claimAnswers(WANTS.map(wantKey), "stopped-instance", now, now + 300)).size).toBe(100);
    const started = Date.now();
    const y = await two.load(WANTS, person(2, "ion"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(names(y)).toEqual(NAMES);
    expect(svc.calls).toHaveLength(1);
  }));

test("a database that cannot claim: the answers are fetched anyway and the failure is reported", async () => {
  const errors: unknown[] = [];
  const broken = (a: FirmStore): FirmStore =>
    Object.assign(Object.create(a) as FirmStore, { claimAnswers: () => Promise.reject(new Error("database is locked")) });
  await withInstances(
    10,
    async ({ svc, one }) => {
      const y = await one.load(WANTS, person(1, "ana"));
      expect(names(y)).toEqual(NAMES);
      expect(svc.calls).toHaveLength(1);
      expect(errors).toHaveLength(1);
    },
    { onStoreError: (e) => errors.push(e) },
    broken,
  );
});

test("the people get a call's answers as it brings them, not after the database has stored them; the other instance waits for them stored", async () => {
  await withInstances(
    100,
    async ({ f, svc, one, two }) => {
      const t0 = Date.now();
      const ana = one.load(WANTS, person(1, "ana")).then((m) => ({ m, ms: Date.now() - t0 }));
      while (svc.calls.length < 1) await sleep(5);
      const ion = two.load(WANTS, person(2, "ion")).then((m) => ({ m, ms: Date.now() - t0 }));
      const [a, i] = await Promise.all([ana, ion]);
      expect(names(a.m)).toEqual(NAMES);
      expect(a.ms).toBeLessThan(1000); // the call (100 ms), not the call and the write (1,600 ms)
      expect(names(i.m)).toEqual(NAMES); // read from the store once written
      expect(i.ms).toBeGreaterThanOrEqual(1500);
      expect((await f.b.getAnswers(WANTS.map(wantKey), Date.now())).size).toBe(100);
      expect((await f.b.claimedKeys(WANTS.map(wantKey), Date.now())).size).toBe(0); // let go with the write
      expect(svc.calls).toHaveLength(1);
    },
    {},
    slowPuts(),
  );
});

test("while a call's answers are being stored, a request for them under another key that they answer (without `include`) is answered from them, not fetched again", async () => {
  const ALL: Want[] = CUIS.map((cui) => ({ kind: "ident", cui, include: "all" }));
  await withInstances(
    100,
    async ({ svc, one }) => {
      await one.load(ALL, person(1, "ana")); // answered; stored 1.5 s later
      expect(names(await one.load(WANTS, person(2, "ion")))).toEqual(NAMES); // the same companies, asked without include
      expect(svc.calls).toHaveLength(1);
    },
    {},
    slowPuts(),
  );
});

test("answers the database refuses for good (not kept to try again): their claims go anyway, and the other instance fetches them itself", async () => {
  const refusingPuts = oneStore(1, () => ({ putAnswers: async () => Promise.reject(new Error("deadlock detected")) }));
  const errors: unknown[] = [];
  await withInstances(
    100,
    async ({ f, svc, one, two }) => {
      expect(names(await one.load(WANTS, person(1, "ana")))).toEqual(NAMES); // answered, not stored
      for (let i = 0; i < 100 && (await f.a.claimedKeys(WANTS.map(wantKey), Date.now())).size > 0; i++) await sleep(10);
      expect((await f.a.claimedKeys(WANTS.map(wantKey), Date.now())).size).toBe(0);
      const t0 = Date.now();
      expect(names(await two.load(WANTS, person(2, "ion")))).toEqual(NAMES);
      expect(Date.now() - t0).toBeLessThan(5_000); // not the claims' 60 s
      expect(svc.calls).toHaveLength(2);
      expect(errors.length).toBeGreaterThan(0); // said
    },
    { onStoreError: (e) => errors.push(e) },
    refusingPuts,
  );
});

/** Every call costs a credit however few companies it holds: a partial batch waits for more, a while. */
describe("partial batches wait, window after window, up to maxWaitMs", () => {
  test("60 companies, then 40 others 60 ms later from someone else: one call of 100, not two", () =>
    withInstances(
      10,
      async ({ svc, one }) => {
        const first = one.load(WANTS.slice(0, 60), person(1, "ana"));
        await sleep(60);
        const second = one.load(WANTS.slice(60), person(2, "ion"));
        expect([...names(await first), ...names(await second)].filter(Boolean)).toEqual(NAMES);
        expect(svc.calls).toHaveLength(1);
        expect(svc.calls[0].split("cui=")[1].split(",")).toHaveLength(100);
      },
      // maxWaitMs well past the 60 ms (a loaded machine's timers fire late); without the wait, the 60 go at 20 ms.
      { windowMs: 20, maxWaitMs: 2000 },
    ));

  test("a partial batch past maxWaitMs waits (twice maxWaitMs at most) while wants of its kind are being claimed: they join it, one call of 100", () => {
    let claims = 0;
    // The second request's claim takes 1.1 s (a busy database): the first's 60 have waited past maxWaitMs
    // (1 s) by then, and less than twice it, by a margin a loaded machine's timers do not eat.
    const slowSecondClaim = oneStore(1, (t) => ({
      claimAnswers: async (...a: Parameters<FirmStore["claimAnswers"]>) => {
        if (++claims === 2) await sleep(1100);
        return t.claimAnswers(...a);
      },
    }));
    return withInstances(
      10,
      async ({ svc, one }) => {
        const first = one.load(WANTS.slice(0, 60), person(1, "ana"));
        await sleep(50);
        const second = one.load(WANTS.slice(60), person(2, "ion"));
        expect([...names(await first), ...names(await second)].filter(Boolean)).toEqual(NAMES);
        expect(claims).toBe(2);
        expect(svc.calls).toHaveLength(1); // 2 without the wait: 60 at 1 s, 40 after their claim
        expect(svc.calls[0].split("cui=")[1].split(",")).toHaveLength(100);
      },
      // A claim counts as joining for busyWaitMs: longer than the slow claim.
      { windowMs: 20, maxWaitMs: 1000, busyWaitMs: 3000 },
      slowSecondClaim,
    );
  });

  test("a batch no one else fills goes after maxWaitMs, not later", () =>
    withInstances(
      10,
      async ({ svc, one }) => {
        const started = Date.now();
        const got = await one.load(WANTS.slice(0, 10), person(1, "ana"));
        const took = Date.now() - started;
        expect(names(got).slice(0, 10)).toEqual(NAMES.slice(0, 10));
        expect(took).toBeGreaterThanOrEqual(190);
        expect(took).toBeLessThan(1000);
        expect(svc.calls).toHaveLength(1);
      },
      { windowMs: 20, maxWaitMs: 200 },
    ));

  // 100 more companies, for the batches that follow a first one.
  const MORE: Want[] = data
    .sampleCuis(200, 7_302)
    .filter((c) => !CUIS.includes(c))
    .slice(0, 100)
    .map((cui) => ({ kind: "ident", cui, include: "" }));

  test.each([
    { gap: 0, when: "at once" },
    // Her add-in, the network and the server between her answers and her next request: the grace after the call.
    { gap: 50, when: "50 ms later" },
  ])(
    "while a call is on its way, a partial batch waits for the people its answers set going, who ask $when: 100 + 30 + 70 companies in 2 calls, not 3",
    ({ gap }) =>
      withInstances(
        400,
        async ({ svc, one }) => {
          const first = one.load(WANTS, person(1, "ana")); // a full batch: on its way at once, for 400 ms
          await sleep(10);
          const ion = one.load(MORE.slice(0, 30), person(2, "ion")); // part of a batch, while Ana's is on its way
          await first;
          if (gap > 0) await sleep(gap);
          const next = one.load(MORE.slice(30), person(1, "ana")); // Ana's next request, set going by her answers
          const [a, b] = await Promise.all([ion, next]);
          expect([a.size, b.size]).toEqual([30, 70]);
          expect(svc.calls.map((c) => c.split("cui=")[1].split(",").length)).toEqual([100, 100]);
        },
        // A wider grace than the servers' 150 ms: a slow machine's timers fire late. Without the wait, Ion's
        // 30 go at 200 ms, while Ana's call is on its way.
        { windowMs: 20, maxWaitMs: 200, busyWaitMs: 3000, graceMs: 1500 },
      ),
  );

  test("a partial batch waits no longer than busyWaitMs, however long the call on its way takes", () =>
    withInstances(
      1500,
      async ({ svc, one }) => {
        const started = Date.now();
        const first = one.load(WANTS, person(1, "ana")); // on its way for 1.5 s
        const ion = one.load(MORE.slice(0, 10), person(2, "ion"));
        await ion;
        const took = Date.now() - started;
        expect(took).toBeGreaterThanOrEqual(1500 + 450); // sent after busyWaitMs (500 ms), answered 1.5 s later
        expect(took).toBeLessThan(1500 + 1400);
        await first;
        expect(svc.calls).toHaveLength(2);
      },
      { windowMs: 20, maxWaitMs: 200, busyWaitMs: 500 },
    ));

  test("a full batch does not wait, and a profile (one call each) goes at the window's end", () =>
    withInstances(
      10,
      async ({ svc, one }) => {
        let started = Date.now();
        await one.load(WANTS, person(1, "ana"));
        expect(Date.now() - started).toBeLessThan(1000);
        started = Date.now();
        await one.load([{ kind: "profile", cui: CUIS[0] }], person(1, "ana"));
        expect(Date.now() - started).toBeLessThan(1000);
        expect(svc.calls).toHaveLength(2);
      },
      { windowMs: 20, maxWaitMs: 5000 },
    ));
});

test("shared queue: a partial batch the database does not take once its claims were let go is claimed again and fetched once", async () => {
  // The second instance's connection refuses every hand (its claims let go first, as handOver does).
  const refusingHands = oneStore(2, () => ({ handWants: async () => Promise.reject(new Error("connection terminated")) }));
  const errors: unknown[] = [];
  await withInstances(
    200,
    async ({ f, svc, one, two }) => {
      await one.load([WANTS[0]], person(1, "ana")); // one leads the kind: it asked first
      const rest = WANTS.slice(1, 31);
      const asked = two.load(rest, person(2, "ion")); // two's partial batch: not handed, fetched by two
      await sleep(120);
      expect((await f.a.claimedKeys(rest.map(wantKey), Date.now())).size).toBe(rest.length); // claimed again
      const joined = one.load(rest, person(1, "ana")); // one waits for two's answers
      expect(names(await asked).slice(1, 31)).toEqual(NAMES.slice(1, 31));
      expect(names(await joined).slice(1, 31)).toEqual(NAMES.slice(1, 31));
      expect(svc.calls).toHaveLength(2); // one's first, two's 30: none paid twice
      expect(errors.length).toBeGreaterThan(0); // the refused hand was reported
    },
    { shareQueue: true, onStoreError: (e) => errors.push(e) },
    refusingHands,
  );
});

describe("shared queue: a leader's partial batch waits for the other instance's calls, not for its claims", () => {
  const fin = (cuis: number[]): Want[] => cuis.map((cui) => ({ kind: "fin", family: "batch", cui, year: 2024 }));
  const FIN = fin(data.sampleCuis(50, 7_901));
  /** The service's calls of each kind, by the companies they held. */
  const sizes = (calls: string[], kind: "financiar" | "ident") =>
    calls.filter((c) => c.includes("financiar") === (kind === "financiar")).map((c) => c.split("cui=")[1].split(",").length);

  test("two leaders, each with a partial batch and nothing on its way: both go after maxWaitMs, neither waits the busy wait on the other's claims", () =>
    withInstances(
      100,
      async ({ svc, one, two }) => {
        const t0 = Date.now();
        // two leads the financial batches, one the identification: each asked first for its kind.
        const ion = two.load(FIN.slice(0, 20), person(2, "ion")).then(() => Date.now() - t0);
        const ana = one.load(WANTS.slice(0, 30), person(1, "ana")).then(() => Date.now() - t0);
        const [ionMs, anaMs] = await Promise.all([ion, ana]);
        expect(sizes(svc.calls, "financiar")).toEqual([20]);
        expect(sizes(svc.calls, "ident")).toEqual([30]);
        // maxWaitMs (200) and the call (100): well under the busy wait (4 s) they waited on each other's claims.
        expect(Math.max(ionMs, anaMs)).toBeLessThan(2500);
      },
      { shareQueue: true, busyWaitMs: 4000 },
    ));

  // The next tests' scale: a call of 1.5 s, longer than maxWaitMs (1 s), so that a partial batch that did not
  // wait for it would go alone; maxWaitMs long enough that a loaded machine's polls and timers see the other
  // instance's call before it ends.
  const SCALED: Partial<LoaderOptions> = { shareQueue: true, maxWaitMs: 1000, busyWaitMs: 3000, graceMs: 1000 };

  test("while one instance's call is on its way, the other's partial batch waits for the wants its answers bring: 100 + 20 + 30 companies in 2 calls, not 3", () =>
    withInstances(
      1500,
      async ({ svc, one, two }) => {
        const ion = two.load(FIN.slice(0, 20), person(2, "ion")); // two leads the financial batches
        await sleep(30);
        await one.load(WANTS, person(1, "ana")); // a full batch, 1.5 s on its way: two's 20 wait for it
        const ana = one.load(FIN.slice(20), person(1, "ana")); // what its answers set going: handed to two
        await Promise.all([ion, ana]);
        expect(sizes(svc.calls, "ident")).toEqual([100]);
        expect(sizes(svc.calls, "financiar")).toEqual([50]);
      },
      SCALED,
    ));

  test("the leader's own call answers the other instance's person: its partial batch waits for the wants those answers bring (50 + 10 + 40 companies in 2 calls, not 3)", () =>
    withInstances(
      1500,
      async ({ svc, one, two }) => {
        const FIN2 = fin(data.sampleCuis(60, 7_951));
        const ana1 = one.load(FIN.slice(0, 30), person(1, "ana")); // one leads the financial batches
        await sleep(30);
        const ion1 = two.load(FIN2.slice(0, 20), person(2, "ion")); // handed to one: 50, a full batch, 1.5 s
        while (svc.calls.length < 1) await sleep(5);
        const ana2 = one.load(FIN.slice(30, 40), person(1, "ana")); // 10 more at one: they wait for that call
        await ion1; // its answer sets ion going, while ana's 10 have waited longer than maxWaitMs
        const ion2 = two.load(FIN2.slice(20, 60), person(2, "ion")); // handed to one, after a window and a few writes
        await Promise.all([ana1, ana2, ion2]);
        expect(sizes(svc.calls, "financiar")).toEqual([50, 50]);
      },
      SCALED,
    ));

  test("the leader's own call answers the other instance's person through her watched claims: its partial batch waits for the wants those answers bring (35 + 15 companies in 1 call, not 2)", () =>
    withInstances(
      300,
      async ({ svc, one, two }) => {
        const ana1 = one.load(WANTS, person(1, "ana")); // a full identification batch at once, 300 ms on its way
        while (svc.calls.length < 1) await sleep(5);
        const ana2 = one.load(FIN.slice(0, 30), person(1, "ana")); // one leads the financial batches: 30 wait
        await sleep(30);
        const ion1 = two.load(FIN.slice(30, 35), person(2, "ion")); // handed to one: 35 wait there
        await two.load(WANTS.slice(0, 10), person(3, "ion")); // claimed by one: two watches its claims
        // Its answer sets ion going, while the 35 have waited longer than maxWaitMs.
        const ion2 = two.load(FIN.slice(35, 50), person(3, "ion")); // handed to one, after a window and a few writes
        await Promise.all([ana1, ana2, ion1, ion2]);
        expect(sizes(svc.calls, "ident")).toEqual([100]);
        expect(sizes(svc.calls, "financiar")).toEqual([50]);
      },
      { shareQueue: true, graceMs: 400 },
    ));

  test("a call the service refused as busy (503, not charged) is still on its way until its retry ends: the other's partial batch goes on waiting for it", async () => {
    let refused = 0;
    await withInstances(
      300,
      async ({ f, svc, two }) => {
        // one's first call is refused busy, to be sent again 1.5 s later (its Retry-After). Were the pause
        // not counted as on its way, two's 20 would go alone after graceMs and maxWaitMs (about 1 s).
        const busyOnce: Upstream = async (p) => {
          if (refused++ > 0) return svc.upstream(p);
          await sleep(20);
          const answer = { status: 503, body: undefined, plan: null, retryAfterMs: 1500, said: { code: "busy", message: null } };
          return { answer, charged: false };
        };
        const oneBusy = new FirmLoader({ store: f.a, upstream: busyOnce, maxPerDay: null, windowMs: 5, ...SCALED });
        try {
          const ion = two.load(FIN.slice(0, 20), person(2, "ion")); // two leads the financial batches
          await sleep(30);
          await oneBusy.load(WANTS, person(1, "ana")); // refused, paused 1.5 s, then 300 ms on its way
          const ana = oneBusy.load(FIN.slice(20), person(1, "ana")); // what its answers set going: handed to two
          await Promise.all([ion, ana]);
          expect(refused).toBe(2);
          expect(sizes(svc.calls, "ident")).toEqual([100]);
          expect(sizes(svc.calls, "financiar")).toEqual([50]);
        } finally {
          oneBusy.close();
        }
      },
      SCALED,
    );
  });
});
