/**
 * The BUILT functions bundle and the GENERATED functions.json, loaded into a stand-in for Excel's
 * custom-functions runtime, against the sandbox over loopback HTTP: every function in the metadata
 * is wired and returns the sandbox's data. It loads the functions bundle of the present sources (test/support/builds.js).
 */
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv-draft-04";
import { DIST, ExcelStandIn, StandInError, StandInStorage } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { latestCompleteYear } from "../../src/engine/years";

let sb: Sandbox;
let n = 0;
const LATEST = latestCompleteYear();

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

function excel(plan?: string) {
  const key = `demo-enterprise-fn${++n}`;
  const storage = new StandInStorage();
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", sb.url);
  storage.data.set("firma.batchWindowMs", "5");
  if (plan) storage.data.set("firma.plan", plan);
  return { xl: new ExcelStandIn(storage), key, calls: () => sb.usage(key).total };
}

/** A company with every figure for the latest year. */
const CUI = data.sampleCuis(100, 60000).find((c) => data.financials(c)[0]?.an === LATEST && data.financials(c).length >= 4)!;
const company = data.company(CUI)!;
const fin = data.financials(CUI).find((f) => f.an === LATEST)!;

describe("the generated metadata", () => {
  // The linked edition's: every function, the linked companies' load service too (manifest.xml's lacks only it).
  const meta = JSON.parse(fs.readFileSync(path.join(DIST, "functions-legate.json"), "utf8"));

  test.each(["functions.json", "functions-en.json", "functions-legate.json", "functions-legate-en.json"])(
    "%s validates against the custom-functions schema",
    (file) => {
      const schemaFile = path.resolve(__dirname, "../../../shared/schemas/custom-functions/custom-functions.schema.json");
      if (!fs.existsSync(schemaFile)) {
        console.warn(`skipped: ${schemaFile} is absent (../shared is not beside the repository)`);
        return;
      }
      const ajv = new Ajv({ strict: false, allErrors: true });
      const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, "utf8")));
      const ok = validate(JSON.parse(fs.readFileSync(path.join(DIST, file), "utf8")));
      expect(ok ? [] : validate.errors).toEqual([]);
    },
  );

  test("lists every function with descriptions, parameter names and types, optional flags and result dimensionality", () => {
    const ids = meta.functions.map((f: { id: string }) => f.id).sort();
    expect(ids).toEqual(
      [
        "ACTIVE",
        "ACTUALIZAT",
        "ADRESA",
        "ANGAJATI",
        "CA",
        "CAEN",
        "CAMP",
        "CAUTA",
        "CIFRA_AFACERI",
        "CUI",
        "DATORII",
        "DENUMIRE",
        "FINANCIAR",
        "FISA",
        "INCARCA_FIRME",
        "ISTORIC",
        "JUDET",
        "JUDETE",
        "LOCALITATE",
        "NRREG",
        "PROFIL",
        "PROFIT",
        "STARE",
        "TOP",
        "TOPURI",
        "TVA",
      ].sort(),
    );
    for (const f of meta.functions) {
      expect(f.description).not.toMatch(/ \/ /); // Romanian only (English: functions-en.json, test/addin/functions-metadata.test.ts)
      // Each returns a matrix, except the linked companies' load service (Excel calls it, not a cell).
      if (!f.options?.linkedEntityLoadService) expect(f.result.dimensionality).toBe("matrix");
      for (const p of f.parameters) {
        expect(p.name).toMatch(/^[a-z_]+$/);
        expect(p.description?.length).toBeGreaterThan(3);
        expect(p.type).toBe("any");
      }
    }
    const ca = meta.functions.find((f: { id: string }) => f.id === "CA");
    expect(
      ca.parameters.map((p: { name: string; optional?: boolean; dimensionality?: string }) => [
        p.name,
        !!p.optional,
        p.dimensionality ?? "scalar",
      ]),
    ).toEqual([
      ["cui", false, "matrix"],
      ["an", true, "scalar"],
    ]);
    expect(ca.options?.cancelable ?? false).toBe(false); // a matrix result: not cancelable (custom-functions-web-reqs)
  });
});

describe("every function is wired and returns the sandbox's data", () => {
  let xl: ExcelStandIn;
  let calls: () => number;
  beforeAll(() => {
    ({ xl, calls } = excel());
  });

  test("the bundle associates exactly the functions of the metadata", () => {
    expect([...xl.associated.keys()].sort()).toEqual(xl.metadata.map((f) => f.id).sort());
  });

  const profileCases: [string, unknown][] = [
    ["DENUMIRE", company.denumire],
    ["STARE", company.stare],
    ["JUDET", company.judet],
    ["LOCALITATE", company.localitate],
    ["ADRESA", company.adresa],
    ["CAEN", company.caen_principal],
    ["TVA", company.platitor_tva],
    ["NRREG", company.j_cod],
  ];
  test.each(profileCases)("FIRMA.%s(cui)", async (id, want) => {
    expect(await xl.call(id, [CUI])).toEqual([[want]]);
  });

  const finCases: [string, number | null][] = [
    ["CA", fin.cifra_afaceri],
    ["CIFRA_AFACERI", fin.cifra_afaceri],
    ["PROFIT", fin.profit_net],
    ["ACTIVE", fin.active_totale ?? null],
    ["DATORII", fin.datorii_totale ?? null],
    ["ANGAJATI", fin.numar_angajati ?? null],
  ];
  test.each(finCases)("FIRMA.%s(cui) for the latest year, and with the year given", async (id, want) => {
    expect(await xl.call(id, [CUI])).toEqual([[want]]);
    expect(await xl.call(id, [CUI, LATEST])).toEqual([[want]]);
  });

  test("FIRMA.CUI(nume): the name matching loaded when first needed (its own chunk), the CUI of a name alone in the registry", async () => {
    const alone = data.company(14399840)!;
    sb.config.overrides = { "14399840": { denumire: "ZZQ UNIC MATCH BUNDLE SRL" } };
    try {
      expect(await xl.call("CUI", ["SC Zzq Unic Match Bundle S.R.L."])).toEqual([[alone.cui]]);
      expect(await xl.call("CUI", [[["Zzq Unic Match Bundle"], ["Qqzz Inexistent Srl"]]])).toEqual([
        [alone.cui],
        [expect.objectContaining({ code: "#N/A", message: "Nicio firmă cu acest nume; verificați numele." })],
      ]);
    } finally {
      sb.config.overrides = {};
    }
  });

  test("FIRMA.PROFIL spills one row of all profile fields", async () => {
    expect(await xl.call("PROFIL", [CUI])).toEqual([
      [
        CUI,
        company.denumire,
        company.stare,
        company.judet,
        company.localitate,
        company.adresa,
        company.caen_principal,
        company.platitor_tva,
        company.j_cod,
      ],
    ]);
  });

  test("FIRMA.CAMP reads any field by name", async () => {
    expect(await xl.call("CAMP", [CUI, "adresa"])).toEqual([[company.adresa]]);
    expect(await xl.call("CAMP", [CUI, "cifra_afaceri", LATEST])).toEqual([[fin.cifra_afaceri]]);
  });

  test("FIRMA.FINANCIAR spills one row of all financial fields", async () => {
    expect(await xl.call("FINANCIAR", [CUI, LATEST])).toEqual([
      [LATEST, fin.cifra_afaceri, fin.profit_net, fin.active_totale, fin.datorii_totale, fin.numar_angajati],
    ]);
  });

  test("FIRMA.ISTORIC spills years latest first", async () => {
    const want = data
      .financials(CUI)
      .filter((f) => f.an >= LATEST - 3)
      .map((f) => [f.an, f.profit_net]);
    expect(await xl.call("ISTORIC", [CUI, LATEST - 3, LATEST, "profit_net"])).toEqual(want);
  });

  test("FIRMA.CAUTA finds the company by CUI, under a header row", async () => {
    const got = (await xl.call("CAUTA", [String(CUI)])) as unknown[][];
    expect(got[0][0]).toBe("CUI");
    expect(got.slice(1).map((r) => r[0])).toContain(CUI);
  });

  test("FIRMA.TOPURI, FIRMA.TOP and FIRMA.JUDETE spill lists under a header row", async () => {
    const tops = (await xl.call("TOPURI", [LATEST, "cifra-afaceri", "national"])) as unknown[][];
    expect(tops.length).toBeGreaterThan(1);
    const slug = tops[1][0] as string;
    const top = (await xl.call("TOP", [slug, 5])) as unknown[][];
    expect(top[0]).toEqual(["Poziție", "CUI", "Denumire", "Valoare", "Variație %"]);
    expect(top.slice(1).map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
    for (const r of top.slice(1)) expect(data.company(r[1] as number)?.denumire).toBe(r[2]);
    const judete = (await xl.call("JUDETE", [])) as unknown[][];
    expect(judete).toHaveLength(1 + 42);
    expect(judete.slice(1).map((r) => r[0])).toContain("CJ");
  });

  test("a range of CUIs answers in the same shape, with an error only in the cells that need one", async () => {
    const [a, b] = data.sampleCuis(2, 61000);
    const got = (await xl.call("DENUMIRE", [[[a], ["RO" + b], [14399841], [""]]])) as unknown[][];
    expect(got).toHaveLength(4);
    expect(got[0]).toEqual([data.company(a)!.denumire]);
    expect(got[1]).toEqual([data.company(b)!.denumire]);
    expect(got[2][0]).toBeInstanceOf(StandInError);
    expect((got[2][0] as StandInError).code).toBe("#VALUE!");
    expect(got[3]).toEqual([""]);
  });

  test("a lone bad CUI throws #VALUE! with a message that says what to do, at no cost", async () => {
    const before = calls();
    const e = (await xl.call("DENUMIRE", [14399841])) as StandInError;
    expect(e).toBeInstanceOf(StandInError);
    expect(e.code).toBe("#VALUE!");
    expect(e.message).toMatch(/CUI invalid/);
    expect(calls()).toBe(before);
  });
});

describe("the bundle as Excel uses it", () => {
  test("a sheet of cells costs the minimum, and recalculating or reopening the workbook costs nothing", async () => {
    const first = excel();
    const cuis = data.sampleCuis(250, 62000);
    await Promise.all(cuis.map((c) => first.xl.call("DENUMIRE", [c])));
    expect(first.calls()).toBe(3);
    await Promise.all(cuis.map((c) => first.xl.call("DENUMIRE", [c])));
    expect(first.calls()).toBe(3);
    // reopening: a new runtime over the same add-in storage (after the cache's delayed write)
    await new Promise((r) => setTimeout(r, 700));
    const reopened = new ExcelStandIn(first.xl.storage);
    const got = await Promise.all(cuis.map((c) => reopened.call("DENUMIRE", [c])));
    expect(got).toEqual(cuis.map((c) => [[data.company(c)!.denumire]]));
    expect(first.calls()).toBe(3);
  });

  test("a cell the cache answers gets its matrix at once, without a promise, and a lone error known at once is thrown; a cell that waits gets a promise", async () => {
    const { xl, calls } = excel();
    const [cui, other] = data.sampleCuis(2, 62500);
    const [missing] = data.missingCuis(1);
    const denumire = xl.associated.get("DENUMIRE")!;
    const thenable = (x: unknown) => typeof (x as { then?: unknown })?.then === "function";
    const thrown = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return e;
      }
      return "nothing thrown";
    };
    const waiting = denumire([[cui]], {});
    expect(thenable(waiting)).toBe(true); // the service is asked: office.js waits for it
    expect(await waiting).toEqual([[data.company(cui)!.denumire]]);
    const cached = denumire([[cui]], {});
    expect(thenable(cached)).toBe(false); // office.js sets a result without `then` at once
    expect(cached).toEqual([[data.company(cui)!.denumire]]);
    expect(thenable(denumire([[other]], {}))).toBe(true);
    // A lone error known at once (a bad CUI) is thrown, as Microsoft's example throws its
    // CustomFunctions.Error (custom-functions-errors, "Detect and throw an error"): no rejected promise per cell.
    const bad = thrown(() => denumire([["RO123"]], {}));
    expect(bad).toBeInstanceOf(StandInError);
    expect(bad).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(/RO123/) });
    // A company the service does not have: the first time a promise that fails, then thrown from the cache.
    const first = denumire([[missing]], {});
    expect(thenable(first)).toBe(true);
    const notFound = await (first as Promise<unknown>).then(
      () => "answered",
      (e: unknown) => e,
    );
    expect(notFound).toMatchObject({ code: "#N/A" });
    const again = thrown(() => denumire([[missing]], {}));
    expect(again).toBeInstanceOf(StandInError);
    expect(again).toEqual(notFound); // the same message
    expect(await xl.call("DENUMIRE", [missing])).toEqual(notFound); // and the cell shows it
    expect(calls()).toBeLessThanOrEqual(3);
  });

  test("a range with a company cached as not found: that cell's #N/A, the others their values, from the cache", async () => {
    const { xl, calls } = excel();
    const [known] = data.sampleCuis(1, 62700);
    const [missing] = data.missingCuis(2).slice(1);
    const first = await xl.call("DENUMIRE", [[[known], [missing]]]);
    const again = xl.associated.get("DENUMIRE")!([[known], [missing]], {});
    expect(typeof (again as { then?: unknown }).then).toBe("undefined"); // answered from the cache at once
    expect(await xl.call("DENUMIRE", [[[known], [missing]]])).toEqual(first);
    expect(first).toEqual([[data.company(known)!.denumire], [expect.objectContaining({ code: "#N/A" })]]);
    expect(calls()).toBe(1);
  });

  test("a cell edited while its call waits: Excel does not cancel FIRMA's functions, the old CUI rides in the same batch as the new one", async () => {
    // FIRMA's functions return a matrix, so they are not cancelable (custom-functions-web-reqs: "Only
    // asynchronous custom functions which return one value can use the @cancelable JSDoc tag"): the old
    // call settles, Excel drops its answer, and both CUIs go in one batch call.
    const { xl, key, calls } = excel();
    const [old, edited] = data.sampleCuis(2, 63000);
    const before = xl.call("DENUMIRE", [old]);
    const after = xl.call("DENUMIRE", [edited]);
    expect(await before).toEqual([[data.company(old)!.denumire]]);
    expect(await after).toEqual([[data.company(edited)!.denumire]]);
    expect(calls()).toBe(1);
    const asked = sb.requests.filter((r) => r.key === key).map((r) => r.query);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(String(old));
  });

  test("without a key the cell says so and nothing is sent", async () => {
    const storage = new StandInStorage();
    storage.data.set("firma.baseUrl", sb.url);
    const xl = new ExcelStandIn(storage);
    const before = sb.requests.length;
    const e = (await xl.call("DENUMIRE", [CUI])) as StandInError;
    expect(e.code).toBe("#N/A");
    expect(e.message).toMatch(/cheia API/);
    expect(sb.requests.length).toBe(before);
  });

  test("a wrong key says the key is invalid, and the key is not in the message", async () => {
    const storage = new StandInStorage();
    storage.data.set("firma.baseUrl", sb.url);
    storage.data.set("firma.apiKey", "not-a-key-SECRET123");
    const xl = new ExcelStandIn(storage);
    const e = (await xl.call("DENUMIRE", [CUI])) as StandInError;
    expect(e.code).toBe("#N/A");
    expect(e.message).toMatch(/invalidă/);
    expect(e.message).not.toContain("SECRET123");
  });

  test("on the Free plan a year outside the history is refused in the cell, at no cost", async () => {
    const { xl, calls } = excel("free");
    const e = (await xl.call("CA", [CUI, LATEST - 2])) as StandInError;
    expect(e.code).toBe("#N/A");
    expect(e.message).toMatch(/planului/);
    expect(calls()).toBe(0);
  });
});
