import { call, cuisOf } from "./testkit";
import { company, sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";
import { UNIVERSE_SIZE } from "../../sandbox/universe";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

const search = (query: string) => call(sb, `/v4/firme/search?${query}`);

describe("GET /v4/firme/search", () => {
  test("answers {data, pagination} with 20 items per page by default, page 1 first", async () => {
    const r = await search("");
    expect(r.body.data).toHaveLength(20);
    expect(r.body.pagination).toEqual({
      page: 1,
      limit: 20,
      total: UNIVERSE_SIZE,
      pages: UNIVERSE_SIZE / 20,
    });
    expect(Object.keys(r.body.data[0]).sort()).toEqual(["caen_principal", "cui", "denumire", "j_cod", "judet", "localitate", "stare"]);
  });

  test("name words match the start of name words, in any order, ignoring case and diacritics", async () => {
    const r = await search("q=brasov%20tr&limit=100");
    expect(r.body.pagination.total).toBeGreaterThan(0);
    for (const item of r.body.data) {
      expect(item.denumire).toMatch(/\bBRAȘOV\b/);
      expect(item.denumire).toMatch(/\bTR/);
    }
    const again = await search("q=TR%20Brașov&limit=100");
    expect(cuisOf(again.body.data)).toEqual(cuisOf(r.body.data));
  });

  test("results come in ascending CUI", async () => {
    const r = await search("q=agro&limit=100");
    const cuis = cuisOf(r.body.data);
    expect(cuis).toEqual([...cuis].sort((a, b) => a - b));
  });

  test("pages follow one another without overlap up to the total, and a page past the end is empty", async () => {
    const first = await search("q=com&judet=CJ&limit=7");
    const { total, pages } = first.body.pagination;
    expect(pages).toBe(Math.ceil(total / 7));
    const seen: number[] = [];
    for (let page = 1; page <= pages; page++) seen.push(...cuisOf((await search(`q=com&judet=CJ&limit=7&page=${page}`)).body.data));
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect((await search(`q=com&judet=CJ&limit=7&page=${pages + 1}`)).body.data).toEqual([]);
  });

  test("a limit above 100 is served as 100; limit 0, page 0 or a word are 400", async () => {
    expect((await search("limit=500")).body.pagination.limit).toBe(100);
    for (const q of ["limit=0", "page=0", "page=unu"]) expect((await search(q)).status).toBe(400);
  });

  test("an exact CUI, with or without RO, finds any company, also outside the search universe", async () => {
    const [cui] = sampleCuis(1, 900_000);
    for (const q of [String(cui), `RO${cui}`, `ro ${cui}`]) {
      const r = await search(`q=${encodeURIComponent(q)}`);
      expect(cuisOf(r.body.data)).toEqual([cui]);
    }
    expect((await search(`q=${cui + 1}`)).body.data).toEqual([]);
  });

  test("an exact trade-registry code finds its company", async () => {
    const [cui] = sampleCuis(1, 1_000_000);
    const r = await search(`q=${encodeURIComponent(company(cui)!.j_cod)}`);
    expect(cuisOf(r.body.data)).toEqual([cui]);
  });

  test("filters: county by code or name, CAEN code or its first digits, status", async () => {
    const byCode = await search("judet=is&limit=100");
    const byName = await search("judet=iasi&limit=100");
    expect(byName.body.pagination.total).toBe(byCode.body.pagination.total);
    expect(byCode.body.data.every((i: { judet: string }) => i.judet === "Iași")).toBe(true);
    const caen = await search("caen=62&limit=100");
    expect(caen.body.data.every((i: { caen_principal: string }) => i.caen_principal.startsWith("62"))).toBe(true);
    const radiata = await search("stare=radiata&judet=B&limit=100");
    expect(radiata.body.pagination.total).toBeGreaterThan(0);
    expect(radiata.body.data.every((i: { stare: string; judet: string }) => i.stare === "RADIATA" && i.judet === "București")).toBe(true);
    expect((await search("judet=Atlantida")).body.pagination.total).toBe(0);
    expect((await search("caen=62a")).status).toBe(400);
  });
});
