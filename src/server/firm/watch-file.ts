/**
 * The companies of a watch list, read from the file `firma watch add|set --file` names: an Excel
 * workbook (.xlsx, .xlsm: the project's own reader, src/shared/xlsx/) or a CSV as spreadsheet
 * programs save one (src/shared/csv-read.ts: encoding and separator found). The column is
 * `--column` (a letter, or a header's text), else the one headed CUI / CIF / cod fiscal, else the
 * first. In a workbook, the sheet is the first worksheet whose first used row holds that header
 * (or, for a column given by its letter, a CUI header), else the first; a cell's saved value is read (a number as its digits, a formula's last
 * result). A first row whose cell is not a CUI is the header; blank cells are skipped; a CUI
 * written twice counts once; every other cell must be a valid CUI (src/api/cui.ts), or the file is
 * refused with the rows at fault, so that nothing is watched half.
 */
import { parseCui, type CuiFailure } from "../../api/cui";
import { CsvReadError, readCsv } from "../../shared/csv-read";
import type { MessageKey } from "../../shared/messages/node";
import { cellKey, colToLetters, lettersToCol, MAX_COLS } from "../../shared/sheet/a1";
import { isCellError, type ReadValue } from "../../shared/sheet/cell-values";
import { Workbook } from "../../shared/xlsx/workbook";
import { isWorkbookFile } from "../../shared/xlsx/xlsx-package";

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
  /** The worksheet read (a workbook's; absent for a CSV). */
  sheet?: string;
  /** Whether the first row was taken as a header. */
  header: boolean;
  blanks: number;
  duplicates: number;
  invalid: BadRow[];
}

/**
 * Why a file cannot be read as a list: not a CSV (`binary`), a broken quote (`quoting`), a column
 * not found, a workbook without a worksheet (`noWorksheet`). A file that is not a readable workbook
 * throws the reader's `XlsxError` instead, which names what it is.
 */
export class WatchFileError extends Error {
  override readonly name = "WatchFileError";
  constructor(
    readonly kind: "binary" | "quoting" | "column" | "noWorksheet",
    readonly detail = "",
  ) {
    super(`${kind}${detail ? `: ${detail}` : ""}`);
  }
}

/** The catalog's message for each kind, which the command says. */
export const WATCH_FILE_MESSAGE = {
  binary: "watch.fileBinary",
  quoting: "watch.fileQuoting",
  column: "watch.fileColumn",
  noWorksheet: "watch.fileNoWorksheet",
} as const satisfies Record<WatchFileError["kind"], MessageKey>;

/** The file as rows of text: its used rows (1-based, 0 when empty) and each cell's text. */
interface Grid {
  sheet?: string;
  top: number;
  bottom: number;
  right: number;
  text(row: number, col: number): string;
}

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

const CUI_HEADERS = new Set(["cui", "cif", "cod fiscal", "cod unic de inregistrare", "cod de identificare fiscala", "tax id"]);

/** The header row's texts (empty when the file is). */
function headers(g: Grid): string[] {
  return g.top === 0 ? [] : Array.from({ length: g.right }, (_, i) => g.text(g.top, i + 1));
}

/** The column headed as `spec` says (a CUI header when `spec` is absent); null when none is. */
function headedColumn(first: readonly string[], spec: string | undefined): number | null {
  const want = spec === undefined ? null : fold(spec);
  const found = first.findIndex((h) => (want === null ? CUI_HEADERS.has(fold(h)) : want !== "" && fold(h) === want));
  return found >= 0 ? found + 1 : null;
}

/** The column `spec` names among the first row's headers, else as a letter; the first without `spec`; null when neither. */
function columnOf(first: readonly string[], spec: string | undefined): number | null {
  const headed = headedColumn(first, spec);
  if (headed !== null) return headed;
  if (spec === undefined) return 1;
  if (/^[A-Za-z]{1,3}$/.test(spec.trim())) {
    const col = lettersToCol(spec.trim().toUpperCase());
    if (col >= 1 && col <= MAX_COLS) return col;
  }
  return null;
}

function csvGrid(bytes: Uint8Array): Grid {
  let rows: string[][];
  try {
    rows = readCsv(bytes).rows;
  } catch (e) {
    if (e instanceof CsvReadError) throw new WatchFileError(e.kind, e.detail);
    throw e;
  }
  const used = rows.map((r) => r.reduce((m, f, j) => (f.trim() !== "" ? j + 1 : m), 0));
  const top = used.findIndex((n) => n > 0) + 1;
  const bottom = used.reduce((m, n, i) => (n > 0 ? i + 1 : m), 0);
  return { top, bottom, right: Math.max(0, ...used), text: (row, col) => rows[row - 1]?.[col - 1] ?? "" };
}

/** A cell's saved value as the text a CUI is read from: a number's digits, an error's code. */
function cellText(v: ReadValue): string {
  if (v === null) return "";
  if (isCellError(v)) return v.error;
  return String(v);
}

/**
 * The worksheet to read: the first whose header row holds the header `--column` names, else the
 * first whose header row holds a CUI header (so `--column B` reads the sheet of the CUIs, not a
 * cover sheet), else the first.
 */
function xlsxGrid(bytes: Uint8Array, column: string | undefined): Grid {
  const wb = Workbook.open(bytes);
  const grids = wb.sheets
    .filter((s) => s.part)
    .map((info): Grid => {
      const sheet = wb.parseSheet(info.name);
      const used = wb.usedRange(info.name);
      const text = (row: number, col: number) => cellText(wb.valueOf(sheet.cells.get(cellKey(row, col)), sheet));
      return { sheet: info.name, top: used.top, bottom: used.bottom, right: used.right, text };
    });
  if (grids.length === 0) throw new WatchFileError("noWorksheet");
  const headed = (spec: string | undefined) => grids.find((g) => headedColumn(headers(g), spec) !== null);
  return (column === undefined ? undefined : headed(column)) ?? headed(undefined) ?? grids[0];
}

/** Reads the file's CUIs; throws WatchFileError (or XlsxError, a workbook that cannot be read) when it is not a list FIRMA can read. */
export function readWatchFile(path: string, bytes: Uint8Array, column?: string): WatchFile {
  const grid = isWorkbookFile(path, bytes) ? xlsxGrid(bytes, column) : csvGrid(bytes);
  const col = columnOf(headers(grid), column);
  if (col === null) throw new WatchFileError("column", column ?? "");
  const out: WatchFile = { cuis: [], column: colToLetters(col), header: false, blanks: 0, duplicates: 0, invalid: [] };
  if (grid.sheet !== undefined) out.sheet = grid.sheet;
  const seen = new Set<number>();
  let pendingBlanks = 0;
  for (let row = grid.top; row >= 1 && row <= grid.bottom; row++) {
    const text = grid.text(row, col).trim();
    if (text === "") {
      pendingBlanks++;
      continue;
    }
    // Blank cells count once a CUI or a bad cell follows them: trailing ones are the list's end.
    out.blanks += pendingBlanks;
    pendingBlanks = 0;
    const parsed = parseCui(text);
    if (!parsed.ok) {
      // The first row with text is a header when its cell is not a CUI.
      if (row === grid.top) out.header = true;
      else out.invalid.push({ row, text: text.slice(0, 40), reason: parsed.reason });
      continue;
    }
    if (seen.has(parsed.cui)) out.duplicates++;
    else {
      seen.add(parsed.cui);
      out.cuis.push(parsed.cui);
    }
  }
  return out;
}
