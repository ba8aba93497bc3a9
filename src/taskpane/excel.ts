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
import { colToLetters } from "../cli/a1";
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

export interface WorkbookHost {
  scan(scope: Scope): Promise<WorkbookScan>;
  recalculate(cells: readonly FormulaCell[]): Promise<void>;
  state(cells: readonly FormulaCell[]): Promise<CellsState>;
  freezeSelection(): Promise<FreezeResult>;
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
 * Cells read per request: Excel on the web refuses answers over about 5 MB, so a large used range
 * is read in blocks of whole rows.
 */
export const CELLS_PER_READ = 40_000;

const emptySheet = (name: string): SheetData => ({ name, top: 1, left: 1, values: [], formulas: [], types: [] });

/** A sheet's used range (values, and formulas and value types when asked), read in blocks of rows. */
async function readUsed(context: Excel.RequestContext, ws: Excel.Worksheet, name: string, withFormulas: boolean): Promise<SheetData> {
  const used = ws.getUsedRangeOrNullObject();
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
  const rowsPerRead = Math.max(1, Math.floor(CELLS_PER_READ / used.columnCount));
  for (let r = 0; r < used.rowCount; r += rowsPerRead) {
    const block = ws.getRangeByIndexes(used.rowIndex + r, used.columnIndex, Math.min(rowsPerRead, used.rowCount - r), used.columnCount);
    // The properties are loaded (the rule cannot read a conditional list), and a sheet is read block
    // by block on purpose: one sync per 40,000 cells bounds the memory a large sheet takes.
    /* eslint-disable office-addins/no-empty-load, office-addins/no-context-sync-in-loop, office-addins/load-object-before-read */
    block.load(withFormulas ? ["values", "formulas", "valueTypes"] : ["values"]);
    await context.sync();
    out.values.push(...block.values);
    if (withFormulas) {
      out.formulas!.push(...block.formulas);
      out.types!.push(...(block.valueTypes as string[][]));
    }
    /* eslint-enable office-addins/no-empty-load, office-addins/no-context-sync-in-loop, office-addins/load-object-before-read */
  }
  return out;
}

/** The Excel implementation of WorkbookHost. */
export class ExcelWorkbook implements WorkbookHost {
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
}
