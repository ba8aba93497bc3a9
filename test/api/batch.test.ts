/** The batch calls over the fixture: dedupe, the size limits checked before any call, typed failures, year queries. */
import { FirmaClient, ServerError, type CallRecord, type ClientOptions } from "../../src/api";
import { chunk, unique } from "../../src/api/chunk";
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

describe("batchIdentification", () => {
  test("duplicates are asked once, in one call of the distinct CUIs", async () => {
    const list = cuis(60);
    const items = await client().batchIdentification([...list, ...list.slice(0, 30), list[0]]);
    expect(items).toHaveLength(60);
    expect(fx.requests.map((r) => asked(r).length)).toEqual([60]);
    expect(calls.map((c) => [c.endpoint, c.cuiCount])).toEqual([["batch", 60]]);
  });

  test("include is passed on", async () => {
    await client().batchIdentification(cuis(3), { include: ["judet", "localitate"] });
    expect(fx.requests.map((r) => r.query.get("include"))).toEqual(["judet,localitate"]);
  });

  test("unknown CUIs are simply absent", async () => {
    const list = cuis(5);
    fx.route = (req) => ({
      body: asked(req)
        .filter((c) => c !== list[2])
        .map((cui) => ({ cui, denumire: "X", stare: "ACTIVA" })),
    });
    const items = await client().batchIdentification(list);
    expect(items.map((i) => i.cui)).toEqual([list[0], list[1], list[3], list[4]]);
  });

  test("more than 100 distinct CUIs are refused before any call", async () => {
    await expect(client().batchIdentification(cuis(101))).rejects.toThrow(RangeError);
    expect(fx.requests).toHaveLength(0);
  });

  test("a server error is a typed ServerError", async () => {
    fx.route = () => ({ status: 500 });
    await expect(client({ retries: 0 }).batchIdentification(cuis(2))).rejects.toBeInstanceOf(ServerError);
  });
});

describe("batchFinancial", () => {
  test("items in the order asked; more than 50 distinct CUIs refused before any call", async () => {
    const list = cuis(50);
    const out = await client().batchFinancial(list, { an: 2024 });
    expect(out.map((y) => y.cui)).toEqual(list);
    expect(fx.requests.every((r) => r.query.get("an") === "2024")).toBe(true);
    await expect(client().batchFinancial(cuis(51))).rejects.toThrow(RangeError);
    expect(fx.requests).toHaveLength(1);
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
});
