/**
 * The switches added for the engine's hardening work: range shape, stranger and
 * conflicting batch items, Retry-After on 429, charging failed calls, and the running counters.
 */
import { call, freshKey } from "./testkit";
import { company, financialYear, financials, LATEST_YEAR, sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";
import { LOG_SIZE } from "../../sandbox/log";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterEach(() => {
  sb.config.faults = {};
  sb.config.rangeShape = "full";
  sb.config.retryAfterSeconds = null;
  sb.config.chargeFailures = false;
  sb.config.includeMode = "fields";
  sb.config.creditHeaders = true;
});
afterAll(() => sb.close());

const cuis = sampleCuis(30, 7000);
// The sandbox's default latest year is the dataset's (both by the O19 rule); read at collection time too.
const latest = () => LATEST_YEAR;

type Item = Record<string, unknown> & { cui: number };

describe("rangeShape", () => {
  const cui = cuis.find((c) => financials(c, latest()).length >= 3)!;
  const range = () => `/v4/firme/${cui}/financiar?an_de_la=${latest() - 4}&an_pana=${latest()}`;

  test("full (default): every field in each range entry", async () => {
    const r = await call(sb, range());
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data[0]).sort()).toEqual(Object.keys(financialYear(cui, latest(), latest())!).sort());
  });

  test("minimal: entries carry only an, cifra_afaceri, profit_net, with the dataset's values", async () => {
    sb.config.rangeShape = "minimal";
    const r = await call(sb, range());
    expect(r.status).toBe(200);
    expect(r.body.cui).toBe(cui);
    for (const e of r.body.data) {
      expect(Object.keys(e).sort()).toEqual(["an", "cifra_afaceri", "profit_net"]);
      const truth = financialYear(cui, e.an, latest())!;
      expect(e).toEqual({ an: truth.an, cifra_afaceri: truth.cifra_afaceri, profit_net: truth.profit_net });
    }
  });

  test("minimal leaves the one-year answer whole", async () => {
    sb.config.rangeShape = "minimal";
    const r = await call(sb, `/v4/firme/${cui}/financiar?an=${latest()}`);
    expect(r.body).toEqual(financialYear(cui, latest(), latest()));
  });

  test("a bad value is refused", async () => {
    const r = await call(sb, "/__sandbox/config", null, { method: "PUT", body: JSON.stringify({ rangeShape: "short" }) });
    expect(r.status).toBe(400);
  });
});

describe("batchStranger", () => {
  test("1: every batch answer gains one real company nobody asked for, shaped like the others", async () => {
    sb.config.faults = { batchStranger: 1 };
    const asked = new Set(cuis);
    for (const path of [`/v4/firme/batch?cui=${cuis.join(",")}&include=judet`, `/v4/firme/batch/financiar?cui=${cuis.join(",")}`]) {
      const r = await call(sb, path);
      const items = r.body as Item[];
      const strangers = items.filter((i) => !asked.has(i.cui));
      expect(strangers).toHaveLength(1);
      const [s] = strangers;
      expect(Object.keys(s).sort()).toEqual(Object.keys(items.find((i) => asked.has(i.cui))!).sort());
      // The stranger's data is its own: only the fact that nobody asked is wrong.
      if ("an" in s) expect(s.cifra_afaceri).toBe(financialYear(s.cui, s.an as number, latest())!.cifra_afaceri);
      else expect(s.denumire).toBe(company(s.cui)!.denumire);
      expect(sb.requests.at(-1)!.forged).toBe(1);
    }
  });

  test("0.5: about half the calls, the same ones for the same seed", async () => {
    const strangerCalls = async () => {
      sb.config.faults = { batchStranger: 0.5, seed: 9 };
      sb.reset(); // restarts the fault stream (the settings alone are the same as last time)
      const hits: boolean[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await call(sb, `/v4/firme/batch?cui=${cuis.slice(0, 5).join(",")}`);
        hits.push((r.body as Item[]).length === 6);
      }
      return hits;
    };
    const a = await strangerCalls();
    const b = await strangerCalls();
    expect(a).toEqual(b);
    const n = a.filter(Boolean).length;
    expect(n).toBeGreaterThan(4);
    expect(n).toBeLessThan(16);
  });

  test("leaves single-company answers and empty batches alone", async () => {
    sb.config.faults = { batchStranger: 1 };
    expect((await call(sb, `/v4/firme/${cuis[0]}`)).body.cui).toBe(cuis[0]);
  });
});

describe("batchConflict", () => {
  test("1: every item has a second copy, same CUI (and year), other data", async () => {
    sb.config.faults = { batchConflict: 1 };
    const r = await call(sb, `/v4/firme/batch?cui=${cuis.slice(0, 10).join(",")}&include=judet`);
    const items = r.body as Item[];
    expect(items).toHaveLength(20);
    for (const cui of cuis.slice(0, 10)) {
      const copies = items.filter((i) => i.cui === cui);
      expect(copies).toHaveLength(2);
      const truth = company(cui)!;
      const right = copies.filter((c) => c.denumire === truth.denumire && c.judet === truth.judet && c.stare === truth.stare);
      expect(right).toHaveLength(1);
    }
    expect(sb.requests.at(-1)!.forged).toBe(10);
  });

  test("financial items: the conflicting copy keeps the CUI and the year, not the figures", async () => {
    sb.config.faults = { batchConflict: 1 };
    const r = await call(sb, `/v4/firme/batch/financiar?cui=${cuis.slice(0, 10).join(",")}&an=${latest()}`);
    const items = r.body as Item[];
    for (const i of items) expect(i.an).toBe(latest());
    const byCui = new Map<number, Item[]>();
    for (const i of items) byCui.set(i.cui, [...(byCui.get(i.cui) ?? []), i]);
    for (const [cui, copies] of byCui) {
      expect(copies).toHaveLength(2);
      const truth = financialYear(cui, latest(), latest())!;
      expect(copies.filter((c) => c.cifra_afaceri === truth.cifra_afaceri && c.profit_net === truth.profit_net)).toHaveLength(1);
    }
  });

  test("the wrong copy comes first for some items and last for others", async () => {
    sb.config.faults = { batchConflict: 1, seed: 3 };
    const r = await call(sb, `/v4/firme/batch?cui=${cuis.join(",")}`);
    const items = r.body as Item[];
    const wrongFirst = cuis.filter((c) => items.find((i) => i.cui === c)!.denumire !== company(c)!.denumire).length;
    expect(wrongFirst).toBeGreaterThan(0);
    expect(wrongFirst).toBeLessThan(cuis.length);
  });

  test("batchDuplicate alone still repeats the same item", async () => {
    sb.config.faults = { batchDuplicate: 1 };
    const items = (await call(sb, `/v4/firme/batch?cui=${cuis.slice(0, 3).join(",")}`)).body as Item[];
    expect(items).toEqual(
      [...cuis.slice(0, 3)]
        .sort((a, b) => a - b)
        .flatMap((c) => [expect.objectContaining({ cui: c }), expect.objectContaining({ cui: c })]),
    );
    expect(items[0]).toEqual(items[1]);
  });
});

describe("retryAfterSeconds", () => {
  test("null (default): a 429 has no Retry-After", async () => {
    sb.config.faults = { rateLimitAfter: 0 };
    const r = await call(sb, `/v4/firme/${cuis[0]}`);
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe("limit_exceeded");
    expect(r.headers.get("retry-after")).toBeNull();
  });

  test("N: every 429 carries Retry-After: N, the fault's and the spent plan's", async () => {
    sb.config.retryAfterSeconds = 7;
    sb.config.faults = { rateLimitAfter: 0 };
    const injected = await call(sb, `/v4/firme/${cuis[0]}`);
    expect([injected.status, injected.headers.get("retry-after")]).toEqual([429, "7"]);
    sb.config.faults = {};
    const key = freshKey("free");
    for (let i = 0; i < 10; i++) expect((await call(sb, `/v4/firme/${cuis[i]}`, key)).status).toBe(200);
    const spent = await call(sb, `/v4/firme/${cuis[10]}`, key);
    expect([spent.status, spent.body.error.code, spent.headers.get("retry-after")]).toEqual([429, "limit_exceeded", "7"]);
    // Other answers do not carry it.
    expect((await call(sb, `/v4/firme/${cuis[0]}`)).headers.get("retry-after")).toBeNull();
  });

  test("bad values are refused", async () => {
    for (const v of [-1, 1.5, "10", 100_000]) {
      const r = await call(sb, "/__sandbox/config", null, { method: "PUT", body: JSON.stringify({ retryAfterSeconds: v }) });
      expect(r.status).toBe(400);
    }
  });
});

describe("creditHeaders", () => {
  test("true (default): a limited plan's answers say the plan and the credits left, a 429 included", async () => {
    const key = freshKey("free");
    const first = await call(sb, `/v4/firme/${cuis[0]}`, key);
    expect([first.headers.get("x-plan"), first.headers.get("x-credits-remaining")]).toEqual(["free", "9"]);
  });

  test("false: no X-Plan, no X-Credits-Remaining, on 200s and on the 429 past the day's 10 calls", async () => {
    sb.config.creditHeaders = false;
    const key = freshKey("free");
    for (let i = 0; i < 10; i++) {
      const r = await call(sb, `/v4/firme/${cuis[i]}`, key);
      expect([r.status, r.headers.get("x-plan"), r.headers.get("x-credits-remaining")]).toEqual([200, null, null]);
    }
    const spent = await call(sb, `/v4/firme/${cuis[10]}`, key);
    expect([spent.status, spent.body.error.code, spent.headers.get("x-plan"), spent.headers.get("x-credits-remaining")]).toEqual([
      429,
      "limit_exceeded",
      null,
      null,
    ]);
    expect(sb.usage(key)).toMatchObject({ total: 10 });
  });

  test("bad values are refused", async () => {
    for (const v of ["false", 0, null]) {
      const r = await call(sb, "/__sandbox/config", null, { method: "PUT", body: JSON.stringify({ creditHeaders: v }) });
      expect(r.status).toBe(400);
    }
  });
});

describe("chargeFailures", () => {
  test("false (default): 5xx, 400 and broken 200s are free", async () => {
    const key = freshKey("pro");
    sb.config.faults = { errorRate: 1 };
    await call(sb, `/v4/firme/${cuis[0]}`, key);
    sb.config.faults = { malformedRate: 1 };
    await call(sb, `/v4/firme/${cuis[0]}`, key);
    sb.config.faults = {};
    await call(sb, "/v4/firme/abc", key);
    expect(sb.usage(key)).toMatchObject({ total: 0, refused: 3, calls: 3 });
  });

  test("true: 5xx, 400 and broken 200s are charged, logged as credited; 401/403/429 stay free", async () => {
    sb.config.chargeFailures = true;
    const key = freshKey("pro");
    sb.config.faults = { errorRate: 1 };
    const e = await call(sb, `/v4/firme/${cuis[0]}`, key);
    expect(e.status).toBeGreaterThanOrEqual(500);
    expect(sb.requests.at(-1)!.credited).toBe(true);
    sb.config.faults = { malformedRate: 1 };
    expect((await call(sb, `/v4/firme/${cuis[0]}`, key)).status).toBe(200);
    sb.config.faults = {};
    expect((await call(sb, "/v4/firme/abc", key)).status).toBe(400);
    expect((await call(sb, `/v4/firme/${cuis[0]}/financiar?an=2000`, key)).status).toBe(403);
    expect(sb.usage(key)).toMatchObject({ total: 3, month: 3, refused: 1, calls: 4 });
  });

  test("true: a free key is stopped by charged failures too", async () => {
    sb.config.chargeFailures = true;
    sb.config.faults = { failNext: 10 };
    const key = freshKey("free");
    for (let i = 0; i < 10; i++) expect((await call(sb, `/v4/firme/${cuis[0]}`, key)).status).toBe(500);
    const r = await call(sb, `/v4/firme/${cuis[0]}`, key);
    expect([r.status, r.body.error.code]).toEqual([429, "limit_exceeded"]);
    expect(sb.usage(key)).toMatchObject({ today: 10, total: 10, refused: 1, remaining: 0 });
  });
});

describe("running counters", () => {
  test("usage.total and usage.calls keep counting past the log's limit", async () => {
    expect(LOG_SIZE).toBe(50_000);
    const key = freshKey("enterprise");
    await call(sb, `/v4/firme/${cuis[0]}`, key);
    await call(sb, "/v4/firme/abc", key);
    const usage = sb.usage(key);
    expect(usage).toMatchObject({ total: 1, refused: 1, calls: 2 });
    const logged = sb.requests.filter((r) => r.key === key);
    expect(logged.filter((r) => r.credited)).toHaveLength(usage.total);
    // The counters are not read from the log: emptying it leaves them as they are.
    await call(sb, "/__sandbox/requests", null, { method: "DELETE" });
    expect(sb.usage(key)).toEqual(usage);
  });
});
