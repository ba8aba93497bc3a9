import { call, freshKey } from "./testkit";
import { company, COUNTIES, EXAMPLE_CUI, financials, LATEST_YEAR, missingCuis, sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

/** An active company founded before 2005: it has every year from 2010. */
const [cui] = sampleCuis(400, 300).filter((c) => company(c)!.stare === "ACTIVA" && Number(company(c)!.j_cod.slice(-4)) < 2005);

describe("GET /v4/firme/{cui}", () => {
  test("answers the profile with every documented field", async () => {
    const r = await call(sb, `/v4/firme/${EXAMPLE_CUI}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body).toEqual(company(EXAMPLE_CUI));
    expect(Object.keys(r.body).sort()).toEqual([
      "adresa",
      "caen_principal",
      "cui",
      "denumire",
      "j_cod",
      "judet",
      "localitate",
      "platitor_tva",
      "stare",
    ]);
  });

  test("an unknown CUI or a wrong control digit is 404 not_found; a non-number is 400 invalid_cui", async () => {
    expect((await call(sb, `/v4/firme/${missingCuis(1)[0]}`)).body.error.code).toBe("not_found");
    expect((await call(sb, `/v4/firme/${EXAMPLE_CUI + 1}`)).status).toBe(404);
    const bad = await call(sb, "/v4/firme/12ab");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_cui");
  });

  test("'search' and 'batch' are routes, not CUIs", async () => {
    expect((await call(sb, "/v4/firme/search")).body).toHaveProperty("pagination");
    expect((await call(sb, "/v4/firme/batch")).body.error.code).toBe("bad_request");
  });
});

describe("GET /v4/firme/{cui}/financiar", () => {
  const years = financials(cui);

  test("with an: the one-year object", async () => {
    const r = await call(sb, `/v4/firme/${cui}/financiar?an=${LATEST_YEAR - 2}`);
    expect(r.body).toEqual(years.find((f) => f.an === LATEST_YEAR - 2));
  });

  test("with neither: the latest year's object", async () => {
    const r = await call(sb, `/v4/firme/${cui}/financiar`);
    expect(r.body).toEqual(years[0]);
    expect(r.body.an).toBe(LATEST_YEAR);
  });

  test("with a range: {cui, data} latest year first, every field in each entry", async () => {
    const r = await call(sb, `/v4/firme/${cui}/financiar?an_de_la=${LATEST_YEAR - 3}&an_pana=${LATEST_YEAR}`);
    expect(r.body).toEqual({ cui, data: years.slice(0, 4) });
    expect(r.body.data.map((f: { an: number }) => f.an)).toEqual([LATEST_YEAR, LATEST_YEAR - 1, LATEST_YEAR - 2, LATEST_YEAR - 3]);
  });

  test("a range beyond the data answers the years there are", async () => {
    const r = await call(sb, `/v4/firme/${cui}/financiar?an_de_la=2000&an_pana=2011`);
    expect(r.body.data.map((f: { an: number }) => f.an)).toEqual([2011, 2010]);
  });

  test("an and a range together, half a range, a reversed range or a word are 400", async () => {
    for (const q of [`an=2020&an_de_la=2019&an_pana=2020`, "an_de_la=2019", "an_de_la=2021&an_pana=2019", "an=doua"]) {
      const r = await call(sb, `/v4/firme/${cui}/financiar?${q}`);
      expect([q, r.status, r.body.error.code]).toEqual([q, 400, "bad_request"]);
    }
  });

  test("a year without data is 404; an unknown company is 404", async () => {
    expect((await call(sb, `/v4/firme/${cui}/financiar?an=${LATEST_YEAR + 1}`)).status).toBe(404);
    expect((await call(sb, `/v4/firme/${missingCuis(1)[0]}/financiar`)).status).toBe(404);
  });
});

describe("plan history (403 plan_history, the latest year counting as year 1)", () => {
  const year = (plan: string, an: number) => call(sb, `/v4/firme/${cui}/financiar?an=${an}`, freshKey(plan as "free"));

  test.each([
    ["free", 1],
    ["pro", 5],
    ["business", 10],
  ])("%s reaches %i year(s) back and no further", async (plan, n) => {
    expect((await year(plan, LATEST_YEAR - n + 1)).status).toBe(200);
    const refused = await year(plan, LATEST_YEAR - n);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("plan_history");
  });

  test("enterprise reaches every year", async () => {
    expect((await year("enterprise", 2010)).status).toBe(200);
  });

  test("a range starting too far back is refused as a whole", async () => {
    const r = await call(sb, `/v4/firme/${cui}/financiar?an_de_la=${LATEST_YEAR - 5}&an_pana=${LATEST_YEAR}`, freshKey("pro"));
    expect(r.body.error.code).toBe("plan_history");
  });
});

describe("GET /v4/nomenclatoare/judete", () => {
  test("lists the 41 counties and Bucharest with codes, ONRC numbers and active-company counts", async () => {
    const r = await call(sb, "/v4/nomenclatoare/judete");
    expect(r.body.data).toHaveLength(42);
    expect(r.body.data.map((c: { cod: string }) => c.cod)).toEqual(COUNTIES.map((c) => c.code));
    expect(r.body.data.find((c: { cod: string }) => c.cod === "CJ")).toMatchObject({
      denumire: "Cluj",
      cod_onrc: "12",
    });
    const total = r.body.data.reduce((s: number, c: { firme_active: number }) => s + c.firme_active, 0);
    expect(total).toBeGreaterThan(1_000_000);
    expect(total).toBeLessThan(1_420_000);
  });

  test("the counts agree with the companies the dataset serves", async () => {
    const r = await call(sb, "/v4/nomenclatoare/judete");
    const counts: Record<string, number> = Object.fromEntries(
      r.body.data.map((c: { denumire: string; firme_active: number }) => [c.denumire, c.firme_active]),
    );
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const sample = sampleCuis(20_000, 200_000)
      .map((c) => company(c)!)
      .filter((c) => c.stare === "ACTIVA");
    for (const name of ["București", "Cluj", "Timiș", "Iași"]) {
      const expected = sample.filter((c) => c.judet === name).length / sample.length;
      expect(Math.abs(counts[name] / total - expected)).toBeLessThan(0.01);
    }
  });
});

describe("determinism", () => {
  test("two sandboxes answer the same CUIs with the same data", async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const cuis = sampleCuis(50, 1234).join(",");
      for (const path of [
        `/v4/firme/batch?cui=${cuis}&include=all`,
        `/v4/firme/batch/financiar?cui=${sampleCuis(20).join(",")}`,
        "/v4/firme/search?q=trans&limit=50",
      ]) {
        expect((await call(other, path)).text).toBe((await call(sb, path)).text);
      }
    } finally {
      await other.close();
    }
  });
});
