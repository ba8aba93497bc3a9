/**
 * Shared formulas: a master cell holds `<f t="shared" si="n">` with the text, the cells sharing it
 * hold an empty `<f t="shared" si="n"/>`, and their formula is the master's moved by the offset
 * between them. The masters of a sheet are indexed once, on first use, for every reader.
 */
import type { ParsedCell, ParsedSheet } from "./sheet-scan";
import { shiftFormula } from "../sheet/formula";

const mastersBySheet = new WeakMap<ParsedSheet, Map<string, ParsedCell>>();

/** The master cell of each shared formula of a sheet, by its `si`. */
function sharedMasters(sheet: ParsedSheet): Map<string, ParsedCell> {
  let masters = mastersBySheet.get(sheet);
  if (!masters) {
    masters = new Map();
    for (const r of sheet.rows)
      for (const c of r.cells) if (c.f?.t === "shared" && c.f.text !== "" && c.f.si !== undefined) masters.set(c.f.si, c);
    mastersBySheet.set(sheet, masters);
  }
  return masters;
}

/** The formula text of a cell with `<f>`: its own, or for a shared formula's child, the master's moved; null when the master is missing. */
export function formulaText(sheet: ParsedSheet, cell: ParsedCell): string | null {
  const f = cell.f!;
  if (f.t === "shared" && f.text === "") {
    const master = sharedMasters(sheet).get(f.si ?? "");
    if (!master) return null;
    return shiftFormula(master.f!.text, cell.row - master.row, cell.col - master.col);
  }
  return f.text;
}
