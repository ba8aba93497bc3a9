/**
 * Two server instances on one database pay once for an answer: the loader claims what it is about to
 * fetch (store.ts `claimAnswers`), and an instance that finds a want claimed by the other waits for its
 * answer in the store. Two FirmLoaders on one SQLite file stand for two instances here (the claims live
 * in the database, not in the process); custody-postgres.test.ts does the same through two real
 * instances on PostgreSQL. Failure paths: the claimer's call fails (the other fetches it itself), the
 * claimer stopped (its claim expires, then the other fetches), the database cannot claim (fetched anyway).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { FirmLoader, type Requester } from "../../src/server/firm/loader";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/store";
import { wantKey, type Want } from "../../src/server/firm/answers";
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

test("the same 100 companies asked through two instances at once: one call upstream, both people answered", async () => {
  const f = await firm();
  const svc = service(80);
  const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  const two = new FirmLoader({ store: f.b, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  try {
    const [x, y] = await Promise.all([one.load(WANTS, person(1, "ana")), two.load(WANTS, person(2, "ion"))]);
    expect(svc.calls).toHaveLength(1);
    expect(names(x)).toEqual(NAMES);
    expect(names(y)).toEqual(names(x));
    const month = new Date().toISOString().slice(0, 7);
    const spent = (await f.a.listUsers(month)).reduce((s, u) => s + u.spent, 0);
    expect(spent).toBe(1); // the credits attributed are the service's count
    expect((await f.a.claimedKeys(WANTS.map(wantKey), Date.now())).size).toBe(0); // claims let go once stored
  } finally {
    one.close();
    two.close();
    await f.close();
  }
});

test("half of them overlapping: the second instance asks only for the half no one is fetching", async () => {
  const f = await firm();
  const svc = service(80);
  const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  const two = new FirmLoader({ store: f.b, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  try {
    const more: Want[] = [...CUIS.slice(50), ...data.sampleCuis(50, 7_501)].map((cui) => ({ kind: "ident", cui, include: "" }));
    const first = one.load(WANTS, person(1, "ana"));
    await new Promise((r) => setTimeout(r, 20)); // the first call is on its way
    const second = await two.load(more, person(2, "ion"));
    await first;
    expect(svc.calls).toHaveLength(2);
    expect(svc.calls[1].split("cui=")[1].split(",").map(Number).sort()).toEqual(
      more
        .slice(50)
        .map((w) => (w as { cui: number }).cui)
        .sort(),
    ); // the new 50 only
    expect((second.get(wantKey(more[0])) as { denumire: string }).denumire).toBe(NAMES[50]);
  } finally {
    one.close();
    two.close();
    await f.close();
  }
});

test("an instance waiting for the other's answers goes on waiting while it sends calls of its own", async () => {
  const f = await firm();
  const svc = service(150);
  const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  const two = new FirmLoader({ store: f.b, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  try {
    const first = one.load(WANTS, person(1, "ana"));
    await new Promise((r) => setTimeout(r, 20));
    const waiting = two.load(WANTS, person(2, "ion")); // one's: two waits
    await new Promise((r) => setTimeout(r, 40));
    const others: Want[] = data.sampleCuis(10, 7_701).map((cui) => ({ kind: "profile", cui }));
    await two.load(others, person(2, "ion")); // a flush of two's own while it waits
    expect(names(await waiting)).toEqual(NAMES);
    await first;
    expect(svc.calls).toHaveLength(11);
  } finally {
    one.close();
    two.close();
    await f.close();
  }
});

test("the claimer's call fails: the waiting instance fetches the answers itself, and its person gets them", async () => {
  const f = await firm();
  const svc = service(60);
  svc.failNext(1);
  const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  const two = new FirmLoader({ store: f.b, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  try {
    const x = one.load(WANTS, person(1, "ana")).then(
      () => "answered",
      (e) => `failed: ${e.code}`,
    );
    await new Promise((r) => setTimeout(r, 20));
    const y = await two.load(WANTS, person(2, "ion"));
    expect(await x).toBe("failed: upstream_failed");
    expect(names(y)).toEqual(NAMES);
    expect(svc.calls).toHaveLength(2);
  } finally {
    one.close();
    two.close();
    await f.close();
  }
});

test("a claim left by an instance that stopped holds until it expires, then the answers are fetched", async () => {
  const f = await firm();
  const svc = service(10);
  const now = Date.now();
  expect((await f.b.claimAnswers(WANTS.map(wantKey), "stopped-instance", now, now + 300)).size).toBe(100);
  const two = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 5 });
  try {
    const started = Date.now();
    const y = await two.load(WANTS, person(2, "ion"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(names(y)).toEqual(NAMES);
    expect(svc.calls).toHaveLength(1);
  } finally {
    two.close();
    await f.close();
  }
});

test("a database that cannot claim: the answers are fetched anyway and the failure is reported", async () => {
  const f = await firm();
  const svc = service(10);
  const errors: unknown[] = [];
  const broken: FirmStore = Object.assign(Object.create(f.a) as FirmStore, {
    claimAnswers: () => Promise.reject(new Error("database is locked")),
  });
  const one = new FirmLoader({ store: broken, upstream: svc.upstream, maxPerDay: null, windowMs: 5, onStoreError: (e) => errors.push(e) });
  try {
    const y = await one.load(WANTS, person(1, "ana"));
    expect(names(y)).toEqual(NAMES);
    expect(svc.calls).toHaveLength(1);
    expect(errors).toHaveLength(1);
  } finally {
    one.close();
    await f.close();
  }
});

/** Every call costs a credit however few companies it holds: a partial batch waits for more, a while. */
describe("partial batches wait, window after window, up to maxWaitMs", () => {
  test("60 companies, then 40 others 60 ms later from someone else: one call of 100, not two", async () => {
    const f = await firm();
    const svc = service(10);
    const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 20, maxWaitMs: 200 });
    try {
      const first = one.load(WANTS.slice(0, 60), person(1, "ana"));
      await new Promise((r) => setTimeout(r, 60));
      const second = one.load(WANTS.slice(60), person(2, "ion"));
      expect([...names(await first), ...names(await second)].filter(Boolean)).toEqual(NAMES);
      expect(svc.calls).toHaveLength(1);
      expect(svc.calls[0].split("cui=")[1].split(",")).toHaveLength(100);
    } finally {
      one.close();
      await f.close();
    }
  });

  test("a batch no one else fills goes after maxWaitMs, not later", async () => {
    const f = await firm();
    const svc = service(10);
    const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 20, maxWaitMs: 200 });
    try {
      const started = Date.now();
      const got = await one.load(WANTS.slice(0, 10), person(1, "ana"));
      const took = Date.now() - started;
      expect(names(got).slice(0, 10)).toEqual(NAMES.slice(0, 10));
      expect(took).toBeGreaterThanOrEqual(190);
      expect(took).toBeLessThan(1000);
      expect(svc.calls).toHaveLength(1);
    } finally {
      one.close();
      await f.close();
    }
  });

  test("a full batch does not wait, and a profile (one call each) goes at the window's end", async () => {
    const f = await firm();
    const svc = service(10);
    const one = new FirmLoader({ store: f.a, upstream: svc.upstream, maxPerDay: null, windowMs: 20, maxWaitMs: 5000 });
    try {
      let started = Date.now();
      await one.load(WANTS, person(1, "ana"));
      expect(Date.now() - started).toBeLessThan(1000);
      started = Date.now();
      await one.load([{ kind: "profile", cui: CUIS[0] }], person(1, "ana"));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(svc.calls).toHaveLength(2);
    } finally {
      one.close();
      await f.close();
    }
  });
});
