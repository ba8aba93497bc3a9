/**
 * The table `firma match` reads its names from: one sheet of an .xlsx (the project's own reader,
 * workbook.ts) or a CSV file as Romanian Excel saves one (csv-read.ts). Its used range, its header
 * row (the first used row, unless --no-header), and the column the user named, by a header's text
 * or by its letter.
 */
import { extname } from "path";
import { cellKey, colToLetters, lettersToCol, MAX_COLS } from "../shared/sheet/a1";
import type { ReadValue } from "../shared/sheet/cell-values";
import { CsvReadError, readCsv, type CsvRead } from "../shared/csv-read";
import { isWorkbookFile } from "../shared/xlsx/xlsx-package";
import { openWritable, type WritableWorkbook } from "./writable-package";

export interface Table {
  kind: "xlsx" | "csv";
  /** The sheet read (xlsx), as the workbook names it. */
  sheet?: string;
  /** The workbook, to write into (xlsx). */
  workbook?: WritableWorkbook;
  /** Used rows and columns (1-based; 0 when the table is empty). */
  top: number;
  bottom: number;
  right: number;
  /** A cell's value; null when empty. */
  value(row: number, col: number): ReadValue;
  /** True when the cell holds a value or a formula (a style alone does not count). */
  occupied(row: number, col: number): boolean;
  /** The CSV's separator and text encoding, to say what was read. */
  csv?: { delimiter: string; encoding: string };
}

/** Why a file cannot be read as a table, in the catalog's terms (match.input.*). */
export class TableError extends Error {
  override readonly name = "TableError";
  constructor(
    readonly kind: "notTable" | "noSheet" | "notWorksheet" | "csv",
    readonly detail = "",
  ) {
    super(`${kind}${detail ? `: ${detail}` : ""}`);
  }
}

/** How to read a file: as a workbook (by its extension, else by its first bytes), as a CSV (.csv, .txt), or not at all. */
export function tableKind(path: string, bytes: Uint8Array): "xlsx" | "csv" | null {
  if (isWorkbookFile(path, bytes)) return "xlsx";
  const ext = extname(path).toLowerCase();
  return ext === ".csv" || ext === ".txt" ? "csv" : null;
}

/** Reads the table; throws TableError, or XlsxError for a file that is not a readable .xlsx. */
export function readTable(path: string, bytes: Uint8Array, sheetName?: string): Table {
  const kind = tableKind(path, bytes);
  if (kind === null) throw new TableError("notTable");
  return kind === "xlsx" ? xlsxTable(bytes, sheetName) : csvTable(bytes);
}

function xlsxTable(bytes: Uint8Array, sheetName?: string): Table {
  const wb = openWritable(bytes);
  const info = sheetName === undefined ? wb.sheets.find((s) => s.part) : wb.sheet(sheetName);
  if (!info) throw new TableError(sheetName === undefined ? "notWorksheet" : "noSheet", sheetName ?? "");
  if (!info.part) throw new TableError("notWorksheet", info.name);
  const sheet = wb.parseSheet(info.name);
  const used = wb.usedRange(info.name);
  return {
    kind: "xlsx",
    sheet: info.name,
    workbook: wb,
    top: used.top,
    bottom: used.bottom,
    right: used.right,
    value: (row, col) => wb.valueOf(sheet.cells.get(cellKey(row, col)), sheet),
    occupied: used.occupied,
  };
}

/** A field that is a number as a spreadsheet would read it ("12345", "-3,5" in Romanian, "1.5"), else its text. */
function csvValue(field: string): ReadValue {
  const t = field.trim();
  if (t === "") return null;
  if (/^-?\d+([.,]\d+)?$/.test(t)) return Number(t.replace(",", "."));
  return field;
}

function csvTable(bytes: Uint8Array): Table {
  let read: CsvRead;
  try {
    read = readCsv(bytes);
  } catch (e) {
    if (e instanceof CsvReadError) throw new TableError(e.kind === "binary" ? "notTable" : "csv", e.detail);
    throw e;
  }
  const rows = read.rows;
  let bottom = 0;
  let top = 0;
  let right = 0;
  rows.forEach((r, i) => {
    const last = r.reduce((m, f, j) => (f.trim() !== "" ? j + 1 : m), 0);
    if (last === 0) return;
    top ||= i + 1;
    bottom = i + 1;
    right = Math.max(right, last);
  });
  const value = (row: number, col: number) => csvValue(rows[row - 1]?.[col - 1] ?? "");
  return { kind: "csv", top, bottom, right, value, occupied: (r, c) => value(r, c) !== null, csv: read };
}

/** Text as compared with a header: trimmed, one space, no case or diacritics. */
const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

/**
 * The column `spec` names: a header's text (case, diacritics and spacing aside), else a column letter
 * (A, B, … XFD). A header comes first: "CUI" or "Den" are letters too. Null when neither.
 */
export function findColumn(table: Table, spec: string, header: boolean): number | null {
  if (header && table.top > 0) {
    const want = fold(spec);
    for (let c = 1; c <= table.right; c++) {
      const v = table.value(table.top, c);
      if (v !== null && typeof v !== "object" && fold(String(v)) === want) return c;
    }
  }
  if (/^[A-Za-z]{1,3}$/.test(spec.trim())) {
    const col = lettersToCol(spec.trim().toUpperCase());
    if (col >= 1 && col <= MAX_COLS) return col;
  }
  return null;
}

/** The header's columns as "A «Nume», B «Județ»" (for the message of a column not found). */
export function headerList(table: Table): string {
  if (table.top === 0) return "";
  const out: string[] = [];
  for (let c = 1; c <= Math.min(table.right, 26); c++) {
    const v = table.value(table.top, c);
    if (v !== null && typeof v !== "object") out.push(`${colToLetters(c)} «${String(v)}»`);
  }
  return out.join(", ");
}
