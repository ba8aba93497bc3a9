/**
 * End to end against the sandbox (sandbox/server.ts) over loopback HTTP: every client method,
 * every error status, pagination, chunking counted by the client and by the sandbox, quota headers,
 * the sandbox's envelope variants, batch tampering and injected faults. Each test uses its own key
 * (demo-<plan>-<suffix>) so that its counters are its own.
 */
import {
  BadRequestError,
  CreditsExhaustedError,
  FirmaClient,
  InvalidKeyError,
  MissingKeyError,
  NetworkError,
  NotFoundError,
  PlanHistoryError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  type CallRecord,
  type ClientOptions,
  type Page,
} from "../../src/api";
import * as data from "../../sandbox/dataset";
import { startSandbox, type Sandbox, type SandboxConfig } from "../../sandbox/server";
import { caught, expectNoKey } from "./fixture";

let sb: Sandbox;
let initial: SandboxConfig;
let latest: number;
let calls: CallRecord[];
let n = 0;
let key: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  initial = structuredClone(sb.config);
  latest = sb.config.latestYear;
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.config = structuredClone(initial);
  calls = [];
  key = `demo-enterprise-api${++n}`;
});

function client(extra: Partial<ClientOptions> = {}) {
  return new FirmaClient({ baseUrl: sb.url, apiKey: key, retryDelayMs: 1, onCall: (c) => calls.push(c), ...extra });
}
const logOf = (k = key) => sb.requests.filter((r) => r.key === k);

/** The first page of a pagination (the iterator is then dropped: no further page is fetched). */
const firstPage = async <T>(it: AsyncIterableIterator<Page<T>>): Promise<Page<T>> => (await it.next()).value as Page<T>;

/** Sample CUIs that have a record for the latest year (most do). */
const withLatest = (count: number) =>
  data
    .sampleCuis(count * 3)
    .filter((c) => data.financialYear(c, latest, latest))
    .slice(0, count);

describe("every method", () => {
  test("getCompany", async () => {
    const expected = data.company(data.EXAMPLE_CUI)!;
    const p = await client().getCompany(data.EXAMPLE_CUI);
    expect(p).toEqual({
      cui: expected.cui,
      denumire: expected.denumire,
      j_cod: expected.j_cod,
      stare: expected.stare,
      judet: expected.judet,
      localitate: expected.localitate,
      adresa: expected.adresa,
      caen_principal: expected.caen_principal,
      platitor_tva: expected.platitor_tva,
    });
  });

  test("getFinancialYear, with and without an", async () => {
    const [cui] = withLatest(1);
    const c = client();
    await expect(c.getFinancialYear(cui, latest)).resolves.toEqual(data.financialYear(cui, latest, latest));
    await expect(c.getFinancialYear(cui)).resolves.toMatchObject({ cui, an: latest });
    expect(logOf().map((r) => r.query)).toEqual([`an=${latest}`, ""]);
  });

  test("getFinancialRange: latest first, only years with data", async () => {
    const [cui] = withLatest(1);
    const r = await client().getFinancialRange(cui, latest - 4, latest);
    expect(r.cui).toBe(cui);
    expect(r.data).toEqual(data.financials(cui, latest).filter((y) => y.an >= latest - 4));
    expect(r.data[0].an).toBe(latest);
  });

  test("batchIdentification: known CUIs in the order asked, unknown ones absent, include honoured", async () => {
    const known = data.sampleCuis(8);
    const missing = data.missingCuis(3);
    const asked = [missing[0], ...known.slice().reverse(), ...missing.slice(1)];
    const items = await client().batchIdentification(asked, { include: ["judet", "platitor_tva"] });
    expect(items.map((i) => i.cui)).toEqual(known.slice().reverse());
    for (const item of items) {
      const c = data.company(item.cui)!;
      expect(item).toEqual({ cui: c.cui, denumire: c.denumire, stare: c.stare, judet: c.judet, platitor_tva: c.platitor_tva });
    }
    expect(logOf()).toHaveLength(1);
    expect(logOf()[0]).toMatchObject({ cuiCount: 11, credited: true });
  });

  test("batchIdentification when the service ignores include (O10): items lack the fields", async () => {
    sb.config.includeMode = "ignored";
    const items = await client().batchIdentification(data.sampleCuis(3), { include: ["all"] });
    expect(items).toHaveLength(3);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(["cui", "denumire", "stare"]);
  });

  test("batchFinancial: one year, a range, the latest; minimal shape lacks the extra fields (O17)", async () => {
    const cuis = withLatest(6);
    const c = client();
    const one = await c.batchFinancial(cuis, { an: latest });
    expect(one).toEqual(cuis.map((cui) => data.financialYear(cui, latest, latest)));
    const range = await c.batchFinancial(cuis, { anDeLa: latest - 2, anPana: latest });
    expect(range).toEqual(cuis.flatMap((cui) => data.financials(cui, latest).filter((y) => y.an >= latest - 2)));
    expect(await c.batchFinancial(cuis)).toEqual(one);
    sb.config.financialShape = "minimal";
    const minimal = await c.batchFinancial(cuis, { an: latest });
    expect(minimal).toEqual(one.map(({ cui, an, cifra_afaceri, profit_net }) => ({ cui, an, cifra_afaceri, profit_net })));
    expect("active_totale" in minimal[0]).toBe(false);
  });

  test("search by CUI and by name", async () => {
    const c = client();
    const company = data.company(data.EXAMPLE_CUI)!;
    const byCui = [];
    for await (const item of c.search({ q: `RO${data.EXAMPLE_CUI}` })) byCui.push(item);
    expect(byCui).toEqual([
      {
        cui: company.cui,
        denumire: company.denumire,
        judet: company.judet,
        localitate: company.localitate,
        stare: company.stare,
        caen_principal: company.caen_principal,
        j_cod: company.j_cod,
      },
    ]);
    const page = await firstPage(c.searchPages({ q: company.denumire.split(" ")[0], limit: 5 }));
    expect(page.items.length).toBeGreaterThan(0);
    expect(page).toMatchObject({ page: 1, limit: 5 });
  });

  test("listRankings, filtered", async () => {
    const list = await client().listRankings({ an: latest, scop: "national" });
    expect(list.length).toBeGreaterThan(0);
    for (const r of list) expect(r).toMatchObject({ an: latest, scop: "national", slug: expect.stringMatching(/^top-/) });
    expect(logOf()[0].query).toBe(`an=${latest}&scop=national`);
  });

  test("counties: 41 counties and Bucharest", async () => {
    const counties = await client().counties();
    expect(counties).toHaveLength(42);
    expect(counties.find((c) => c.cod === "CJ")).toMatchObject({ denumire: "Cluj", firme_active: expect.any(Number) });
  });
});

describe("pagination across pages (O9)", () => {
  test("search: every item once, exactly the pages needed", async () => {
    const c = client();
    const first = await firstPage(c.searchPages({ judet: "CJ", caen: "62", limit: 1 }));
    const total = first.total!;
    expect(total).toBeGreaterThan(3);
    const limit = Math.min(100, Math.ceil(total / 4));
    calls = [];
    const seen: number[] = [];
    for await (const item of c.search({ judet: "CJ", caen: "62", limit })) seen.push(item.cui);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(calls).toHaveLength(Math.ceil(total / limit));
    expect(calls.map((x) => x.query)).toEqual(calls.map((_, i) => `judet=CJ&caen=62&limit=${limit}&page=${i + 1}`));
  });

  test("full ranking: positions 1…total, exactly the pages needed", async () => {
    const c = client();
    const [summary] = await c.listRankings({ an: latest, scop: "judet", categorie: "angajati" });
    const first = await firstPage(c.rankingPages(summary.slug, { limit: 1 }));
    const total = first.total!;
    const limit = Math.min(100, Math.ceil(total / 3));
    calls = [];
    const positions: number[] = [];
    for await (const e of c.ranking(summary.slug, { limit })) positions.push(e.pozitie);
    expect(positions).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(calls).toHaveLength(Math.ceil(total / limit));
  });

  test("breaking out early fetches no more pages", async () => {
    const c = client();
    const [summary] = await c.listRankings({ an: latest, scop: "national" });
    let count = 0;
    for await (const _ of c.ranking(summary.slug, { limit: 10 })) if (++count === 15) break;
    expect(logOf().filter((r) => r.endpoint === "ranking")).toHaveLength(2);
  });
});

describe("full batches, counted by the client and by the sandbox", () => {
  test("100 CUIs (and their repeats) → one identification call, one credit", async () => {
    const cuis = data.sampleCuis(100);
    const items = await client().batchIdentification([...cuis, ...cuis.slice(0, 20)]);
    expect(items).toHaveLength(100);
    expect(calls.map((c) => c.cuiCount)).toEqual([100]);
    expect(logOf().map((r) => [r.endpoint, r.cuiCount])).toEqual([["batch", 100]]);
    expect(sb.usage(key).total).toBe(1);
  });

  test("50 CUIs → one financial call, one credit", async () => {
    const cuis = data.sampleCuis(50);
    const years = await client().batchFinancial(cuis, { an: latest });
    expect(years.length).toBe(cuis.filter((c) => data.financialYear(c, latest, latest)).length);
    expect(calls.map((c) => c.cuiCount)).toEqual([50]);
    expect(logOf().map((r) => r.cuiCount)).toEqual([50]);
    expect(sb.usage(key).total).toBe(1);
  });

  test("the client's credited count matches the sandbox's (O20)", async () => {
    key = `demo-pro-api${++n}`;
    const c = client();
    await c.getCompany(data.EXAMPLE_CUI); // 200
    await caught(c.getCompany(data.missingCuis(1)[0])); // 404: credited
    await caught(c.getFinancialYear(data.EXAMPLE_CUI, latest - 7)); // 403 plan_history: not
    await caught(c.searchPages({ caen: "x" }).next()); // 400: not
    await c.counties(); // 200
    const u = sb.usage(key);
    expect(calls.filter((x) => x.credited)).toHaveLength(u.total);
    expect(calls.filter((x) => !x.credited)).toHaveLength(u.refused);
    expect([u.total, u.refused]).toEqual([3, 2]);
  });
});

describe("errors of the sandbox", () => {
  test("401: no key sent (a fetch that drops the header) → MissingKeyError", async () => {
    const dropKey: typeof fetch = (url, init) => fetch(url, { ...init, headers: { Accept: "application/json" } });
    const e = await caught(client({ fetch: dropKey }).counties());
    expect(e).toBeInstanceOf(MissingKeyError);
    expect(e).toMatchObject({ status: 401, serviceCode: "missing_key" });
    expect(calls[0]).toMatchObject({ status: 401, credited: false, errorKind: "missing_key" });
  });

  test("no key configured → MissingKeyError and the sandbox sees nothing", async () => {
    const before = sb.requests.length;
    await expect(client({ apiKey: () => null }).counties()).rejects.toBeInstanceOf(MissingKeyError);
    expect(sb.requests.length).toBe(before);
  });

  test("403: invalid key → InvalidKeyError, the key nowhere in it", async () => {
    key = "not-a-demo-key-SECRET";
    const e = await caught(client().getCompany(data.EXAMPLE_CUI));
    expect(e).toBeInstanceOf(InvalidKeyError);
    expect(e).toMatchObject({ status: 403, serviceCode: "invalid_key" });
    expectNoKey(e, key);
    expect(logOf()).toHaveLength(1);
  });

  test("403 plan_history → PlanHistoryError, no credit (O15)", async () => {
    key = `demo-free-api${++n}`;
    const e = await caught(client().getFinancialYear(data.EXAMPLE_CUI, latest - 1));
    expect(e).toBeInstanceOf(PlanHistoryError);
    expect(e).toMatchObject({ status: 403, serviceCode: "plan_history", kind: "plan_history" });
    expect(sb.usage(key)).toMatchObject({ total: 0, refused: 1 });
  });

  test("404: unknown CUI, no financial data, unknown slug → NotFoundError (credited)", async () => {
    const c = client();
    await expect(c.getCompany(data.missingCuis(1)[0])).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.getFinancialRange(data.missingCuis(1)[0], latest - 1, latest)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.rankingPages("top-nimic").next()).rejects.toMatchObject({ kind: "not_found", status: 404, serviceCode: "not_found" });
    expect(calls.every((x) => x.credited && x.status === 404)).toBe(true);
    expect(sb.usage(key).total).toBe(3);
  });

  test("400: malformed parameter → BadRequestError with the service's message", async () => {
    const e = await caught(client().searchPages({ caen: "abc" }).next());
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e).toMatchObject({ status: 400, serviceCode: "bad_request" });
    expect(e.serviceMessage).toMatch(/caen/);
  });

  test("429: the free plan's 10 calls a day are spent → CreditsExhaustedError, not retried", async () => {
    key = `demo-free-api${++n}`;
    const c = client({ retries: 5 });
    for (let i = 0; i < 10; i++) await c.counties();
    expect(c.lastQuota).toEqual({ plan: "free", remaining: 0, limit: null });
    const e = await caught(c.counties());
    expect(e).toBeInstanceOf(CreditsExhaustedError);
    expect(e).toMatchObject({ status: 429, serviceCode: "limit_exceeded" });
    expect(e.message).toMatch(/^The plan's credits are spent/);
    expect(logOf()).toHaveLength(11);
    expect(sb.usage(key)).toMatchObject({ total: 10, refused: 1 });
  });
});

describe("quota headers (O23)", () => {
  test("X-Plan and X-Credits-Remaining reach lastQuota and the call records", async () => {
    key = `demo-pro-api${++n}`;
    const c = client();
    await c.counties();
    await c.counties();
    expect(c.lastQuota).toEqual({ plan: "pro", remaining: 3998, limit: null });
    expect(calls.map((x) => x.quota)).toEqual([
      { plan: "pro", remaining: 3999, limit: null },
      { plan: "pro", remaining: 3998, limit: null },
    ]);
  });

  test("an unlimited plan says its plan only", async () => {
    const c = client();
    await c.counties();
    expect(c.lastQuota).toEqual({ plan: "enterprise", remaining: null, limit: null });
  });
});

describe("the sandbox's envelope variants read the same", () => {
  async function everything(c: FirmaClient) {
    const [rank] = await c.listRankings({ an: latest, scop: "national", categorie: "profit-net" });
    const cuis = withLatest(5);
    return {
      company: await c.getCompany(data.EXAMPLE_CUI),
      search: (await firstPage(c.searchPages({ judet: "CJ", limit: 5 }))).items,
      rankings: await c.listRankings({ an: latest }),
      ranking: (await firstPage(c.rankingPages(rank.slug, { limit: 5 }))).items,
      counties: await c.counties(),
      batch: await c.batchIdentification(cuis, { include: ["all"] }),
      batchFinancial: await c.batchFinancial(cuis, { an: latest }),
      notFound: (await caught(c.getCompany(data.missingCuis(1)[0]))).constructor.name,
      badRequest: (await caught(c.searchPages({ caen: "?" }).next())).constructor.name,
    };
  }

  test.each(["alt", "ro", "bare"] as const)("%s equals standard", async (envelope) => {
    const c = client();
    const standard = await everything(c);
    sb.config.envelope = envelope;
    const other = await everything(c);
    // The variants round the ranking's variation differently ("+12,5%" in ro).
    const round = (x: typeof standard) => ({
      ...x,
      ranking: x.ranking.map((e) => ({ ...e, variatie: e.variatie === null ? null : Math.round(e.variatie) })),
    });
    expect(round(other)).toEqual(round(standard));
    expect(standard.notFound).toBe("NotFoundError");
    expect(standard.badRequest).toBe("BadRequestError");
  });

  test.each(["standard", "alt", "ro", "bare"] as const)("%s: pagination to the end", async (envelope) => {
    sb.config.envelope = envelope;
    const c = client();
    const [summary] = await c.listRankings({ an: latest, scop: "judet", categorie: "active" });
    const positions: number[] = [];
    for await (const e of c.ranking(summary.slug, { limit: 100 })) positions.push(e.pozitie);
    expect(positions.length).toBeGreaterThan(0);
    expect(positions).toEqual(positions.map((_, i) => i + 1));
  });
});

describe("batch tampering and faults", () => {
  test("shuffled, duplicated and dropped batch items are matched by cui (O13)", async () => {
    sb.config.faults = { ...sb.config.faults, batchShuffle: true, batchDuplicate: 0.5, batchDrop: 0.2, seed: 7 };
    const cuis = data.sampleCuis(60);
    const items = await client().batchIdentification(cuis);
    expect(items.length).toBeLessThan(60);
    expect(items.length).toBeGreaterThan(20);
    expect(new Set(items.map((i) => i.cui)).size).toBe(items.length);
    expect(items.map((i) => i.cui)).toEqual(cuis.filter((c) => items.some((i) => i.cui === c)));
    for (const i of items) expect(i.denumire).toBe(data.company(i.cui)!.denumire);
  });

  test("injected 5xx: retried, then ServerError; nothing credited", async () => {
    sb.config.faults = { ...sb.config.faults, errorRate: 1 };
    const e = await caught(client({ retries: 2 }).counties());
    expect(e).toBeInstanceOf(ServerError);
    expect(logOf()).toHaveLength(3);
    expect(sb.usage(key)).toMatchObject({ total: 0, refused: 3 });
    expect(calls.map((x) => x.credited)).toEqual([false, false, false]);
  });

  test("injected 5xx at a rate: the retries get through", async () => {
    sb.config.faults = { ...sb.config.faults, errorRate: 0.3, seed: 3 };
    const c = client({ retries: 4 });
    const cuis = data.sampleCuis(500);
    let items = 0;
    for (let i = 0; i < 500; i += 100) items += (await c.batchIdentification(cuis.slice(i, i + 100))).length;
    expect(items).toBe(500);
    expect(sb.usage(key).total).toBe(5);
  });

  test("dropped connections: retried, then NetworkError", async () => {
    sb.config.faults = { ...sb.config.faults, resetRate: 1 };
    const e = await caught(client({ retries: 1 }).counties());
    expect(e).toBeInstanceOf(NetworkError);
    expect(logOf()).toHaveLength(2);
  });

  test("broken JSON: retried once, then ResponseShapeError", async () => {
    sb.config.faults = { ...sb.config.faults, malformedRate: 1 };
    const e = await caught(client({ retries: 1 }).getCompany(data.EXAMPLE_CUI));
    expect(e).toBeInstanceOf(ResponseShapeError);
    expect(logOf()).toHaveLength(2);
  });

  test("latency beyond the timeout: one retry, then TimeoutError", async () => {
    sb.config.latencyMs = 400;
    const e = await caught(client({ timeoutMs: 100, retries: 1 }).counties());
    expect(e).toBeInstanceOf(TimeoutError);
    expect(calls).toHaveLength(2);
  });

  test("a slowly dripped body within the timeout is fine", async () => {
    sb.config.faults = { ...sb.config.faults, dripMs: 100 };
    await expect(client({ timeoutMs: 2000 }).counties()).resolves.toHaveLength(42);
  });
});
