/**
 * The flows' own catalogs (src/taskpane/flows/texts-ro.ts, texts-en.ts), held to the pane catalog's
 * rules (test/shared/messages.test.ts): the same keys in both languages, non-empty, the same
 * placeholders; every key the page names with data-flow-i18n* exists, and every key is used.
 */
import * as fs from "fs";
import * as path from "path";
import { flowEn } from "../../src/taskpane/flows/texts-en";
import { flowRo } from "../../src/taskpane/flows/texts-ro";
import { ft, isFlowKey } from "../../src/taskpane/flows/texts";
import { confidenceText, outputRow } from "../../src/taskpane/flows/match-flow";
import { readQuery } from "../../src/taskpane/flows/search-flow";
import { COLUMN_ITEMS, columnsOf, formulaOf, headerOf, requestsOf } from "../../src/taskpane/flows/column-catalog";
import { cuiColumn } from "../../src/taskpane/flows/columns-flow";

const DIR = path.resolve(__dirname, "../../src/taskpane");
const html = fs.readFileSync(path.join(DIR, "taskpane.html"), "utf8");
const code = fs
  .readdirSync(path.join(DIR, "flows"))
  .filter((f) => f.endsWith(".ts") && !/^texts-(ro|en)\.ts$/.test(f))
  .map((f) => fs.readFileSync(path.join(DIR, "flows", f), "utf8"))
  .join("\n");

describe("the flows' catalogs", () => {
  test("Romanian and English have the same keys, each written, with the same placeholders", () => {
    expect(Object.keys(flowEn).sort()).toEqual(Object.keys(flowRo).sort());
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const k of Object.keys(flowRo) as (keyof typeof flowRo)[]) {
      expect({ k, ro: flowRo[k].trim() !== "", en: flowEn[k].trim() !== "" }).toEqual({ k, ro: true, en: true });
      expect({ k, p: names(flowRo[k]) }).toEqual({ k, p: names(flowEn[k]) });
    }
  });

  test("every key the page names exists; every key is used by the page or the flows' code", () => {
    const named = [...html.matchAll(/data-flow-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((k) => !isFlowKey(k))).toEqual([]);
    // keys built from a name: match.word.*, match.stop.*, match.problem.*, flow.problem.* (tables in the code name them whole)
    const unused = Object.keys(flowRo).filter((k) => !html.includes(`"${k}"`) && !code.includes(`"${k}"`));
    expect(unused).toEqual([]);
  });
});

describe("what the flows make, without Excel", () => {
  test("the search box: a CUI checked here (its control digit), a search otherwise", () => {
    expect(readQuery(" ro 14399840 ", "")).toEqual({ kind: "cui", cui: 14399840 });
    expect(readQuery("14399841", "")).toEqual({ kind: "badCui", input: "14399841" });
    expect(readQuery("ursu group", " CJ ")).toEqual({ kind: "search", q: "ursu group", judet: "CJ" });
    expect(readQuery("J12/345/2004", "")).toEqual({ kind: "search", q: "J12/345/2004" });
    expect(readQuery("a", "")).toEqual({ kind: "none" });
  });

  test("add columns: headers in the user's language, formulas with the ids and ',', one request per formula", () => {
    const pick = (...ids: string[]) => COLUMN_ITEMS.filter((i) => ids.includes(i.id));
    const cols = columnsOf(pick("DENUMIRE", "PROFIT", "ACTUALIZAT"), [2024, 2023]);
    expect(cols.map((c) => headerOf(c, "ro"))).toEqual(["Denumire", "Profit net 2024", "Profit net 2023", "Data aducerii"]);
    expect(cols.map((c) => headerOf(c, "en"))).toEqual(["Name", "Net profit 2024", "Net profit 2023", "Fetched on"]);
    expect(cols.map((c) => formulaOf(c, 28, 7))).toEqual([
      "=FIRMA.DENUMIRE(AB7)",
      "=FIRMA.PROFIT(AB7,2024)",
      "=FIRMA.PROFIT(AB7,2023)",
      "=FIRMA.ACTUALIZAT(AB7)",
    ]);
    expect(columnsOf(pick("CIFRA_AFACERI"), [null]).map((c) => formulaOf(c, 1, 2))).toEqual(["=FIRMA.CIFRA_AFACERI(A2)"]);
    // a blank cell asks for nothing, like the formula would
    expect(requestsOf(cols, [14399840, "", "RO14399840"])).toHaveLength(2 * 4);
    expect(COLUMN_ITEMS.map((i) => i.id)).toEqual([
      "DENUMIRE",
      "STARE",
      "JUDET",
      "LOCALITATE",
      "ADRESA",
      "CAEN",
      "TVA",
      "NRREG",
      "CIFRA_AFACERI",
      "PROFIT",
      "ACTIVE",
      "DATORII",
      "ANGAJATI",
      "FISA",
      "ACTUALIZAT",
    ]);
  });

  test("the CUI column of a selection: the one with most valid CUIs", () => {
    expect(
      cuiColumn([
        ["ALFA SRL", 14399840],
        ["BETA SA", "RO14399840"],
      ]),
    ).toBe(1);
    expect(cuiColumn([["ALFA SRL"], ["BETA SA"]])).toBe(-1);
  });

  test("a match's row: the CUI and name only when sure; not searched says why, never 'not found'", () => {
    const sure = { confidence: "sure" as const, cui: 14399840, officialName: "ALFA SRL", candidates: [] };
    expect(outputRow(sure, "ro")).toEqual([14399840, "ALFA SRL", "sigur"]);
    const likely = {
      confidence: "likely" as const,
      cui: 14399840,
      officialName: "ALFA SRL",
      candidates: [{ cui: 14399840, denumire: "ALFA SRL" }],
    };
    expect(outputRow(likely, "ro")).toEqual(["", "", "probabil"]);
    expect(confidenceText({ confidence: "not_searched", candidates: [], stoppedBy: "quota" }, "ro")).toBe(
      "necăutat: creditele planului s-au epuizat",
    );
    expect(
      confidenceText({ confidence: "not_searched", candidates: [], problem: { kind: "unknown_county", detail: "Zarand" } }, "en"),
    ).toBe("not searched: unknown county: Zarand");
    expect(ft("en", "match.word.notFound")).toBe("not found");
  });
});
