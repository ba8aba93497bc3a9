/**
 * From FIRMA formulas (as Excel's range.formulas gives them) to the requests a refresh makes:
 * literals and references are resolved to the values the cells hold, the rest is reported as not
 * estimable; a selection refresh leaves list functions alone. Also the grouping of cells into
 * ranges for recalculation.
 */
import { cellRequests } from "../../src/shared/evaluate";
import { addressOf, runAreas } from "../../src/taskpane/excel";
import { CellValues, FormulaCell, mentionsFirma, planRefresh, readFormula, referencedSheets } from "../../src/taskpane/refresh-plan";

/** Sheets as { name: { "r,c": value } }. */
function values(sheets: Record<string, Record<string, unknown>>): CellValues {
  const lower = new Map(Object.entries(sheets).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    hasSheet: (s) => lower.has(s.toLowerCase()),
    valueAt: (s, r, c) => lower.get(s.toLowerCase())?.[`${r},${c}`] ?? "",
  };
}

const cell = (formula: string, sheet = "Foaie1", row = 1, col = 2): FormulaCell => ({ sheet, row, col, formula, value: 0, error: false });

const book = values({
  Foaie1: { "2,1": 14399840, "3,1": "RO18547290", "4,1": "", "2,3": 2023 },
  "Alte date": { "1,1": 123456789 },
});

describe("reading a formula", () => {
  test("a reference gives the cell's value; a range gives the block of values", () => {
    expect(readFormula(cell("=FIRMA.DENUMIRE(A2)"), book)).toEqual({ kind: "call", name: "DENUMIRE", args: [14399840] });
    expect(readFormula(cell("=FIRMA.DENUMIRE($A$2:A4)"), book)).toEqual({
      kind: "call",
      name: "DENUMIRE",
      args: [[[14399840], ["RO18547290"], [""]]],
    });
  });

  test("literals, omitted arguments and other sheets", () => {
    expect(readFormula(cell('=FIRMA.CA("RO14399840", 2022)'), book)).toEqual({ kind: "call", name: "CA", args: ["RO14399840", 2022] });
    expect(readFormula(cell('=FIRMA.CAMP(A2,"profit_net",C2)'), book)).toEqual({
      kind: "call",
      name: "CAMP",
      args: [14399840, "profit_net", 2023],
    });
    expect(readFormula(cell('=FIRMA.CAUTA("x",,,,50)'), book)).toEqual({ kind: "call", name: "CAUTA", args: ["x", null, null, null, 50] });
    expect(readFormula(cell("=FIRMA.STARE('Alte date'!A1)"), book)).toEqual({ kind: "call", name: "STARE", args: [123456789] });
    expect(readFormula(cell("=firma.stare(a2)"), book)).toMatchObject({ kind: "call", name: "STARE", args: [14399840] });
  });

  test("English Excel's names (FIRMA.NAME, FIRMA.TURNOVER) are the same functions and cost the same", () => {
    expect(readFormula(cell("=FIRMA.NAME(A2)"), book)).toEqual({ kind: "call", name: "DENUMIRE", args: [14399840] });
    expect(readFormula(cell("=FIRMA.TURNOVER(A2, 2022)"), book)).toEqual({ kind: "call", name: "CA", args: [14399840, 2022] });
    const en = planRefresh([cell("=FIRMA.NAME(A2:A3)"), cell("=FIRMA.COUNTIES()")], book, { includeLists: false });
    const ro = planRefresh([cell("=FIRMA.DENUMIRE(A2:A3)"), cell("=FIRMA.JUDETE()")], book, { includeLists: false });
    expect(en.requests).toEqual(ro.requests);
    expect(en.listsLeftOut).toBe(1);
    // A name that is not FIRMA's is not guessed at: the cell is refreshed but not estimated.
    expect(readFormula(cell("=FIRMA.NOSUCH(A2)"), book)).toEqual({ kind: "unestimable" });
  });

  test("a whole column or row is read as far as the sheet is used", () => {
    const withExtent: CellValues = { ...book, extent: (s) => (s.toLowerCase() === "foaie1" ? { rows: 4, cols: 3 } : { rows: 1, cols: 1 }) };
    expect(readFormula(cell("=FIRMA.DENUMIRE(A:A)"), withExtent)).toEqual({
      kind: "call",
      name: "DENUMIRE",
      args: [[[""], [14399840], ["RO18547290"], [""]]],
    });
    expect(readFormula(cell("=FIRMA.DENUMIRE($A:$A)"), withExtent)).toMatchObject({ kind: "call" });
    expect(readFormula(cell("=FIRMA.STARE('Alte date'!1:1)"), withExtent)).toEqual({ kind: "call", name: "STARE", args: [[[123456789]]] });
    expect(referencedSheets([cell("=FIRMA.STARE('Alte date'!A:A)")])).toEqual(["Alte date"]);
  });

  test("a call inside a larger formula, or a computed argument, cannot be estimated", () => {
    for (const f of [
      '=IF(A2="","",FIRMA.DENUMIRE(A2))',
      '=FIRMA.DENUMIRE(A2)&""',
      "=FIRMA.DENUMIRE(A2+1)",
      "=FIRMA.DENUMIRE(VALUE(A2))",
      "=FIRMA.DENUMIRE(Lipsa!A1)",
      "=FIRMA.DENUMIRE(A:A)",
      "=FIRMA.DENUMIRE(clienti)",
    ]) {
      expect({ f, r: readFormula(cell(f), book) }).toEqual({ f, r: { kind: "unestimable" } });
    }
  });
});

describe("planning a refresh", () => {
  const cells = [
    cell("=FIRMA.DENUMIRE(A2:A3)", "Foaie1", 2, 2),
    cell("=FIRMA.CA(A2, C2)", "Foaie1", 2, 4),
    cell("=FIRMA.JUDETE()", "Foaie1", 10, 1),
    cell('=FIRMA.TOP("top-x", 150)', "Foaie1", 10, 5),
    cell('=IFERROR(FIRMA.STARE(A2),"")', "Foaie1", 5, 2),
  ];

  test("the requests are those of cellRequests() for the resolved arguments", () => {
    const p = planRefresh(cells, book, { includeLists: true });
    expect(p.requests).toEqual([
      ...cellRequests("DENUMIRE", [[[14399840], ["RO18547290"]]]),
      ...cellRequests("CA", [14399840, 2023]),
      ...cellRequests("JUDETE", []),
      ...cellRequests("TOP", ["top-x", 150]),
    ]);
    expect(p.unestimable).toBe(1);
    expect(p.listsLeftOut).toBe(0);
    expect(p.formulas).toHaveLength(5);
    expect(p.toRecalculate).toHaveLength(5);
  });

  test("a selection refresh neither estimates nor recalculates list functions", () => {
    const p = planRefresh(cells, book, { includeLists: false });
    expect(p.requests.some((r) => r.kind === "list")).toBe(false);
    expect(p.listsLeftOut).toBe(2);
    expect(p.toRecalculate.map((c) => c.formula)).toEqual([cells[0].formula, cells[1].formula, cells[4].formula]);
  });

  test("the sheets other formulas refer to are known before the values are read", () => {
    expect(
      referencedSheets([cell("=FIRMA.STARE('Alte date'!A1)"), cell("=FIRMA.STARE(Foaie1!A2)"), cell("=FIRMA.STARE(Rezumat!A2:A9)")]),
    ).toEqual(["Alte date", "Rezumat"]);
  });

  test("only formulas that name the namespace are looked at", () => {
    expect([
      mentionsFirma("=FIRMA.CA(A1)"),
      mentionsFirma("=firma.ca(A1)"),
      mentionsFirma("=SUM(A1)"),
      mentionsFirma("FIRMA.CA"),
      mentionsFirma(12),
    ]).toEqual([true, true, false, false, false]);
  });
});

test("cells are recalculated in vertical runs, per sheet", () => {
  const at = (sheet: string, row: number, col: number) => cell("=FIRMA.CA(A1)", sheet, row, col);
  const runs = runAreas([
    at("Foaie1", 2, 2),
    at("Foaie1", 3, 2),
    at("Foaie1", 4, 2),
    at("Foaie1", 7, 2),
    at("Foaie1", 2, 28),
    at("foaie1", 9, 2),
    at("Rezumat", 1, 1),
  ]);
  expect(runs.map((a) => [a.sheet, addressOf(a)])).toEqual([
    ["Foaie1", "B2:B4"],
    ["Foaie1", "B7"],
    ["Foaie1", "B9"],
    ["Foaie1", "AB2"],
    ["Rezumat", "A1"],
  ]);
});
