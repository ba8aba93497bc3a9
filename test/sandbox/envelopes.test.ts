import { call } from "./testkit";
import { company, EXAMPLE_CUI, LATEST_YEAR, sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterEach(() => {
  sb.config.envelope = "standard";
});
afterAll(() => sb.close());

const RANKING = `/v4/topuri/top-cifra-afaceri-${LATEST_YEAR}-national?limit=3`;
const [A, B] = sampleCuis(2, 60);

describe("envelope 'standard'", () => {
  test("errors are {error: {code, message}}", async () => {
    const r = await call(sb, "/v4/firme/1");
    expect(r.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
  });
});

describe("envelope 'alt'", () => {
  beforeEach(() => {
    sb.config.envelope = "alt";
  });

  test("search: {items, total, page, per_page} with English item fields", async () => {
    const r = await call(sb, "/v4/firme/search?q=agro&limit=5&page=2");
    expect(r.body).toEqual({
      items: expect.any(Array),
      total: expect.any(Number),
      page: 2,
      per_page: 5,
    });
    expect(Object.keys(r.body.items[0]).sort()).toEqual(["caen", "city", "county", "cui", "name", "registration_number", "status"]);
  });

  test("lists under items; ranking entries with position, value and change under entries, paging under meta", async () => {
    expect((await call(sb, `/v4/topuri?an=${LATEST_YEAR}&scop=national`)).body.items[0]).toHaveProperty("title");
    const ranking = await call(sb, RANKING);
    expect(Object.keys(ranking.body.entries[0]).sort()).toEqual(["change", "cui", "denumire", "position", "valoare_anterioara", "value"]);
    expect(ranking.body.meta).toEqual({
      current_page: 1,
      page_size: 3,
      total_count: expect.any(Number),
      total_pages: expect.any(Number),
    });
    expect((await call(sb, "/v4/nomenclatoare/judete")).body.items[0]).toEqual({
      code: "AB",
      name: "Alba",
      cod_onrc: "01",
      active_companies: expect.any(Number),
    });
    expect((await call(sb, `/v4/firme/batch?cui=${A},${B}`)).body.items).toHaveLength(2);
  });

  test("errors are {message, code}", async () => {
    expect((await call(sb, "/v4/firme/1")).body).toEqual({
      message: expect.any(String),
      code: "not_found",
    });
  });
});

describe("envelope 'ro'", () => {
  beforeEach(() => {
    sb.config.envelope = "ro";
  });

  test("search: {rezultate, paginare: {pagina, pe_pagina, total, pagini}}", async () => {
    const r = await call(sb, "/v4/firme/search?q=agro&limit=5");
    expect(r.body.rezultate).toHaveLength(5);
    expect(r.body.paginare).toEqual({
      pagina: 1,
      pe_pagina: 5,
      total: expect.any(Number),
      pagini: expect.any(Number),
    });
  });

  test("rankings under topuri and clasament, positions as loc, variation as a text such as +12,5%", async () => {
    expect((await call(sb, `/v4/topuri?an=${LATEST_YEAR}&scop=national`)).body.topuri[0]).toHaveProperty("nume");
    const r = await call(sb, RANKING);
    expect(r.body.nume).toContain("Top cifra de afaceri");
    expect(r.body.clasament[0].loc).toBe(1);
    for (const e of r.body.clasament) if (e.variatie_anuala !== null) expect(e.variatie_anuala).toMatch(/^([+-]\d+,\d|0,0)%$/);
  });

  test("counties under judete; VAT flag as DA/NU; errors as {eroare, cod}", async () => {
    expect((await call(sb, "/v4/nomenclatoare/judete")).body.judete[0]).toMatchObject({
      cod_judet: "AB",
      nume: "Alba",
    });
    const profile = await call(sb, `/v4/firme/${EXAMPLE_CUI}`);
    expect(profile.body.platitor_tva).toBe(company(EXAMPLE_CUI)!.platitor_tva ? "DA" : "NU");
    const batch = await call(sb, `/v4/firme/batch?cui=${A}&include=platitor_tva`);
    expect(["DA", "NU"]).toContain(batch.body.rezultate[0].platitor_tva);
    expect((await call(sb, "/v4/firme/1")).body).toEqual({
      eroare: expect.any(String),
      cod: "not_found",
    });
  });
});

describe("envelope 'bare'", () => {
  beforeEach(() => {
    sb.config.envelope = "bare";
  });

  test("every list is a bare array without paging facts", async () => {
    for (const path of [
      "/v4/firme/search?q=agro&limit=5",
      "/v4/topuri?scop=national",
      RANKING,
      "/v4/nomenclatoare/judete",
      `/v4/firme/batch?cui=${A}`,
    ]) {
      expect(Array.isArray((await call(sb, path)).body)).toBe(true);
    }
    expect((await call(sb, "/v4/firme/search?q=agro&limit=5")).body).toHaveLength(5);
  });

  test("errors are plain text", async () => {
    const r = await call(sb, "/v4/firme/1");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(r.text).toMatch(/CUI/);
  });
});

describe("documented shapes", () => {
  test.each(["standard", "alt", "bare"] as const)("the profile and financial objects are the same under '%s'", async (variant) => {
    sb.config.envelope = variant;
    expect((await call(sb, `/v4/firme/${EXAMPLE_CUI}`)).body).toEqual(company(EXAMPLE_CUI));
    const range = await call(sb, `/v4/firme/${EXAMPLE_CUI}/financiar?an_de_la=${LATEST_YEAR - 1}&an_pana=${LATEST_YEAR}`);
    expect(range.body).toMatchObject({ cui: EXAMPLE_CUI, data: expect.any(Array) });
  });
});
