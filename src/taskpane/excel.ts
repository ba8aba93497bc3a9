/**
 * The pane's only contact with the workbook: `ExcelWorkbook`, the Excel implementation of
 * `WorkbookHost` (workbook-host.ts). Each of its calls lives in a file of its own idea: the scan
 * (workbook-scan.ts, over sheet-read.ts), recalculation (recalculate.ts), the cells' state
 * (cells-state.ts), the freeze (freeze.ts), the new sheet of changes (new-sheet.ts), what this
 * Excel supports (excel-api.ts), and the flows' reads and writes (flows/excel-flow-sheet.ts, loaded
 * with the flows). Every read and write goes through blocks.ts.
 *
 * These modules never write document settings, custom XML parts or anything else but the values of
 * the cells being frozen, the cells a flow writes (after saying where) and the sheet the pane adds: the API key has no way into the workbook.
 */
import { cellsState } from "./cells-state";
import { EXCEL_API, hostSupport, officeCheck, type ExcelApiCheck } from "./excel-api";
import { freezeSelection } from "./freeze";
import { writeNewSheet } from "./new-sheet";
import { recalculate, recalculateDependents, reenter } from "./recalculate";
import type { FormulaCell } from "./refresh-plan";
import { scanWorkbook } from "./workbook-scan";
import type { FlowSheet } from "./flows/flow-sheet";
import type { CellsState, FreezeResult, HostSupport, Scope, WorkbookHost, WorkbookScan } from "./workbook-host";

export type { CellsState, FreezeResult, HostSupport, Scope, WorkbookHost, WorkbookScan } from "./workbook-host";
export { EXCEL_API, type ExcelApiCheck } from "./excel-api";
export { addressOf, runAreas } from "./cell-areas";

/** The Excel implementation of WorkbookHost. */
export class ExcelWorkbook implements WorkbookHost {
  constructor(private readonly hasExcelApi: ExcelApiCheck = officeCheck) {}

  support(): HostSupport {
    return hostSupport(this.hasExcelApi);
  }

  scan(scope: Scope): Promise<WorkbookScan> {
    return scanWorkbook(scope);
  }

  recalculate(cells: readonly FormulaCell[]): Promise<void> {
    return recalculate(cells);
  }

  reenter(cells: readonly FormulaCell[]): Promise<void> {
    return reenter(cells);
  }

  /** Null without Range.getDependents (ExcelApi 1.15) or RangeAreas.calculate (1.9). */
  recalculateDependents(cells: readonly FormulaCell[]): Promise<number | null> {
    if (!this.hasExcelApi(EXCEL_API.dependents) || !this.hasExcelApi(EXCEL_API.areas)) return Promise.resolve(null);
    return recalculateDependents(cells);
  }

  state(cells: readonly FormulaCell[]): Promise<CellsState> {
    return cellsState(cells);
  }

  /** Cards stay cards where this Excel has Range.valuesAsJson (ExcelApi 1.16). */
  freezeSelection(): Promise<FreezeResult> {
    return freezeSelection(this.hasExcelApi(EXCEL_API.valuesAsJson));
  }

  writeSheet(name: string, rows: readonly (readonly (string | number)[])[], textColumns: readonly number[]): Promise<string> {
    return writeNewSheet(name, rows, textColumns);
  }

  /** The flows' reads and writes, in the flows' chunk (loaded when a flow is first opened). */
  async flowSheet(): Promise<FlowSheet> {
    const { ExcelFlowSheet } = await import(/* webpackChunkName: "flows" */ "./flows/excel-flow-sheet");
    return new ExcelFlowSheet(this.hasExcelApi);
  }
}
