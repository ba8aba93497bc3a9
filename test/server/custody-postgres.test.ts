/**
 * Two `firma serve` custody instances on one PostgreSQL (a throwaway cluster, test/support/postgres.ts)
 * behave as one server: a company fetched through one costs nothing through the other, nor when both
 * are asked for it at the same moment (the claims, loader.ts); ten people
 * with a budget of 5 each, asking 50 companies each through both instances at once, are charged at
 * most 5 each, and the service's charge equals the credits attributed; the plan's stop after a 429
 * seen by one instance holds on the other.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { bucharestDay } from "../../src/engine/credits/bucharest-time";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";
import { serve } from "../../src/server/main";
import { DB_POOL } from "../../src/server/firm/custody-setup";

const BUILT_FOR = "https://addin.test.example.ro/";
const installed = postgresBinDir() !== null;
const suite = installed ? describe : describe.skip;

let sb: Sandbox;
let pg: PostgresCluster;
let dir: string;
let serial = 0;

beforeAll(async () => {
  if (!installed) return;
  sb = await startSandbox({ port: 0 });
  pg = await startPostgres();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-custody-pg-"));
  fs.writeFileSync(path.join(dir, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dir, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${BUILT_FOR}taskpane.html"/></OfficeApp>`);
  fs.writeFileSync(path.join(dir, "firma-build.json"), JSON.stringify({ addinUrl: BUILT_FOR, serviceUrl: "", version: "0.1.0" }));
}, 120_000);
afterAll(async () => {
  if (!installed) return;
  await sb.close();
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Instance {
  app: FastifyInstance;
  store: FirmStore;
}

/** Two instances on one new database, with one firm key. */
async function twoInstances(): Promise<{
  a: Instance;
  b: Instance;
  key: string;
  token(name: string, budget: number): Promise<string>;
  close(): Promise<void>;
}> {
  const url = await pg.createDatabase(`firm${++serial}`);
  const key = `demo-business-pg${serial}`;
  const one = async (): Promise<Instance> => {
    const store = await openFirmStore(url);
    const app = await buildApp({ dist: dir, publicUrl: BUILT_FOR, upstream: sb.url, custody: { store, key, maxCreditsPerDay: null } });
    return { app, store };
  };
  const a = await one();
  const b = await one();
  return {
    a,
    b,
    key,
    async token(name, budget) {
      const token = newToken();
      await a.store.addUser(name, budget, hashToken(token), Date.now());
      return token;
    },
    async close() {
      for (const i of [a, b]) {
        await i.app.close();
        await i.store.close();
      }
    },
  };
}

const get = async (i: Instance, token: string, url: string) => {
  const r = await i.app.inject({ method: "GET", url, headers: { "x-api-key": token } });
  return { status: r.statusCode, body: r.json() as any };
};

const CUIS = data.sampleCuis(800, 9_301).filter((c) => data.company(c));
const month = () => bucharestDay(Date.now()).slice(0, 7);

suite("two custody instances on one PostgreSQL", () => {
  test("`firma serve --db-pool 2` opens at most 2 connections (and its schema hold) while 20 people ask at once; a bad --db-pool is refused", async () => {
    const url = await pg.createDatabase(`firm${++serial}`);
    const key = `demo-business-pg${serial}`;
    const keyFile = path.join(dir, `key${serial}`);
    fs.writeFileSync(keyFile, key);
    const store = await openFirmStore(url);
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const t = newToken();
      await store.addUser(`p${i}`, 50, hashToken(t), Date.now());
      tokens.push(t);
    }
    await store.close();
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, env: { LANG: "en_US.UTF-8" } };
    const argv = [
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--http",
      "--dist",
      dir,
      "--upstream",
      sb.url,
      "--key-file",
      keyFile,
      "--database",
      url,
    ];
    await expect(serve([...argv, "--db-pool", "0"], quiet)).rejects.toThrow(/--db-pool "0" is not a whole number from 1 to 100/);
    expect(DB_POOL).toBe(10);
    const s = await serve([...argv, "--db-pool", "2"], quiet);
    sb.config.latencyMs = 30;
    let most = 0;
    const watch = setInterval(() => {
      void pg
        .sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'firm${serial}'`)
        .then((r) => (most = Math.max(most, Number(r[0].n))));
    }, 20);
    try {
      const answers = await Promise.all(
        tokens.map((t, i) =>
          fetch(`${s.url}v4/firme/batch?cui=${CUIS.slice(i * 20, i * 20 + 20).join(",")}`, { headers: { "x-api-key": t } }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(tokens.map(() => 200));
    } finally {
      clearInterval(watch);
      sb.config.latencyMs = 0;
      await s.close();
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3); // the pool's 2 and the schema hold's one (docs/deploy.md)
  });

  test("a company fetched through one instance costs nothing through the other", async () => {
    const f = await twoInstances();
    try {
      const ana = await f.token("ana", 10);
      const ion = await f.token("ion", 10);
      const r1 = await get(f.a, ana, `/v4/firme/batch?cui=${CUIS.slice(0, 30).join(",")}`);
      expect(r1.status).toBe(200);
      expect(sb.usage(f.key).total).toBe(1);
      const r2 = await get(f.b, ion, `/v4/firme/batch?cui=${CUIS.slice(0, 30).join(",")}`);
      expect(r2.status).toBe(200);
      expect(r2.body).toEqual(r1.body);
      expect(sb.usage(f.key).calls).toBe(1);
    } finally {
      await f.close();
    }
  });

  test("the same 100 companies asked through both instances at the same moment: one upstream call, one credit, both answered", async () => {
    const f = await twoInstances();
    sb.config.latencyMs = 80;
    try {
      const ana = await f.token("ana", 10);
      const ion = await f.token("ion", 10);
      const url = `/v4/firme/batch?cui=${CUIS.slice(200, 300).join(",")}`;
      const [r1, r2] = await Promise.all([get(f.a, ana, url), get(f.b, ion, url)]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      expect(r2.body).toEqual(r1.body);
      expect(sb.usage(f.key).calls).toBe(1);
      const users = await f.a.store.listUsers(month());
      expect(users.reduce((s, u) => s + u.spent, 0)).toBe(1);
    } finally {
      sb.config.latencyMs = 0;
      await f.close();
    }
  });

  test("ten people with a budget of 5, 50 companies each through both instances at once: at most 5 each, charge = attributions", async () => {
    const f = await twoInstances();
    sb.config.latencyMs = 30;
    try {
      const people = await Promise.all(Array.from({ length: 10 }, (_, i) => f.token(`p${i}`, 5)));
      // Each person's 50 companies, a third shared with the next person; one request per company, half
      // through each instance, so that budgets are contended across instances.
      const asks = people.flatMap((t, i) =>
        CUIS.slice(100 + i * 35, 100 + i * 35 + 50).map((c, j) => get(j % 2 ? f.a : f.b, t, `/v4/firme/${c}`)),
      );
      const answers = await Promise.all(asks);
      expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
      expect(answers.filter((r) => r.status === 429).every((r) => r.body.error.code === "budget_exhausted")).toBe(true);
      const users = await f.a.store.listUsers(month());
      expect(users.every((u) => u.spent <= 5)).toBe(true);
      const attributed = users.reduce((s, u) => s + u.spent, 0);
      expect(attributed).toBe(50);
      expect(sb.usage(f.key).total).toBe(attributed);
    } finally {
      sb.config.latencyMs = 0;
      await f.close();
    }
  }, 60_000);

  test("the plan's stop after a 429 through one instance holds on the other, at zero upstream calls", async () => {
    const f = await twoInstances();
    try {
      const ana = await f.token("ana", 10);
      sb.config.faults = { rateLimitAfter: 0 };
      expect((await get(f.a, ana, `/v4/firme/${CUIS[700]}`)).status).toBe(429);
      sb.config.faults = {};
      const calls = sb.usage(f.key).calls;
      const r = await get(f.b, ana, `/v4/firme/${CUIS[701]}`);
      expect(r.status).toBe(429);
      expect(r.body.error.code).toBe("plan_stopped");
      expect(sb.usage(f.key).calls).toBe(calls);
    } finally {
      sb.config.faults = {};
      await f.close();
    }
  });
});
