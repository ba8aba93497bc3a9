/**
 * Cell values as the CLI's workbook layer reads and writes them.
 *
 * `CellError` has the shape of the evaluator's (src/shared/cells.ts, what `evaluate` answers):
 * `{ error: "#N/A" | "#VALUE!" | ..., message }`. The message has no place in the file
 * (Excel stores only the code); the patch report carries it.
 */

/** The seven classic error codes plus `#GETTING_DATA`, which every reader of the format knows. */
export const CLASSIC_ERRORS = ["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"] as const;

/** Errors of newer Excel (dynamic arrays, data types, connectors): Excel itself stores them as rich values. */
export const MODERN_ERRORS = [
  "#SPILL!",
  "#CALC!",
  "#BUSY!",
  "#CONNECT!",
  "#BLOCKED!",
  "#FIELD!",
  "#UNKNOWN!",
  "#PYTHON!",
  "#EXTERNAL!",
] as const;

export type ErrorCode = (typeof CLASSIC_ERRORS)[number] | (typeof MODERN_ERRORS)[number];

export interface CellError {
  error: ErrorCode | string;
  message?: string;
}

export type CellValue = string | number | boolean | CellError;

/** A value read from a cell: `null` for an empty cell. */
export type ReadValue = CellValue | null;

export function isCellError(v: unknown): v is CellError {
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as CellError).error === "string";
}

/** Every code a formula or a `t="e"` cell may hold, for the formula tokenizer. */
export const ALL_ERROR_CODES: readonly string[] = [...CLASSIC_ERRORS, ...MODERN_ERRORS];
