import { ascending, call, cuisOf, freshKey } from "./testkit";
import { company, financials, LATEST_YEAR, missingCuis, sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterEach(() => {
  sb.config.includeMode = "fields";
  sb.config.financialShape = "full";
});
afterAll(() => sb.close());

describe("GET /v4/firme/batch", () => {
  test("answers a bare array of cui, denumire, stare sorted by ascending CUI, not by the order asked", async () => {
    const cuis = sampleCuis(30, 900);
    const asked = [...cuis].reverse();
    const r = await call(sb, `/v4/firme/batch?cui=${asked.join(",")}`);
    expect(Array.isArray(r.body)).toBe(true);
    expect(cuisOf(r.body)).toEqual(ascending(cuis));
    expect(r.body[0]).toEqual({
      cui: r.body[0].cui,
      denumire: company(r.body[0].cui)!.denumire,
      stare: company(r.body[0].cui)!.stare,
    });
  });

  test("unknown CUIs are left out and a CUI asked twice is answered once", async () => {
    const [a, b] = sampleCuis(2, 50);
    const r = await call(sb, `/v4/firme/batch?cui=${b},${missingCuis(1)[0]},${a},${b},RO${a}`);
    expect(cuisOf(r.body)).toEqual(ascending([a, b]));
  });

  test("100 CUIs are served in one call; 101 are refused with 400 batch_too_large at no cost", async () => {
    const key = freshKey("pro");
    expect((await call(sb, `/v4/firme/batch?cui=${sampleCuis(100).join(",")}`, key)).body).toHaveLength(100);
    const r = await call(sb, `/v4/firme/batch?cui=${sampleCuis(101).join(",")}`, key);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("batch_too_large");
    expect(sb.usage(key)).toMatchObject({ total: 1, refused: 1 });
  });

  test("a missing cui list is 400 bad_request; a malformed entry is 400 invalid_cui", async () => {
    expect((await call(sb, "/v4/firme/batch")).body.error.code).toBe("bad_request");
    expect((await call(sb, "/v4/firme/batch?cui=123,abc")).body.error.code).toBe("invalid_cui");
  });

  test("include adds the named profile fields, 'all' adds them all, unknown names are ignored", async () => {
    const [cui] = sampleCuis(1, 77);
    const full = company(cui)!;
    const some = await call(sb, `/v4/firme/batch?cui=${cui}&include=judet,adresa,nothing`);
    expect(some.body).toEqual([{ cui, denumire: full.denumire, stare: full.stare, judet: full.judet, adresa: full.adresa }]);
    const all = await call(sb, `/v4/firme/batch?cui=${cui}&include=all`);
    expect(all.body).toEqual([full]);
  });

  test("with includeMode 'ignored' the items stay bare whatever include asks", async () => {
    sb.config.includeMode = "ignored";
    const [cui] = sampleCuis(1, 78);
    const r = await call(sb, `/v4/firme/batch?cui=${cui}&include=all`);
    expect(Object.keys(r.body[0]).sort()).toEqual(["cui", "denumire", "stare"]);
  });
});

describe("GET /v4/firme/batch/financiar", () => {
  /** Companies with a record every year of the last five. */
  const steady = sampleCuis(300, 4000).filter(
    (c) =>
      financials(c)
        .slice(0, 5)
        .map((f) => f.an)
        .join() === [0, 1, 2, 3, 4].map((i) => LATEST_YEAR - i).join(),
  );

  test("a range answers items by ascending CUI, then year latest first, with every field", async () => {
    const cuis = steady.slice(0, 3);
    const r = await call(
      sb,
      `/v4/firme/batch/financiar?cui=${[...cuis].reverse().join(",")}&an_de_la=${LATEST_YEAR - 2}&an_pana=${LATEST_YEAR}`,
    );
    const want = ascending(cuis).flatMap((c) => financials(c).slice(0, 3));
    expect(r.body).toEqual(want);
  });

  test("without a year: the latest year's items; with an: that year's", async () => {
    const cuis = steady.slice(0, 4);
    const latest = await call(sb, `/v4/firme/batch/financiar?cui=${cuis.join(",")}`);
    expect(latest.body.map((i: { an: number }) => i.an)).toEqual([LATEST_YEAR, LATEST_YEAR, LATEST_YEAR, LATEST_YEAR]);
    const one = await call(sb, `/v4/firme/batch/financiar?cui=${cuis.join(",")}&an=${LATEST_YEAR - 1}`);
    expect(one.body).toEqual(ascending(cuis).map((c) => financials(c)[1]));
  });

  test("years a company did not file are left out", async () => {
    const cui = steady[0];
    const r = await call(sb, `/v4/firme/batch/financiar?cui=${cui},${missingCuis(1)[0]}&an=${LATEST_YEAR + 1}`);
    expect(r.body).toEqual([]);
  });

  test("50 CUIs are served; 51 are refused with 400 batch_too_large", async () => {
    expect((await call(sb, `/v4/firme/batch/financiar?cui=${sampleCuis(50).join(",")}`)).status).toBe(200);
    const r = await call(sb, `/v4/firme/batch/financiar?cui=${sampleCuis(51).join(",")}`);
    expect([r.status, r.body.error.code]).toEqual([400, "batch_too_large"]);
  });

  test("an with a range is 400; a year beyond the plan's history is 403 plan_history", async () => {
    const list = steady.slice(0, 2).join(",");
    expect((await call(sb, `/v4/firme/batch/financiar?cui=${list}&an=2020&an_de_la=2020&an_pana=2021`)).status).toBe(400);
    const r = await call(sb, `/v4/firme/batch/financiar?cui=${list}&an=${LATEST_YEAR - 1}`, freshKey("free"));
    expect([r.status, r.body.error.code]).toEqual([403, "plan_history"]);
  });

  test("with financialShape 'minimal' the items carry only cui, an, cifra_afaceri, profit_net", async () => {
    sb.config.financialShape = "minimal";
    const r = await call(sb, `/v4/firme/batch/financiar?cui=${steady[0]}`);
    expect(Object.keys(r.body[0]).sort()).toEqual(["an", "cifra_afaceri", "cui", "profit_net"]);
  });
});
