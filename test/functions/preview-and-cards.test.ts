/**
 * The value preview and the company card, in the stand-in for Excel's runtime (the built bundle: test/support/builds.js):
 *  - the value preview (invocation.isInValuePreview, https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-formula-value-preview)
 *    answers from the cache only: no call, a placeholder for what is not cached, values for what is;
 *  - FIRMA.FISA returns an entity value (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts,
 *    https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue) where CustomFunctionsRuntime 1.4 is supported, else the name.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DIST, errorCell, ExcelStandIn, StandInError, StandInOptions, StandInStorage } from "../support/excel-runtime";
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

function excel(options: StandInOptions = {}) {
  const key = `demo-enterprise-pv${++n}`;
  const storage = new StandInStorage();
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", sb.url);
  storage.data.set("firma.batchWindowMs", "5");
  return { xl: new ExcelStandIn(storage, undefined, options), calls: () => sb.usage(key).total };
}

const PREVIEW = { isInValuePreview: true };
/** isInValuePreview is CustomFunctionsRuntime 1.5 (CustomFunctions.Invocation): the stand-in gives it from there on. */
const WITH_PREVIEW: StandInOptions = { requirementSets: { CustomFunctionsRuntime: "1.5" } };
const PLACEHOLDER = /^Previzualizare: apăsați Enter pentru a aduce datele/;

describe("the value preview is free", () => {
  const cuis = data.sampleCuis(1000, 1212);

  test("1,000 CUIs previewed: 0 calls, each cell says Enter fetches; cached ones show values; then Enter fetches", async () => {
    const { xl, calls } = excel(WITH_PREVIEW);
    // One invocation per CUI, as 1,000 formulas typed one after another…
    const one = await Promise.all(cuis.map((c) => xl.call("DENUMIRE", [c], PREVIEW)));
    for (const r of one) {
      expect(r).toBeInstanceOf(StandInError);
      expect((r as StandInError).code).toBe("#N/A");
      expect((r as StandInError).message).toMatch(PLACEHOLDER);
    }
    // …and one formula over the whole range, a financial one, and a list.
    const range = (await xl.call("CA", [cuis.map((c) => [c])], PREVIEW)) as unknown[][];
    expect(range).toHaveLength(1000);
    for (const [cell] of range) expect((cell as StandInError).message).toMatch(PLACEHOLDER);
    expect(((await xl.call("JUDETE", [], PREVIEW)) as StandInError).message).toMatch(PLACEHOLDER);
    expect(((await xl.call("FISA", [cuis[0]], PREVIEW)) as StandInError).message).toMatch(PLACEHOLDER);
    expect(calls()).toBe(0);

    // Enter: the real calculation fetches as usual.
    const first = cuis.slice(0, 10);
    const fetched = await Promise.all(first.map((c) => xl.call("DENUMIRE", [c])));
    expect(fetched).toEqual(first.map((c) => [[data.company(c)?.denumire ?? expect.anything()]]));
    const spent = calls();
    expect(spent).toBeGreaterThan(0);

    // Previewed again: the cached ones show their values, still at no cost.
    const again = await Promise.all(first.map((c) => xl.call("DENUMIRE", [c], PREVIEW)));
    expect(again).toEqual(fetched);
    const mixed = (await xl.call("DENUMIRE", [cuis.slice(0, 20).map((c) => [c])], PREVIEW)) as unknown[][];
    mixed.slice(0, 10).forEach(([v], i) => expect(v).toEqual((fetched[i] as unknown[][])[0][0]));
    mixed.slice(10).forEach(([v]) => expect((v as StandInError).message).toMatch(PLACEHOLDER));
    expect(calls()).toBe(spent);

    // An invalid CUI says so in the preview too (refused locally, as always).
    expect(((await xl.call("DENUMIRE", ["123"], PREVIEW)) as StandInError).code).toBe("#VALUE!");
    expect(calls()).toBe(spent);
  });

  test("isInValuePreview false is an ordinary calculation", async () => {
    const { xl, calls } = excel(WITH_PREVIEW);
    const c = cuis.find((x) => data.company(x))!;
    expect(await xl.call("STARE", [c], { isInValuePreview: false })).toEqual([[data.company(c)!.stare]]);
    expect(calls()).toBe(1);
  });

  // Below CustomFunctionsRuntime 1.5 the invocation has no isInValuePreview: a preview, if that Excel
  // makes one, cannot be told from Enter. It is an ordinary call, paid once and cached, so the Enter that
  // follows costs nothing: the preview spends what Enter would have, never more (docs/excel.md).
  test.each(["1.3", "1.4"])(
    "CustomFunctionsRuntime %s: a preview is paid as Enter would be, and the Enter after it is free",
    async (version) => {
      const { xl, calls } = excel({ requirementSets: { CustomFunctionsRuntime: version } });
      const some = cuis.slice(0, 250).map((c) => [c]);
      const previewed = (await xl.call("DENUMIRE", [some], PREVIEW)) as unknown[][];
      expect(previewed).toEqual(some.map(([c]) => [data.company(c)?.denumire ?? expect.objectContaining({ code: "#N/A" })]));
      expect(calls()).toBe(3); // 250 CUIs: 3 batches of up to 100, as Enter costs
      expect(await xl.call("DENUMIRE", [some])).toEqual(previewed);
      expect(calls()).toBe(3);
    },
  );
});

describe("FIRMA.FISA, the company card", () => {
  /** A company that filed the latest year. */
  const CUI = data.sampleCuis(200, 777).find((c) => data.financials(c)[0]?.an === LATEST)!;
  const company = data.company(CUI)!;
  const fin = data.financials(CUI).find((f) => f.an === LATEST)!;
  const CELL_TYPES: Record<string, string> = { String: "string", Double: "number", Boolean: "boolean" };

  test("an entity value where CustomFunctionsRuntime 1.4 is supported, in the docs' shape; profile + latest year = 2 calls, then cached", async () => {
    const { xl, calls } = excel({ requirementSets: { CustomFunctionsRuntime: "1.4" } });
    const result = (await xl.call("FISA", [CUI])) as unknown[][];
    expect(result).toHaveLength(1);
    expect(result[0]).toHaveLength(1);
    const e = result[0][0] as {
      type: string;
      text: string;
      properties: Record<string, { type: string; basicValue: unknown }>;
      layouts: { card: { title?: { property: string }; sections: { layout: string; title?: string; properties: string[] }[] } };
    };
    // EntityCellValue: type "Entity", the cell's text, properties each with its own type and basicValue.
    expect(e.type).toBe("Entity");
    expect(e.text).toBe(company.denumire);
    for (const [name, p] of Object.entries(e.properties)) {
      expect(Object.keys(p).sort()).toEqual(["basicValue", "type"]);
      expect(typeof p.basicValue).toBe(CELL_TYPES[p.type] ?? `a cell value type, not ${p.type} (${name})`);
    }
    // The card's layout names only properties that exist (entity card: title { property }, sections of layout "List").
    expect(e.properties[e.layouts.card.title!.property].basicValue).toBe(company.denumire);
    for (const s of e.layouts.card.sections) {
      expect(s.layout).toBe("List");
      for (const p of s.properties) expect(e.properties).toHaveProperty([p]);
    }
    // What dot syntax reaches (=A1.Stare, =A1.[Cifra de afaceri]).
    const v = (k: string) => e.properties[k]?.basicValue;
    expect(v("CUI")).toBe(CUI);
    expect(v("Denumire")).toBe(company.denumire);
    expect(v("Stare")).toBe(company.stare);
    expect(v("Adresă")).toBe(company.adresa);
    expect(v("Județ")).toBe(company.judet);
    expect(v("CAEN")).toBe(company.caen_principal);
    expect(v("Plătitor TVA")).toBe(company.platitor_tva);
    expect(v("An financiar")).toBe(LATEST);
    expect(v("Cifra de afaceri")).toBe(fin.cifra_afaceri);
    expect(v("Angajați")).toBe(fin.numar_angajati);
    expect(calls()).toBe(2);

    // Cached like the rest: again at no cost, and the preview shows the card too.
    expect(await xl.call("FISA", [CUI])).toEqual(result);
    expect(await xl.call("FISA", [CUI], PREVIEW)).toEqual(result);
    expect(calls()).toBe(2);
  });

  test("where the platform lacks CustomFunctionsRuntime 1.4 (or Office has not said), the cell shows the name", async () => {
    for (const options of [{ requirementSets: { CustomFunctionsRuntime: "1.3" } }, {}]) {
      const { xl } = excel(options);
      expect(await xl.call("FISA", [CUI])).toEqual([[company.denumire]]);
    }
  });

  test("an invalid CUI is #VALUE! with its message, at no cost", async () => {
    const { xl, calls } = excel({ requirementSets: { CustomFunctionsRuntime: "1.4" } });
    const r = (await xl.call("FISA", ["RO123"])) as StandInError;
    expect(r).toBeInstanceOf(StandInError);
    expect(r.code).toBe("#VALUE!");
    expect(r.message).toMatch(/CUI invalid/);
    expect(calls()).toBe(0);
  });
});

/**
 * Cards that Excel accepts, and takes as input: allowCustomDataForDataTypeAny (set in every language's
 * metadata) is what lets a custom function "accept data types as parameters and return values"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json#allowcustomdatafordatatypeany).
 */
describe("cards and data types as input", () => {
  const [CUI, OTHER] = data.sampleCuis(200, 4242).filter((c) => data.company(c) && data.financials(c)[0]?.an === LATEST);
  const today = { requirementSets: { CustomFunctionsRuntime: "1.5" } };

  test("=FIRMA.STARE(<a FISA card>) and =FIRMA.DENUMIRE(<a formatted number>) answer like the plain CUI, at the same credits", async () => {
    const plain = excel(today);
    const wanted = [
      await plain.xl.call("STARE", [CUI]),
      await plain.xl.call("DENUMIRE", [OTHER]),
      await plain.xl.call("CA", [CUI, LATEST]),
    ];
    const plainCalls = plain.calls();

    const { xl, calls } = excel(today);
    const card = ((await xl.call("FISA", [CUI])) as unknown[][])[0][0] as { type: string };
    expect(card.type).toBe("Entity");
    const afterCard = calls();
    // The card went into B2; B3 holds the other CUI formatted as a number (a DoubleCellValue with a format).
    const got = [
      await xl.call("STARE", [card]),
      await xl.call("DENUMIRE", [{ type: "Double", basicValue: OTHER, numberFormat: "0" }]),
      await xl.call("CA", [[[card]], { type: "Double", basicValue: LATEST, numberFormat: "0" }]),
    ];
    expect(got).toEqual(wanted);
    // The card's company was cached by FISA: STARE and CA of it cost nothing more; DENUMIRE of the other costs what it costs plainly.
    expect(calls() - afterCard).toBe(1);
    expect(plainCalls).toBe(3);
    expect(xl.violations).toEqual([]);
  });

  test("a range of cards and CUIs answers each in its cell; a card with no CUI is #VALUE! naming it, at no cost", async () => {
    const { xl, calls } = excel(today);
    const card = ((await xl.call("FISA", [CUI])) as unknown[][])[0][0];
    const before = calls();
    const r = (await xl.call("DENUMIRE", [
      [[card], [OTHER], [{ type: "Entity", text: "Fără CUI", properties: {} }], [errorCell("#N/A")]],
    ])) as unknown[][];
    expect(r[0][0]).toBe(data.company(CUI)!.denumire);
    expect(r[1][0]).toBe(data.company(OTHER)!.denumire);
    expect(r[2][0]).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(/^Fișa „Fără CUI” nu are un CUI/) });
    expect(r[3][0]).toMatchObject({ code: "#N/A", message: expect.stringMatching(/^Celula cu CUI-ul conține eroarea #N\/A/) });
    expect(calls() - before).toBe(1); // OTHER only
  });

  test("a linked company (the Firmă data type) reads as its CUI; another provider's linked entity is #VALUE! naming it, at no cost", async () => {
    const { xl, calls } = excel(today);
    // A LinkedEntityCellValue as Excel keeps it in the cell (the id FIRMA gave it: linked-company.ts linkedStub).
    const linked = (entityId: string, domainId = "firma-company") => ({
      type: "LinkedEntity",
      id: { entityId, domainId, serviceId: 268436224, culture: "ro-RO" },
      text: "O firmă",
      basicType: "Error",
      basicValue: "#VALUE!",
    });
    const r = (await xl.call("DENUMIRE", [[[linked(String(CUI))], [linked(String(OTHER))], [linked("123", "stocks")]]])) as unknown[][];
    expect(r[0][0]).toBe(data.company(CUI)!.denumire);
    expect(r[1][0]).toBe(data.company(OTHER)!.denumire);
    expect(r[2][0]).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(/LinkedEntity/) });
    expect(calls()).toBe(1); // one batch for both companies; the foreign entity costs nothing
    expect(xl.violations).toEqual([]);
  });

  test("an error cell keeps its code where Excel accepts it as an answer (#DIV/0! shows no message: only #VALUE! and #N/A carry one)", async () => {
    const { xl, calls } = excel(today);
    const r = (await xl.call("DENUMIRE", [errorCell("#DIV/0!")])) as StandInError;
    expect(r).toBeInstanceOf(StandInError);
    expect(r.code).toBe("#DIV/0!");
    expect(r.message).toBeUndefined();
    expect(xl.violations).toEqual([]);
    expect(calls()).toBe(0);
  });

  test("the stand-in holds Excel's rule: without allowCustomDataForDataTypeAny a card answered is #VALUE!, a card passed in is its basic value (#VALUE!)", async () => {
    // A copy of the built add-in whose metadata lacks the flag.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-noflag-"));
    try {
      for (const f of ["runtime.js", "shared.js", "functions.js"]) fs.copyFileSync(path.join(DIST, f), path.join(dir, f));
      const meta = JSON.parse(fs.readFileSync(path.join(DIST, "functions.json"), "utf8"));
      expect(meta.allowCustomDataForDataTypeAny).toBe(true);
      delete meta.allowCustomDataForDataTypeAny;
      fs.writeFileSync(path.join(dir, "functions.json"), JSON.stringify(meta));
      const storage = new StandInStorage();
      storage.data.set("firma.apiKey", `demo-enterprise-noflag${++n}`);
      storage.data.set("firma.baseUrl", sb.url);
      storage.data.set("firma.batchWindowMs", "5");
      const xl = new ExcelStandIn(storage, dir, today);
      const r = ((await xl.call("FISA", [CUI])) as unknown[][])[0][0] as StandInError;
      expect(r).toBeInstanceOf(StandInError);
      expect(r.code).toBe("#VALUE!");
      expect(xl.violations).toEqual([expect.stringMatching(/FISA answered an object/)]);
      const card = { type: "Entity", text: "X", properties: { CUI: { type: "Double", basicValue: CUI } } };
      expect(((await xl.call("STARE", [card])) as StandInError).message).toMatch(/^Celula cu CUI-ul conține eroarea #VALUE!/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
