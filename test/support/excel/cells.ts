/**
 * The browser stand-in's cells as the Excel API reads them: sheets looked up by name, what a cell
 * shows as values, text, formulas, value types and cell value JSON, the used range, and the ExcelApi
 * requirement a method needs. Writes are in writes.ts.
 */
import { k, rc, type Box } from "./a1";
import { ERROR_CODES, ERROR_TYPES, errorCellValue, atLeast } from "./rules";
import { S, type Cell, type Sheet } from "./state";

/** What a cell shows when it holds an error (the seven of CustomFunctions.ErrorCode and Excel's own). */
export const ERROR_VALUES = new Set<unknown>([...Object.values(ERROR_CODES), "#BUSY!", "#SPILL!", "#CALC!", "#GETTING_DATA", "#FIELD!"]);
export const CODE_OF_ERROR_TYPE: Record<string, string> = Object.fromEntries(Object.entries(ERROR_TYPES).map(([code, t]) => [t, code]));

/** An Error with the `code` office.js's errors carry (OfficeExtension.Error.code). */
export const excelError = (message: string, code: string): Error & { code: string } => Object.assign(new Error(message), { code });

export const emptyCell = (): Cell => ({
  formula: null,
  value: "",
  error: null,
  rich: null,
  spillFrom: null,
  spill: null,
  format: false,
  text: false,
  numberFormat: null,
});

/** A method of ExcelApi `version` in an Excel that lacks it fails at sync (the host has no such API). */
export function requireApi(version: string, what: string): void {
  if (!atLeast(S.excelApi, version)) throw excelError(`${what} needs ExcelApi ${version}; this Excel has ${S.excelApi}.`, "ApiNotFound");
}

export function sheetOf(name: unknown): Sheet {
  const s = S.sheets.get(String(name).toLowerCase());
  if (!s) throw excelError(`The requested resource doesn't exist (sheet ${name}).`, "ItemNotFound");
  return s;
}

export function cellAt(sheet: Sheet, r: number, c: number): Cell | null {
  return sheet.cells.get(k(r, c)) || null;
}

export function ensureCell(sheet: Sheet, r: number, c: number): Cell {
  let cell = sheet.cells.get(k(r, c));
  if (!cell) {
    cell = emptyCell();
    sheet.cells.set(k(r, c), cell);
  }
  return cell;
}

export const isEmpty = (cell: Cell | null | undefined): boolean =>
  !cell || (cell.formula === null && (cell.value === "" || cell.value === null || cell.value === undefined));

/** Whether a cell shows an error (one it was given, or an error value typed in). */
export const showsError = (cell: Cell | null): cell is Cell =>
  !!cell && (!!cell.error || (typeof cell.value === "string" && ERROR_VALUES.has(cell.value)));

/** The code of the error a cell shows (showsError). */
export const errorCodeOf = (cell: Cell): string => (cell.error ? cell.error.code : String(cell.value));

export function valueType(cell: Cell | null): string {
  if (isEmpty(cell)) return "Empty";
  // An entity's basicType is Error, its basicValue #VALUE!: "how calculations read an entity"
  // (https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue) — and what values/valueTypes give.
  if (cell!.rich) return cell!.rich.basicType || "Error";
  if (showsError(cell)) return "Error";
  if (typeof cell!.value === "number") return "Double";
  if (typeof cell!.value === "boolean") return "Boolean";
  return "String";
}

/**
 * The used range: cells with values or formulas, and with `valuesOnly` false also cells that carry
 * only formatting ("valuesOnly: Considers only cells with values as used cells (ignores
 * formatting)", Worksheet.getUsedRange, https://learn.microsoft.com/javascript/api/excel/excel.worksheet).
 */
export function usedBox(sheet: Sheet, valuesOnly: boolean): Box | null {
  let box: Box | null = null;
  for (const [key, cell] of sheet.cells) {
    if (isEmpty(cell) && !(cell.format && !valuesOnly)) continue;
    const [r, c] = rc(key);
    if (!box) box = { top: r, left: c, bottom: r, right: c };
    else {
      box.top = Math.min(box.top, r);
      box.left = Math.min(box.left, c);
      box.bottom = Math.max(box.bottom, r);
      box.right = Math.max(box.right, c);
    }
  }
  return box;
}

export function grid<T>(sheet: Sheet, box: Box, read: (cell: Cell | null) => T): T[][] {
  const out: T[][] = [];
  for (let r = box.top; r <= box.bottom; r++) {
    const row: T[] = [];
    for (let c = box.left; c <= box.right; c++) row.push(read(cellAt(sheet, r, c)));
    out.push(row);
  }
  return out;
}

export const readValue = (cell: Cell | null): unknown =>
  isEmpty(cell) ? "" : cell!.rich ? (cell!.rich.basicValue ?? "#VALUE!") : cell!.value;

/** Range.text: what the cell shows (an entity: its text; an error: its code; no # substitution). */
export function readText(cell: Cell | null): string {
  if (isEmpty(cell)) return "";
  if (cell!.rich) return String(cell!.rich.text ?? cell!.rich.basicValue ?? "");
  if (cell!.error) return cell!.error.code;
  if (typeof cell!.value === "boolean") return cell!.value ? "TRUE" : "FALSE";
  return String(cell!.value);
}

/** Range.valuesAsJson (ExcelApi 1.16): every cell as its cell value JSON (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-valuesasjson-member). */
export function readJson(cell: Cell | null): Record<string, unknown> {
  if (isEmpty(cell)) return { type: "Empty", basicType: "Empty", basicValue: "" };
  if (cell!.rich) return JSON.parse(JSON.stringify(cell!.rich));
  if (showsError(cell)) return errorCellValue(errorCodeOf(cell));
  if (typeof cell!.value === "number") return { type: "Double", basicType: "Double", basicValue: cell!.value };
  if (typeof cell!.value === "boolean") return { type: "Boolean", basicType: "Boolean", basicValue: cell!.value };
  return { type: "String", basicType: "String", basicValue: String(cell!.value) };
}

export const readFormula = (cell: Cell | null): unknown => (cell && cell.formula !== null ? cell.formula : readValue(cell));
