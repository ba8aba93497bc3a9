/**
 * `firma serve`'s custody mode (src/server/firm/custody.ts) on the real SQLite store, against the
 * sandbox over loopback HTTP, which counts the calls charged to the firm's key: an answer is paid
 * once for the whole firm; a half-cached batch goes upstream for the missing half only; two people's
 * concurrent overlapping requests are one upstream call; budgets, the plan's 429 and the day's cap
 * stop calls before they cost; tokens: wrong format 401 (no database lookup), unknown or revoked 403
 * (no upstream call); the firm's key in no answer, header or log line; the credits attributed equal
 * the calls charged; /firm/me, /metrics, /healthz.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { AddressInfo } from "net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { bucharestDay } from "../../src/engine/credits/bucharest-time";
import { FirmaClient } from "../../src/api/client";
import { CreditsExhaustedError, errorForStatus } from "../../src/api/errors";
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { evaluate } from "../../src/shared/evaluate";
import { toCellError } from "../../src/shared/cells";
import { firma } from "../support/cli";
import { buildWorkbook, type BuildCell } from "../fixtures/build-workbook";
import { planStopEnd } from "../../src/server/firm/loader";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dist: string;
let dir: string;
let serial = 0;
const BUILT_FOR = "https://addin.test.example.ro/";
const month = () => bucharestDay(Date.now()).slice(0, 7);

interface Firm {
  url: string;
  key: string;
  store: FirmStore;
  app: FastifyInstance;
  log: string[];
  /** Everything the people were sent: statuses, headers, bodies. */
  seen: string[];
  token(name: string, budget: number): Promise<string>;
  get(token: string | null, p: string): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  /** Calls the sandbox charged to the firm's key, and all it received. */
  charged(): number;
  calls(): number;
}

const open: Firm[] = [];

/** A firm: its own SQLite file and key, a custody server over the sandbox listening on loopback. */
async function firm(
  o: {
    key?: string;
    maxCreditsPerDay?: number | null;
    store?: (s: FirmStore) => FirmStore;
    windowMs?: number;
    rateLimit?: { max: number; windowMs: number } | null;
  } = {},
): Promise<Firm> {
  const key = o.key ?? `demo-business-custody${++serial}`;
  const real = await openFirmStore(path.join(dir, `firm${++serial}.sqlite`));
  const store = o.store ? o.store(real) : real;
  const log: string[] = [];
  const seen: string[] = [];
  const app = await buildApp({
    dist,
    publicUrl: BUILT_FOR,
    upstream: sb.url,
    logger: { level: "info", stream: { write: (line: string) => log.push(line) } } as never,
    custody: { store, key, maxCreditsPerDay: o.maxCreditsPerDay ?? null, windowMs: o.windowMs, rateLimit: o.rateLimit },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const f: Firm = {
    url,
    key,
    store,
    app,
    log,
    seen,
    async token(name, budget) {
      const token = newToken();
      await real.addUser(name, budget, hashToken(token), Date.now());
      return token;
    },
    async get(token, p) {
      const res = await fetch(url + p, { headers: token === null ? {} : { "X-API-Key": token } });
      const text = await res.text();
      seen.push(`${res.status} ${JSON.stringify([...res.headers])} ${text}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, headers: res.headers, body, text };
    },
    charged: () => sb.usage(key).total,
    calls: () => sb.usage(key).calls,
  };
  open.push(f);
  return f;
}

/** Upstream calls the sandbox logged for a key, with their queries. */
const logged = (key: string) => sb.requests.filter((r) => r.key === key);

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-custody-"));
  dist = path.join(dir, "dist");
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dist, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${BUILT_FOR}taskpane.html"/></OfficeApp>`);
  fs.writeFileSync(path.join(dist, "firma-build.json"), JSON.stringify({ addinUrl: BUILT_FOR, serviceUrl: "", version: "0.1.0" }));
});
afterEach(async () => {
  // Every firm's key, in every answer, header and log line: never.
  for (const f of open.splice(0)) {
    await f.app.close();
    await f.store.close().catch(() => undefined);
    for (const text of [...f.seen, ...f.log]) expect(text).not.toContain(f.key);
  }
  sb.config.faults = {};
  sb.config.latencyMs = 0;
  sb.config.retryAfterSeconds = null;
});
afterAll(async () => {
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CUIS = data.sampleCuis(400, 2101).filter((c) => data.company(c));
let cursor = 0;
/** Companies no other test asked for (the sandbox is shared; each firm has its own store anyway). */
const fresh = (n: number) => CUIS.slice(cursor, (cursor += n));

describe("answers paid once for the whole firm", () => {
  test("a company Ana fetched costs nothing when Ion asks; each sees HER/HIS own budget in the credit headers", async () => {
    const f = await firm();
    const ana = await f.token("ana", 10);
    const ion = await f.token("ion", 7);
    const [cui] = fresh(1);
    const a = await f.get(ana, `/v4/firme/${cui}`);
    expect(a.status).toBe(200);
    expect(a.body.cui).toBe(cui);
    expect(f.charged()).toBe(1);
    expect(a.headers.get("x-credits-limit")).toBe("10");
    expect(a.headers.get("x-credits-remaining")).toBe("9");
    expect(a.headers.get("x-plan")).toBe("business");
    const b = await f.get(ion, `/v4/firme/${cui}`);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(f.calls()).toBe(1);
    expect(b.headers.get("x-credits-limit")).toBe("7");
    expect(b.headers.get("x-credits-remaining")).toBe("7");
    const audit = await f.store.auditSince(0);
    expect(audit.map((e) => [e.user, e.source, e.credits, e.status, e.cuis])).toEqual([
      ["ana", "upstream", 1, 200, [cui]],
      ["ion", "store", 0, 200, [cui]],
    ]);
  });

  test("a batch half in the store goes upstream for the missing half only", async () => {
    const f = await firm();
    const ana = await f.token("ana", 10);
    const ion = await f.token("ion", 10);
    const cuis = fresh(20);
    expect((await f.get(ana, `/v4/firme/batch?cui=${cuis.slice(0, 10).join(",")}&include=judet`)).status).toBe(200);
    const r = await f.get(ion, `/v4/firme/batch?cui=${cuis.join(",")}&include=judet`);
    expect(r.status).toBe(200);
    expect(r.body.map((i: { cui: number }) => i.cui)).toEqual([...cuis].sort((x, y) => x - y));
    expect(r.body.every((i: { judet?: string }) => typeof i.judet === "string")).toBe(true);
    const calls = logged(f.key);
    expect(calls).toHaveLength(2);
    expect(new URLSearchParams(calls[1].query).get("cui")!.split(",").map(Number).sort()).toEqual(cuis.slice(10).sort());
  });

  test("two people's concurrent overlapping batches are one upstream call, its credit one person's", async () => {
    const f = await firm();
    const ana = await f.token("ana", 10);
    const ion = await f.token("ion", 10);
    const cuis = fresh(30);
    const [a, b] = await Promise.all([
      f.get(ana, `/v4/firme/batch?cui=${cuis.slice(0, 20).join(",")}`),
      f.get(ion, `/v4/firme/batch?cui=${cuis.slice(10).join(",")}`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toHaveLength(20);
    expect(b.body).toHaveLength(20);
    expect(f.charged()).toBe(1);
    const users = await f.store.listUsers(month());
    expect(users.map((u) => u.spent).sort()).toEqual([0, 1]);
  });

  test("a company the service does not know is kept as absent: 404 and missing from batches, at no second credit", async () => {
    const f = await firm();
    const ana = await f.token("ana", 10);
    const [missing] = data.missingCuis(1);
    expect((await f.get(ana, `/v4/firme/${missing}`)).status).toBe(404);
    const again = await f.get(ana, `/v4/firme/${missing}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("not_found");
    expect(f.charged()).toBe(1);
  });

  test("the add-in's own client reads every answer as it reads the service's", async () => {
    const f = await firm();
    const token = await f.token("ana", 50);
    const via = new FirmaClient({ baseUrl: f.url, apiKey: token, retries: 0 });
    const direct = new FirmaClient({ baseUrl: sb.url, apiKey: `demo-business-direct${++serial}`, retries: 0 });
    const cuis = fresh(5);
    const year = data.LATEST_YEAR;
    const pairs: [string, (c: FirmaClient) => Promise<unknown>][] = [
      ["profile", (c) => c.getCompany(cuis[0])],
      ["batch with include", (c) => c.batchIdentification(cuis, { include: ["judet", "adresa", "caen_principal"] })],
      ["one year", (c) => c.getFinancialYear(cuis[1], year)],
      ["range", (c) => c.getFinancialRange(cuis[2], year - 3, year)],
      ["batch financial", (c) => c.batchFinancial(cuis, { an: year })],
      ["batch financial range", (c) => c.batchFinancial(cuis, { anDeLa: year - 2, anPana: year })],
      ["counties", (c) => c.counties()],
      ["rankings", (c) => c.listRankings({ an: year })],
    ];
    for (const [label, ask] of pairs) {
      const [mine, theirs] = [await ask(via), await ask(direct)];
      expect([label, mine]).toEqual([label, theirs]);
    }
    const charged = f.charged();
    for (const [, ask] of pairs) await ask(via);
    expect(f.charged()).toBe(charged);
  });
});

describe("financial years and bad requests", () => {
  test("a financial batch with some company-years in the store asks the service for the rest only; a range is answered from years kept", async () => {
    const f = await firm();
    const ana = await f.token("ana", 20);
    const cuis = fresh(8);
    const y = data.LATEST_YEAR;
    expect((await f.get(ana, `/v4/firme/batch/financiar?cui=${cuis.slice(0, 4).join(",")}&an=${y}`)).status).toBe(200);
    const r = await f.get(ana, `/v4/firme/batch/financiar?cui=${cuis.join(",")}&an=${y}`);
    expect(r.status).toBe(200);
    expect(new Set(r.body.map((i: { cui: number }) => i.cui)).size).toBeGreaterThan(4);
    const calls = logged(f.key);
    expect(calls).toHaveLength(2);
    expect(new URLSearchParams(calls[1].query).get("cui")!.split(",").map(Number).sort()).toEqual(cuis.slice(4).sort());
    // A one-year record with every field answers a later range and batch for that year, at no credit.
    const [c] = fresh(1);
    const one = await f.get(ana, `/v4/firme/${c}/financiar?an=${y}`);
    expect(one.status).toBe(200);
    const before = f.charged();
    const range = await f.get(ana, `/v4/firme/${c}/financiar?an_de_la=${y}&an_pana=${y}`);
    expect(range.body).toEqual({ cui: c, data: [one.body] });
    expect((await f.get(ana, `/v4/firme/batch/financiar?cui=${c}&an=${y}`)).body).toEqual([one.body]);
    expect(f.charged()).toBe(before);
  });

  test.each([
    ["101 companies in a batch", () => `/v4/firme/batch?cui=${CUIS.slice(0, 101).join(",")}`, "batch_too_large"],
    ["51 in a financial batch", () => `/v4/firme/batch/financiar?cui=${CUIS.slice(0, 51).join(",")}&an=2023`, "batch_too_large"],
    ["a CUI that is not one", () => `/v4/firme/batch?cui=12,abc`, "invalid_cui"],
    ["a year and a range", () => `/v4/firme/${CUIS[0]}/financiar?an=2023&an_de_la=2020&an_pana=2023`, "bad_request"],
    ["a reversed range", () => `/v4/firme/${CUIS[0]}/financiar?an_de_la=2023&an_pana=2020`, "bad_request"],
  ])("%s: 400 from the server itself, at no upstream call", async (_label, url, code) => {
    const f = await firm();
    const ana = await f.token("ana", 20);
    const r = await f.get(ana, url());
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(code);
    expect(f.calls()).toBe(0);
  });
});

describe("budgets, the plan, the day's cap", () => {
  test("the plan's stop ends at the next Bucharest midnight (Free), the first of next month (others), or after Retry-After", () => {
    const at = Date.parse("2026-11-25T21:30:00Z"); // 23:30 in Bucharest
    expect(new Date(planStopEnd(at, "free", null)).toISOString()).toBe("2026-11-25T22:00:00.000Z");
    expect(new Date(planStopEnd(at, "business", null)).toISOString()).toBe("2026-11-30T22:00:00.000Z");
    expect(new Date(planStopEnd(Date.parse("2026-03-31T12:00:00Z"), null, null)).toISOString()).toBe("2026-03-31T21:00:00.000Z");
    expect(planStopEnd(at, "free", 60_000)).toBe(at + 60_000);
  });

  test("over budget: 429 naming the budget, at zero upstream credits", async () => {
    const f = await firm();
    const eve = await f.token("eve", 1);
    const [c1, c2] = fresh(2);
    expect((await f.get(eve, `/v4/firme/${c1}`)).status).toBe(200);
    const r = await f.get(eve, `/v4/firme/${c2}`);
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe("budget_exhausted");
    expect(r.body.error.message).toMatch(/Bugetul dumneavoastră de 1 credite pe lună/);
    expect(f.calls()).toBe(1);
    // What is in the store still comes, for free.
    expect((await f.get(eve, `/v4/firme/${c1}`)).status).toBe(200);
  });

  test("the service's 429 stops everyone until the period turns, without calling it again", async () => {
    const f = await firm();
    const ana = await f.token("ana", 100);
    const ion = await f.token("ion", 100);
    const [c1, c2, c3] = fresh(3);
    sb.config.faults = { rateLimitAfter: 1 };
    expect((await f.get(ana, `/v4/firme/${c1}`)).status).toBe(200);
    const hit = await f.get(ana, `/v4/firme/${c2}`);
    expect(hit.status).toBe(429);
    expect(hit.body.error.code).toBe("plan_stopped");
    const calls = f.calls();
    const other = await f.get(ion, `/v4/firme/${c3}`);
    expect(other.status).toBe(429);
    expect(other.body.error.code).toBe("plan_stopped");
    expect(Number(other.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(f.calls()).toBe(calls);
    // Business plan: until the first of next month, Bucharest time.
    const until = await f.store.planStoppedUntil(Date.now());
    expect(bucharestDay(until!).slice(8)).toBe("01");
    // Nobody was charged for the refused call.
    expect((await f.store.listUsers(month())).reduce((s, u) => s + u.spent, 0)).toBe(f.charged());
  });

  test("a Retry-After from the service sets the stop's end", async () => {
    const f = await firm();
    const ana = await f.token("ana", 100);
    sb.config.faults = { rateLimitAfter: 0 };
    sb.config.retryAfterSeconds = 120;
    const r = await f.get(ana, `/v4/firme/${fresh(1)[0]}`);
    expect(r.status).toBe(429);
    const until = (await f.store.planStoppedUntil(Date.now()))!;
    expect(until - Date.now()).toBeGreaterThan(100_000);
    expect(until - Date.now()).toBeLessThanOrEqual(120_000);
  });

  test("--max-credits-per-day: the firm's day stops at the cap, 429 day_limit at zero upstream", async () => {
    const f = await firm({ maxCreditsPerDay: 2 });
    const ana = await f.token("ana", 100);
    const ion = await f.token("ion", 100);
    const [c1, c2, c3] = fresh(3);
    expect((await f.get(ana, `/v4/firme/${c1}`)).status).toBe(200);
    expect((await f.get(ion, `/v4/firme/${c2}`)).status).toBe(200);
    const r = await f.get(ana, `/v4/firme/${c3}`);
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe("day_limit");
    expect(r.body.error.message).toContain("2");
    expect(f.calls()).toBe(2);
  });

  /**
   * The add-in's engine against a firm's server: its 429 names whose limit it is, so a person's cells
   * say her budget there (or the firm's daily cap) is spent, not the plan's credits, and the stop lasts
   * as long as that limit does (the month for a budget, the day for the cap, whatever the plan).
   */
  test("the add-in through the firm's server past her rate limit: its requests wait for Retry-After and every cell fills, no stop, no credit twice", async () => {
    const f = await firm({ rateLimit: { max: 3, windowMs: 1_000 } });
    const eve = await f.token("eve", 100);
    const engine = new FirmaEngine({ baseUrl: f.url, apiKey: () => eve, store: new MemoryStore(), windowMs: 1, retryDelayMs: 1 });
    const cuis = data.sampleCuis(1_000, 700_000); // 10 batch calls, 3 a second at most
    const cells = await Promise.all(cuis.map(async (c) => (await evaluate("DENUMIRE", [c], { engine, lang: "en" }))[0][0]));
    expect(cells).toEqual(cuis.map((c) => data.company(c)!.denumire));
    expect(f.log.filter((l) => l.includes('"statusCode":429')).length).toBeGreaterThan(0); // the limit was met
    expect(engine.credits().quotaStop()).toBeNull();
    expect(f.charged()).toBe(10);
  }, 30_000);

  test("a rate limit longer than a call may wait: the cells say the firm's server got too many requests, not credits spent, and nothing stops", async () => {
    const f = await firm({ rateLimit: { max: 1, windowMs: 60_000 } });
    const eve = await f.token("eve", 100);
    const engine = new FirmaEngine({ baseUrl: f.url, apiKey: () => eve, store: new MemoryStore(), windowMs: 1, retryDelayMs: 1 });
    const cuis = data.sampleCuis(200, 720_000); // 2 batch calls: the second waits past its 30 s, so it gives up at once
    const started = Date.now();
    const cells = await Promise.all(cuis.map(async (c) => (await evaluate("DENUMIRE", [c], { engine, lang: "en" }))[0][0]));
    expect(Date.now() - started).toBeLessThan(10_000);
    const right = cells.filter((v, i) => v === data.company(cuis[i])!.denumire).length;
    expect(right).toBe(100);
    const refused = cells.filter((v, i) => v !== data.company(cuis[i])!.denumire);
    expect(refused).toHaveLength(100);
    for (const v of refused)
      expect(v).toMatchObject({ error: "#N/A", message: expect.stringContaining("too many requests from you at once") });
    // In Romanian too.
    expect(toCellError(errorForStatus(429, { serviceCode: "rate_limited" }), "ro").message).toMatch(
      /prea multe cereri de la dvs\. deodată/,
    );
    expect(engine.credits().quotaStop()).toBeNull();
    expect(f.charged()).toBe(1);
  }, 30_000);

  test.each([
    ["budget_exhausted", "Your monthly budget on the firm's server is spent", "month"],
    ["day_limit", "The firm's server reached its daily credit cap", "day"],
  ] as const)(
    "the add-in through the firm's server, %s: the cells say whose limit, the stop lasts its period, no more calls",
    async (code, said, by) => {
      const f = await firm({ maxCreditsPerDay: code === "day_limit" ? 1 : null });
      const eve = await f.token("eve", code === "budget_exhausted" ? 1 : 100);
      const engine = new FirmaEngine({ baseUrl: f.url, apiKey: () => eve, store: new MemoryStore(), windowMs: 1, retryDelayMs: 1 });
      const [c1, c2, c3] = fresh(3);
      const cell = async (cui: number) => (await evaluate("DENUMIRE", [cui], { engine, lang: "en" }))[0][0];
      expect(await cell(c1)).toBe(data.company(c1)!.denumire);
      expect(await cell(c2)).toMatchObject({ error: "#N/A", message: expect.stringContaining(said) });
      const calls = f.calls();
      const sent = f.seen.length;
      expect(await cell(c3)).toMatchObject({ error: "#N/A", message: expect.stringContaining(said) }); // the stop: nothing sent
      expect(f.seen.length).toBe(sent);
      expect(f.calls()).toBe(calls);
      const stop = engine.credits().quotaStop()!;
      expect(stop).toMatchObject({ by, firm: code === "budget_exhausted" ? "budget" : "day" });
      const day = bucharestDay(stop.until);
      if (by === "month") expect(day.slice(8)).toBe("01");
      else expect(stop.until - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
      // In Romanian too.
      expect(toCellError(new CreditsExhaustedError({ firmLimit: code === "budget_exhausted" ? "budget" : "day" }), "ro").message).toMatch(
        code === "budget_exhausted" ? /Bugetul dvs\. lunar pe serverul firmei/ : /plafonul zilnic/,
      );
    },
  );

  test("firma refresh through the firm's server: cells past her budget keep their values, and the summary says it is her budget", async () => {
    const f = await firm();
    const eve = await f.token("eve", 1);
    const cuis = data.sampleCuis(250, 9_700); // a pool of its own: the file's shared one is sized for the other tests
    const rows: BuildCell[][] = [
      ["CUI", "Denumire"],
      ...cuis.map((c, i): BuildCell[] => [c, { formula: `=FIRMA.DENUMIRE(A${i + 2})`, cached: `OLD ${c}` }]),
    ];
    const book = path.join(dir, `firm-book${++serial}.xlsx`);
    fs.writeFileSync(book, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
    const { code, all: out } = await firma(["refresh", book, "--out", `${book}.out.xlsx`, "--no-cache", "--no-progress"], {
      key: eve,
      baseUrl: f.url,
      env: { LANG: "en_GB.UTF-8" },
    });
    expect(code).toBe(2); // partial: her one credit's worth refreshed, the rest kept
    expect(out).toMatch(/× your monthly budget on the firm's server is spent; ask its administrator/);
    expect(out).not.toMatch(/the plan's credits are spent/);
    expect(f.charged()).toBe(1);
  });

  test("a service that refuses the firm's key: 502 saying so, the credit given back, the key nowhere", async () => {
    const f = await firm({ key: `not-a-valid-key-${++serial}-s3cr3t` });
    const ana = await f.token("ana", 5);
    const r = await f.get(ana, `/v4/firme/${fresh(1)[0]}`);
    expect(r.status).toBe(502);
    expect(r.body.error.code).toBe("firm_key_refused");
    expect(r.body.error.message).toMatch(/cheia firmei/);
    expect((await f.store.usageOf("ana", month()))!.spent).toBe(0);
  });

  test("many people, concurrent overlapping work: the credits attributed equal the calls the service charged", async () => {
    const f = await firm();
    sb.config.latencyMs = 20;
    const pool = fresh(120);
    const people = await Promise.all(["a", "b", "c", "d", "e"].map((n, i) => f.token(n, i === 0 ? 0 : 3)));
    const asks = people.flatMap((t, i) => [
      f.get(t, `/v4/firme/batch?cui=${pool.slice(i * 15, i * 15 + 40).join(",")}`),
      f.get(t, `/v4/firme/batch/financiar?cui=${pool.slice(i * 10, i * 10 + 30).join(",")}&an=${data.LATEST_YEAR}`),
      f.get(t, `/v4/firme/${pool[100 + i]}`),
    ]);
    const answers = await Promise.all(asks);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    const users = await f.store.listUsers(month());
    const attributed = users.reduce((s, u) => s + u.spent, 0);
    expect(attributed).toBeGreaterThan(0);
    expect(attributed).toBe(f.charged());
    // "a" has no budget: her credits are 0 whatever she got (answers others paid for, or 429).
    expect(users.find((u) => u.name === "a")!.spent).toBe(0);
    expect(users.every((u) => u.spent <= u.budget)).toBe(true);
    const audit = await f.store.auditSince(0);
    expect(audit).toHaveLength(asks.length);
    expect(audit.reduce((s, e) => s + e.credits, 0)).toBe(f.charged());
  });
});

describe("tokens", () => {
  test("a value that is not a token: 401 saying so, no upstream call and no database lookup", async () => {
    let lookups = 0;
    const f = await firm({
      store: (s) =>
        new Proxy(s, {
          get: (target, prop, recv) => {
            if (prop === "userByTokenHash") lookups++;
            const v = Reflect.get(target, prop, recv);
            return typeof v === "function" ? v.bind(target) : v;
          },
        }),
    });
    for (const sent of [null, "demo-business", "firma_short", `firma_${"x".repeat(42)}!`]) {
      const r = await f.get(sent, `/v4/firme/${CUIS[0]}`);
      expect(r.status).toBe(401);
      expect(r.body.error.message).toMatch(/token/);
    }
    expect(lookups).toBe(0);
    expect(f.calls()).toBe(0);
  });

  test("an unknown or revoked token: 403 at zero upstream calls", async () => {
    const f = await firm();
    const ana = await f.token("ana", 10);
    await f.store.revokeUser("ana", Date.now());
    for (const t of [ana, newToken()]) {
      const r = await f.get(t, `/v4/firme/${CUIS[1]}`);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("token_refused");
    }
    expect(f.calls()).toBe(0);
  });

  test("GET /firm/me: the person's own figures, nobody else's", async () => {
    const f = await firm();
    const ana = await f.token("ana", 12);
    const ion = await f.token("ion", 30);
    await f.get(ana, `/v4/firme/${fresh(1)[0]}`);
    expect((await f.get(ana, "/firm/me")).body).toEqual({ name: "ana", budget: 12, spent: 1, remaining: 11, month: month() });
    expect((await f.get(ion, "/firm/me")).body).toEqual({ name: "ion", budget: 30, spent: 0, remaining: 30, month: month() });
    expect((await f.get("firma_nope", "/firm/me")).status).toBe(401);
  });
});

describe("operations", () => {
  test("/metrics: requests by source, store hits, upstream calls and credits, a latency histogram", async () => {
    const f = await firm();
    const ana = await f.token("ana", 10);
    const [cui] = fresh(1);
    await f.get(ana, `/v4/firme/${cui}`);
    await f.get(ana, `/v4/firme/${cui}`);
    await f.get(null, `/v4/firme/${cui}`);
    const m = await fetch(`${f.url}/metrics`);
    expect(m.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await m.text();
    expect(text).toContain('firma_requests_total{source="store"} 1');
    expect(text).toContain('firma_requests_total{source="upstream"} 1');
    expect(text).toContain('firma_requests_total{source="refused"} 1');
    expect(text).toContain("firma_store_hits_total 1");
    expect(text).toContain("firma_upstream_calls_total 1");
    expect(text).toContain("firma_upstream_credits_total 1");
    expect(text).toMatch(/firma_request_duration_seconds_bucket\{le="\+Inf"\} 3/);
    expect(text).toContain("# TYPE firma_request_duration_seconds histogram");
  });

  test("/healthz asks the database: 200 when it answers, 503 when it does not", async () => {
    const ok = await firm();
    const r = await fetch(`${ok.url}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ ok: true, database: "sqlite" });
    const down = await firm({
      store: (s) => Object.assign(Object.create(s), { health: () => Promise.reject(new Error("disk I/O error")) }),
    });
    const d = await fetch(`${down.url}/healthz`);
    expect(d.status).toBe(503);
    expect(await d.json()).toMatchObject({ ok: false, error: { code: "database_unavailable" } });
  });
});
