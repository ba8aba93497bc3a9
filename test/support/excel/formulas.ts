/**
 * Formulas in the browser stand-in: a FIRMA call's arguments read from the sheet, the references a
 * formula makes, and the plain formulas it understands (=B2, =LEN(B2), =UPPER(B2), =B2&"x", =B2.Stare)
 * so that dependents can be checked.
 */
import { parseRef, type Box } from "./a1";
import { cellAt, errorCodeOf, grid, readValue, showsError } from "./cells";
import { StandInError } from "./functions-runtime";
import { errorCellValue } from "./rules";
import { S, type Cell, type Sheet } from "./state";

export const FIRMA_CALL = /^=\s*FIRMA\.([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/i;

/** Splits "a, "b,c", C3" at top-level commas. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let inStr = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') inStr = !inStr;
    if (!inStr && ch === "(") depth++;
    if (!inStr && ch === ")") depth--;
    if (!inStr && depth === 0 && ch === ",") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const sheetNamed = (name: string | null, here: Sheet): Sheet | undefined => (name === null ? here : S.sheets.get(name.toLowerCase()));

/**
 * A referenced cell as a custom function receives it before the runtime's rules apply
 * (functions-runtime.ts pass()): a plain value as it is; a data type as its cell value JSON; an error as
 * an ErrorCellValue. "Custom functions and the Excel JavaScript API use the same JSON schema for data
 * types" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts).
 */
function argCell(cell: Cell | null): unknown {
  if (cell && cell.rich) return JSON.parse(JSON.stringify(cell.rich));
  if (showsError(cell)) return errorCellValue(errorCodeOf(cell));
  return readValue(cell);
}

/**
 * An argument's value as Excel computes it before calling the function: null when omitted, a reference
 * as rows of cells (argCell); undefined if the stand-in cannot compute it.
 */
export function argValue(text: string, sheet: Sheet): { value: unknown } | undefined {
  const a = text.trim();
  if (a === "") return { value: null };
  if (/^"(?:[^"]|"")*"$/.test(a)) return { value: a.slice(1, -1).replace(/""/g, '"') };
  if (/^-?\d+(?:\.\d+)?$/.test(a)) return { value: Number(a) };
  if (/^(TRUE|FALSE)$/i.test(a)) return { value: a.toUpperCase() === "TRUE" };
  const ref = parseRef(a);
  if (!ref) return undefined;
  const s = sheetNamed(ref.sheet, sheet);
  if (!s) return undefined;
  return { value: grid(s, ref.box, argCell) };
}

/** A formula's references, outside string literals: [{ sheet, box }] (sheet objects; unknown sheets left out). */
const REF_TOKEN =
  /(?<![A-Za-z0-9_.$])(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?(?![A-Za-z0-9_(])/g;
export function refsOf(formula: string, sheet: Sheet): { sheet: Sheet; box: Box }[] {
  const out: { sheet: Sheet; box: Box }[] = [];
  for (const ref of parsedRefs(formula)) {
    const s = sheetNamed(ref.sheet, sheet);
    if (s) out.push({ sheet: s, box: ref.box });
  }
  return out;
}

/**
 * A formula's references as written, parsed once per formula text: a sheet of 14,000 formulas looks up
 * each settled cell's dependents over all of them (calculation.ts dependentsOf), which parsed every
 * formula again for every cell. The sheets are resolved by name on each call (they come and go).
 */
const PARSED = new Map<string, NonNullable<ReturnType<typeof parseRef>>[]>();
function parsedRefs(formula: string): NonNullable<ReturnType<typeof parseRef>>[] {
  let refs = PARSED.get(formula);
  if (refs) return refs;
  refs = [];
  const text = formula.replace(/"(?:[^"]|"")*"/g, '""');
  for (const m of text.matchAll(REF_TOKEN)) {
    const ref = parseRef(m[0]);
    if (ref) refs.push(ref);
  }
  if (PARSED.size > 500_000) PARSED.clear();
  PARSED.set(formula, refs);
  return refs;
}

/**
 * The value of a plain formula the stand-in understands: a reference, a string or a number, LEN(…),
 * UPPER(…), joined with &. Undefined for anything else (the cell then keeps its value). An error in
 * a referenced cell is the result, as in Excel.
 */
export function evaluatePlain(formula: string, sheet: Sheet): { value: unknown } | undefined {
  const text = formula.slice(1);
  let i = 0;
  const ws = () => {
    while (text[i] === " ") i++;
  };
  const fail = {};
  function term(): unknown {
    ws();
    const rest = text.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^"((?:[^"]|"")*)"/.exec(rest))) {
      i += m[0].length;
      return m[1].replace(/""/g, '"');
    }
    if ((m = /^-?\d+(?:\.\d+)?/.exec(rest))) {
      i += m[0].length;
      return Number(m[0]);
    }
    if ((m = /^(LEN|UPPER)\s*\(/i.exec(rest))) {
      i += m[0].length;
      const v = expr();
      ws();
      if (text[i] !== ")") throw fail;
      i++;
      if (v instanceof StandInError) return v;
      return m[1].toUpperCase() === "LEN" ? String(v).length : String(v).toUpperCase();
    }
    if ((m = /^(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?\$?[A-Za-z]{1,3}\$?\d+/.exec(rest))) {
      i += m[0].length;
      const ref = parseRef(m[0])!;
      const s = sheetNamed(ref.sheet, sheet);
      if (!s) return new StandInError("#REF!", "");
      const cell = cellAt(s, ref.box.top, ref.box.left);
      // Dot syntax: =B2.Stare, =B2.[Cifra de afaceri] reads an entity's property (#FIELD! when it has
      // none: https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card).
      const dot = /^\.(?:\[([^\]]+)\]|([\p{L}_][\p{L}\p{N}_]*))/u.exec(text.slice(i));
      if (dot) {
        i += dot[0].length;
        const name = (dot[1] || dot[2]).toLowerCase();
        const props = cell && cell.rich && cell.rich.properties;
        const found = props && Object.keys(props).find((p) => p.toLowerCase() === name);
        return props && found ? props[found].basicValue : new StandInError("#FIELD!", "");
      }
      if (cell && cell.error) return new StandInError(cell.error.code, cell.error.message);
      return readValue(cell);
    }
    throw fail;
  }
  function expr(): unknown {
    let v = term();
    ws();
    while (text[i] === "&") {
      i++;
      const w = term();
      if (v instanceof StandInError) continue;
      v = w instanceof StandInError ? w : String(v) + String(w);
      ws();
    }
    return v;
  }
  try {
    const v = expr();
    ws();
    return i === text.length ? { value: v } : undefined;
  } catch (e) {
    if (e === fail) return undefined;
    throw e;
  }
}
