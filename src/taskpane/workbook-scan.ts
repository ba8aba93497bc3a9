/**
 * The workbook scan: the FIRMA formulas of the whole workbook or of the selection, with the values
 * of every sheet their references point at (those other sheets are read for their values only).
 */
import type { Box } from "../shared/sheet/a1";
import { sheetKey } from "./cell-areas";
import { referencedSheets, type FormulaCell } from "./refresh-plan";
import { firmaCells, readSelection, readUsed, valuesOf, type SheetData } from "./sheet-read";
import type { Scope, WorkbookScan } from "./workbook-host";

export function scanWorkbook(scope: Scope): Promise<WorkbookScan> {
  return Excel.run(async (context) => {
    const sheets = new Map<string, SheetData>();
    let within: Box | null = null;

    if (scope === "all") {
      const all = context.workbook.worksheets;
      all.load("items/name");
      await context.sync();
      for (const ws of all.items) sheets.set(sheetKey(ws.name), await readUsed(context, ws, ws.name, true));
    } else {
      const selection = await readSelection(context);
      within = selection.within;
      const ws = selection.ws;
      sheets.set(sheetKey(ws.name), await readUsed(context, ws, ws.name, true));
    }
    const cells: FormulaCell[] = [];
    for (const s of sheets.values()) cells.push(...firmaCells(s, within));

    // Sheets the formulas refer to that are not read yet: their values only.
    for (const name of referencedSheets(cells)) {
      if (sheets.has(sheetKey(name))) continue;
      const ws = context.workbook.worksheets.getItemOrNullObject(name);
      ws.load("name");
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- rare: only sheets that formulas name and that were not read
      await context.sync();
      if (!ws.isNullObject) sheets.set(sheetKey(ws.name), await readUsed(context, ws, ws.name, false));
    }
    return { scope, cells, ...valuesOf(sheets) };
  });
}
