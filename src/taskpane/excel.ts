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
import { readAreas, writeAreas, MAX_ACTIONS, type Area, type Write } from "./blocks";
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
  /** Cards (entity values) written as their text: an Excel without Range.valuesAsJson (ExcelApi 1.16). */
  cardsAsText: number;
  /** FIRMA formulas left as they were because a write failed part way (0 when all went). */
  left: number;
  /** Why the write failed part way (Excel's error code), when `left` > 0. */
  failure?: string;
}

/** What this Excel lacks for a part of the pane: the missing requirement set ("ExcelApi 1.7"), or null. */
export interface HostSupport {
  /** Finding and refreshing FIRMA formulas (scan, recalculate, state). */
  refresh: string | null;
  /** Freezing the selection's FIRMA formulas to values. */
  freeze: string | null;
  /** Freezing keeps cards as cards and every value's type (Range.valuesAsJson, ExcelApi 1.16); else cards become their text. */
  freezeKeepsCards: boolean;
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
  /** Range.valuesAsJson: a freeze that keeps every value's type, cards included */
  valuesAsJson: "1.16",
} as const;

const emptySheet = (name: string): SheetData => ({ name, top: 1, left: 1, values: [], formulas: [], types: [] });

/**
 * A sheet's used range (values, and formulas and value types when asked), read in blocks of rows
 * under the web's payload limit (blocks.ts). The used range counts cells with values only
 * (`valuesOnly`: a formula always has a value), so rows that only carry formatting are not read.
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
  const area: Area = { sheet: name, top: out.top, left: out.left, rows: used.rowCount, cols: used.columnCount };
  await readAreas(context, [area], withFormulas ? ["values", "formulas", "valueTypes"] : ["values"], (_block, range) => {
    out.values.push(...range.values);
    if (withFormulas) {
      out.formulas!.push(...range.formulas);
      out.types!.push(...(range.valueTypes as string[][]));
    }
  });
  return out;
}

/** FIRMA cells as areas: per sheet and column, runs of consecutive rows ("B2:B40"), so that Excel is asked for few ranges. */
export function runAreas(cells: readonly FormulaCell[]): Area[] {
  const bySheet = new Map<string, { name: string; cols: Map<number, number[]> }>();
  for (const c of cells) {
    const s = bySheet.get(key(c.sheet)) ?? bySheet.set(key(c.sheet), { name: c.sheet, cols: new Map() }).get(key(c.sheet))!;
    (s.cols.get(c.col) ?? s.cols.set(c.col, []).get(c.col)!).push(c.row);
  }
  const out: Area[] = [];
  for (const { name, cols } of bySheet.values()) {
    for (const [col, rows] of cols) {
      const sorted = [...new Set(rows)].sort((a, b) => a - b);
      let start = sorted[0];
      for (let i = 1; i <= sorted.length; i++) {
        if (i < sorted.length && sorted[i] === sorted[i - 1] + 1) continue;
        out.push({ sheet: name, top: start, left: col, rows: sorted[i - 1] - start + 1, cols: 1 });
        start = sorted[i];
      }
    }
  }
  return out;
}

export const addressOf = (a: Area): string => {
  const first = `${colToLetters(a.left)}${a.top}`;
  return a.rows === 1 && a.cols === 1 ? first : `${first}:${colToLetters(a.left + a.cols - 1)}${a.top + a.rows - 1}`;
};

/** A spilled result's area, and the row of the formula that spills it. */
interface SpillArea extends Area {
  anchorRow: number;
}

/** A cell value JSON with what Excel does not take back removed: an entity's basicValue and basicType are read-only. */
function writable(v: Excel.CellValue): Excel.CellValue {
  if (v.type !== "Entity") return v;
  const { basicValue: _v, basicType: _t, ...rest } = v as Excel.EntityCellValue & { basicValue?: unknown };
  return rest as Excel.CellValue;
}

const isBusyJson = (v: Excel.CellValue): boolean =>
  v.type === "Error" && ((v as Excel.ErrorCellValue).errorType === "Busy" || (v as Excel.ErrorCellValue).errorType === "GettingData");

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
      freezeKeepsCards: this.hasExcelApi(EXCEL_API.valuesAsJson),
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
      // At most MAX_ACTIONS ranges a sync: the request of a scattered selection stays small (blocks.ts).
      const runs = runAreas(cells);
      for (let i = 0; i < runs.length; i += MAX_ACTIONS) {
        for (const a of runs.slice(i, i + MAX_ACTIONS)) context.workbook.worksheets.getItem(a.sheet).getRange(addressOf(a)).calculate();
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per block, each under the web's limit
        await context.sync();
      }
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
      // Read, then written back, in blocks under the web's limit (blocks.ts).
      const writes: Write[] = [];
      await readAreas(context, runAreas(cells), ["formulas"], (area, range) =>
        writes.push({ area, property: "formulas", data: range.formulas }),
      );
      await writeAreas(context, writes);
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
      // Each run's dependents, as areas per sheet with their cell counts (not their addresses: a long
      // column's would weigh megabytes).
      const found: Excel.WorkbookRangeAreas[] = [];
      for (const a of runAreas(cells)) {
        const deps = context.workbook.worksheets.getItem(a.sheet).getRange(addressOf(a)).getDependents();
        deps.areas.load("items/cellCount");
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
      let count = 0;
      let pending = 0;
      for (const deps of found)
        for (const areas of deps.areas.items) {
          areas.calculate();
          count += areas.cellCount;
          // At most MAX_ACTIONS calculations a sync (blocks.ts).
          if (++pending >= MAX_ACTIONS) {
            pending = 0;
            // eslint-disable-next-line office-addins/no-context-sync-in-loop
            await context.sync();
          }
        }
      await context.sync();
      return count;
    });
  }

  /**
   * How many of `cells` still calculate and how many show an error, read in blocks under the web's
   * limit. By `text`, what the cell shows: a card (FIRMA.FISA) reads as the #VALUE! error in
   * `values` and `valueTypes` (an entity's basicType and basicValue,
   * https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue) but shows its name, and is no error.
   */
  state(cells: readonly FormulaCell[]): Promise<CellsState> {
    if (cells.length === 0) return Promise.resolve({ busy: 0, errors: 0 });
    return Excel.run(async (context) => {
      let busy = 0;
      let errors = 0;
      // values: the error's code (#BUSY! while calculating); text: what the cell shows, in the user's
      // language (every error's shown name starts with "#", a card's is the company's name).
      await readAreas(context, runAreas(cells), ["values", "valueTypes", "text"], (_area, range) => {
        range.values.forEach((row, i) =>
          row.forEach((v, j) => {
            const shown = range.text[i][j];
            if (isBusyValue(v) || isBusyValue(shown)) busy++;
            else if (range.valueTypes[i][j] === "Error" && shown.startsWith("#")) errors++;
          }),
        );
      });
      return { busy, errors };
    });
  }

  /**
   * Freeze: the selection's FIRMA formulas replaced by exactly what they show. `Range.values` takes
   * what it is given as typed input (a string starting with "=" becomes a formula, "0111" the number
   * 111; https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member),
   * and reads a card as its #VALUE! basic value, so `cell.values = cell.values` would damage data. So:
   *  - where Excel has `Range.valuesAsJson` (ExcelApi 1.16: "supports all data types which can be in a
   *    cell"), each cell's value JSON is written back: text stays text, a number a number, a card a card
   *    (its read-only basicValue and basicType left out);
   *  - elsewhere the values are written with the text cells formatted "@" first (the other cells'
   *    formats kept), and a card as its text (`cardsAsText`; the pane says so before asking).
   * Everything is read before anything is written (a cell still calculating stops the freeze whole),
   * in blocks under the web's 5 MB limit (blocks.ts). A write that fails part way leaves the rest as
   * formulas and says how many (`left`): what is frozen shows what it showed, nothing is lost.
   */
  freezeSelection(): Promise<FreezeResult> {
    const json = this.hasExcelApi(EXCEL_API.valuesAsJson);
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
      const none: FreezeResult = { frozen: 0, busy: false, cardsAsText: 0, left: 0 };
      const cells = firmaCells(await readUsed(context, ws, ws.name, true), within);
      if (cells.length === 0) return none;
      if (cells.some((c) => isBusyValue(c.value))) return { ...none, busy: true };

      // A formula that spills is frozen with its whole result area (the anchor holds the formula).
      const spills: SpillArea[] = [];
      const single: FormulaCell[] = [];
      for (let i = 0; i < cells.length; i += MAX_ACTIONS) {
        const part = cells.slice(i, i + MAX_ACTIONS);
        const probes = part.map((c) =>
          ws
            .getCell(c.row - 1, c.col - 1)
            .getSpillingToRangeOrNullObject()
            .load(["rowCount", "columnCount"]),
        );
        // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per block of probes, each under the web's limit
        await context.sync();
        probes.forEach((p, j) => {
          const c = part[j];
          if (p.isNullObject || (p.rowCount === 1 && p.columnCount === 1)) single.push(c);
          else spills.push({ sheet: ws.name, top: c.row, left: c.col, rows: p.rowCount, cols: p.columnCount, anchorRow: c.row });
        });
      }

      // Read everything first.
      const read: { area: Area; range: Excel.Range }[] = [];
      const props = json ? ["valuesAsJson"] : ["values", "valueTypes", "text", "numberFormat"];
      await readAreas(context, [...runAreas(single), ...spills], props, (area, range) => read.push({ area, range }));

      const writes: Write[] = [];
      const anchors = new Map<Write, number>();
      let cardsAsText = 0;
      for (const { area, range } of read) {
        const a = area as Area & Partial<SpillArea>;
        const held = a.anchorRow === undefined ? a.rows : a.anchorRow >= a.top && a.anchorRow < a.top + a.rows ? 1 : 0;
        if (json) {
          const data = range.valuesAsJson;
          if (data.some((row) => row.some(isBusyJson))) return { ...none, busy: true };
          const w: Write = { area, property: "valuesAsJson", data: data.map((row) => row.map(writable)) };
          writes.push(w);
          anchors.set(w, held);
          continue;
        }
        const { values, valueTypes, text, numberFormat } = range;
        if (text.some((row) => row.some(isBusyValue))) return { ...none, busy: true };
        // A card reads as #VALUE! but shows its name: it becomes that text. An error is written as its code (typed, it is the error).
        const isCard = (i: number, j: number) => valueTypes[i][j] === "Error" && !text[i][j].startsWith("#");
        const out = values.map((row, i) => row.map((v, j) => (isCard(i, j) ? (cardsAsText++, text[i][j]) : v)));
        const asText = (i: number, j: number) =>
          typeof out[i][j] === "string" && out[i][j] !== "" && (isCard(i, j) || valueTypes[i][j] !== "Error");
        if (out.some((row, i) => row.some((_v, j) => asText(i, j) && numberFormat[i][j] !== "@"))) {
          writes.push({ area, property: "numberFormat", data: numberFormat.map((row, i) => row.map((f, j) => (asText(i, j) ? "@" : f))) });
        }
        const w: Write = { area, property: "values", data: out };
        writes.push(w);
        anchors.set(w, held);
      }

      let frozen = 0;
      const written = new Map<Write, number>();
      try {
        await writeAreas(context, writes, (w, rows) => {
          const n = (written.get(w) ?? 0) + rows;
          written.set(w, n);
          if (n === w.data.length) frozen += anchors.get(w) ?? 0;
        });
      } catch (e) {
        const code = (e as { code?: unknown } | null)?.code;
        return { frozen, busy: false, cardsAsText, left: cells.length - frozen, failure: typeof code === "string" ? code : "Error" };
      }
      return { frozen: cells.length, busy: false, cardsAsText, left: 0 };
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
        await this.fillSheet(context, unique, rows, textColumns);
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
    sheet: string,
    rows: readonly (readonly (string | number)[])[],
    textColumns: readonly number[],
  ): Promise<void> {
    const width = Math.max(1, ...rows.map((r) => r.length));
    const all = (top: number, cols: number, left = 1): Area => ({ sheet, top, left, rows: rows.length, cols });
    // Range.values: "If the returned value starts with a plus ("+"), minus ("-"), or equal sign ("="),
    // Excel interprets this value as a formula" (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member):
    // a company's data is text, so its columns get the text format ("@") before the values. In blocks
    // under the web's 5 MB limit, which holds for requests too (blocks.ts).
    const writes: Write[] = textColumns.map((col) => ({ area: all(1, 1, col + 1), property: "numberFormat", data: rows.map(() => ["@"]) }));
    writes.push({ area: all(1, width), property: "values", data: rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]) });
    await writeAreas(context, writes);
  }
}
