/**
 * Reading what a sheet holds: its used range (values, and formulas and value types when asked), the
 * selection's box, the FIRMA formula cells among what was read, and the values their references
 * point at. Reads go through blocks.ts, under the web's payload limit.
 */
import { boxContains, type Box } from "../shared/sheet/a1";
import { readAreas, type Area } from "./blocks";
import { sheetKey } from "./cell-areas";
import { mentionsFirma, type CellValues, type FormulaCell } from "./refresh-plan";

/** A sheet's used range as loaded: values (and formulas/types when asked) from (top, left). */
export interface SheetData {
  name: string;
  top: number;
  left: number;
  values: unknown[][];
  formulas?: unknown[][];
  types?: string[][];
}

/** The values of the loaded sheets (keyed by `sheetKey`) as the refresh reads them: "" outside what was read. */
export function valuesOf(sheets: Map<string, SheetData>): CellValues {
  return {
    hasSheet: (sheet) => sheets.has(sheetKey(sheet)),
    valueAt: (sheet, row, col) => {
      const s = sheets.get(sheetKey(sheet));
      if (!s) return "";
      const v = s.values[row - s.top]?.[col - s.left];
      return v === undefined || v === null ? "" : v;
    },
    extent: (sheet) => {
      const s = sheets.get(sheetKey(sheet));
      if (!s || s.values.length === 0) return { rows: 0, cols: 0 };
      return { rows: s.top + s.values.length - 1, cols: s.left + s.values[0].length - 1 };
    },
  };
}

/** The FIRMA formula cells of a loaded sheet, optionally only inside a box. */
export function firmaCells(s: SheetData, within: Box | null): FormulaCell[] {
  const out: FormulaCell[] = [];
  s.formulas?.forEach((row, i) =>
    row.forEach((f, j) => {
      if (!mentionsFirma(f)) return;
      const r = s.top + i;
      const c = s.left + j;
      if (within && !boxContains(within, r, c)) return;
      out.push({ sheet: s.name, row: r, col: c, formula: f, value: s.values[i][j], error: s.types?.[i]?.[j] === "Error" });
    }),
  );
  return out;
}

const emptySheet = (name: string): SheetData => ({ name, top: 1, left: 1, values: [], formulas: [], types: [] });

/**
 * A sheet's used range (values, and formulas and value types when asked), read in blocks of rows
 * under the web's payload limit (blocks.ts). The used range counts cells with values only
 * (`valuesOnly`: a formula always has a value), so rows that only carry formatting are not read.
 */
export async function readUsed(
  context: Excel.RequestContext,
  ws: Excel.Worksheet,
  name: string,
  withFormulas: boolean,
): Promise<SheetData> {
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

/** The selected range's sheet (its name loaded) and its box, 1-based. */
export async function readSelection(context: Excel.RequestContext): Promise<{ ws: Excel.Worksheet; within: Box }> {
  const sel = context.workbook.getSelectedRange();
  // `worksheet` is a navigation property: a proxy, nothing to load or sync before using it.
  // eslint-disable-next-line office-addins/call-sync-before-read, office-addins/load-object-before-read
  const ws = sel.worksheet;
  sel.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
  ws.load("name");
  await context.sync();
  const within: Box = {
    top: sel.rowIndex + 1,
    left: sel.columnIndex + 1,
    bottom: sel.rowIndex + sel.rowCount,
    right: sel.columnIndex + sel.columnCount,
  };
  return { ws, within };
}
