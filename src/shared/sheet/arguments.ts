/**
 * A FIRMA formula's arguments as values, from the cells they point at: a literal or an array
 * constant as it is, a reference as the cell's value or a block of values, a whole column or row
 * as the sheet's used part of it. The pane's estimate and the CLI read arguments the same way.
 */
import { lettersToCol } from "./a1";
import type { FormulaArg } from "./formula";

/** Cells an argument range may span before FIRMA gives up on it (the estimate and the CLI alike). */
export const MAX_ARGUMENT_CELLS = 1_000_000;

/** Current cell values, for resolving references; an empty or unknown cell is "". */
export interface CellValues {
  hasSheet(sheet: string): boolean;
  valueAt(sheet: string, row: number, col: number): unknown;
  /** The last used row and column of a sheet (0 when empty), for whole-column or whole-row references. */
  extent?(sheet: string): { rows: number; cols: number };
}

/** "A:C", "Foaie1!$B:$B", "'Alte date'!3:4" → sheet (null: the formula's own) and the columns or rows. */
export function wholeLines(text: string): { sheet: string | null; cols?: [number, number]; rows?: [number, number] } | null {
  const m = /^(?:(?:'((?:[^']|'')+)'|([^'!:]+))!)?(?:\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})|\$?(\d+):\$?(\d+))$/.exec(text.trim());
  if (!m) return null;
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : (m[2] ?? null);
  if (m[3]) {
    const [a, b] = [lettersToCol(m[3]), lettersToCol(m[4])];
    return { sheet, cols: [Math.min(a, b), Math.max(a, b)] };
  }
  const [a, b] = [Number(m[5]), Number(m[6])];
  return { sheet, rows: [Math.min(a, b), Math.max(a, b)] };
}

function block(values: CellValues, sheet: string, top: number, left: number, bottom: number, right: number): unknown[][] {
  const m: unknown[][] = [];
  for (let r = top; r <= bottom; r++) {
    const row: unknown[] = [];
    for (let c = left; c <= right; c++) row.push(values.valueAt(sheet, r, c));
    m.push(row);
  }
  return m;
}

export function resolveArg(arg: FormulaArg, cell: { sheet: string }, values: CellValues): { ok: true; value: unknown } | { ok: false } {
  switch (arg.kind) {
    case "missing":
      return { ok: true, value: null };
    case "literal":
    case "array":
      return { ok: true, value: arg.value };
    case "ref": {
      const sheet = arg.sheet ?? cell.sheet;
      if (!values.hasSheet(sheet)) return { ok: false };
      const { top, left, bottom, right } = arg.box;
      if ((bottom - top + 1) * (right - left + 1) > MAX_ARGUMENT_CELLS) return { ok: false };
      if (arg.single) return { ok: true, value: values.valueAt(sheet, top, left) };
      return { ok: true, value: block(values, sheet, top, left, bottom, right) };
    }
    case "unsupported": {
      // A whole column or row (=FIRMA.CAEN(A:A)): the cells past the sheet's used part are empty,
      // and a FIRMA function gives nothing for an empty cell in a range, so the used part is enough.
      const w = arg.reason === "wholeColumnOrRow" ? wholeLines(arg.text) : null;
      const sheet = w ? (w.sheet ?? cell.sheet) : "";
      if (!w || !values.extent || !values.hasSheet(sheet)) return { ok: false };
      const { rows, cols } = values.extent(sheet);
      const [top, bottom] = w.rows ?? [1, rows];
      const [left, right] = w.cols ?? [1, cols];
      if (bottom < top || right < left) return { ok: true, value: [[""]] };
      if ((bottom - top + 1) * (right - left + 1) > MAX_ARGUMENT_CELLS) return { ok: false };
      return { ok: true, value: block(values, sheet, top, left, bottom, right) };
    }
    default:
      return { ok: false };
  }
}
