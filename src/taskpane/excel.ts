/**
 * The pane's only contact with the workbook: finds FIRMA formulas (in the whole workbook or the
 * selection) with the values their references point at, recalculates cells, reports which are
 * still calculating, and freezes formulas to values. Everything goes through `Excel.run`; the
 * pane's logic sees only the `WorkbookHost` interface, so it runs against a stand-in in tests.
 *
 * Rows and columns are 1-based here as in the formulas; Excel's rowIndex/columnIndex are 0-based.
 * This module never writes document settings, custom XML parts or anything else but the values
 * of the cells being frozen: the API key has no way into the workbook.
 */
import { colToLetters } from "../shared/sheet/a1";
import { CellValues, FormulaCell, isBusyValue, mentionsFirma, referencedSheets } from "./refresh";

export type Scope = "all" | "selection";

export interface WorkbookScan extends CellValues {
  scope: Scope;
  /** The FIRMA formula cells in scope. */
  cells: FormulaCell[];
}

export interface CellsState {
  /** Cells still calculating (#BUSY!). */
  busy: number;
  /** Cells showing an error. */
  errors: number;
}

export interface FreezeResult {
  /** FIRMA formulas replaced by their values. */
  frozen: number;
  /** Nothing was changed because some FIRMA cells were still calculating. */
  busy: boolean;
}

/** What this Excel lacks for a part of the pane: the missing requirement set ("ExcelApi 1.7"), or null. */
export interface HostSupport {
  /** Finding and refreshing FIRMA formulas (scan, recalculate, state). */
  refresh: string | null;
  /** Freezing the selection's FIRMA formulas to values. */
  freeze: string | null;
}

export interface WorkbookHost {
  /** What the pane may offer in this Excel (checked at run time, not in the manifest: see docs/excel.md). */
  support(): HostSupport;
  scan(scope: Scope): Promise<WorkbookScan>;
  /** Asks Excel to calculate the FIRMA cells `cells` again (Range.calculate). */
  recalculate(cells: readonly FormulaCell[]): Promise<void>;
  /**
   * Enters the formulas of `cells` again: Excel calculates a formula that is entered. The fallback
   * when `recalculate` did not make Excel run the functions (docs/excel.md, "Refresh").
   */
  reenter(cells: readonly FormulaCell[]): Promise<void>;
  /**
   * After `cells` have settled: recalculates the cells that depend on them, all the way down, and
   * only those (no workbook-wide calculation). Returns how many dependent cells were recalculated,
   * or null when this Excel cannot find dependents (ExcelApi 1.15 missing).
   */
  recalculateDependents(cells: readonly FormulaCell[]): Promise<number | null>;
  state(cells: readonly FormulaCell[]): Promise<CellsState>;
  freezeSelection(): Promise<FreezeResult>;
  /**
   * Adds a worksheet named `name` (or "name (2)", … when taken), writes `rows` from A1 as constants
   * (never formulas), activates it and returns its name. `textColumns`: the columns written as text.
   */
  writeSheet(name: string, rows: readonly (readonly (string | number)[])[], textColumns: readonly number[]): Promise<string>;
}

/** A sheet's used range as loaded: values (and formulas/types when asked) from (top, left). */
interface SheetData {
  name: string;
  top: number;
  left: number;
  values: unknown[][];
  formulas?: unknown[][];
  types?: string[][];
}

interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const key = (sheet: string) => sheet.toLowerCase();

function valuesOf(sheets: Map<string, SheetData>): CellValues {
  return {
    hasSheet: (sheet) => sheets.has(key(sheet)),
    valueAt: (sheet, row, col) => {
      const s = sheets.get(key(sheet));
      if (!s) return "";
      const v = s.values[row - s.top]?.[col - s.left];
      return v === undefined || v === null ? "" : v;
    },
    extent: (sheet) => {
      const s = sheets.get(key(sheet));
      if (!s || s.values.length === 0) return { rows: 0, cols: 0 };
      return { rows: s.top + s.values.length - 1, cols: s.left + s.values[0].length - 1 };
    },
  };
}

/** The FIRMA formula cells of a loaded sheet, optionally only inside a box. */
function firmaCells(s: SheetData, within: Box | null): FormulaCell[] {
  const out: FormulaCell[] = [];
  s.formulas?.forEach((row, i) =>
    row.forEach((f, j) => {
      if (!mentionsFirma(f)) return;
      const r = s.top + i;
      const c = s.left + j;
      if (within && (r < within.top || r > within.bottom || c < within.left || c > within.right)) return;
      out.push({ sheet: s.name, row: r, col: c, formula: f, value: s.values[i][j], error: s.types?.[i]?.[j] === "Error" });
    }),
  );
  return out;
}

/** Cells grouped per sheet into vertical runs ("B2:B40"), so recalculation takes few ranges. */
export function runsOf(cells: readonly FormulaCell[]): Map<string, string[]> {
  const bySheet = new Map<string, { name: string; cols: Map<number, number[]> }>();
  for (const c of cells) {
    const s = bySheet.get(key(c.sheet)) ?? bySheet.set(key(c.sheet), { name: c.sheet, cols: new Map() }).get(key(c.sheet))!;
    (s.cols.get(c.col) ?? s.cols.set(c.col, []).get(c.col)!).push(c.row);
  }
  const out = new Map<string, string[]>();
  for (const { name, cols } of bySheet.values()) {
    const ranges: string[] = [];
    for (const [col, rows] of cols) {
      const sorted = [...new Set(rows)].sort((a, b) => a - b);
      let start = sorted[0];
      for (let i = 1; i <= sorted.length; i++) {
        if (i < sorted.length && sorted[i] === sorted[i - 1] + 1) continue;
        const end = sorted[i - 1];
        const a = `${colToLetters(col)}${start}`;
        ranges.push(start === end ? a : `${a}:${colToLetters(col)}${end}`);
        start = sorted[i];
      }
    }
    out.set(name, ranges);
  }
  return out;
}

/**
 * Excel on the web refuses a request or an answer over 5 MB ("Excel add-ins" in
 * https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization ;
 * the error code is `ResponsePayloadSizeLimitExceeded`, Excel.ErrorCodes). A sheet is read in blocks
 * of whole rows sized from what the previous block weighed, so that each answer stays near
 * READ_BUDGET_BYTES, well under the limit; a block refused anyway is read again in halves.
 */
export const PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
export const READ_BUDGET_BYTES = 2 * 1024 * 1024;
/** The first block of a sheet, before anything is known of its cells' weight. */
export const FIRST_READ_CELLS = 5_000;

/** The ExcelApi sets the pane's calls need, with the members that need them (docs/excel.md). */
export const EXCEL_API = {
  /** Worksheet.getUsedRangeOrNullObject, WorksheetCollection.getItemOrNullObject */
  usedRange: "1.4",
  /** Range.calculate */
  calculate: "1.6",
  /** Worksheet.getRangeByIndexes */
  byIndexes: "1.7",
  /** RangeAreas.calculate */
  areas: "1.9",
  /** Range.getSpillingToRangeOrNullObject */
  spill: "1.12",
  /** Range.getDependents */
  dependents: "1.15",
} as const;

/** Bytes a JSON answer of these arrays takes (what Excel on the web counts against its limit). */
function weight(...parts: unknown[]): number {
  let n = 0;
  for (const p of parts) if (p !== undefined) n += JSON.stringify(p).length;
  return n;
}

function isPayloadTooLarge(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "ResponsePayloadSizeLimitExceeded" || code === "RequestPayloadSizeLimitExceeded";
}

const emptySheet = (name: string): SheetData => ({ name, top: 1, left: 1, values: [], formulas: [], types: [] });

/**
 * A sheet's used range (values, and formulas and value types when asked), read in blocks of rows.
 * The used range counts cells with values only (`valuesOnly`: a formula always has a value), so
 * rows that only carry formatting are not read.
 */
async function readUsed(context: Excel.RequestContext, ws: Excel.Worksheet, name: string, withFormulas: boolean): Promise<SheetData> {
  const used = ws.getUsedRangeOrNullObject(true);
  used.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
  await context.sync();
  if (used.isNullObject) return emptySheet(name);
  const out: SheetData = {
    name,
    top: used.rowIndex + 1,
    left: used.columnIndex + 1,
    values: [],
    formulas: withFormulas ? [] : undefined,
    types: withFormulas ? [] : undefined,
  };
  const cols = used.columnCount;
  let rows = Math.max(1, Math.floor(FIRST_READ_CELLS / cols));
  for (let r = 0; r < used.rowCount;) {
    const count = Math.min(rows, used.rowCount - r);
    const block = ws.getRangeByIndexes(used.rowIndex + r, used.columnIndex, count, cols);
    // The properties are loaded (the rule cannot read a conditional list), and a sheet is read block
    // by block on purpose: one sync per block bounds each answer's size and the memory it takes.
    /* eslint-disable office-addins/no-empty-load, office-addins/no-context-sync-in-loop, office-addins/load-object-before-read */
    block.load(withFormulas ? ["values", "formulas", "valueTypes"] : ["values"]);
    try {
      await context.sync();
    } catch (e) {
      if (!isPayloadTooLarge(e) || count === 1) throw e;
      rows = Math.max(1, Math.floor(count / 2));
      continue;
    }
    out.values.push(...block.values);
    if (withFormulas) {
      out.formulas!.push(...block.formulas);
      out.types!.push(...(block.valueTypes as string[][]));
    }
    const bytes = weight(block.values, withFormulas ? block.formulas : undefined, withFormulas ? block.valueTypes : undefined);
    /* eslint-enable office-addins/no-empty-load, office-addins/no-context-sync-in-loop, office-addins/load-object-before-read */
    r += count;
    // The next block: as many rows as the budget holds at this block's weight per row.
    rows = Math.max(1, Math.floor(READ_BUDGET_BYTES / Math.max(1, bytes / count)));
  }
  return out;
}

/** `Office.context.requirements.isSetSupported` for ExcelApi, as the pane asks it at run time. */
export type ExcelApiCheck = (version: string) => boolean;

const officeCheck: ExcelApiCheck = (version) => {
  // https://learn.microsoft.com/office/dev/add-ins/develop/specify-api-requirements-runtime
  // (the version as a string: "1.10" is not the number 1.1)
  const req = typeof Office !== "undefined" ? Office.context?.requirements : undefined;
  return !!req && req.isSetSupported("ExcelApi", version);
};

/** The Excel implementation of WorkbookHost. */
export class ExcelWorkbook implements WorkbookHost {
  constructor(private readonly hasExcelApi: ExcelApiCheck = officeCheck) {}

  support(): HostSupport {
    const missing = (...versions: string[]) => {
      const v = versions.find((x) => !this.hasExcelApi(x));
      return v ? `ExcelApi ${v}` : null;
    };
    return {
      refresh: missing(EXCEL_API.usedRange, EXCEL_API.calculate, EXCEL_API.byIndexes),
      freeze: missing(EXCEL_API.usedRange, EXCEL_API.byIndexes, EXCEL_API.spill),
    };
  }

  scan(scope: Scope): Promise<WorkbookScan> {
    return Excel.run(async (context) => {
      const sheets = new Map<string, SheetData>();
      let within: Box | null = null;

      if (scope === "all") {
        const all = context.workbook.worksheets;
        all.load("items/name");
        await context.sync();
        for (const ws of all.items) sheets.set(key(ws.name), await readUsed(context, ws, ws.name, true));
      } else {
        const sel = context.workbook.getSelectedRange();
        // `worksheet` is a navigation property: a proxy, nothing to load or sync before using it.
        // eslint-disable-next-line office-addins/call-sync-before-read, office-addins/load-object-before-read
        const ws = sel.worksheet;
        sel.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
        ws.load("name");
        await context.sync();
        within = {
          top: sel.rowIndex + 1,
          left: sel.columnIndex + 1,
          bottom: sel.rowIndex + sel.rowCount,
          right: sel.columnIndex + sel.columnCount,
        };
        sheets.set(key(ws.name), await readUsed(context, ws, ws.name, true));
      }
      const cells: FormulaCell[] = [];
      for (const s of sheets.values()) cells.push(...firmaCells(s, within));

      // Sheets the formulas refer to that are not read yet: their values only.
      for (const name of referencedSheets(cells)) {
        if (sheets.has(key(name))) continue;
        const ws = context.workbook.worksheets.getItemOrNullObject(name);
        ws.load("name");
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- rare: only sheets that formulas name and that were not read
        await context.sync();
        if (!ws.isNullObject) sheets.set(key(ws.name), await readUsed(context, ws, ws.name, false));
      }
      return { scope, cells, ...valuesOf(sheets) };
    });
  }

  /**
   * How a refresh makes Excel run the FIRMA functions again (docs/excel.md, "Refresh"): no Microsoft
   * page promises that any calculate method re-runs a non-volatile custom function whose arguments
   * did not change. `Range.calculate()` on the FIRMA cells only (ExcelApi 1.6, "Calculates a range of
   * cells on a worksheet") is what the office-js issues show doing it (office-js #576, #3108), and it
   * touches no other cell or workbook; `Worksheet.calculate(true)` (Excel-Custom-Functions #298)
   * would re-run every volatile formula of the sheet, `Application.calculate` every open workbook.
   * Because no page promises it, the pane checks that the functions did run (engine.lookups()) and
   * otherwise calls reenter().
   */
  recalculate(cells: readonly FormulaCell[]): Promise<void> {
    if (cells.length === 0) return Promise.resolve();
    return Excel.run(async (context) => {
      for (const [sheet, ranges] of runsOf(cells)) {
        const ws = context.workbook.worksheets.getItem(sheet);
        for (const address of ranges) ws.getRange(address).calculate();
      }
      await context.sync();
    });
  }

  /**
   * The same formulas entered again (`Range.formulas`, ExcelApi 1.1): Excel calculates a formula that
   * is entered, as when the user presses Enter. Only the FIRMA cells' runs are written; a spill's
   * anchor keeps its formula, so the spill comes back.
   */
  reenter(cells: readonly FormulaCell[]): Promise<void> {
    if (cells.length === 0) return Promise.resolve();
    return Excel.run(async (context) => {
      const ranges: Excel.Range[] = [];
      for (const [sheet, addresses] of runsOf(cells)) {
        const ws = context.workbook.worksheets.getItem(sheet);
        for (const address of addresses) ranges.push(ws.getRange(address).load("formulas"));
      }
      await context.sync();
      // eslint-disable-next-line no-self-assign -- entering the same formulas again is the point
      for (const range of ranges) range.formulas = range.formulas;
      await context.sync();
    });
  }

  /**
   * The cells that depend on refreshed FIRMA cells, recalculated once those have their new values.
   * `Range.calculate` is not documented to recalculate dependents, and office-js #5063/#6885 report
   * that it (and RangeAreas.calculate) reaches only direct ones; `Range.getDependents()` (ExcelApi
   * 1.15) returns every dependent cell, on any sheet, and `RangeAreas.calculate()` (1.9) calculates
   * exactly those — the workaround #5063 was given. Nothing else in any open workbook is calculated.
   */
  recalculateDependents(cells: readonly FormulaCell[]): Promise<number | null> {
    if (!this.hasExcelApi(EXCEL_API.dependents) || !this.hasExcelApi(EXCEL_API.areas)) return Promise.resolve(null);
    if (cells.length === 0) return Promise.resolve(0);
    return Excel.run(async (context) => {
      const found: Excel.WorkbookRangeAreas[] = [];
      for (const [sheet, ranges] of runsOf(cells)) {
        const ws = context.workbook.worksheets.getItem(sheet);
        for (const address of ranges) {
          const deps = ws.getRange(address).getDependents();
          deps.load("addresses");
          // getDependents throws ItemNotFound when a range has no dependents (the API reference), and
          // a failed sync fails every call in it: one sync per run, so one run without dependents
          // does not hide the others'.
          try {
            // eslint-disable-next-line office-addins/no-context-sync-in-loop
            await context.sync();
            found.push(deps);
          } catch (e) {
            if ((e as { code?: unknown }).code !== "ItemNotFound") throw e;
          }
        }
      }
      for (const deps of found) deps.areas.load("items/cellCount");
      await context.sync();
      let count = 0;
      for (const deps of found)
        for (const areas of deps.areas.items) {
          areas.calculate();
          count += areas.cellCount;
        }
      await context.sync();
      return count;
    });
  }

  state(cells: readonly FormulaCell[]): Promise<CellsState> {
    if (cells.length === 0) return Promise.resolve({ busy: 0, errors: 0 });
    return Excel.run(async (context) => {
      const ranges: Excel.Range[] = [];
      for (const [sheet, addresses] of runsOf(cells)) {
        const ws = context.workbook.worksheets.getItem(sheet);
        for (const address of addresses) ranges.push(ws.getRange(address).load(["values", "valueTypes"]));
      }
      await context.sync();
      let busy = 0;
      let errors = 0;
      for (const range of ranges) {
        range.values.forEach((row, i) =>
          row.forEach((v, j) => {
            if (isBusyValue(v)) busy++;
            else if (range.valueTypes[i][j] === "Error") errors++;
          }),
        );
      }
      return { busy, errors };
    });
  }

  freezeSelection(): Promise<FreezeResult> {
    return Excel.run(async (context) => {
      const sel = context.workbook.getSelectedRange();
      // eslint-disable-next-line office-addins/call-sync-before-read, office-addins/load-object-before-read -- a navigation property
      const ws = sel.worksheet;
      sel.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
      ws.load("name");
      await context.sync();
      const within = {
        top: sel.rowIndex + 1,
        left: sel.columnIndex + 1,
        bottom: sel.rowIndex + sel.rowCount,
        right: sel.columnIndex + sel.columnCount,
      };
      const cells = firmaCells(await readUsed(context, ws, ws.name, true), within);
      if (cells.length === 0) return { frozen: 0, busy: false };
      if (cells.some((c) => isBusyValue(c.value))) return { frozen: 0, busy: true };

      // A formula that spills writes its whole result area, so the spilled values stay.
      const targets = cells.map((c) => {
        const cell = ws.getCell(c.row - 1, c.col - 1);
        const spill = cell.getSpillingToRangeOrNullObject();
        spill.load("values");
        cell.load("values");
        return { cell, spill };
      });
      await context.sync();
      if (targets.some(({ cell, spill }) => (spill.isNullObject ? cell.values : spill.values).some((row) => row.some(isBusyValue)))) {
        return { frozen: 0, busy: true };
      }
      for (const { cell, spill } of targets) {
        // Freeze: writing the shown values over the formula (or its spill) replaces it with them.
        // eslint-disable-next-line no-self-assign
        if (spill.isNullObject) cell.values = cell.values;
        // eslint-disable-next-line no-self-assign
        else spill.values = spill.values;
      }
      await context.sync();
      return { frozen: cells.length, busy: false };
    });
  }

  writeSheet(name: string, rows: readonly (readonly (string | number)[])[], textColumns: readonly number[]): Promise<string> {
    return Excel.run(async (context) => {
      const sheets = context.workbook.worksheets;
      sheets.load("items/name");
      await context.sync();
      const taken = new Set(sheets.items.map((ws) => ws.name.toLowerCase()));
      const base = name.replace(/[:\\/?*[\]]/g, " ").slice(0, 31 - " (99)".length);
      let unique = base;
      for (let i = 2; taken.has(unique.toLowerCase()); i++) unique = `${base} (${i})`;
      // "Adds a new worksheet to the workbook. The worksheet will be added at the end of existing
      // worksheets." (WorksheetCollection.add, ExcelApi 1.1)
      const ws = sheets.add(unique);
      try {
        await this.fillSheet(context, ws, rows, textColumns);
      } catch (e) {
        // Whole or not at all: a sheet half written is taken away again ("Deletes the worksheet from
        // the workbook", Worksheet.delete, ExcelApi 1.1). If even that fails, the first error is the one to tell.
        try {
          ws.delete();
          await context.sync();
        } catch {
          /* the error below says the sheet could not be written */
        }
        throw e;
      }
      ws.activate();
      await context.sync();
      return unique;
    });
  }

  private async fillSheet(
    context: Excel.RequestContext,
    ws: Excel.Worksheet,
    rows: readonly (readonly (string | number)[])[],
    textColumns: readonly number[],
  ): Promise<void> {
    const width = Math.max(1, ...rows.map((r) => r.length));
    // Range.values: "If the returned value starts with a plus ("+"), minus ("-"), or equal sign
    // ("="), Excel interprets this value as a formula" (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member):
    // a company's data is text, so its columns get the text format ("@") before the values.
    for (const col of textColumns) ws.getRangeByIndexes(0, col, rows.length, 1).numberFormat = rows.map(() => ["@"]);
    // In blocks, each its own request: Excel on the web's 5 MB limit holds for requests too (docs/excel.md).
    const BLOCK = 1_000;
    for (let top = 0; top < rows.length; top += BLOCK) {
      const part = rows.slice(top, top + BLOCK).map((r) => [...r, ...Array<string>(width - r.length).fill("")]);
      ws.getRangeByIndexes(top, 0, part.length, width).values = part;
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one request per block, each under the 5 MB limit
      await context.sync();
    }
  }
}
