/** Batch helpers over the fixture: dedupe, chunk sizes, concurrency, failure handling, year queries. */
import { FirmaClient, ServerError, type CallRecord, type ClientOptions } from "../../src/api";
import { chunk, mapLimit, unique } from "../../src/api/chunk";
import { cuis, KEY, startFixture, type Fixture, type Seen } from "./fixture";

let fx: Fixture;
let calls: CallRecord[];
beforeEach(async () => {
  calls = [];
  fx = await startFixture(echo);
});
afterEach(() => fx.close());

const client = (extra: Partial<ClientOptions> = {}) =>
  new FirmaClient({ baseUrl: fx.url, apiKey: KEY, retryDelayMs: 1, onCall: (c) => calls.push(c), ...extra });

const asked = (r: Seen) => (r.query.get("cui") ?? "").split(",").map(Number);

/** Answers as a batch service would: one item per CUI asked (ascending), one year per financial item. */
function echo(req: Seen) {
  const list = asked(req).sort((a, b) => a - b);
  if (req.path.endsWith("/financiar")) {
    const an = Number(req.query.get("an") ?? 2025);
    return { body: list.map((cui) => ({ cui, an, cifra_afaceri: cui % 1000, profit_net: 1 })) };
  }
  return { body: list.map((cui) => ({ cui, denumire: `F${cui}`, stare: "ACTIVA" })) };
}

describe("identifyMany", () => {
  test("250 CUIs → exactly 3 calls of 100, 100 and 50", async () => {
    const list = cuis(250);
    const map = await client().identifyMany(list);
    expect(map.size).toBe(250);
    expect(map.get(list[249])).toEqual({ cui: list[249], denumire: `F${list[249]}`, stare: "ACTIVA" });
    expect(fx.requests.map((r) => asked(r).length)).toEqual([100, 100, 50]);
    expect(calls.map((c) => c.cuiCount)).toEqual([100, 100, 50]);
    expect(calls.every((c) => c.endpoint === "batch" && c.path === "/v4/firme/batch")).toBe(true);
  });

  test("duplicates are asked once", async () => {
    const list = cuis(150);
    await client().identifyMany([...list, ...list.slice(0, 60), list[0]]);
    expect(fx.requests.map((r) => asked(r).length)).toEqual([100, 50]);
    expect(new Set(fx.requests.flatMap(asked)).size).toBe(150);
  });

  test("include is passed on to every chunk", async () => {
    await client().identifyMany(cuis(120), { include: ["judet", "localitate"] });
    expect(fx.requests.map((r) => r.query.get("include"))).toEqual(["judet,localitate", "judet,localitate"]);
  });

  test("unknown CUIs are simply absent", async () => {
    const list = cuis(5);
    fx.route = (req) => ({
      body: asked(req)
        .filter((c) => c !== list[2])
        .map((cui) => ({ cui, denumire: "X", stare: "ACTIVA" })),
    });
    const map = await client().identifyMany(list);
    expect([...map.keys()]).toEqual([list[0], list[1], list[3], list[4]]);
  });

  test.each([
    [undefined, 4],
    [2, 2],
    [1, 1],
  ])("runs at most `concurrency` (%p → %i) calls at once", async (concurrency, max) => {
    const route = fx.route;
    fx.route = async (req, n) => ({ ...(await route(req, n)), delayMs: 40 });
    await client(concurrency ? { concurrency } : {}).identifyMany(cuis(1000));
    expect(fx.requests).toHaveLength(10);
    expect(fx.maxInFlight).toBe(max);
  });

  test("a failed chunk fails the whole call; no new chunk starts after it", async () => {
    fx.route = (req, n) => (n === 2 ? { status: 500 } : { ...echo(req), delayMs: 30 });
    const e = await client({ concurrency: 2, retries: 0 })
      .identifyMany(cuis(1000))
      .catch((e) => e);
    expect(e).toBeInstanceOf(ServerError);
    await new Promise((r) => setTimeout(r, 100));
    expect(fx.requests.length).toBeLessThanOrEqual(3);
  });
});

describe("financialMany", () => {
  test("120 CUIs → exactly 3 calls of 50, 50 and 20", async () => {
    const list = cuis(120);
    const out = await client().financialMany(list, { an: 2024 });
    expect(out).toHaveLength(120);
    expect(out.map((y) => y.cui)).toEqual(list); // in the order asked
    expect(fx.requests.map((r) => asked(r).length)).toEqual([50, 50, 20]);
    expect(fx.requests.every((r) => r.query.get("an") === "2024")).toBe(true);
    expect(calls.map((c) => [c.endpoint, c.cuiCount])).toEqual([
      ["batchFinancial", 50],
      ["batchFinancial", 50],
      ["batchFinancial", 20],
    ]);
  });

  test("years: one year, a range, or none (the latest)", async () => {
    const c = client();
    const [cui] = cuis(1);
    await c.batchFinancial([cui], { an: 2023 });
    await c.batchFinancial([cui], { anDeLa: 2020, anPana: 2024 });
    await c.batchFinancial([cui]);
    expect(fx.requests.map((r) => r.search)).toEqual([`cui=${cui}&an=2023`, `cui=${cui}&an_de_la=2020&an_pana=2024`, `cui=${cui}`]);
  });
});

describe("helpers", () => {
  test("unique keeps the first occurrence", () => {
    expect(unique([3, 1, 3, 2, 1])).toEqual([3, 1, 2]);
  });

  test("chunk", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 2)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });

  test("mapLimit keeps input order", async () => {
    const out = await mapLimit([30, 10, 20], 3, (ms) => new Promise<number>((r) => setTimeout(() => r(ms), ms)));
    expect(out).toEqual([30, 10, 20]);
  });
});
