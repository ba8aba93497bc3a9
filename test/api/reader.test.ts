/**
 * The tolerant reader (O1–O8, O13, O16–O18), over real HTTP: the fixture serves each variant of an
 * answer and the client must normalize it, or fail with a ResponseShapeError naming endpoint and field.
 */
import { FirmaClient, NotFoundError, ResponseShapeError, type Page } from "../../src/api";
import { caught, KEY, startFixture, type Fixture } from "./fixture";

const CUI = 14399840;
const OTHER = 18547290;
const THIRD = 3546;

let fx: Fixture;
let served: unknown;
let c: FirmaClient;
beforeAll(async () => {
  fx = await startFixture(() => ({ body: served }));
  c = new FirmaClient({ baseUrl: fx.url, apiKey: KEY });
});
afterAll(() => fx.close());

function serve(body: unknown) {
  served = body;
}

async function shapeError(p: Promise<unknown>, endpoint: string, field?: string) {
  const e = await caught(p);
  expect(e).toBeInstanceOf(ResponseShapeError);
  expect(e.kind).toBe("shape");
  expect(e.endpoint).toBe(endpoint);
  expect(e.message).toContain(`(${endpoint})`);
  if (field) {
    expect(e.field).toContain(field);
    expect(e.message).toContain(field);
  }
  expect(e.message).toMatch(/^Unexpected answer from the service/);
  return e;
}

async function firstPage<T>(it: AsyncIterableIterator<Page<T>>): Promise<Page<T>> {
  const r = await it.next();
  await it.return?.();
  return r.value as Page<T>;
}

describe("company profile (O8)", () => {
  const full = {
    cui: CUI,
    denumire: "ALFA SRL",
    j_cod: "J40/1234/2002",
    stare: "ACTIVA",
    judet: "București",
    localitate: "Sector 1",
    adresa: "Str. Exemplu 1",
    caen_principal: "6201",
    platitor_tva: true,
  };

  test("the documented shape", async () => {
    serve(full);
    await expect(c.getCompany(CUI)).resolves.toEqual(full);
  });

  test("numbers as digit strings, fields missing → null, wrapped under data", async () => {
    serve({ data: { cui: String(CUI), denumire: "ALFA SRL", stare: "ACTIVA" } });
    await expect(c.getCompany(CUI)).resolves.toEqual({
      cui: CUI,
      denumire: "ALFA SRL",
      j_cod: null,
      stare: "ACTIVA",
      judet: null,
      localitate: null,
      adresa: null,
      caen_principal: null,
      platitor_tva: null,
    });
  });

  test("English names, a numeric CAEN padded to four digits", async () => {
    serve({
      company: {
        cui: CUI,
        name: "ALFA SRL",
        status: "RADIATA",
        county: "Cluj",
        city: "Cluj-Napoca",
        address: "Str. 1",
        caen: 111,
        registration_number: "J12/1/2000",
        vat_payer: "NU",
      },
    });
    await expect(c.getCompany(CUI)).resolves.toMatchObject({
      denumire: "ALFA SRL",
      stare: "RADIATA",
      judet: "Cluj",
      caen_principal: "0111",
      j_cod: "J12/1/2000",
      platitor_tva: false,
    });
  });

  test.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ["DA", true],
    ["NU", false],
    ["da", true],
    ["nu", false],
    ["true", true],
    ["false", false],
    [" Da ", true],
    [null, null],
  ])("platitor_tva %p → %p", async (value, expected) => {
    serve({ ...full, platitor_tva: value });
    await expect(c.getCompany(CUI)).resolves.toHaveProperty("platitor_tva", expected);
  });

  test.each<[string, unknown, string]>([
    ["cui as a word", { ...full, cui: "abc" }, "cui"],
    ["no cui", { denumire: "X", stare: "ACTIVA" }, "cui"],
    ["no name", { cui: CUI, stare: "ACTIVA" }, "denumire"],
    ["no stare", { cui: CUI, denumire: "X" }, "stare"],
    ["platitor_tva a word", { ...full, platitor_tva: "poate" }, "platitor_tva"],
    ["judet an object", { ...full, judet: { cod: "B" } }, "judet"],
    ["a fractional cui", { ...full, cui: 1439984.5 }, "cui"],
  ])("garbage: %s → ResponseShapeError naming the field", async (_n, body, field) => {
    serve(body);
    await shapeError(c.getCompany(CUI), "company", field);
  });

  test.each([[[full]], ["ALFA"], [42], [null]])("garbage body %p → ResponseShapeError", async (body) => {
    serve(body);
    await shapeError(c.getCompany(CUI), "company");
  });
});

describe("financial: one year or a range (O8, O16, O18)", () => {
  const year = { cui: CUI, an: 2024, cifra_afaceri: 1000, profit_net: -50, active_totale: 700, datorii_totale: 300, numar_angajati: 12 };

  test("one-year object, numeric strings and nulls", async () => {
    serve({ ...year, cifra_afaceri: "1000", profit_net: "-50", numar_angajati: null });
    await expect(c.getFinancialYear(CUI, 2024)).resolves.toEqual({ ...year, numar_angajati: null });
    expect(fx.requests.at(-1)?.search).toBe("an=2024");
  });

  test("without an: the year the service chose (latest)", async () => {
    serve(year);
    await expect(c.getFinancialYear(CUI)).resolves.toMatchObject({ an: 2024 });
    expect(fx.requests.at(-1)?.search).toBe("");
  });

  test("a range object: latest first; fields a range entry lacks stay absent", async () => {
    serve({
      cui: CUI,
      data: [
        { an: 2022, cifra_afaceri: 1, profit_net: 2 },
        { an: 2024, cifra_afaceri: 3, profit_net: null, numar_angajati: 4 },
        { an: 2023, cifra_afaceri: 5, profit_net: 6 },
      ],
    });
    const r = await c.getFinancialRange(CUI, 2022, 2024);
    expect(fx.requests.at(-1)?.search).toBe("an_de_la=2022&an_pana=2024");
    expect(r.cui).toBe(CUI);
    expect(r.data.map((y) => y.an)).toEqual([2024, 2023, 2022]);
    expect(r.data[0]).toEqual({ cui: CUI, an: 2024, cifra_afaceri: 3, profit_net: null, numar_angajati: 4 });
    expect("active_totale" in r.data[1]).toBe(false);
  });

  test.each([
    [
      "a bare array",
      [
        { cui: CUI, an: 2024, cifra_afaceri: 1, profit_net: 1 },
        { cui: CUI, an: 2023, cifra_afaceri: 1, profit_net: 1 },
      ],
    ],
    [
      "years under ani",
      {
        cui: CUI,
        ani: [
          { an: 2024, cifra_afaceri: 1, profit_net: 1 },
          { an: 2023, cifra_afaceri: 1, profit_net: 1 },
        ],
      },
    ],
    [
      "years under data.items",
      {
        data: {
          cui: CUI,
          items: [
            { an: "2023", cifra_afaceri: 1, profit_net: 1 },
            { an: "2024", cifra_afaceri: 1, profit_net: 1 },
          ],
        },
      },
    ],
  ])("range as %s", async (_n, body) => {
    serve(body);
    const r = await c.getFinancialRange(CUI, 2023, 2024);
    expect(r.data.map((y) => [y.cui, y.an])).toEqual([
      [CUI, 2024],
      [CUI, 2023],
    ]);
  });

  test("a one-year answer to a range call is a range of one year", async () => {
    serve(year);
    await expect(c.getFinancialRange(CUI, 2020, 2024)).resolves.toEqual({ cui: CUI, data: [year] });
  });

  test("a range answer to a one-year call gives that year; a year it lacks is not found", async () => {
    serve({
      cui: CUI,
      data: [
        { an: 2024, cifra_afaceri: 1, profit_net: 1 },
        { an: 2023, cifra_afaceri: 2, profit_net: 2 },
      ],
    });
    await expect(c.getFinancialYear(CUI, 2023)).resolves.toMatchObject({ an: 2023, cifra_afaceri: 2 });
    await expect(c.getFinancialYear(CUI)).resolves.toMatchObject({ an: 2024 });
    await expect(c.getFinancialYear(CUI, 2019)).rejects.toBeInstanceOf(NotFoundError);
  });

  test.each<[string, unknown, string]>([
    ["a word for a figure", { ...year, cifra_afaceri: "mult" }, "cifra_afaceri"],
    ["no year", { cui: CUI, cifra_afaceri: 1, profit_net: 1 }, "data"],
    ["a range entry without an", { cui: CUI, data: [{ cifra_afaceri: 1 }] }, "data[0].an"],
    ["a range entry that is a string", { cui: CUI, data: ["2024"] }, "data[0]"],
    ["a boolean figure", { ...year, profit_net: true }, "profit_net"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(c.getFinancialYear(CUI, 2024), "financial", field);
  });
});

describe("search (O1, O2)", () => {
  const items = [
    {
      cui: CUI,
      denumire: "ALFA SRL",
      judet: "Cluj",
      localitate: "Cluj-Napoca",
      stare: "ACTIVA",
      caen_principal: "6201",
      j_cod: "J12/1/2000",
    },
    { cui: OTHER, denumire: "BETA SA" },
  ];
  const expected = [items[0], { cui: OTHER, denumire: "BETA SA" }];

  test.each<[string, unknown, Partial<Page<unknown>>]>([
    ["a bare array", items, { total: null, pages: null }],
    [
      "{ data, pagination } (sandbox)",
      { data: items, pagination: { page: 1, limit: 20, total: 2, pages: 1 } },
      { limit: 20, total: 2, pages: 1 },
    ],
    [
      "{ items, meta } with other names",
      { items, meta: { current_page: 1, per_page: "20", total_count: "2", total_pages: 1 } },
      { limit: 20, total: 2, pages: 1 },
    ],
    ["{ results } with facts at the top level", { results: items, page: 1, limit: 10, total: 2 }, { limit: 10, total: 2, pages: null }],
    [
      "{ rezultate, paginare } in Romanian",
      { rezultate: items, paginare: { pagina: 1, pe_pagina: 5, numar_total: 2, pagini: 1 } },
      { limit: 5, total: 2, pages: 1 },
    ],
    ["{ firme }", { firme: items, total_items: 2, page_size: 50 }, { limit: 50, total: 2 }],
    ["{ companies }", { companies: items, total_pages: 1 }, { pages: 1, limit: 100 }],
  ])("envelope: %s", async (_n, body, facts) => {
    serve(body);
    const page = await firstPage(c.searchPages({ q: "alfa" }));
    expect(page.items).toEqual(expected);
    expect(page).toMatchObject({ page: 1, ...facts });
  });

  test("items under English names; numbers as strings", async () => {
    serve({
      data: [
        { cui: `${CUI}`, name: "ALFA", county: "Cluj", city: "Dej", status: "ACTIVA", caen: "6201", registration_number: "J12/1/2000" },
      ],
    });
    const page = await firstPage(c.searchPages());
    expect(page.items[0]).toEqual({
      cui: CUI,
      denumire: "ALFA",
      judet: "Cluj",
      localitate: "Dej",
      stare: "ACTIVA",
      caen_principal: "6201",
      j_cod: "J12/1/2000",
    });
  });

  test.each<[string, unknown, string]>([
    ["no list at all", { foo: [] }, "data"],
    ["a list of strings", { data: ["ALFA"] }, "data[0]"],
    ["an item without cui", { data: [{ denumire: "ALFA" }] }, "cui"],
    ["an item without a name", { data: [{ cui: CUI }] }, "denumire"],
    ["a total that is a word", { data: items, pagination: { total: "many" } }, "pagination.total"],
    ["a string body", "ALFA", "data"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(firstPage(c.searchPages()), "search", field);
  });
});

describe("ranking list (O3)", () => {
  const list = [
    {
      slug: "top-cifra-afaceri-2025-national",
      titlu: "Top cifra de afaceri 2025",
      an: 2025,
      categorie: "cifra-afaceri",
      scop: "national",
      numar_firme: 100,
    },
    { slug: "top-profit-net-2025-judet-cj", title: "Top profit CJ", year: "2025", category: "profit-net", scope: "judet", judet: "CJ" },
    { slug: "top-angajati-2024-localitate-x" },
  ];
  const expected = [
    { slug: list[0].slug, titlu: "Top cifra de afaceri 2025", an: 2025, categorie: "cifra-afaceri", scop: "national" },
    { slug: list[1].slug, titlu: "Top profit CJ", an: 2025, categorie: "profit-net", scop: "judet", judet: "CJ" },
    { slug: list[2].slug, titlu: list[2].slug, an: null, categorie: null, scop: null },
  ];

  test.each([
    ["{ data } (sandbox)", { data: list }],
    ["a bare array", list],
    ["{ topuri }", { topuri: list }],
    ["{ items, meta }", { items: list, meta: { total: 3 } }],
  ])("envelope: %s", async (_n, body) => {
    serve(body);
    await expect(c.listRankings({ an: 2025, scop: "national", categorie: "cifra-afaceri" })).resolves.toEqual(expected);
    expect(fx.requests.at(-1)?.search).toBe("an=2025&categorie=cifra-afaceri&scop=national");
  });

  test.each<[string, unknown, string]>([
    ["an item without slug", { data: [{ titlu: "x" }] }, "slug"],
    ["no list", { topuri: "none" }, "data"],
    ["a year that is a word", { data: [{ slug: "a", an: "recent" }] }, "an"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(c.listRankings(), "rankings", field);
  });
});

describe("full ranking (O4)", () => {
  const entries = [
    { pozitie: 1, cui: CUI, denumire: "ALFA", valoare: 1000, valoare_anterioara: 800, variatie: 25 },
    { pozitie: 2, cui: OTHER, denumire: "BETA", valoare: 900, valoare_anterioara: null, variatie: null },
  ];
  const expected = [
    { pozitie: 1, cui: CUI, denumire: "ALFA", valoare: 1000, variatie: 25 },
    { pozitie: 2, cui: OTHER, denumire: "BETA", valoare: 900, variatie: null },
  ];

  test.each([
    [
      "{ slug, data, pagination } (sandbox)",
      { slug: "t", titlu: "T", an: 2025, data: entries, pagination: { page: 1, limit: 100, total: 2, pages: 1 } },
    ],
    ["{ pozitii }", { slug: "t", pozitii: entries }],
    ["{ clasament, meta }", { clasament: entries, meta: { total: 2 } }],
    ["{ entries }", { entries }],
    ["a bare array", entries],
  ])("envelope: %s", async (_n, body) => {
    serve(body);
    const page = await firstPage(c.rankingPages("t"));
    expect(page.items).toEqual(expected);
  });

  test("other names for position, value and variation; variation strings such as +12,5%", async () => {
    serve({
      entries: [
        { loc: "1", cui: CUI, nume: "A", value: "1000", change: "+12,5%" },
        { rank: 2, cui: OTHER, name: "B", valoare_curenta: 900.5, variation: "-3.0 %" },
        { position: 3, cui: THIRD, denumire: "C", valoare: null, variatie_anuala: "" },
      ],
    });
    const page = await firstPage(c.rankingPages("t"));
    expect(page.items).toEqual([
      { pozitie: 1, cui: CUI, denumire: "A", valoare: 1000, variatie: 12.5 },
      { pozitie: 2, cui: OTHER, denumire: "B", valoare: 900.5, variatie: -3 },
      { pozitie: 3, cui: THIRD, denumire: "C", valoare: null, variatie: null },
    ]);
  });

  test("without positions, the running index across pages", async () => {
    serve({
      data: [
        { cui: CUI, denumire: "A" },
        { cui: OTHER, denumire: "B" },
      ],
      pagination: { limit: 2 },
    });
    const page = await firstPage(c.rankingPages("t", { page: 3, limit: 2 }));
    expect(page.items.map((e) => e.pozitie)).toEqual([5, 6]);
    expect(fx.requests.at(-1)?.search).toBe("limit=2&page=3");
  });

  test.each<[string, unknown, string]>([
    ["a variation that is a word", { data: [{ ...entries[0], variatie: "mult" }] }, "variatie"],
    ["a value that is an object", { data: [{ ...entries[0], valoare: {} }] }, "valoare"],
    ["an entry without cui", { data: [{ pozitie: 1, denumire: "A" }] }, "cui"],
    ["no list", { slug: "t", titlu: "T" }, "data"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(firstPage(c.rankingPages("t")), "ranking", field);
  });
});

describe("counties (O5)", () => {
  const list = [
    { cod: "CJ", denumire: "Cluj", cod_onrc: 12, firme_active: 45000 },
    { cod: "B", denumire: "București", cod_onrc: 40, firme_active: "210000" },
  ];
  const expected = [
    { cod: "CJ", denumire: "Cluj", firme_active: 45000 },
    { cod: "B", denumire: "București", firme_active: 210000 },
  ];

  test.each([
    ["{ data } (sandbox)", { data: list }],
    ["a bare array", list],
    ["{ judete }", { judete: list }],
    ["{ items }", { items: list }],
  ])("envelope: %s", async (_n, body) => {
    serve(body);
    await expect(c.counties()).resolves.toEqual(expected);
  });

  test("other names; the count is optional", async () => {
    serve({
      judete: [
        { code: "CJ", name: "Cluj", active_companies: 1 },
        { cod_judet: "AB", nume: "Alba", numar_firme_active: 2 },
        { abreviere: "B", judet: "București", count: 3 },
        { cod: "IS", denumire: "Iași", active: "4" },
        { cod: "GL", denumire: "Galați" },
      ],
    });
    await expect(c.counties()).resolves.toEqual([
      { cod: "CJ", denumire: "Cluj", firme_active: 1 },
      { cod: "AB", denumire: "Alba", firme_active: 2 },
      { cod: "B", denumire: "București", firme_active: 3 },
      { cod: "IS", denumire: "Iași", firme_active: 4 },
      { cod: "GL", denumire: "Galați", firme_active: null },
    ]);
  });

  test.each<[string, unknown, string]>([
    ["no code", { data: [{ denumire: "Cluj" }] }, "cod"],
    ["a count that is a word", { data: [{ cod: "CJ", denumire: "Cluj", firme_active: "multe" }] }, "firme_active"],
    ["an object body without a list", { cod: "CJ" }, "data"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(c.counties(), "counties", field);
  });
});

describe("batch identification (O7, O13)", () => {
  const items = [
    { cui: THIRD, denumire: "GAMMA", stare: "ACTIVA" },
    { cui: CUI, denumire: "ALFA", stare: "ACTIVA", judet: "Cluj" },
  ];
  const asked = [CUI, OTHER, THIRD];

  test.each([
    ["a bare array (sandbox)", items],
    ["{ data }", { data: items }],
    ["{ items }", { items }],
    ["{ results }", { results: items }],
    ["{ rezultate }", { rezultate: items }],
    ["{ firme }", { firme: items }],
  ])("envelope: %s; matched by cui, in the order asked; a CUI left out is not found", async (_n, body) => {
    serve(body);
    await expect(c.batchIdentification(asked)).resolves.toEqual([
      { cui: CUI, denumire: "ALFA", stare: "ACTIVA", judet: "Cluj" },
      { cui: THIRD, denumire: "GAMMA", stare: "ACTIVA" },
    ]);
  });

  test("null items and error markers are not found; a duplicate with other data comes after, for the engine to refuse; CUIs not asked are ignored", async () => {
    serve([
      null,
      { cui: OTHER, error: "not_found" },
      { cui: OTHER, eroare: { cod: "x" } },
      { cui: OTHER, found: false },
      { cui: OTHER, gasit: false, denumire: "X", stare: "ACTIVA" },
      { cui: CUI, denumire: "ALFA", stare: "ACTIVA", error: null },
      { cui: CUI, denumire: "ALFA DUPLICAT", stare: "RADIATA" },
      { cui: 27, denumire: "NEÎNTREBAT", stare: "ACTIVA" },
    ]);
    await expect(c.batchIdentification(asked)).resolves.toEqual([
      { cui: CUI, denumire: "ALFA", stare: "ACTIVA" },
      { cui: CUI, denumire: "ALFA DUPLICAT", stare: "RADIATA" },
    ]);
  });

  test("included profile fields come through (normalized); those not sent stay absent", async () => {
    serve([
      {
        cui: CUI,
        denumire: "ALFA",
        stare: "ACTIVA",
        judet: "Cluj",
        adresa: "Str. 1",
        caen_principal: 6201,
        platitor_tva: "DA",
        j_cod: "J12/1/2000",
        localitate: "Dej",
      },
    ]);
    const [item] = await c.batchIdentification([CUI], { include: ["all"] });
    expect(item).toEqual({
      cui: CUI,
      denumire: "ALFA",
      stare: "ACTIVA",
      judet: "Cluj",
      adresa: "Str. 1",
      caen_principal: "6201",
      platitor_tva: true,
      j_cod: "J12/1/2000",
      localitate: "Dej",
    });
    expect(fx.requests.at(-1)?.query.get("include")).toBe("all");
  });

  test.each<[string, unknown, string]>([
    ["an item without cui", [{ denumire: "A", stare: "ACTIVA" }], "cui"],
    ["an item that is a number", [CUI], "data[0]"],
    ["an object without a list", { ok: true }, "data"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(c.batchIdentification(asked), "batch", field);
  });
});

describe("batch financial (O7, O13, O17)", () => {
  test.each([
    [
      "a bare array (sandbox, minimal fields)",
      [
        { cui: THIRD, an: 2024, cifra_afaceri: 3, profit_net: 3 },
        { cui: CUI, an: 2023, cifra_afaceri: 2, profit_net: 2 },
        { cui: CUI, an: 2024, cifra_afaceri: "1", profit_net: null },
      ],
    ],
    [
      "{ data }",
      {
        data: [
          { cui: CUI, an: 2024, cifra_afaceri: 1, profit_net: null },
          { cui: THIRD, an: 2024, cifra_afaceri: 3, profit_net: 3 },
          { cui: CUI, an: 2023, cifra_afaceri: 2, profit_net: 2 },
        ],
      },
    ],
    [
      "one item per company, years under data",
      {
        results: [
          { cui: THIRD, data: [{ an: 2024, cifra_afaceri: 3, profit_net: 3 }] },
          {
            cui: CUI,
            data: [
              { an: 2023, cifra_afaceri: 2, profit_net: 2 },
              { an: 2024, cifra_afaceri: 1, profit_net: null },
            ],
          },
        ],
      },
    ],
  ])("envelope: %s → ordered as asked, latest year first; documented four only", async (_n, body) => {
    serve(body);
    const out = await c.batchFinancial([CUI, OTHER, THIRD], { anDeLa: 2023, anPana: 2024 });
    expect(out).toEqual([
      { cui: CUI, an: 2024, cifra_afaceri: 1, profit_net: null },
      { cui: CUI, an: 2023, cifra_afaceri: 2, profit_net: 2 },
      { cui: THIRD, an: 2024, cifra_afaceri: 3, profit_net: 3 },
    ]);
    expect("active_totale" in out[0]).toBe(false);
    expect(fx.requests.at(-1)?.search).toBe(`cui=${CUI},${OTHER},${THIRD}&an_de_la=2023&an_pana=2024`);
  });

  test("a year not asked for is ignored; extra fields are read when sent", async () => {
    serve([
      { cui: CUI, an: 2024, cifra_afaceri: 1, profit_net: 1, active_totale: "10", datorii_totale: 5, numar_angajati: null },
      { cui: CUI, an: 2023, cifra_afaceri: 2, profit_net: 2 },
      { cui: CUI, an: 2024, cifra_afaceri: 9, profit_net: 9 },
    ]);
    await expect(c.batchFinancial([CUI], { an: 2024 })).resolves.toEqual([
      { cui: CUI, an: 2024, cifra_afaceri: 1, profit_net: 1, active_totale: 10, datorii_totale: 5, numar_angajati: null },
      // the same year again with other figures: passed on, and the engine refuses to choose (dispatch.ts)
      { cui: CUI, an: 2024, cifra_afaceri: 9, profit_net: 9 },
    ]);
  });

  test.each<[string, unknown, string]>([
    ["an item without an", [{ cui: CUI, cifra_afaceri: 1 }], "an"],
    ["a figure that is a word", [{ cui: CUI, an: 2024, cifra_afaceri: "unu" }], "cifra_afaceri"],
    ["a string body", "[]", "data"],
  ])("garbage: %s", async (_n, body, field) => {
    serve(body);
    await shapeError(c.batchFinancial([CUI]), "batchFinancial", field);
  });
});
