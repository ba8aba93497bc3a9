/**
 * The companies of a watch list, read from the file `firma watch add|set --file` names: a CSV as
 * spreadsheet programs save one (src/shared/csv-read.ts: encoding and separator found). The column
 * is `--column` (a letter, or a header's text), else the one headed CUI / CIF / cod fiscal, else
 * the first. A first row whose cell is not a CUI is the header; blank cells are skipped; a CUI
 * written twice counts once; every other cell must be a valid CUI (src/api/cui.ts), or the file is
 * refused with the rows at fault, so that nothing is watched half.
 */
import { extname } from "path";
import { parseCui, type CuiFailure } from "../../api/cui";
import { CsvReadError, readCsv } from "../../shared/csv-read";
import { colToLetters, lettersToCol, MAX_COLS } from "../../shared/sheet/a1";

export interface BadRow {
  /** The row in the file, 1-based, as a spreadsheet numbers it. */
  row: number;
  text: string;
  reason: CuiFailure;
}

export interface WatchFile {
  /** The CUIs, each once, in the file's order. */
  cuis: number[];
  /** The column read, as a letter. */
  column: string;
  /** Whether the first row was taken as a header. */
  header: boolean;
  blanks: number;
  duplicates: number;
  invalid: BadRow[];
}

/** Why a file cannot be read as a list: not a CSV (`kind`), a broken quote (`quoting`), a column not found. */
export class WatchFileError extends Error {
  override readonly name = "WatchFileError";
  constructor(
    readonly kind: "xlsx" | "binary" | "quoting" | "column",
    readonly detail = "",
  ) {
    super(`${kind}${detail ? `: ${detail}` : ""}`);
  }
}

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

const CUI_HEADERS = new Set(["cui", "cif", "cod fiscal", "cod unic de inregistrare", "cod de identificare fiscala", "tax id"]);

/** The column `spec` names among the first row's headers, else as a letter; null when neither. */
function columnOf(first: readonly string[], spec: string | undefined): number | null {
  if (spec === undefined) {
    const found = first.findIndex((h) => CUI_HEADERS.has(fold(h)));
    return found >= 0 ? found + 1 : 1;
  }
  const byHeader = first.findIndex((h) => fold(h) === fold(spec) && fold(spec) !== "");
  if (byHeader >= 0) return byHeader + 1;
  if (/^[A-Za-z]{1,3}$/.test(spec.trim())) {
    const col = lettersToCol(spec.trim().toUpperCase());
    if (col >= 1 && col <= MAX_COLS) return col;
  }
  return null;
}

/** Reads the file's CUIs; throws WatchFileError when it is not a list FIRMA can read. */
export function readWatchFile(path: string, bytes: Uint8Array, column?: string): WatchFile {
  const ext = extname(path).toLowerCase();
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (ext === ".xlsx" || ext === ".xlsm" || zip) throw new WatchFileError("xlsx");
  let rows: string[][];
  try {
    rows = readCsv(bytes).rows;
  } catch (e) {
    if (e instanceof CsvReadError) throw new WatchFileError(e.kind, e.detail);
    throw e;
  }
  const firstUsed = rows.findIndex((r) => r.some((f) => f.trim() !== ""));
  const col = columnOf(firstUsed < 0 ? [] : rows[firstUsed], column);
  if (col === null) throw new WatchFileError("column", column ?? "");
  const out: WatchFile = { cuis: [], column: colToLetters(col), header: false, blanks: 0, duplicates: 0, invalid: [] };
  const seen = new Set<number>();
  rows.forEach((r, i) => {
    const text = (r[col - 1] ?? "").trim();
    if (text === "") {
      if (i >= firstUsed && firstUsed >= 0) out.blanks++;
      return;
    }
    const parsed = parseCui(text);
    if (!parsed.ok) {
      // The first row with text is a header when its cell is not a CUI.
      if (i === firstUsed) out.header = true;
      else out.invalid.push({ row: i + 1, text: text.slice(0, 40), reason: parsed.reason });
      return;
    }
    if (seen.has(parsed.cui)) out.duplicates++;
    else {
      seen.add(parsed.cui);
      out.cuis.push(parsed.cui);
    }
  });
  // Trailing blank lines are the file's end, not blanks in the list.
  let trailing = 0;
  for (let i = rows.length - 1; i >= 0 && (rows[i][col - 1] ?? "").trim() === ""; i--) trailing++;
  out.blanks = Math.max(0, out.blanks - trailing);
  return out;
}
