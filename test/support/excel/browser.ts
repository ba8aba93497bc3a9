/**
 * The Excel stand-in for the pane's browser tests and the bench, the entry bundle.ts makes into one
 * script that page.addInitScript injects before any script of the page runs (test/taskpane/harness.ts,
 * test/server/served.ts, bench/browser.ts; sheets.test.ts and standin-rules.test.ts run the same script
 * in Node). It is not part of the add-in. On `window` it puts:
 *
 * - `Excel.run(batch)` over an in-memory workbook (excel-api.ts; cells.ts, writes.ts, calculation.ts);
 * - `__firmaStandIn`: the workbook's state and settings (state.ts) and the API below, for the tests;
 *   its `attachOffice()` (office.ts) is appended to office.js by the test, so it runs after office.js
 *   and before functions.js.
 *
 * The ExcelApi requirement sets of `excelApi` (Office.context.requirements.isSetSupported answers from
 * it, and a method of a newer set fails at sync with ApiNotFound), Excel on the web's 5 MB answer limit,
 * formatting-only cells, `Range.getDependents()` with `RangeAreas`, and a few plain formulas (=B2,
 * =LEN(B2), =UPPER(B2), =B2&"x") so that dependents can be checked. Arguments are passed as Excel does,
 * from functions.json (functions-runtime.ts): a matrix parameter gets a 2-D array, an omitted optional
 * one null, an empty cell "". A result larger than one cell spills (or gives #SPILL! when blocked).
 */
import { colLetters, colNum, parseRef, rc } from "./a1";
import { EXTRAS } from "./sheet-extras";
import { calculateAll } from "./calculation";
import { cellAt, ensureCell, isEmpty, readValue, sheetOf } from "./cells";
import { Excel } from "./excel-api";
import { StandInError, type FunctionsJson } from "./functions-runtime";
import { attachOffice } from "./office";
import { S, type RichValue } from "./state";
import { setResult, writeCell } from "./writes";

/** A cell of `setup`'s definition: a constant or "=formula" typed in, or what a cell holds and shows. */
export type CellDef =
  | unknown
  | { formula: string; value?: unknown; rich?: Record<string, unknown>; error?: boolean }
  | { formula: string; result: unknown[][] }
  | { value: unknown }
  | { format: true };

export interface WorkbookDef {
  sheets: Record<string, Record<string, CellDef>>;
  /** "Sheet!B2:C4", "Sheet!A:A" (whole columns) or "A1:A3,C1:C3" (several areas). */
  selection?: string;
  /** Protected sheets' names; hidden rows by sheet; Excel tables by sheet (sheet-extras.ts). */
  protected?: string[];
  hiddenRows?: Record<string, number[]>;
  tables?: Record<string, string[]>;
}

/** One cell of `call`'s answer: an error as { error, message }. */
const matrixCell = (x: unknown): unknown => (x instanceof StandInError ? { error: x.code, message: x.message ?? "" } : x);
const matrixRow = (row: unknown): unknown[] => (Array.isArray(row) ? row.map(matrixCell) : [matrixCell(row)]);
/** `call`'s answer: the shown answer as a matrix. */
const asMatrix = (v: unknown): unknown => (Array.isArray(v) ? v.map(matrixRow) : [[matrixCell(v)]]);

const api = {
  /**
   * Replaces the workbook: `sheets` is { name: { A1: value | "=formula" | { formula, value, rich?, error? } |
   * { formula, result: [[…]] } (a spilled result) | { value } (a constant, not parsed) | { format: true } } },
   * the first sheet is active; `selection` like "Sheet!B2:C4".
   */
  async setup(def: WorkbookDef): Promise<void> {
    S.sheets.clear();
    S.order = [];
    for (const [name, cells] of Object.entries(def.sheets)) {
      const sheet = { name, cells: new Map() };
      S.sheets.set(name.toLowerCase(), sheet);
      S.order.push(name);
      for (const [addr, v] of Object.entries(cells)) {
        const { top, left } = parseRef(addr)!.box;
        const o = (v && typeof v === "object" ? v : null) as Record<string, unknown> | null;
        if (o && o.format && o.formula === undefined) {
          ensureCell(sheet, top, left).format = true; // formatting only, no value
        } else if (o && o.formula === undefined) {
          ensureCell(sheet, top, left).value = o.value; // a constant as it is (not parsed as typed)
        } else if (o && o.result) {
          // a formula with the (spilled) result it shows
          writeCell(sheet, top, left, o.formula, true);
          setResult(sheet, top, left, o.formula as string, o.result);
        } else if (o) {
          writeCell(sheet, top, left, o.formula, true);
          const cell = ensureCell(sheet, top, left);
          cell.value = o.value;
          if (o.rich) cell.rich = { ...(o.rich as RichValue), basicType: "Error", basicValue: "#VALUE!" };
          if (o.error) cell.error = { code: o.value as string, message: "" };
        } else writeCell(sheet, top, left, v, true);
      }
    }
    S.active = S.order[0];
    S.selection = null;
    S.linked.cells.clear(); // a new workbook: no linked entity cells (the add-in's domains stay registered)
    EXTRAS.selectionAreas = 1;
    EXTRAS.protectedSheets = new Set((def.protected ?? []).map((n) => n.toLowerCase()));
    EXTRAS.hiddenRows = new Map(Object.entries(def.hiddenRows ?? {}).map(([n, rows]) => [n.toLowerCase(), new Set(rows)]));
    EXTRAS.tables = Object.entries(def.tables ?? {}).flatMap(([n, refs]) =>
      refs.map((ref, i) => ({ sheet: n.toLowerCase(), name: `Tabel${i + 1}`, box: parseRef(ref)!.box })),
    );
    if (def.selection) api.select(def.selection);
    await api.loadMeta();
  },

  /** Reads the manifest's metadata file (functions.json by default) from the page's folder, once: the metadata the runtime calls by. */
  loadMeta(): Promise<void> {
    if (!S.metaPromise)
      S.metaPromise = fetch(S.metadataFile)
        .then((r) => r.json())
        .then((j: FunctionsJson) => {
          S.runtime.load(j);
          S.meta = j.functions;
        });
    return S.metaPromise;
  },

  select(text: string): void {
    // Several areas ("A1:A3,C1:C3", as Ctrl+click makes): the first is the selected range; getSelectedRanges counts them all.
    const parts = text.split(",");
    EXTRAS.selectionAreas = parts.length;
    text = parts[0];
    // Whole columns ("A:A", "Sheet!A:B"): every row of the sheet, 1,048,576 (Excel's specifications and limits).
    const whole = /^(?:(?:'((?:[^']|'')+)'|([A-Za-z0-9_.]+))!)?\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/.exec(text.trim());
    if (whole) {
      const sheet = whole[1] !== undefined ? whole[1].replace(/''/g, "'") : (whole[2] ?? S.active!);
      const [a, b] = [colNum(whole[3]), colNum(whole[4])];
      S.selection = { sheet, box: { top: 1, left: Math.min(a, b), bottom: 1048576, right: Math.max(a, b) } };
      S.active = sheet;
      return;
    }
    const ref = parseRef(text)!;
    S.selection = { sheet: ref.sheet || S.active!, box: ref.box };
    S.active = S.selection.sheet;
  },

  /** Excel's calculation of every formula (as when a workbook is opened or calculated in full). */
  calculateAll,

  /** Resolves when no FIRMA cell is calculating. */
  async idle(): Promise<void> {
    while (S.pending.size > 0) await Promise.all([...S.pending]);
  },

  /** A cell as the test sees it: { formula, value, error, message, rich, textFormat }. */
  cell(sheet: string, addr: string) {
    const ref = parseRef(addr)!;
    const cell = cellAt(sheetOf(sheet), ref.box.top, ref.box.left);
    return {
      formula: cell ? cell.formula : null,
      value: readValue(cell),
      error: cell && cell.error ? cell.error.code : null,
      message: cell && cell.error ? cell.error.message : null,
      rich: cell && cell.rich ? (cell.rich as Record<string, unknown>) : null,
      textFormat: !!(cell && cell.text),
    };
  },

  /** Every non-empty cell: [{ sheet, address, formula, value, message, rich? }]. */
  dump() {
    const out: {
      sheet: string;
      address: string;
      formula: string | null;
      value: unknown;
      message: string | null;
      rich?: Record<string, unknown>;
    }[] = [];
    for (const sheet of S.sheets.values()) {
      for (const [key, cell] of sheet.cells) {
        if (isEmpty(cell)) continue;
        const [r, c] = rc(key);
        out.push({
          sheet: sheet.name,
          address: colLetters(c) + r,
          formula: cell.formula,
          value: cell.value,
          message: cell.error ? cell.error.message : null,
          ...(cell.rich ? { rich: cell.rich as Record<string, unknown> } : {}),
        });
      }
    }
    return out;
  },

  /**
   * Calls a registered function the way Excel would for literal arguments, through the runtime's rules
   * (functions-runtime.ts shape() and run()); resolves to its result as a matrix, errors as
   * { error, message }. Per call it makes no closure and no async frame: the bench invokes 100,000 cells
   * in this page, and what the stand-in holds per waiting cell is Excel's bookkeeping, which real Excel
   * keeps outside the add-in's heap.
   */
  call(id: string, args: unknown[]): Promise<unknown> {
    if (!S.meta) return api.loadMeta().then(() => api.call(id, args));
    const fn = S.runtime.associated.get(id);
    if (!S.runtime.meta(id) || !fn) return Promise.reject(new Error(`FIRMA.${id} is not registered`));
    let shaped: unknown[] | StandInError;
    try {
      shaped = S.runtime.shape(id, args);
    } catch (e) {
      return Promise.reject(e);
    }
    if (shaped instanceof StandInError) return Promise.resolve(asMatrix(shaped));
    return S.runtime.run(id, fn, shaped, { onCanceled: null }, asMatrix);
  },

  /** Hooks into office.js (office.ts); the tests append a call to it to office.js. */
  attachOffice(): void {
    attachOffice(window as unknown as Record<string, unknown>);
  },
};

/** The stand-in as `window.__firmaStandIn`: its state and settings, and the API for the tests. */
export type StandIn = typeof S & typeof api;

// The page only, not the frames office.js opens.
if (window.top === window) {
  const w = window as unknown as { __firmaStandIn: StandIn; Excel: unknown };
  w.__firmaStandIn = Object.assign(S, api);
  w.Excel = Excel;
}
