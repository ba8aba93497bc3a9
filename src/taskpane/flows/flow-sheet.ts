/**
 * What the pane's flows (search, match a column, add columns) ask of the workbook: the `FlowSheet`
 * interface, and how a selection read from Excel becomes the column a flow works on or the reason it
 * cannot (`checkSelection`, no Office: the rules are tested in Node). The Excel implementation is
 * excel-flow-sheet.ts, loaded with the flows (WorkbookHost.flowSheet).
 */
import type { Area, Write } from "../blocks";

/** Excel's last row (a whole-column selection has this many rows): https://learn.microsoft.com/office/troubleshoot/excel/excel-specifications-limits (1,048,576 rows). */
export const SHEET_ROWS = 1_048_576;

/** Why a selection cannot be used; each has its own message (texts-*.ts flow.problem.*), and no credit is spent. */
export type SelectionProblem = "several_areas" | "protected" | "hidden_rows" | "table" | "too_wide" | "empty" | "no_room" | "too_many";

/** What a flow reads of the selection, before it is checked. */
export interface RawSelection {
  sheet: string;
  /** 1-based box of the selection as Excel gives it. */
  top: number;
  left: number;
  rows: number;
  cols: number;
  /** Selected areas (Ctrl+click makes several). */
  areas: number;
  protected: boolean;
  /** The used range's rows (values only), or null for an empty sheet. */
  used: { top: number; bottom: number } | null;
  /** Whether some of the rows read are hidden (a filter, or hidden by hand): Range.rowHidden not false. */
  hiddenRows: boolean;
  /** Whether an Excel table overlaps the selection or the columns to its right that a flow may write. */
  inTable: boolean;
}

/** A selection a flow can use: the data rows (a header row left out), their values, where the header is. */
export interface ColumnSelection {
  sheet: string;
  /** The data rows, 1-based. */
  top: number;
  left: number;
  rows: number;
  cols: number;
  /** The row above the data that names its columns (a header), or null. */
  headerRow: number | null;
  /** The selection was whole columns: cut to the used range. */
  wholeColumns: boolean;
  /** The data's values (cards read as their CUI), rows × cols. */
  values: unknown[][];
}

/** A selection's box cut to what a flow reads: whole columns become the used range's rows, the first of them the header. */
export function checkSelection(
  s: RawSelection,
  limits: { maxCols: number; maxRows: number },
): { problem: SelectionProblem } | { box: Area; wholeColumns: boolean; headerRow: number | null } {
  if (s.areas > 1) return { problem: "several_areas" };
  if (s.protected) return { problem: "protected" };
  if (s.cols > limits.maxCols) return { problem: "too_wide" };
  let top = s.top;
  let rows = s.rows;
  let headerRow: number | null = null;
  const whole = s.rows === SHEET_ROWS;
  if (whole) {
    if (!s.used) return { problem: "empty" };
    // The used range's first row names the columns (a header); the data is below it.
    headerRow = s.used.top;
    top = s.used.top + 1;
    rows = s.used.bottom - s.used.top;
  }
  if (rows <= 0) return { problem: "empty" };
  if (rows > limits.maxRows) return { problem: "too_many" };
  if (s.hiddenRows) return { problem: "hidden_rows" };
  if (s.inTable) return { problem: "table" };
  return { box: { sheet: s.sheet, top, left: s.left, rows, cols: s.cols }, wholeColumns: whole, headerRow };
}

/** What a flow may read of a selection, and what it writes beside it. */
export interface SelectionLimits {
  maxCols: number;
  maxRows: number;
  /** The columns to the selection's right the flow may write (an Excel table there is refused too). */
  width: number;
  /** The flow only reads the selection ("watch these companies"): an Excel table under it, or a protected sheet, is no problem. @default false */
  readOnly?: boolean;
}

/** The active cell, and whether its sheet is protected. */
export interface ActiveCell {
  sheet: string;
  row: number;
  col: number;
  protected: boolean;
  inTable: boolean;
}

export interface FlowSheet {
  /** Whether this Excel shows cards (entity values: CustomFunctionsRuntime 1.4). */
  cards(): boolean;
  active(): Promise<ActiveCell>;
  /**
   * The selection as a flow reads it (checkSelection); `width`: the columns to its right the flow
   * may write (an Excel table there is refused too).
   */
  selection(limits: SelectionLimits): Promise<ColumnSelection | { problem: SelectionProblem }>;
  /** How many cells of these areas hold something (a value or a formula). */
  nonEmpty(areas: readonly Area[]): Promise<number>;
  /** How many cells of these areas still calculate (#BUSY!, #GETTING_DATA), and how many show an error. */
  state(areas: readonly Area[]): Promise<{ busy: number; errors: number }>;
  /** Writes in order (blocks.ts writeAreas: text that Excel would read as a formula must be formatted "@" first). */
  write(writes: readonly Write[]): Promise<void>;
  /** Selects an area (after a write, what was written). */
  select(area: Area): Promise<void>;
}

/** What a flow is given besides the pane's context: the workbook (null outside Excel), the usage's redraw, and the pane's busy tracking. */
export interface FlowDeps {
  sheet(): Promise<FlowSheet | null>;
  renderUsage(): Promise<void>;
  /** Runs a handler with the pane marked busy (Pane.track). */
  track(work: Promise<unknown>): Promise<void>;
}
