/**
 * Rewriting formulas token by token: a shared formula moved to another cell (shiftFormula), and the
 * namespace's calls typed in the UI form written in the form Excel stores (toXldudfForm).
 */
import { MAX_COLS, MAX_ROWS, ParsedCellRef, colToLetters } from "./a1";
import { matchNamespaceFunction, tokenize, type Token } from "./tokenizer";

/**
 * The formula of a cell that shares a formula (`<f t="shared" si=".."/>`): the master's
 * formula with every relative reference moved by (dRow, dCol). Returns null when the master's
 * formula cannot be tokenized. A reference moved off the sheet becomes #REF!, as in Excel.
 */
export function shiftFormula(formula: string, dRow: number, dCol: number): string | null {
  let tokens: Token[];
  try {
    tokens = tokenize(formula);
  } catch {
    return null;
  }
  let out = "";
  let last = 0;
  for (const t of tokens) {
    if (t.kind !== "ref" || !t.ref) continue;
    const r = t.ref;
    if (r.external) continue; // external references are kept as written
    let area: string | null = null;
    const cell = (c: ParsedCellRef): string | null => {
      const row = c.rowAbs ? c.row : c.row + dRow;
      const col = c.colAbs ? c.col : c.col + dCol;
      if (row < 1 || row > MAX_ROWS || col < 1 || col > MAX_COLS) return null;
      return `${c.colAbs ? "$" : ""}${colToLetters(col)}${c.rowAbs ? "$" : ""}${row}`;
    };
    if (r.area === "cell" || r.area === "range") {
      const a = cell(r.a!);
      const b = r.b ? cell(r.b) : "";
      area = a === null || b === null ? "#REF!" : r.b ? `${a}:${b}` : a;
    } else if (r.area === "cols" || r.area === "rows") {
      const move = (x: { n: number; abs: boolean }): string | null => {
        const n = x.abs ? x.n : x.n + (r.area === "cols" ? dCol : dRow);
        const max = r.area === "cols" ? MAX_COLS : MAX_ROWS;
        if (n < 1 || n > max) return null;
        return (x.abs ? "$" : "") + (r.area === "cols" ? colToLetters(n) : String(n));
      };
      const lo = move(r.lo!);
      const hi = move(r.hi!);
      area = lo === null || hi === null ? "#REF!" : `${lo}:${hi}`;
    } else continue;
    out += formula.slice(last, t.start) + r.prefix + area;
    last = t.end;
  }
  return out + formula.slice(last);
}

/**
 * Rewrites the namespace calls of a formula typed in the UI form (`FIRMA.DENUMIRE(A2)`) into
 * the form Excel stores for a loaded add-in (`_xldudf_FIRMA_DENUMIRE(A2)`). Strings and other
 * functions are left alone; a leading "=" is dropped.
 */
export function toXldudfForm(formula: string, namespace: string): string {
  const body = formula.startsWith("=") ? formula.slice(1) : formula;
  const tokens = tokenize(body);
  let out = "";
  let last = 0;
  for (const t of tokens) {
    if (t.kind !== "func") continue;
    const m = matchNamespaceFunction(t.text, namespace);
    if (!m || m.form !== "typed") continue;
    out += body.slice(last, t.start) + `_xldudf_${namespace.toUpperCase()}_${m.name.replace(/\./g, "_")}`;
    last = t.end;
  }
  return out + body.slice(last);
}
