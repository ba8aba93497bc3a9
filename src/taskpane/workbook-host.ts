/**
 * What the pane may ask of a workbook: the `WorkbookHost` interface and the shapes of its answers.
 * The pane's logic sees only this, so it runs against a stand-in in tests; `ExcelWorkbook`
 * (excel.ts) is the Excel implementation.
 *
 * Rows and columns are 1-based here as in the formulas; Excel's rowIndex/columnIndex are 0-based.
 */
import type { FlowSheet } from "./flows/flow-sheet";
import type { CellValues, FormulaCell } from "./refresh-plan";

export type Scope = "all" | "selection";

export interface WorkbookScan extends CellValues {
  scope: Scope;
  /** The FIRMA formula cells in scope. */
  cells: FormulaCell[];
}

export interface CellsState {
  /** Cells still calculating (#BUSY!). */
  busy: number;
  /** Cells showing an error. */
  errors: number;
}

export interface FreezeResult {
  /** FIRMA formulas replaced by their values. */
  frozen: number;
  /** Nothing was changed because some FIRMA cells were still calculating. */
  busy: boolean;
  /** Cards (entity values) written as their text: an Excel without Range.valuesAsJson (ExcelApi 1.16). */
  cardsAsText: number;
  /** FIRMA formulas left as they were because a write failed part way (0 when all went). */
  left: number;
  /** Why the write failed part way (Excel's error code), when `left` > 0. */
  failure?: string;
}

/** What this Excel lacks for a part of the pane: the missing requirement set ("ExcelApi 1.7"), or null. */
export interface HostSupport {
  /** Finding and refreshing FIRMA formulas (scan, recalculate, state). */
  refresh: string | null;
  /** Freezing the selection's FIRMA formulas to values. */
  freeze: string | null;
  /** Freezing keeps cards as cards and every value's type (Range.valuesAsJson, ExcelApi 1.16); else cards become their text. */
  freezeKeepsCards: boolean;
}

export interface WorkbookHost {
  /** What the pane may offer in this Excel (checked at run time, not in the manifest: see docs/excel.md). */
  support(): HostSupport;
  scan(scope: Scope): Promise<WorkbookScan>;
  /** Asks Excel to calculate the FIRMA cells `cells` again (Range.calculate). */
  recalculate(cells: readonly FormulaCell[]): Promise<void>;
  /**
   * Enters the formulas of `cells` again: Excel calculates a formula that is entered. The fallback
   * when `recalculate` did not make Excel run the functions (docs/excel.md, "Refresh").
   */
  reenter(cells: readonly FormulaCell[]): Promise<void>;
  /**
   * After `cells` have settled: recalculates the cells that depend on them, all the way down, and
   * only those (no workbook-wide calculation). Returns how many dependent cells were recalculated,
   * or null when this Excel cannot find dependents (ExcelApi 1.15 missing).
   */
  recalculateDependents(cells: readonly FormulaCell[]): Promise<number | null>;
  state(cells: readonly FormulaCell[]): Promise<CellsState>;
  freezeSelection(): Promise<FreezeResult>;
  /**
   * Adds a worksheet named `name` (or "name (2)", … when taken), writes `rows` from A1 as constants
   * (never formulas), activates it and returns its name. `textColumns`: the columns written as text.
   */
  writeSheet(name: string, rows: readonly (readonly (string | number)[])[], textColumns: readonly number[]): Promise<string>;
  /** What the pane's flows (search, match, add columns) ask of the workbook, loaded with them (flows/flow-sheet.ts). */
  flowSheet(): Promise<FlowSheet>;
}
