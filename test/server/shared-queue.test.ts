/**
 * One batch queue per kind across two `firma serve` instances on one PostgreSQL (real processes: the
 * servers as child processes, a throwaway cluster): the people of both instances asking at once fill
 * the same batches (the fewest calls for the union, no company asked twice), and a leader killed with
 * SIGKILL while it holds the other's wants hands over: the other takes its lease once it lapses and
 * fetches them, each once, nothing lost (shared-queue.ts, lease.ts); the instances hear each other's
 * hands and settlings at once (PostgreSQL's NOTIFY). The queue is on by default on PostgreSQL
 * (FIRMA_SHARED_QUEUE=0 turns it off).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { HandedWant, QueueNews } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import { FirmLoader, type Requester } from "../../src/server/firm/loader";
import { wantKey, type Want } from "../../src/server/firm/request-wants";
import { upstream } from "../../src/server/firm/upstream";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";
import { ask, minimalDist, startFirmServer, until, type FirmServer } from "../support/firm-server";

const installed = postgresBinDir() !== null;
const suite = installed ? describe : describe.skip;

let sb: Sandbox;
let pg: PostgresCluster;
let dir: string;
let dist: string;
let serial = 0;
const servers: FirmServer[] = [];

beforeAll(async () => {
  if (!installed) return;
  sb = await startSandbox({ port: 0 });
  pg = await startPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-shared-queue-"));
  dist = minimalDist(dir);
}, 120_000);
afterAll(async () => {
  if (!installed) return;
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.exited));
  await sb.close();
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Two instances on a new database, with one firm key, and `people` (budget 1,000). */
async function twoInstances(people: string[]) {
  const db = `queue${++serial}`;
  const url = await pg.createDatabase(db);
  const key = `demo-business-queue${serial}`;
  const keyFile = path.join(dir, `key${serial}`);
  fs.writeFileSync(keyFile, `${key}\n`);
  const setup = await openFirmStore(url);
  const tokens: string[] = [];
  for (const p of people) {
    const t = newToken();
    await setup.addUser(p, 1000, hashToken(t), Date.now());
    tokens.push(t);
  }
  await setup.close();
  const a = await startFirmServer({ keyFile, database: url, upstream: sb.url, dist });
  const b = await startFirmServer({ keyFile, database: url, upstream: sb.url, dist });
  servers.push(a, b);
  /** The companies the sandbox was asked for with this key, and how often. */
  const asked = () => {
    const n = new Map<number, number>();
    for (const r of sb.requests)
      if (r.key === key)
        for (const c of (new URLSearchParams(r.query).get("cui") ?? "").split(",")) if (c) n.set(Number(c), (n.get(Number(c)) ?? 0) + 1);
    return n;
  };
  const spent = async () => {
    const s = await openFirmStore(url);
    try {
      return (await s.listUsers(bucharestMonth(Date.now()))).reduce((n, u) => n + u.spent, 0);
    } finally {
      await s.close();
    }
  };
  return { a, b, key, tokens, db, asked, spent };
}

const CUIS = data.sampleCuis(2000, 77_003).filter((c) => data.company(c));
const batch = (cuis: number[]) => `/v4/firme/batch?cui=${cuis.join(",")}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two loaders (two instances' queues) on a new PostgreSQL database, each on its own connection, with their
 * polls 5 s apart: what happens sooner is the notices' doing. `calls`: the companies of each upstream call.
 * `slowHandMs`: the second instance's hands take that much longer to reach the database (a loaded machine).
 */
async function twoLoaders(latencyMs: number, shareQueue: boolean, windowMs = 5, slowHandMs = 0) {
  const url = await pg.createDatabase(`loaders${++serial}`);
  const key = `demo-business-loaders${serial}`;
  const [a, slow] = [await openFirmStore(url), await openFirmStore(url)];
  const b = new Proxy(slow, {
    get: (t, p) =>
      p === "handWants"
        ? async (rows: HandedWant[]) => (await sleep(slowHandMs), t.handWants(rows))
        : typeof Reflect.get(t, p) === "function"
          ? Reflect.get(t, p).bind(t)
          : Reflect.get(t, p),
  });
  await a.addUser("ana", 1000, `hash-ana-${serial}`, Date.now());
  await a.addUser("ion", 1000, `hash-ion-${serial}`, Date.now());
  sb.config.latencyMs = latencyMs;
  const up = upstream({ base: () => sb.url, key, timeoutMs: 5000 });
  const loader = (store: typeof a) => new FirmLoader({ store, upstream: up, maxPerDay: null, windowMs, pollMs: 5000, shareQueue });
  const [one, two] = [loader(a), loader(b)];
  return {
    one,
    two,
    calls: () => sb.requests.filter((r) => r.key === key).map((r) => (new URLSearchParams(r.query).get("cui") ?? "").split(",").length),
    close: async () => {
      one.close();
      two.close();
      sb.config.latencyMs = 0;
      await Promise.all([a.close(), b.close()]);
    },
  };
}
const person = (id: number, user: string): Requester => ({ id, user, credits: 0, fetched: false });
const ident = (cuis: number[]): Want[] => cuis.map((cui) => ({ kind: "ident", cui, include: "" }));
const fin = (cuis: number[]): Want[] => cuis.map((cui) => ({ kind: "fin", family: "batch", cui, year: 2024 }));

suite("one batch queue across two instances on PostgreSQL", () => {
  test("two people through two instances, 50 new companies each at the same moment: one full batch of 100 between them, not two partial ones; no company asked twice", async () => {
    sb.config.latencyMs = 100;
    const f = await twoInstances(["ana", "ion"]);
    try {
      for (let round = 0; round < 3; round++) {
        const calls = sb.usage(f.key).calls;
        const mine = CUIS.slice(500 + round * 100, 550 + round * 100);
        const theirs = CUIS.slice(550 + round * 100, 600 + round * 100);
        const [x, y] = await Promise.all([ask(f.a, f.tokens[0], batch(mine)), ask(f.b, f.tokens[1], batch(theirs))]);
        expect([x.status, y.status, x.body.length, y.body.length]).toEqual([200, 200, 50, 50]);
        expect(sb.usage(f.key).calls - calls).toBe(1);
      }
      // Asked again, through either instance: from the store.
      const again = await ask(f.b, f.tokens[0], batch(CUIS.slice(500, 600)));
      expect(again.status).toBe(200);
      expect(sb.usage(f.key).calls).toBe(3);
      expect([...f.asked().values()].filter((n) => n > 1)).toEqual([]);
      expect(await f.spent()).toBe(sb.usage(f.key).total);
    } finally {
      sb.config.latencyMs = 0;
    }
  }, 120_000);

  test("the leader killed (SIGKILL) while it holds the other's wants: the other takes over once its lease lapses, each want fetched once, none lost", async () => {
    sb.config.latencyMs = 50;
    const f = await twoInstances(["ana", "ion"]);
    // Instance a leads the identification batches: it asked first.
    expect((await ask(f.a, f.tokens[0], batch(CUIS.slice(300, 301)))).status).toBe(200);
    // A call of a's own on its way (a full batch goes at once; the service holds it 3 s): while it is, a
    // holds a partial batch for 1 s (loader.ts busyWaitMs), not 200 ms, so that the kill below lands
    // before a sends b's wants even on a loaded machine.
    sb.config.latencyMs = 3_000;
    const own = ask(f.a, f.tokens[0], batch(CUIS.slice(600, 700))).catch((e: unknown) => e);
    await until(() => sb.usage(f.key).calls === 2, 20_000, 5);
    const wanted = CUIS.slice(400, 430);
    const handed = ask(f.b, f.tokens[1], batch(wanted));
    // The moment a has taken b's wants into its queue, it is killed.
    await until(
      async () => {
        const r = await pg.sql("SELECT COUNT(*)::int AS n FROM firm_wants WHERE taken_by IS NOT NULL AND outcome IS NULL", f.db);
        return r[0].n === wanted.length;
      },
      20_000,
      5,
    );
    f.a.child.kill("SIGKILL");
    await f.a.exited;
    expect(sb.usage(f.key).calls).toBe(2); // a had not sent them
    expect(await own).not.toMatchObject({ status: 200 }); // its connection went with it
    const r = await handed;
    expect(r.status).toBe(200);
    expect(r.body.map((x: { cui: number }) => x.cui)).toEqual([...wanted].sort((x, y) => x - y));
    const asked = f.asked();
    expect(wanted.map((c) => asked.get(c))).toEqual(wanted.map(() => 1));
    expect(sb.usage(f.key).calls).toBe(3);
    await sleep(200);
    // Every credit the service charged is someone's. The killed leader may also have reserved one for
    // the call it did not send, if the kill landed between the reservation's commit and the request. No
    // server can tell afterwards whether that call left, so the credit stays counted (docs/deploy.md):
    // one at most.
    const spent = await f.spent();
    expect(spent - sb.usage(f.key).total).toBeGreaterThanOrEqual(0);
    expect(spent - sb.usage(f.key).total).toBeLessThanOrEqual(1);
    sb.config.latencyMs = 0;
  }, 120_000);

  test("an instance waiting for the other's answers hears its claims let go: answered once they are stored, not at its next poll (5 s)", async () => {
    const x = await twoLoaders(100, false);
    try {
      const wants = ident(CUIS.slice(1000, 1100));
      const first = x.one.load(wants, person(1, "ana"));
      await sleep(30); // one's call is on its way
      const t0 = Date.now();
      const second = await x.two.load(wants, person(2, "ion"));
      const waited = Date.now() - t0;
      await first;
      expect(x.calls()).toEqual([100]);
      expect(second.get(wantKey(wants[0]))).toEqual(expect.objectContaining({ cui: CUIS[1000] }));
      expect(waited).toBeLessThan(1500);
    } finally {
      await x.close();
    }
  }, 60_000);

  test("while one instance's call is on its way (as it tells the others), the other's partial batch waits for the wants its answers bring: 100 + 20 + 30 companies in 2 calls, not 3", async () => {
    const x = await twoLoaders(400, true);
    try {
      const f = fin(CUIS.slice(1200, 1250));
      const idents = x.one.load(ident(CUIS.slice(1300, 1400)), person(1, "ana")); // a full batch, 400 ms on its way
      await sleep(150); // it is on its way, and one has said so (a lease and a notice: two statements)
      const ion = x.two.load(f.slice(0, 20), person(2, "ion")); // two leads the financial batches
      await idents;
      const ana = x.one.load(f.slice(20), person(1, "ana")); // what its answers set going: handed to two
      await Promise.all([ion, ana]);
      expect(x.calls().sort((p, q) => q - p)).toEqual([100, 50]);
    } finally {
      await x.close();
    }
  }, 60_000);

  test("the leader's partial batch waits for the wants another instance said it will hand, however long the hand takes (400 ms here, past the 200 ms a partial batch waits): 50 + 50 companies in 1 call, not 2", async () => {
    const x = await twoLoaders(0, true, 5, 400);
    try {
      await x.one.load(ident(CUIS.slice(1600, 1601)), person(1, "ana")); // one leads the identification batches
      await sleep(300); // its call's grace is over: a partial batch waits 200 ms, not the busy wait
      const t0 = Date.now();
      await Promise.all([
        x.one.load(ident(CUIS.slice(1610, 1660)), person(1, "ana")),
        x.two.load(ident(CUIS.slice(1660, 1710)), person(2, "ion")),
      ]);
      expect(x.calls()).toEqual([1, 100]);
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      await x.close();
    }
  }, 60_000);

  test("the leader's partial batch waits for those wants no longer once they are in its queue: 50 + 30 companies in 1 call of 80, soon after the slow hand (not 2 s after its first want)", async () => {
    const x = await twoLoaders(0, true, 5, 400);
    try {
      await x.one.load(ident(CUIS.slice(1720, 1721)), person(1, "ana")); // one leads the identification batches
      await sleep(300);
      const t0 = Date.now();
      await Promise.all([
        x.one.load(ident(CUIS.slice(1730, 1780)), person(1, "ana")),
        x.two.load(ident(CUIS.slice(1780, 1810)), person(2, "ion")),
      ]);
      expect(x.calls()).toEqual([1, 80]);
      expect(Date.now() - t0).toBeLessThan(1800); // waiting on would send them 2 s after one's first want
    } finally {
      await x.close();
    }
  }, 60_000);

  test("a partial batch handed to the leader, whose own person waits on its claims: the leader claims it on taking it, not at its next poll (5 s)", async () => {
    const x = await twoLoaders(100, true, 100);
    try {
      await x.two.load(ident(CUIS.slice(1500, 1501)), person(2, "ion")); // two leads the identification batches
      const wanted = ident(CUIS.slice(1510, 1540));
      const t0 = Date.now();
      const ana = x.one.load(wanted, person(1, "ana")).then(() => Date.now() - t0); // one claims them; hands them at its window's end (100 ms)
      await sleep(30);
      const ion = x.two.load(wanted, person(2, "ion")).then(() => Date.now() - t0); // two waits on one's claims
      const times = await Promise.all([ana, ion]);
      expect(x.calls()).toEqual([1, 30]);
      expect(Math.max(...times)).toBeLessThan(1500);
    } finally {
      await x.close();
    }
  }, 60_000);

  test("a hand and a settling are heard by the other instance at once (LISTEN/NOTIFY), and again after the database restarts", async () => {
    const url = await pg.createDatabase(`news${++serial}`);
    const [a, b] = [await openFirmStore(url), await openFirmStore(url)];
    const heard: QueueNews[] = [];
    const stopListening = a.onQueueNews((n) => heard.push(n));
    let key = 0;
    const want = (): HandedWant => ({ key: `k${++key}`, origin: "b", grp: "f:2024", want: "{}", users: [[1, "ana"]], since: Date.now() });
    // Notices of a kind of their own, handed until a hears one: LISTEN is sent as a subscribes and
    // counts once the database has run it, and a notice committed before that is not heard (the
    // queue's poll makes up for it). On a busy machine b's first hand can come before a's LISTEN.
    const ready = (): HandedWant => ({ ...want(), grp: "ready" });
    const news = () => heard.filter((n) => !("kind" in n && n.kind === "ready"));
    try {
      await until(
        async () => {
          await b.handWants([ready()]);
          return heard.length > 0;
        },
        10_000,
        50,
      );
      const t0 = Date.now();
      await b.handWants([want(), want()]);
      await until(() => news().length > 0, 2000, 5);
      expect(Date.now() - t0).toBeLessThan(1000);
      await b.settleWants([{ key: `k${key}`, origin: "b", outcome: "{}", paidRequest: null }]);
      await until(() => news().length > 1, 2000, 5);
      // One notice per kind handed and per instance whose wants were settled, not one per want.
      expect(news()).toEqual([{ kind: "f:2024" }, { origin: "b" }]);
      // The restart ends a's session and its LISTEN: taken again with the schema's hold (a notice sent
      // before that is missed; the queue's poll makes up for it).
      await pg.restart();
      heard.length = 0;
      await until(
        async () => {
          await b.handWants([want()]).catch(() => undefined);
          return heard.length > 0;
        },
        20_000,
        200,
      );
      expect(heard[0]).toEqual({ kind: "f:2024" });
      stopListening();
      heard.length = 0;
      await b.handWants([want()]);
      await sleep(300);
      expect(heard).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
