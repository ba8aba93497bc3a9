/**
 * FIRMA cells as the few ranges Excel is asked for: runs of consecutive rows per sheet and column
 * (`runAreas`), and an area's A1 address (`addressOf`). Sheet names compare without case, as in Excel.
 */
import { formatBox } from "../shared/sheet/a1";
import type { Area } from "./blocks";
import type { FormulaCell } from "./refresh-plan";

/** A sheet's name as a map key: Excel's sheet names are the same whatever their case. */
export const sheetKey = (sheet: string): string => sheet.toLowerCase();

/** FIRMA cells as areas: per sheet and column, runs of consecutive rows ("B2:B40"), so that Excel is asked for few ranges. */
export function runAreas(cells: readonly FormulaCell[]): Area[] {
  const bySheet = new Map<string, { name: string; cols: Map<number, number[]> }>();
  for (const c of cells) {
    const key = sheetKey(c.sheet);
    const s = bySheet.get(key) ?? bySheet.set(key, { name: c.sheet, cols: new Map() }).get(key)!;
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

/** An area's address without its sheet: "B2:B40", or "B2" for one cell. */
export const addressOf = (a: Area): string =>
  formatBox({ top: a.top, left: a.left, bottom: a.top + a.rows - 1, right: a.left + a.cols - 1 });
