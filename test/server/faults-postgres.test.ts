/**
 * The firm's server when its PostgreSQL goes away, with real processes: `firma serve` as a child
 * process (test/support/firm-server.ts) on a throwaway cluster (test/support/postgres.ts) stopped and
 * started under it, against the sandbox.
 *  - A restart in the middle of a load run: requests during the outage get a 503 with Retry-After in
 *    the user's words; the pool reconnects by itself; the schema lock is held again; afterwards every
 *    answered request has its audit line and its answers stored, and the credits attributed equal the
 *    service's charge, no company asked twice.
 *  - A call made while the database goes away (paid, or refused by the service and so free): its
 *    answers, the credit given back and the audit line are written once the database is back
 *    (store-faults.ts); a call that would need the database while it is away is not made (fail-closed).
 *  - An upgrade while an older instance runs: the newer FIRMA's migration waits for it to stop.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { openFirmStore } from "../../src/server/firm/open-store";
import { SCHEMA_VERSION } from "../../src/server/firm/schema";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import { t } from "../../src/shared/messages/node";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";
import { ask, minimalDist, startFirmServer, until, type FirmServer } from "../support/firm-server";

const installed = postgresBinDir() !== null;
const suite = installed ? describe : describe.skip;
const KEY = "demo-business-faults-pg-s3cr3t";

let sb: Sandbox;
let pg: PostgresCluster;
let dir: string;
let dist: string;
let keyFile: string;
let serial = 0;
const servers: FirmServer[] = [];

beforeAll(async () => {
  if (!installed) return;
  sb = await startSandbox({ port: 0 });
  pg = await startPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-faults-pg-"));
  dist = minimalDist(dir);
  keyFile = path.join(dir, "key");
  fs.writeFileSync(keyFile, `${KEY}\n`);
}, 120_000);
afterAll(async () => {
  if (!installed) return;
  for (const s of servers) await s.stop();
  for (const s of servers) expect(s.printed()).not.toContain(KEY);
  await sb.close();
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A new database with `people` (budget 1,000 each), and one server on it. */
async function firm(people: string[]): Promise<{ url: string; tokens: string[]; server: FirmServer; store: () => Promise<FirmStore> }> {
  const url = await pg.createDatabase(`faults${++serial}`);
  const setup = await openFirmStore(url);
  const tokens: string[] = [];
  for (const p of people) {
    const t = newToken();
    await setup.addUser(p, 1000, hashToken(t), Date.now());
    tokens.push(t);
  }
  await setup.close();
  const server = await startFirmServer({ keyFile, database: url, upstream: sb.url, dist });
  servers.push(server);
  return { url, tokens, server, store: () => openFirmStore(url) };
}

const CUIS = data.sampleCuis(3000, 41_017).filter((c) => data.company(c));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const batch = (cuis: number[]) => `/v4/firme/batch?cui=${cuis.join(",")}`;

/** The companies the sandbox was asked for with the firm's key, and how often. */
function asked(): Map<number, number> {
  const n = new Map<number, number>();
  for (const r of sb.requests) {
    if (r.key !== KEY || !r.credited) continue;
    for (const c of (new URLSearchParams(r.query).get("cui") ?? r.path.split("/")[3] ?? "").split(",")) {
      if (c) n.set(Number(c), (n.get(Number(c)) ?? 0) + 1);
    }
  }
  return n;
}

/** What the database holds once every write kept during the outage is in: spend, audit lines. */
async function settled(store: FirmStore, answered: number): Promise<{ spent: number; lines: number }> {
  let spent = 0;
  let lines = 0;
  await until(async () => {
    spent = (await store.listUsers(bucharestMonth(Date.now()))).reduce((s, u) => s + u.spent, 0);
    lines = (await store.auditSince(0)).filter((l) => l.status === 200).length;
    return lines >= answered && spent === sb.usage(KEY).total;
  }, 20_000).catch(() => undefined);
  return { spent, lines };
}

suite("the firm's server when its PostgreSQL goes away", () => {
  test("a restart in the middle of a load run: 503 with Retry-After meanwhile, then served again; nothing answered is missing, no credit charged twice", async () => {
    sb.config.latencyMs = 50;
    const f = await firm(["ana", "ion", "eva", "dan"]);
    const pool = CUIS.slice(0, 1200);
    const answered: number[][] = [];
    const refusals: Array<{ status: number; code: string; message: string; retryAfter: string | null }> = [];
    let stop = false;
    let next = 0;
    // Four people, each asking batches of 40 companies one after the other, half of them already asked.
    const worker = async (token: string) => {
      while (!stop) {
        const start = (next++ * 20) % (pool.length - 40);
        const cuis = pool.slice(start, start + 40);
        const r = await ask(f.server, token, batch(cuis)).catch(() => null);
        if (r === null) continue;
        if (r.status === 200) answered.push(cuis);
        else
          refusals.push({
            status: r.status,
            code: r.body?.error?.code,
            message: r.body?.error?.message,
            retryAfter: r.headers.get("retry-after"),
          });
      }
    };
    const load = Promise.all(f.tokens.map(worker));
    await sleep(1500);
    await pg.halt(); // down for a while …
    await sleep(1500);
    await pg.start(); // … and back: the server is not told
    await sleep(1500);
    await pg.restart(); // and `pg_ctl restart`, connections cut once more
    await sleep(1500);
    stop = true;
    await load;

    expect(answered.length).toBeGreaterThan(20);
    expect(refusals.length).toBeGreaterThan(0);
    for (const r of refusals) {
      expect(r.status).toBe(503);
      expect(r.code).toBe("store_unavailable");
      expect(r.message).toBe(t("ro", "custody.storeUnavailable")); // the people's words (Romanian first)
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Served again after the restart, from the store and upstream: the pool reconnected by itself.
    const after = await ask(f.server, f.tokens[0], batch(CUIS.slice(2000, 2040)));
    expect(after.status).toBe(200);
    expect(after.body).toHaveLength(40);
    answered.push(CUIS.slice(2000, 2040));
    // The server holds its schema lock again (a newer FIRMA's migration would wait for it).
    const locks = await pg.sql(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
      WHERE l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted AND d.datname = 'faults${serial}'`);
    expect(locks[0].n).toBe(1);

    const store = await f.store();
    try {
      const { spent, lines } = await settled(store, answered.length);
      // Every company of every answered request is in the store; each was paid for once.
      const held = await store.getAnswers(
        answered.flat().map((c) => `ident:${c}:`),
        Date.now(),
      );
      expect(held.size).toBe(new Set(answered.flat()).size);
      expect([...asked().values()].filter((n) => n > 1)).toEqual([]);
      expect(spent).toBe(sb.usage(KEY).total);
      expect(lines).toBe(answered.length);
    } finally {
      await store.close();
      sb.config.latencyMs = 0;
    }
  }, 120_000);

  test("calls made while the database goes away: answers, the credit given back and the audit lines are written once it is back; no call is made while it is away", async () => {
    const f = await firm(["ana"]);
    const [ana] = f.tokens;
    const total = () => sb.usage(KEY).total;
    const calls = () => sb.usage(KEY).calls;
    const charged0 = total();
    // A call the service charges: the database goes away while it is on its way.
    sb.config.latencyMs = 1500;
    const paid = ask(f.server, ana, batch(CUIS.slice(2100, 2130)));
    await until(() => total() === charged0 + 1);
    await pg.halt();
    const r1 = await paid;
    expect(r1.status).toBe(200);
    expect(r1.body).toHaveLength(30);
    // Fail-closed: with the database away, nothing is asked upstream.
    const before = calls();
    const r2 = await ask(f.server, ana, batch(CUIS.slice(2200, 2230)));
    expect(r2.status).toBe(503);
    expect(r2.headers.get("retry-after")).toBeTruthy();
    expect(calls()).toBe(before);
    await pg.start();
    // A call the service does not charge (its 503): the credit reserved is given back while the database is away.
    await until(async () => (await ask(f.server, ana, batch(CUIS.slice(2100, 2130)))).status === 200);
    // Answered from the store (a read) does not mean the database takes writes again: the schema's hold
    // is taken again a moment later, and until then a call is not made (fail-closed). /healthz says when.
    await until(async () => (await fetch(`${f.server.url}/healthz`)).status === 200);
    sb.config.faults = { failNext: 1 };
    const free = ask(f.server, ana, batch(CUIS.slice(2300, 2330)));
    await until(() => calls() === before + 1);
    await pg.halt();
    expect((await free).status).toBe(502);
    sb.config.faults = {};
    sb.config.latencyMs = 0;
    await sleep(1000);
    await pg.start();

    const store = await f.store();
    try {
      const { spent } = await settled(store, 2);
      expect(total()).toBe(charged0 + 1);
      expect(spent).toBe(1); // the paid call, and not the one the service refused
      const held = await store.getAnswers(
        CUIS.slice(2100, 2130).map((c) => `ident:${c}:`),
        Date.now(),
      );
      expect(held.size).toBe(30);
      const lines = await store.auditSince(0);
      expect(lines.map((l) => [l.status, l.credits])).toEqual(
        expect.arrayContaining([
          [200, 1],
          [502, 0],
        ]),
      );
    } finally {
      await store.close();
    }
  }, 120_000);

  test("an upgrade while an older instance runs: the newer FIRMA's migration waits until it stops; never both writing", async () => {
    const f = await firm(["ana"]);
    expect((await ask(f.server, f.tokens[0], batch(CUIS.slice(2400, 2410)))).status).toBe(200);
    const newer = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "..", "support", "newer-firma.ts"), f.url], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let said = "";
    newer.stdout!.on("data", (b: Buffer) => (said += b.toString()));
    try {
      await until(() => said.includes("waiting"), 60_000);
      // The older instance goes on writing (a new company: a credit, answers, an audit line) on its schema.
      expect((await ask(f.server, f.tokens[0], batch(CUIS.slice(2410, 2420)))).status).toBe(200);
      await sleep(500);
      const version = async () => (await pg.sql("SELECT MAX(version)::int AS v FROM firm_schema_migrations", `faults${serial}`))[0].v;
      expect(await version()).toBe(SCHEMA_VERSION);
      expect(said).not.toContain("migrated");
      await f.server.stop();
      await until(() => said.includes(`migrated ${SCHEMA_VERSION + 1}`), 30_000);
      expect(await version()).toBe(SCHEMA_VERSION + 1);
    } finally {
      newer.kill("SIGKILL");
    }
  }, 120_000);
});
