/**
 * The flows' workbook adapter (src/taskpane/flows/excel-flow-sheet.ts) against the Excel stand-in
 * (test/support/excel/, the bundle the browser tests inject), run in Node: every selection a flow must
 * refuse, each before anything is read for the service — several areas
 * (Workbook.getSelectedRanges, ExcelApi 1.9), a protected sheet (WorksheetProtection.protected, 1.2),
 * hidden rows (Range.rowHidden, 1.2), an Excel table (Worksheet.tables) — and a whole-column
 * selection cut to the used range, its first row the header.
 */
import * as vm from "vm";
import { standInScript } from "../support/excel/bundle";
import { ExcelFlowSheet } from "../../src/taskpane/flows/excel-flow-sheet";
import { checkSelection, SHEET_ROWS, type RawSelection } from "../../src/taskpane/flows/flow-sheet";
import type { StandIn } from "./harness";

const STANDIN = standInScript();

type NodeStandIn = StandIn;

function excel(excelApi = "1.17"): NodeStandIn {
  const win: Record<string, unknown> = { setTimeout, clearTimeout, console, fetch: () => Promise.reject(new Error("no fetch here")) };
  win.window = win;
  win.top = win;
  vm.runInContext(STANDIN, vm.createContext(win));
  const S = win.__firmaStandIn as NodeStandIn;
  S.excelApi = excelApi;
  S.meta = [];
  S.metaPromise = Promise.resolve();
  (globalThis as Record<string, unknown>).Excel = win.Excel;
  return S;
}

const atLeast = (have: string) => (v: string) => Number(have.split(".")[1]) >= Number(v.split(".")[1]);
const flowSheet = (S: NodeStandIn) => new ExcelFlowSheet(atLeast(S.excelApi));
const LIMITS = { maxCols: 2, maxRows: 1000, width: 3 };

const names = (n: number, top = 2) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`A${top + i}`, `Firma ${i + 1} SRL`]));

describe("a selection a flow reads", () => {
  test("a plain column: its values, the header row above it", async () => {
    const S = excel();
    await S.setup({ sheets: { Foaie1: { A1: "Denumire", ...names(3) } }, selection: "Foaie1!A2:A4" });
    const s = await flowSheet(S).selection(LIMITS);
    expect(s).toEqual({
      sheet: "Foaie1",
      top: 2,
      left: 1,
      rows: 3,
      cols: 1,
      headerRow: 1,
      wholeColumns: false,
      values: [["Firma 1 SRL"], ["Firma 2 SRL"], ["Firma 3 SRL"]],
    });
  });

  test("whole columns are cut to the used range, whose first row is the header", async () => {
    const S = excel();
    await S.setup({ sheets: { Foaie1: { A3: "Denumire", ...names(4, 4), B9: "x" } }, selection: "Foaie1!A:A" });
    const s = await flowSheet(S).selection(LIMITS);
    expect(s).toMatchObject({ top: 4, rows: 6, headerRow: 3, wholeColumns: true });
    expect((s as { values: unknown[][] }).values.map((r) => r[0])).toEqual([
      "Firma 1 SRL",
      "Firma 2 SRL",
      "Firma 3 SRL",
      "Firma 4 SRL",
      "",
      "",
    ]);
    // an empty sheet's whole column is empty
    await S.setup({ sheets: { Foaie1: {} }, selection: "Foaie1!A:A" });
    expect(await flowSheet(S).selection(LIMITS)).toEqual({ problem: "empty" });
  });

  test.each([
    ["several areas (Ctrl+click)", { selection: "Foaie1!A2:A3,Foaie1!A5:A6" }, "several_areas"],
    ["a protected sheet", { protected: ["Foaie1"] }, "protected"],
    ["a hidden (filtered) row among those selected", { hiddenRows: { Foaie1: [3] } }, "hidden_rows"],
    ["an Excel table over the selection", { tables: { Foaie1: ["A1:A5"] } }, "table"],
    ["an Excel table where the flow would write", { tables: { Foaie1: ["C1:D9"] } }, "table"],
    ["three columns where two are read", { selection: "Foaie1!A2:C4" }, "too_wide"],
  ])("%s is refused, with nothing read of the cells", async (_what, extra, problem) => {
    const S = excel();
    await S.setup({ sheets: { Foaie1: { A1: "Denumire", ...names(4) } }, selection: "Foaie1!A2:A5", ...extra });
    S.reads.length = 0;
    expect(await flowSheet(S).selection(LIMITS)).toEqual({ problem });
    expect(S.reads).toEqual([]);
  });

  test("a table far to the right, or hidden rows outside the selection, are no problem", async () => {
    const S = excel();
    await S.setup({
      sheets: { Foaie1: { A1: "Denumire", ...names(4) } },
      selection: "Foaie1!A2:A5",
      tables: { Foaie1: ["H1:I9"] },
      hiddenRows: { Foaie1: [9] },
    });
    expect(await flowSheet(S).selection(LIMITS)).toMatchObject({ rows: 4 });
  });

  test("more rows than a flow takes is refused (the used range of a whole column counts)", async () => {
    const S = excel();
    await S.setup({ sheets: { Foaie1: { A1: "Denumire", ...names(1000) } }, selection: "Foaie1!A:A" });
    expect(await flowSheet(S).selection(LIMITS)).toMatchObject({ rows: 1000 });
    await S.setup({ sheets: { Foaie1: { A1: "Denumire", ...names(1001) } }, selection: "Foaie1!A:A" });
    expect(await flowSheet(S).selection(LIMITS)).toEqual({ problem: "too_many" });
  });

  test("checkSelection: the rules without Excel", () => {
    const base: RawSelection = {
      sheet: "S",
      top: 1,
      left: 1,
      rows: SHEET_ROWS,
      cols: 1,
      areas: 1,
      protected: false,
      used: { top: 1, bottom: 1 },
      hiddenRows: false,
      inTable: false,
    };
    expect(checkSelection(base, LIMITS)).toEqual({ problem: "empty" }); // a header and nothing under it
    expect(checkSelection({ ...base, used: { top: 1, bottom: 1001 } }, LIMITS)).toMatchObject({ box: { rows: 1000 } });
    expect(checkSelection({ ...base, used: { top: 1, bottom: 1002 } }, LIMITS)).toEqual({ problem: "too_many" });
  });

  test("a write to a protected sheet fails with AccessDenied (the stand-in)", async () => {
    const S = excel();
    await S.setup({ sheets: { Foaie1: { A1: "x" } }, protected: ["Foaie1"] });
    await expect(
      flowSheet(S).write([{ area: { sheet: "Foaie1", top: 1, left: 2, rows: 1, cols: 1 }, property: "values", data: [[1]] }]),
    ).rejects.toMatchObject({ code: "AccessDenied" });
    expect(S.cell("Foaie1", "B1").value).toBe("");
  });

  test("the active cell, how many cells are not empty, and what still calculates", async () => {
    const S = excel();
    await S.setup({
      sheets: { Foaie1: { B2: 1, B4: "=B2", C3: { formula: "=FIRMA.DENUMIRE(B2)", value: "#BUSY!", error: true } } },
      selection: "Foaie1!B3:C5",
    });
    const f = flowSheet(S);
    expect(await f.active()).toEqual({ sheet: "Foaie1", row: 3, col: 2, protected: false, inTable: false });
    expect(await f.nonEmpty([{ sheet: "Foaie1", top: 2, left: 2, rows: 4, cols: 2 }])).toBe(3);
    expect(await f.state([{ sheet: "Foaie1", top: 2, left: 2, rows: 4, cols: 2 }])).toEqual({ busy: 1, errors: 0 });
  });
});
