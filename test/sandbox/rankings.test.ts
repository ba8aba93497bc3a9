import { call } from "./testkit";
import { company, financialYear, LATEST_YEAR } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

const YEAR = LATEST_YEAR - 1;

describe("GET /v4/topuri", () => {
  test("lists rankings filtered by year, category and scope", async () => {
    const r = await call(sb, `/v4/topuri?an=${YEAR}&categorie=cifra-afaceri&scop=judet`);
    expect(r.body.data).toHaveLength(42);
    expect(r.body.data[0]).toEqual({
      slug: `top-cifra-afaceri-${YEAR}-judet-ab`,
      titlu: `Top cifra de afaceri ${YEAR} – județul Alba`,
      an: YEAR,
      categorie: "cifra-afaceri",
      scop: "judet",
      judet: "Alba",
      numar_firme: expect.any(Number),
    });
  });

  test("without filters: every year from the latest back to 2010, four categories, three scopes", async () => {
    const r = await call(sb, "/v4/topuri");
    const items: Array<{ an: number; categorie: string; scop: string }> = r.body.data;
    expect(new Set(items.map((i) => i.an))).toEqual(new Set(Array.from({ length: LATEST_YEAR - 2009 }, (_, i) => 2010 + i)));
    expect(new Set(items.map((i) => i.categorie))).toEqual(new Set(["cifra-afaceri", "profit-net", "angajati", "active"]));
    expect(new Set(items.map((i) => i.scop))).toEqual(new Set(["national", "judet", "localitate"]));
    expect(items[0].an).toBe(LATEST_YEAR);
  });

  test("an unknown category gives an empty list; a year that is not a number is 400", async () => {
    expect((await call(sb, "/v4/topuri?categorie=bogatie")).body.data).toEqual([]);
    expect((await call(sb, "/v4/topuri?an=azi")).status).toBe(400);
  });
});

describe("GET /v4/topuri/{slug}", () => {
  const slug = `top-profit-net-${YEAR}-judet-cj`;

  test("answers head, entries with positions, values, last year's values and the variation, and paging", async () => {
    const r = await call(sb, `/v4/topuri/${slug}?limit=50`);
    expect(r.body).toMatchObject({
      slug,
      an: YEAR,
      categorie: "profit-net",
      scop: "judet",
      judet: "Cluj",
      titlu: expect.stringContaining("Cluj"),
    });
    expect(r.body.data).toHaveLength(50);
    r.body.data.forEach(
      (
        e: {
          pozitie: number;
          cui: number;
          denumire: string;
          valoare: number;
          valoare_anterioara: number | null;
          variatie: number | null;
        },
        i: number,
      ) => {
        expect(e.pozitie).toBe(i + 1);
        expect(company(e.cui)).toMatchObject({ judet: "Cluj", denumire: e.denumire });
        expect(e.valoare).toBe(financialYear(e.cui, YEAR)!.profit_net);
        const prev = financialYear(e.cui, YEAR - 1)?.profit_net ?? null;
        expect(e.valoare_anterioara).toBe(prev);
        if (prev === null || prev === 0) expect(e.variatie).toBeNull();
        else expect(e.variatie).toBeCloseTo(((e.valoare - prev) / Math.abs(prev)) * 100, 0);
        if (i > 0) expect(e.valoare).toBeLessThanOrEqual(r.body.data[i - 1].valoare);
      },
    );
  });

  test("the total matches the list's numar_firme and pages continue the positions", async () => {
    const list = await call(sb, `/v4/topuri?an=${YEAR}&categorie=profit-net&scop=judet`);
    const entry = list.body.data.find((s: { slug: string }) => s.slug === slug);
    const page2 = await call(sb, `/v4/topuri/${slug}?limit=10&page=2`);
    expect(page2.body.pagination).toEqual({
      page: 2,
      limit: 10,
      total: entry.numar_firme,
      pages: Math.ceil(entry.numar_firme / 10),
    });
    expect(page2.body.data[0].pozitie).toBe(11);
    expect((await call(sb, `/v4/topuri/${slug}`)).body.data).toHaveLength(20);
  });

  test("national and locality rankings work alike", async () => {
    const national = await call(sb, `/v4/topuri/top-angajati-${LATEST_YEAR}-national?limit=5`);
    expect(national.body.pagination.total).toBeGreaterThan(50_000);
    const local = await call(sb, `/v4/topuri/top-active-${LATEST_YEAR}-localitate-cluj-napoca?limit=100`);
    expect(local.body.data.every((e: { cui: number }) => company(e.cui)!.localitate === "Cluj-Napoca")).toBe(true);
  });

  test("an unknown slug, scope area or year is 404 not_found", async () => {
    for (const s of [
      "top-bogatie-2020-national",
      "top-angajati-2020-judet-xx",
      `top-angajati-${LATEST_YEAR + 1}-national`,
      "top-angajati-2009-national",
    ]) {
      const r = await call(sb, `/v4/topuri/${s}`);
      expect([s, r.status, r.body.error.code]).toEqual([s, 404, "not_found"]);
    }
  });
});
