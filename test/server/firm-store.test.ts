/**
 * The firm's database, the same behaviour on both engines: an SQLite file in a temporary folder,
 * and a real PostgreSQL server (a throwaway cluster, test/support/postgres.ts). Then what only one
 * engine can show: two stores on one PostgreSQL database acting as one, a database that refuses the
 * connection or is read-only, a newer schema, a process killed mid-write.
 */
import Database from "better-sqlite3";
import { spawn, spawnSync, type ChildProcess } from "child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir, userInfo } from "os";
import { join, resolve } from "path";
import { describeDatabase, openFirmStore, resolveDatabaseUrl } from "../../src/server/firm/open-store";
import { SCHEMA_VERSION } from "../../src/server/firm/schema";
import { FirmStoreError, type FirmStore, type QueueNews, type ReserveRequest, type StoredAnswer } from "../../src/server/firm/firm-store";
import { freePort, postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";

jest.setTimeout(60_000);

const MONTH = "2026-11";
const DAY = "2026-11-25";
const NOW = Date.UTC(2026, 10, 25, 10);
const ask = (user: string, more: Partial<ReserveRequest> = {}): ReserveRequest => ({
  user,
  month: MONTH,
  day: DAY,
  maxPerDay: null,
  now: NOW,
  ...more,
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "resolved";
  } catch (e) {
    if (e instanceof FirmStoreError) return e.code;
    throw e;
  }
}

let tmp: string;
let cluster: PostgresCluster | null = null;
const open: FirmStore[] = [];
const children: ChildProcess[] = [];
const bin = postgresBinDir();
let dbCount = 0;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "firma-store-"));
  if (bin) cluster = await startPostgres(bin);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => undefined)));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

interface EngineUnderTest {
  /** A new, empty database's URL. */
  fresh(): Promise<string>;
  /** Runs SQL on the database behind the URL, beside the store. */
  raw(url: string, sql: string): Promise<void>;
}

const sqlite: EngineUnderTest = {
  fresh: async () => join(tmp, `db${++dbCount}`, "firm.sqlite"),
  raw: async (url, sql) => {
    const db = new Database(url);
    db.exec(sql);
    db.close();
  },
};

const postgres: EngineUnderTest = {
  fresh: () => cluster!.createDatabase(`firm${++dbCount}`),
  raw: async (url, sql) => void (await cluster!.sql(sql, new URL(url).pathname.slice(1))),
};

async function opened(url: string): Promise<FirmStore> {
  const s = await openFirmStore(url);
  open.push(s);
  return s;
}

function behaviour(engine: EngineUnderTest) {
  let url: string;
  let s: FirmStore;
  beforeEach(async () => {
    url = await engine.fresh();
    s = await opened(url);
  });

  test("people: added, listed by name with their month's spend, seen by their token's hash, revoked; a taken name is refused", async () => {
    await s.addUser("bogdan", 0, "hash-b", NOW - 2);
    await s.addUser("ana", 500, "hash-a", NOW - 1);
    expect(await codeOf(s.addUser("ana", 10, "hash-other", NOW))).toBe("user_exists");
    expect(await codeOf(s.addUser("ana marie", 10, "hash-x", NOW))).toBe("bad_name");
    expect(await codeOf(s.addUser("carmen", -1, "hash-c", NOW))).toBe("bad_budget");
    expect(await codeOf(s.addUser("carmen", 1.5, "hash-c", NOW))).toBe("bad_budget");

    expect(await s.listUsers(MONTH)).toEqual([
      { name: "ana", budget: 500, createdAt: NOW - 1, revokedAt: null, lastSeenAt: null, month: MONTH, spent: 0 },
      { name: "bogdan", budget: 0, createdAt: NOW - 2, revokedAt: null, lastSeenAt: null, month: MONTH, spent: 0 },
    ]);
    expect(await s.userByTokenHash("hash-a", NOW + 5)).toMatchObject({ name: "ana", budget: 500, lastSeenAt: NOW + 5 });
    expect(await s.userByTokenHash("hash-unknown", NOW)).toBeNull();
    expect((await s.listUsers(MONTH))[0].lastSeenAt).toBe(NOW + 5);
    expect(await s.usageOf("ana", MONTH)).toEqual({ budget: 500, spent: 0 });
    expect(await s.usageOf("nobody", MONTH)).toBeNull();

    expect(await s.revokeUser("ana", NOW + 10)).toBe(true);
    expect(await s.revokeUser("ana", NOW + 11)).toBe(false);
    expect(await s.revokeUser("nobody", NOW)).toBe(false);
    expect(await s.userByTokenHash("hash-a", NOW + 12)).toBeNull();
    expect((await s.listUsers(MONTH))[0]).toMatchObject({ name: "ana", revokedAt: NOW + 10, lastSeenAt: NOW + 5 });
    expect(await codeOf(s.addUser("ana", 1, "hash-new", NOW))).toBe("user_exists");
  });

  test("tokens looked up at the same moment (one statement: person-lookup.ts): each her own person and month's spend; unknown and revoked ones none", async () => {
    await s.addUser("ana", 10, "hash-a", NOW);
    await s.addUser("bogdan", 20, "hash-b", NOW);
    await s.addUser("carmen", 30, "hash-c", NOW);
    await s.revokeUser("carmen", NOW + 1);
    for (let i = 0; i < 3; i++)
      expect(await s.reserveCredit({ user: "bogdan", month: MONTH, day: `${MONTH}-25`, maxPerDay: null, now: NOW })).toBe("ok");
    const asked = ["hash-a", "hash-b", "hash-c", "hash-unknown", "hash-b"];
    const seen = await Promise.all(asked.map((h) => s.userByTokenHash(h, NOW + 2, MONTH)));
    expect(seen.map((u) => u && { name: u.name, budget: u.budget, spent: u.spent })).toEqual([
      { name: "ana", budget: 10, spent: 0 },
      { name: "bogdan", budget: 20, spent: 3 },
      null,
      null,
      { name: "bogdan", budget: 20, spent: 3 },
    ]);
    // Nothing remembered from one batch to the next: revoked now, refused at the next lookup.
    await s.revokeUser("ana", NOW + 3);
    expect(await Promise.all(["hash-a", "hash-b"].map((h) => s.userByTokenHash(h, NOW + 4, MONTH)))).toEqual([
      null,
      expect.objectContaining({ name: "bogdan" }),
    ]);
  });

  test("a budget of 5: of 10 concurrent reservations exactly 5 pass; the month's total is the people's sum", async () => {
    await s.addUser("ana", 5, "a", NOW);
    await s.addUser("bogdan", 3, "b", NOW);
    await s.addUser("zero", 0, "z", NOW);
    const results = await Promise.all(Array.from({ length: 10 }, () => s.reserveCredit(ask("ana"))));
    expect(results.filter((r) => r === "ok")).toHaveLength(5);
    expect(results.filter((r) => r === "budget")).toHaveLength(5);
    await Promise.all(Array.from({ length: 2 }, () => s.reserveCredit(ask("bogdan"))));
    expect(await s.reserveCredit(ask("zero"))).toBe("budget");
    expect(await s.reserveCredit(ask("nobody"))).toBe("budget");
    expect(await s.usageOf("ana", MONTH)).toEqual({ budget: 5, spent: 5 });
    expect(await s.creditsSpent(MONTH)).toBe(7);
    const people = await s.listUsers(MONTH);
    expect(people.reduce((sum, p) => sum + p.spent, 0)).toBe(7);
    // A new month, a new budget; a revoked person reserves nothing.
    expect(await s.reserveCredit(ask("ana", { month: "2026-12", day: "2026-12-01" }))).toBe("ok");
    await s.revokeUser("bogdan", NOW);
    expect(await s.reserveCredit(ask("bogdan"))).toBe("budget");
    expect(await s.creditsSpent("2026-12")).toBe(1);
  });

  test("--max-credits-per-day holds for the firm across people, concurrent or not, and charges nobody when it refuses", async () => {
    await s.addUser("ana", 100, "a", NOW);
    await s.addUser("bogdan", 100, "b", NOW);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => s.reserveCredit(ask(i % 2 ? "ana" : "bogdan", { maxPerDay: 4 }))),
    );
    expect(results.filter((r) => r === "ok")).toHaveLength(4);
    expect(results.filter((r) => r === "day_limit")).toHaveLength(6);
    expect(await s.creditsSpent(MONTH)).toBe(4);
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 0, day: "2026-11-26" }))).toBe("day_limit");
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 4, day: "2026-11-26" }))).toBe("ok");
    expect(await s.creditsSpent(MONTH)).toBe(5);
  });

  test("the plan's stop blocks everyone until it ends, never shortened by an older 429", async () => {
    await s.addUser("ana", 10, "a", NOW);
    await s.addUser("bogdan", 10, "b", NOW);
    expect(await s.planStoppedUntil(NOW)).toBeNull();
    await s.stopPlan(NOW + 60_000);
    await s.stopPlan(NOW + 1_000);
    expect(await s.planStoppedUntil(NOW)).toBe(NOW + 60_000);
    expect(await s.reserveCredit(ask("ana"))).toBe("plan_stopped");
    expect(await s.reserveCredit(ask("bogdan", { now: NOW + 59_999 }))).toBe("plan_stopped");
    expect(await s.creditsSpent(MONTH)).toBe(0);
    expect(await s.planStoppedUntil(NOW + 60_000)).toBeNull();
    expect(await s.reserveCredit(ask("bogdan", { now: NOW + 60_000 }))).toBe("ok");
  });

  test("releaseCredit gives back the person's and the day's credit, never below zero", async () => {
    await s.addUser("ana", 2, "a", NOW);
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 2 }))).toBe("ok");
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 2 }))).toBe("ok");
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 2 }))).toBe("budget");
    await s.releaseCredit("ana", MONTH, DAY);
    expect(await s.usageOf("ana", MONTH)).toEqual({ budget: 2, spent: 1 });
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 2 }))).toBe("ok");
    await s.releaseCredit("ana", MONTH, DAY);
    await s.releaseCredit("ana", MONTH, DAY);
    await s.releaseCredit("ana", MONTH, DAY);
    expect(await s.creditsSpent(MONTH)).toBe(0);
  });

  test("answers: fresh ones found, expired ones not, a key replaced, a put is all or none, thousands at once", async () => {
    const a = (key: string, body: unknown, expiresAt = NOW + 1000): StoredAnswer => ({ key, body, fetchedAt: NOW - 10, expiresAt });
    await s.putAnswers([a("profile:1", { denumire: "Ăla SRL" }), a("profile:2", null), a("profile:3", { old: true }, NOW)]);
    const got = await s.getAnswers(["profile:1", "profile:2", "profile:3", "profile:4"], NOW);
    expect([...got.keys()].sort()).toEqual(["profile:1", "profile:2"]);
    expect(got.get("profile:1")).toEqual(a("profile:1", { denumire: "Ăla SRL" }));
    expect(got.get("profile:2")?.body).toBeNull();

    await s.putAnswers([a("profile:1", { denumire: "Nou" }, NOW + 5000), a("profile:1", { denumire: "Nou 2" }, NOW + 5000)]);
    expect((await s.getAnswers(["profile:1"], NOW + 2000)).get("profile:1")?.body).toEqual({ denumire: "Nou 2" });

    const broken = { key: null, body: 1, fetchedAt: NOW, expiresAt: NOW + 1 } as unknown as StoredAnswer;
    await expect(s.putAnswers([a("profile:5", 5), a("profile:6", 6), broken])).rejects.toBeTruthy();
    expect((await s.getAnswers(["profile:5", "profile:6"], NOW)).size).toBe(0);

    const many = Array.from({ length: 2_500 }, (_, i) => a(`fin:${i}:2024`, { cifra: i }));
    await s.putAnswers(many);
    const back = await s.getAnswers(
      many.map((m) => m.key),
      NOW,
    );
    expect(back.size).toBe(2_500);
    expect(back.get("fin:2499:2024")?.body).toEqual({ cifra: 2499 });

    // A request's answers in its own order: a key asked twice given twice, none where none is fresh.
    const order = ["fin:7:2024", "profile:4", "fin:2499:2024", "profile:2", "fin:7:2024", "profile:3"];
    expect((await s.answersInOrder(order, NOW)).map((x) => x && [x.key, x.body])).toEqual([
      ["fin:7:2024", { cifra: 7 }],
      undefined,
      ["fin:2499:2024", { cifra: 2499 }],
      ["profile:2", null],
      ["fin:7:2024", { cifra: 7 }],
      undefined,
    ]);
  });

  test("audit: oldest first since a time, one person's only when asked", async () => {
    const e = (at: number, user: string, credits: number) => ({
      at,
      user,
      endpoint: "/v4/firme/batch",
      cuis: [14399840, 1590082],
      source: credits ? ("upstream" as const) : ("store" as const),
      credits,
      status: 200,
    });
    await s.audit(e(NOW + 2, "ana", 2));
    await s.audit(e(NOW - 5, "bogdan", 0));
    await s.audit(e(NOW + 1, "bogdan", 1));
    await s.audit({ ...e(NOW + 3, "ana", 0), source: "refused", status: 429, cuis: [] });
    expect(await s.auditSince(NOW)).toEqual([
      e(NOW + 1, "bogdan", 1),
      e(NOW + 2, "ana", 2),
      { ...e(NOW + 3, "ana", 0), source: "refused", status: 429, cuis: [] },
    ]);
    expect((await s.auditSince(0, "bogdan")).map((x) => x.at)).toEqual([NOW - 5, NOW + 1]);
    expect(await s.auditSince(NOW + 10)).toEqual([]);
  });

  test("health answers while open and fails once closed; reopening keeps everything committed and migrates nothing twice", async () => {
    await expect(s.health()).resolves.toBeUndefined();
    await s.addUser("ana", 5, "a", NOW);
    await s.reserveCredit(ask("ana"));
    await s.putAnswers([{ key: "ident:1:all", body: { ok: 1 }, fetchedAt: NOW, expiresAt: NOW + 1000 }]);
    await s.audit({ at: NOW, user: "ana", endpoint: "/v4/firme", cuis: [1], source: "upstream", credits: 1, status: 200 });
    await s.stopPlan(NOW + 500);
    await s.close();
    await expect(s.health()).rejects.toBeTruthy();

    const again = await opened(url);
    expect(await again.usageOf("ana", MONTH)).toEqual({ budget: 5, spent: 1 });
    // read from the database (a new instance's memory holds nothing), in the keys' order
    expect((await again.answersInOrder(["ident:2:all", "ident:1:all"], NOW)).map((x) => x?.body)).toEqual([undefined, { ok: 1 }]);
    expect((await again.getAnswers(["ident:1:all"], NOW)).size).toBe(1);
    expect(await again.auditSince(0)).toHaveLength(1);
    expect(await again.planStoppedUntil(NOW)).toBe(NOW + 500);
    expect(await codeOf(again.addUser("ana", 1, "x", NOW))).toBe("user_exists");
  });

  test("a database an earlier FIRMA made (schema 1: no claims, leases or handed wants) is brought up to date at open, keeping what it held", async () => {
    await s.addUser("ana", 5, "a", NOW);
    await s.reserveCredit(ask("ana"));
    await s.close();
    for (const table of ["firm_claims", "firm_leases", "firm_wants"]) await engine.raw(url, `DROP TABLE ${table}`);
    // and what the later migrations added: the watch lists (watch-schema.ts), the people's e-mail, the alerts (watch-outbox.ts)
    for (const table of [
      "firm_watch_deliveries",
      "firm_watch_alerts",
      "firm_watch_hooks",
      "firm_watch_seen",
      "firm_watch_members",
      "firm_watch_changes",
      "firm_watch_log",
      "firm_watch_lists",
      "firm_watch_checks",
    ])
      await engine.raw(url, `DROP TABLE ${table}`);
    await engine.raw(url, "ALTER TABLE firm_users DROP COLUMN email");
    await engine.raw(url, "DELETE FROM firm_schema_migrations WHERE version > 1");
    const again = await opened(url);
    expect(await again.usageOf("ana", MONTH)).toEqual({ budget: 5, spent: 1 });
    expect([...(await again.claimAnswers(["ident:1:"], "A", NOW, NOW + 100))]).toEqual(["ident:1:"]);
    expect(await again.watch.addList({ name: "clienti", owner: "ana", schedule: null, notify: [], cuis: [19] }, NOW)).toBe(true);
    expect(await again.watch.setEmail("ana", "ana@firma.ro")).toBe(true);
    expect(await again.watchChecks.begin("clienti", "t", "A", NOW)).toMatchObject({ list: "clienti", tick: "t", resumed: false });
    expect(await again.outbox.plan(NOW)).toBe(0);
  });

  test("claims on answers being fetched: a live one is not taken, an expired one or the owner's own is, and only the owner lets go", async () => {
    const keys = ["ident:2:", "ident:1:"];
    expect([...(await s.claimAnswers(keys, "A", NOW, NOW + 1000))].sort()).toEqual(["ident:1:", "ident:2:"]);
    expect((await s.claimAnswers(keys, "B", NOW + 500, NOW + 1500)).size).toBe(0);
    expect([...(await s.claimAnswers(["ident:1:"], "A", NOW + 500, NOW + 1500))]).toEqual(["ident:1:"]);
    expect([...(await s.claimAnswers(["ident:2:"], "B", NOW + 1000, NOW + 2000))]).toEqual(["ident:2:"]);
    await s.releaseClaims(keys, "A"); // A's claim on 1 goes; B's on 2 stays
    expect([...(await s.claimedKeys(keys, NOW + 1200)).keys()]).toEqual(["ident:2:"]);
    expect((await s.claimedKeys(keys, NOW + 2000)).size).toBe(0); // expired
  });

  test("answers put with their claims let go: stored, the owner's claims gone, another owner's kept; a put that fails lets go of nothing", async () => {
    const a = (key: string, body: unknown): StoredAnswer => ({ key, body, fetchedAt: NOW, expiresAt: NOW + 1000 });
    const heard: QueueNews[] = [];
    const off = s.onQueueNews((n) => heard.push(n));
    try {
      expect((await s.claimAnswers(["ident:1:", "ident:2:"], "A", NOW, NOW + 1000)).size).toBe(2);
      expect((await s.claimAnswers(["ident:3:"], "B", NOW, NOW + 1000)).size).toBe(1);
      const broken = { key: null, body: 1, fetchedAt: NOW, expiresAt: NOW + 1 } as unknown as StoredAnswer;
      await expect(s.putAnswers([a("ident:1:", { n: 1 }), broken], { keys: ["ident:1:"], owner: "A" })).rejects.toBeTruthy();
      expect([...(await s.claimedKeys(["ident:1:", "ident:2:", "ident:3:"], NOW)).keys()].sort()).toEqual([
        "ident:1:",
        "ident:2:",
        "ident:3:",
      ]);
      await s.putAnswers([a("ident:1:", { n: 1 }), a("ident:2:", null)], { keys: ["ident:2:", "ident:1:", "ident:3:"], owner: "A" });
      expect([...(await s.claimedKeys(["ident:1:", "ident:2:", "ident:3:"], NOW))]).toEqual([["ident:3:", "B"]]); // B's stays
      const other = await opened(url); // another instance: reads them from the database, not this one's memory
      const got = await other.getAnswers(["ident:1:", "ident:2:"], NOW);
      expect(got.get("ident:1:")?.body).toEqual({ n: 1 });
      expect(got.get("ident:2:")?.body).toBeNull();
      // PostgreSQL says the claims went (the instances watching them look at once); SQLite sends no notices.
      if (s.notifies) {
        for (let i = 0; i < 100 && !heard.some((n) => "released" in n && n.released === "A"); i++)
          await new Promise((r) => setTimeout(r, 10));
        // naming the claims that went (only A's: B's ident:3: stayed), so that the others look at those only
        expect(heard).toContainEqual({ released: "A", keys: ["ident:1:", "ident:2:"] });
        // Past what a notice can carry (500 keys of 19 bytes), it names none: the others look at everything they watch.
        const many = Array.from({ length: 500 }, (_, i) => `ident:${10_000_000 + i}:`);
        expect((await s.claimAnswers(many, "C", NOW, NOW + 1000)).size).toBe(500);
        await s.releaseClaims(many, "C");
        for (let i = 0; i < 100 && !heard.some((n) => "released" in n && n.released === "C"); i++)
          await new Promise((r) => setTimeout(r, 10));
        expect(heard).toContainEqual({ released: "C" });
      }
    } finally {
      off();
    }
  });

  test("leases: a late renewal's row is let go by its end only (not one taken again since); the instances calling are those with a live calls: row", async () => {
    const first = await s.takeLease("calls:A", "A", NOW, NOW + 3000);
    await s.takeLease("calls:B", "B", NOW, NOW + 3000);
    expect([...(await s.othersCalling("C", NOW + 1))].sort()).toEqual(["A", "B"]);
    expect([...(await s.othersCalling("A", NOW + 1))]).toEqual(["B"]);
    expect((await s.othersCalling("A", NOW + 3000)).size).toBe(0); // lapsed
    const again = await s.takeLease("calls:A", "A", NOW + 10, NOW + 3010); // taken again since
    await s.releaseLease("calls:A", "A", first.until); // the late renewal's catch-up: not this row
    expect(await s.takeLease("calls:A", "B", NOW + 20, NOW + 3020)).toEqual({ holder: "A", until: again.until });
    await s.releaseLease("calls:A", "A", again.until);
    expect(await s.takeLease("calls:A", "B", NOW + 30, NOW + 3030)).toEqual({ holder: "B", until: NOW + 3030 });
    await s.releaseLease("calls:A", "B");
    await s.releaseLease("calls:B", "B");
  });

  test("handed wants: taken once by their kind's leader, settled in bulk (1,200 at once), collected once by the instance that handed them", async () => {
    const want = (key: string, origin: string, grp: string) => ({
      key,
      origin,
      grp,
      want: `{"k":"${key}"}`,
      users: [[7, "ana"]] as Array<[number, string]>,
      since: NOW,
    });
    const mine = Array.from({ length: 1200 }, (_, i) => want(`f:${i}`, "B", "f:2024"));
    await s.handWants([...mine, want("i:1", "B", "i:x"), want("f:0", "C", "f:2024")]);
    await s.handWants([want("f:1", "B", "f:2024")]); // handed again: left as it is
    const taken = await s.takeWants(["f:2024"], "A");
    expect(taken).toHaveLength(1201);
    expect(taken.find((r) => r.key === "f:7" && r.origin === "B")).toMatchObject({
      want: '{"k":"f:7"}',
      users: [[7, "ana"]],
      since: NOW,
      takenBefore: null,
    });
    expect(await s.takeWants(["f:2024"], "A")).toEqual([]); // taken already, by A
    expect((await s.takeWants(["f:2024"], "D")).every((r) => r.takenBefore === "A")).toBe(true); // A stopped: D takes them over
    await s.settleWants(mine.map((w, i) => ({ key: w.key, origin: "B", outcome: `{"ok":${i}}`, paidRequest: i === 3 ? 42 : null })));
    await s.settleWants([{ key: "f:3", origin: "B", outcome: "{}", paidRequest: 1 }]); // settled once: kept
    expect(await s.collectWants("C")).toEqual([]);
    const back = await s.collectWants("B");
    expect(back).toHaveLength(1200);
    expect(back.find((o) => o.key === "f:3")).toEqual({ key: "f:3", outcome: '{"ok":3}', paidRequest: 42 });
    expect(back.find((o) => o.key === "f:4")).toEqual({ key: "f:4", outcome: '{"ok":4}', paidRequest: null });
    expect(await s.collectWants("B")).toEqual([]);
    // D holds C's since it took over; the other kind's want is still waiting for its leader.
    expect((await s.takeWants(["i:x", "f:2024"], "D")).map((r) => `${r.grp} ${r.origin}`)).toEqual(["i:x B"]);
  });

  test("a database with a newer schema than this FIRMA knows is refused, untouched", async () => {
    await s.close();
    await engine.raw(url, `INSERT INTO firm_schema_migrations (version, applied_at) VALUES (${SCHEMA_VERSION + 1}, 0)`);
    const err = await openFirmStore(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FirmStoreError);
    expect(err).toMatchObject({ code: "newer_schema", params: { found: SCHEMA_VERSION + 1, known: SCHEMA_VERSION } });
  });

  test("a process killed mid-way loses nothing it had committed", async () => {
    await s.addUser("ana", 1000, "a", NOW);
    await s.close();
    const script = join(tmp, `writer${dbCount}.ts`);
    writeFileSync(
      script,
      `import { openFirmStore } from ${JSON.stringify(resolve(__dirname, "../../src/server/firm/open-store"))};
      (async () => {
        const s = await openFirmStore(process.argv[2]);
        for (let i = 0; i < 5000; i++) {
          await s.reserveCredit({ user: "ana", month: "${MONTH}", day: "${DAY}", maxPerDay: null, now: ${NOW} });
          await s.putAnswers([{ key: "k" + i, body: { i }, fetchedAt: ${NOW}, expiresAt: ${NOW + 10_000} }]);
          process.stdout.write(i + "\\n");
          await new Promise((r) => setImmediate(r));
        }
      })();`,
    );
    // node --import tsx, not the tsx command: SIGKILL must reach the process that writes, not a wrapper.
    const child = spawn(process.execPath, ["--import", "tsx", script, url], {
      cwd: resolve(__dirname, "../.."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once("exit", (_code, signal) => r(signal)));
    let acknowledged = -1;
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = chunk.toString().trim().split("\n");
      acknowledged = Number(lines[lines.length - 1]);
      if (acknowledged >= 30 && child.exitCode === null) child.kill("SIGKILL");
    });
    expect(await exited).toBe("SIGKILL");
    expect(acknowledged).toBeGreaterThanOrEqual(30);
    const again = await opened(url);
    const keys = Array.from({ length: acknowledged + 1 }, (_, i) => `k${i}`);
    expect((await again.getAnswers(keys, NOW)).size).toBe(acknowledged + 1);
    expect((await again.usageOf("ana", MONTH))!.spent).toBeGreaterThanOrEqual(acknowledged + 1);
  });
}

describe("the firm's database on SQLite (a temporary file)", () => {
  behaviour(sqlite);

  test("a file that is not a database, or a folder, cannot be opened: unreachable", async () => {
    const notDb = join(tmp, "not-a-db.sqlite");
    writeFileSync(notDb, "x".repeat(4096));
    expect(await codeOf(openFirmStore(notDb))).toBe("unreachable");
    expect(await codeOf(openFirmStore(tmp))).toBe("unreachable");
  });

  test("a read-only file is refused at open: read_only", async () => {
    const dir = join(tmp, "ro");
    mkdirSync(dir);
    const path = join(dir, "firm.sqlite");
    await (await openFirmStore(path)).close();
    // Root ignores permission bits: an immutable file (chattr +i) is read-only for root too.
    const immutable = userInfo().uid === 0;
    if (immutable && spawnSync("chattr", ["+i", path]).status !== 0) {
      console.warn(`read-only SQLite case skipped: running as root, and chattr +i does not work on ${dir}`);
      return;
    }
    if (!immutable) chmodSync(path, 0o444);
    try {
      const err = await openFirmStore(`sqlite:${path}`).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "read_only" });
      expect((err as Error).message).toContain(path);
    } finally {
      if (immutable) spawnSync("chattr", ["-i", path]);
      else chmodSync(path, 0o644);
    }
  });

  test("file: and sqlite: addresses, the default file, DATABASE_URL", async () => {
    const path = join(tmp, "named", "firm.sqlite");
    const a = await opened(`file://${path}`);
    await a.addUser("ana", 1, "a", NOW);
    await a.close();
    const b = await opened(`sqlite:${path}`);
    expect(b.engine).toBe("sqlite");
    expect((await b.listUsers(MONTH)).map((u) => u.name)).toEqual(["ana"]);
    expect(resolveDatabaseUrl(undefined, { HOME: "/home/ana" })).toBe("/home/ana/.local/share/firma/firm.sqlite");
    expect(resolveDatabaseUrl(undefined, { XDG_DATA_HOME: "/data", DATABASE_URL: "postgres://db/firm" })).toBe("postgres://db/firm");
    expect(resolveDatabaseUrl("x.sqlite", { DATABASE_URL: "postgres://db/firm" })).toBe("x.sqlite");
  });
});

test("an unknown scheme is refused, naming the scheme and never the password", async () => {
  const err = await openFirmStore("mysql://firm:s3cret-pass@db.example:3306/firma").catch((e: unknown) => e);
  expect(err).toMatchObject({ code: "unknown_scheme", params: { scheme: "mysql" } });
  expect((err as Error).message).toContain("mysql");
  expect(JSON.stringify(err) + (err as Error).message).not.toContain("s3cret-pass");
  expect(describeDatabase("postgres://firm:s3cret-pass@db.example:5432/firma?sslmode=require")).toBe("postgres://db.example:5432/firma");
});

test("a PostgreSQL that refuses the connection: unreachable, at once, without the password", async () => {
  const port = await freePort();
  const started = Date.now();
  const err = await openFirmStore(`postgresql://firm:s3cret-pass@127.0.0.1:${port}/firma`).catch((e: unknown) => e);
  expect(Date.now() - started).toBeLessThan(3000);
  expect(err).toMatchObject({ code: "unreachable", params: { database: `postgresql://127.0.0.1:${port}/firma` } });
  expect(JSON.stringify(err) + (err as Error).message).not.toContain("s3cret-pass");
});

const pgDescribe = bin ? describe : describe.skip;
if (!bin) {
  console.warn(
    "PostgreSQL half skipped: no initdb/pg_ctl under /usr/lib/postgresql/<version>/bin (scripts/setup.sh installs Debian's postgresql)",
  );
}

pgDescribe("the firm's database on PostgreSQL (a throwaway cluster)", () => {
  behaviour(postgres);

  test("two stores on one database are one: an answer put through one is read through the other; one budget and one day limit hold across both", async () => {
    const url = await postgres.fresh();
    const [a, b] = await Promise.all([opened(url), opened(url)]);
    // Each migration once, though both opened the database at the same moment.
    expect(await cluster!.sql("SELECT version FROM firm_schema_migrations ORDER BY version", new URL(url).pathname.slice(1))).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })),
    );
    await a.addUser("ana", 5, "a", NOW);
    await a.addUser("bogdan", 50, "b", NOW);
    expect(await b.userByTokenHash("a", NOW)).toMatchObject({ name: "ana" });
    await a.putAnswers([{ key: "profile:14399840", body: { denumire: "FIRMA SA" }, fetchedAt: NOW, expiresAt: NOW + 1000 }]);
    expect((await b.getAnswers(["profile:14399840"], NOW)).get("profile:14399840")?.body).toEqual({ denumire: "FIRMA SA" });

    const anas = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserveCredit(ask("ana"))));
    expect(anas.filter((r) => r === "ok")).toHaveLength(5);
    const day = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserveCredit(ask("bogdan", { maxPerDay: 12 }))));
    expect(day.filter((r) => r === "ok")).toHaveLength(7);
    expect(await a.creditsSpent(MONTH)).toBe(12);
    await b.stopPlan(NOW + 1000);
    expect(await a.reserveCredit(ask("bogdan"))).toBe("plan_stopped");
  });

  test("a credit reserved is one statement, no transaction: no call holds the firm's row of the day across round trips (sql-credits.ts)", async () => {
    const s = await opened(await postgres.fresh());
    await s.addUser("ana", 2, "a", NOW);
    const db = (s as unknown as { db: { all: () => unknown; run: () => unknown; transaction: () => unknown } }).db;
    const spies = [jest.spyOn(db, "all"), jest.spyOn(db, "run"), jest.spyOn(db, "transaction")];
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 1 }))).toBe("ok");
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 1 }))).toBe("day_limit");
    expect(spies.map((f) => f.mock.calls.length)).toEqual([2, 0, 0]);
    // A day at its cap refuses without an error in PostgreSQL's log (the statement's last resort, for a race only).
    await expect(spies[0].mock.results[1].value).resolves.toEqual([expect.objectContaining({ full_day: true })]);
    // Given back (a call the service did not charge: rare), in a transaction that locks the month, then the day.
    await s.releaseCredit("ana", MONTH, DAY);
    expect(spies[2].mock.calls.length).toBe(1);
    for (const f of spies) f.mockRestore();
    // The refusal took nothing, the credit given back is the one taken.
    expect(await s.usageOf("ana", MONTH)).toEqual({ budget: 2, spent: 0 });
    expect(await s.reserveCredit(ask("ana", { maxPerDay: 1 }))).toBe("ok");
  });

  test("a read-only database is refused at open: read_only", async () => {
    const url = await postgres.fresh();
    await (await openFirmStore(url)).close();
    const name = new URL(url).pathname.slice(1);
    await cluster!.sql(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
    expect(await codeOf(openFirmStore(url))).toBe("read_only");
    const fresh = await postgres.fresh();
    await cluster!.sql(`ALTER DATABASE ${new URL(fresh).pathname.slice(1)} SET default_transaction_read_only = on`);
    expect(await codeOf(openFirmStore(fresh))).toBe("read_only");
  });

  test("a database that does not exist: unreachable", async () => {
    expect(await codeOf(openFirmStore(cluster!.url("no_such_db")))).toBe("unreachable");
  });
});
