/** Options: defaults, the base URL rules (O27), and bad options named; argument checks before any call. */
import { DEFAULTS, FirmaClient } from "../../src/api";
import { getValidBaseUrl, isLoopbackHost } from "../../src/api/options";
import { caught, cuis, KEY, startFixture, type Fixture } from "./fixture";

describe("base URL (O27)", () => {
  test.each([
    ["http://127.0.0.1:3001", "http://127.0.0.1:3001"],
    ["http://127.0.0.1:3001/", "http://127.0.0.1:3001"],
    ["http://127.0.0.1:3001/v4", "http://127.0.0.1:3001"],
    ["http://127.0.0.1:3001/v4/", "http://127.0.0.1:3001"],
    ["  https://api.example.ro/V4  ", "https://api.example.ro"],
    ["https://api.example.ro/company-data/v4", "https://api.example.ro/company-data"],
    ["https://api.example.ro/v4x", "https://api.example.ro/v4x"],
    ["http://localhost:3001", "http://localhost:3001"],
    ["http://LOCALHOST", "http://localhost"],
    ["http://127.45.6.7:8080/", "http://127.45.6.7:8080"],
    ["http://[::1]:3001/v4", "http://[::1]:3001"],
  ])("%s → %s", (given, expected) => {
    expect(getValidBaseUrl(given)).toBe(expected);
  });

  test.each([
    "http://example.com",
    "http://10.0.0.1:3001",
    "http://192.168.1.10",
    "http://128.0.0.1",
    "http://localhost.evil.com",
    "ftp://127.0.0.1",
    "file:///etc/passwd",
    "127.0.0.1:3001",
    "not a url",
    "",
    "https://user:pass@api.example.ro",
    "https://api.example.ro/v4?x=1",
  ])("refuses %p at construction, naming baseUrl", (baseUrl) => {
    expect(() => new FirmaClient({ baseUrl, apiKey: KEY })).toThrow(TypeError);
    expect(() => new FirmaClient({ baseUrl, apiKey: KEY })).toThrow(/"baseUrl"/);
  });

  test("refuses plain http off loopback with a message that says why", () => {
    expect(() => new FirmaClient({ baseUrl: "http://api.example.ro" })).toThrow(/https .*loopback/);
  });

  test("one loopback rule, for a URL's host name and for a host as typed (firma serve --host): 127.0.0.0/8, localhost, ::1", () => {
    for (const host of ["127.0.0.1", "127.45.6.7", "localhost", "LocalHost", "::1", "[::1]"])
      expect({ host, ok: isLoopbackHost(host) }).toEqual({ host, ok: true });
    for (const host of ["0.0.0.0", "128.0.0.1", "10.0.0.1", "localhost.evil.com", "::", "[::]", "example.com", ""])
      expect({ host, ok: isLoopbackHost(host) }).toEqual({ host, ok: false });
  });

  test("missing baseUrl is named", () => {
    expect(() => new FirmaClient({} as never)).toThrow(/"baseUrl"/);
  });

  test("every path is appended after the prefix", async () => {
    const fx = await startFixture(() => ({ body: { data: [] } }));
    try {
      for (const suffix of ["", "/", "/v4", "/v4/"]) await new FirmaClient({ baseUrl: fx.url + suffix, apiKey: KEY }).counties();
      expect(fx.requests.map((r) => r.path)).toEqual(Array(4).fill("/v4/nomenclatoare/judete"));
    } finally {
      await fx.close();
    }
  });
});

describe("options", () => {
  test("defaults (each documented with @default)", () => {
    expect(DEFAULTS).toEqual({ timeoutMs: 10_000, totalTimeoutMs: 30_000, retries: 1, retryDelayMs: 200, maxPages: 1000 });
  });

  test.each([
    ["timeoutMs", -1],
    ["timeoutMs", 0],
    ["timeoutMs", "10"],
    ["timeoutMs", Infinity],
    ["totalTimeoutMs", NaN],
    ["retries", 1.5],
    ["retries", -1],
    ["retryDelayMs", -5],
    ["maxPages", 0],
    ["fetch", "fetch"],
    ["onCall", 1],
    ["apiKey", 12345],
    ["timeout", 1000],
  ])("bad option %s = %p → TypeError naming it", (name, value) => {
    const make = () => new FirmaClient({ baseUrl: "http://127.0.0.1:3001", [name]: value } as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(`"${name}"`);
  });

  test("retries 0 and retryDelayMs 0 are allowed", () => {
    expect(() => new FirmaClient({ baseUrl: "http://127.0.0.1:1", retries: 0, retryDelayMs: 0 })).not.toThrow();
  });
});

describe("arguments are checked before any call", () => {
  let fx: Fixture;
  let c: FirmaClient;
  beforeAll(async () => {
    fx = await startFixture(() => ({ body: [] }));
    c = new FirmaClient({ baseUrl: fx.url, apiKey: KEY });
  });
  afterAll(() => fx.close());
  afterEach(() => expect(fx.requests).toHaveLength(0));

  test("per-call options are named", async () => {
    await expect(c.getCompany(14399840, { timeoutMs: 0 })).rejects.toThrow(/"timeoutMs"/);
    await expect(c.getCompany(14399840, { retries: -1 })).rejects.toThrow(/"retries"/);
    await expect(c.getCompany(14399840, { signal: "stop" as never })).rejects.toThrow(/"signal"/);
  });

  test.each([14399841, 0, -14399840, 1.5, NaN, 12345678901, "14399840"])("CUI %p → TypeError", async (cui) => {
    await expect(c.getCompany(cui as number)).rejects.toThrow(TypeError);
    await expect(c.batchIdentification([cui as number])).rejects.toThrow(TypeError);
  });

  test("batch identification: more than 100 distinct CUIs → RangeError", async () => {
    await expect(c.batchIdentification(cuis(101))).rejects.toThrow(RangeError);
    await expect(c.batchIdentification(cuis(101))).rejects.toThrow(/^Too many CUIs in one batch: 101 \(at most 100\)$/);
    await expect(c.batchIdentification([...cuis(100), ...cuis(100)])).resolves.toEqual([]); // 100 distinct: fine
    fx.requests.length = 0;
  });

  test("batch financial: more than 50 distinct CUIs → RangeError", async () => {
    await expect(c.batchFinancial(cuis(51))).rejects.toThrow(RangeError);
    await expect(c.batchFinancial(cuis(51), { an: 2024 })).rejects.toThrow(/at most 50/);
  });

  test("years: a reversed range, both an and a range, a non-year", async () => {
    await expect(c.getFinancialRange(14399840, 2024, 2020)).rejects.toThrow(RangeError);
    await expect(c.batchFinancial([14399840], { an: 2024, anDeLa: 2020, anPana: 2024 } as never)).rejects.toThrow(TypeError);
    await expect(c.batchFinancial([14399840], { anDeLa: 2020 } as never)).rejects.toThrow(TypeError);
    await expect(c.getFinancialYear(14399840, 24)).rejects.toThrow(TypeError);
  });

  test("pagination: limit, page and slug are checked at the first next()", async () => {
    await expect(c.searchPages({ limit: 0 }).next()).rejects.toThrow(/limit/);
    await expect(c.search({ page: -1 }).next()).rejects.toThrow(/page/);
    await expect(c.search({ q: 42 as never }).next()).rejects.toThrow(/q/);
    await expect(c.rankingPages("").next()).rejects.toThrow(/slug/);
    await expect(c.ranking("x", { limit: 1.5 }).next()).rejects.toThrow(/limit/);
  });

  test("include must be field names", async () => {
    await expect(c.batchIdentification([14399840], { include: ["judet&x=1"] })).rejects.toThrow(TypeError);
  });

  test("an empty batch resolves to [] without a call", async () => {
    await expect(c.batchIdentification([])).resolves.toEqual([]);
    await expect(c.batchFinancial([])).resolves.toEqual([]);
  });

  test("no method throws synchronously: a bad argument is a rejection", async () => {
    let p: Promise<unknown> | undefined;
    expect(() => (p = c.getCompany(1))).not.toThrow();
    expect(await caught(p!)).toBeInstanceOf(TypeError);
  });
});
