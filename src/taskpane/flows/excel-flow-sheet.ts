/**
 * The flows' FlowSheet in Excel (flow-sheet.ts), loaded with them: the selection with what makes it
 * unusable (several areas, a protected sheet, hidden rows, an Excel table), the active cell, how many
 * cells would be overwritten, and writes through blocks.ts. Each Excel member used, with its set:
 *  - Workbook.getSelectedRanges, RangeAreas.areaCount (ExcelApi 1.9; without it one area is all a
 *    selection can be: https://learn.microsoft.com/javascript/api/excel/excel.workbook#excel-excel-workbook-getselectedranges-member(1));
 *  - WorksheetProtection.protected (ExcelApi 1.2: https://learn.microsoft.com/javascript/api/excel/excel.worksheetprotection);
 *  - Range.rowHidden (ExcelApi 1.2): "Value is null when some rows in a range are hidden and other rows
 *    in the same range are not hidden" (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-rowhidden-member);
 *  - Worksheet.tables, Table.getRange (ExcelApi 1.1); Worksheet.getUsedRangeOrNullObject (1.4);
 *  - Range.valuesAsJson (1.16), so that a card reads as its CUI; `values` elsewhere.
 */
import { plainArgument } from "../../shared/excel-values";
import { readAreas, writeAreas, type Area, type Write } from "../blocks";
import type { ExcelApiCheck } from "../excel-api";
import {
  checkSelection,
  type ActiveCell,
  type ColumnSelection,
  type FlowSheet,
  type SelectionLimits,
  type SelectionProblem,
} from "./flow-sheet";

interface Box {
  top: number;
  left: number;
  rows: number;
  cols: number;
}
const overlaps = (a: Box, b: Box) =>
  a.top < b.top + b.rows && b.top < a.top + a.rows && a.left < b.left + b.cols && b.left < a.left + a.cols;
const boxOf = (r: { rowIndex: number; columnIndex: number; rowCount: number; columnCount: number }): Box => ({
  top: r.rowIndex + 1,
  left: r.columnIndex + 1,
  rows: r.rowCount,
  cols: r.columnCount,
});

/** The boxes of the sheet's Excel tables. */
async function tableBoxes(context: Excel.RequestContext, ws: Excel.Worksheet): Promise<Box[]> {
  const tables = ws.tables.load("items/name");
  await context.sync();
  if (tables.items.length === 0) return [];
  const ranges = tables.items.map((t) => t.getRange().load(["rowIndex", "columnIndex", "rowCount", "columnCount"]));
  await context.sync();
  return ranges.map(boxOf);
}

export class ExcelFlowSheet implements FlowSheet {
  constructor(private readonly hasExcelApi: ExcelApiCheck) {}

  cards(): boolean {
    // As the functions decide (src/functions/invocation.ts): entity values need CustomFunctionsRuntime 1.4.
    return typeof Office !== "undefined" && !!Office.context?.requirements?.isSetSupported("CustomFunctionsRuntime", "1.4");
  }

  active(): Promise<ActiveCell> {
    return Excel.run(async (context) => {
      const cell = context.workbook.getActiveCell();
      // eslint-disable-next-line office-addins/call-sync-before-read, office-addins/load-object-before-read -- a navigation property
      const ws = cell.worksheet;
      cell.load(["rowIndex", "columnIndex"]);
      ws.load("name");
      ws.protection.load("protected");
      await context.sync();
      const box = boxOf({ rowIndex: cell.rowIndex, columnIndex: cell.columnIndex, rowCount: 1, columnCount: 1 });
      const inTable = (await tableBoxes(context, ws)).some((t) => t.left <= box.left && box.left < t.left + t.cols && t.top <= box.top);
      return { sheet: ws.name, row: box.top, col: box.left, protected: ws.protection.protected, inTable };
    });
  }

  selection(limits: SelectionLimits): Promise<ColumnSelection | { problem: SelectionProblem }> {
    return Excel.run(async (context) => {
      const sel = context.workbook.getSelectedRange();
      // eslint-disable-next-line office-addins/call-sync-before-read, office-addins/load-object-before-read -- a navigation property
      const ws = sel.worksheet;
      sel.load(["rowIndex", "columnIndex", "rowCount", "columnCount"]);
      ws.load("name");
      ws.protection.load("protected");
      const areas = this.hasExcelApi("1.9") ? context.workbook.getSelectedRanges().load("areaCount") : null;
      const used = ws.getUsedRangeOrNullObject(true).load(["rowIndex", "rowCount"]);
      await context.sync();
      const box = boxOf(sel);
      const usedRows = used.isNullObject ? null : { top: used.rowIndex + 1, bottom: used.rowIndex + used.rowCount };
      const first = checkSelection(
        {
          sheet: ws.name,
          ...box,
          areas: areas?.areaCount ?? 1,
          // a flow that only reads does not mind a protected sheet
          protected: !limits.readOnly && ws.protection.protected,
          used: usedRows,
          hiddenRows: false,
          inTable: false,
        },
        limits,
      );
      if ("problem" in first) return first;
      const data = first.box;
      // Hidden rows and tables, over the rows read (with the header) and the columns the flow writes.
      const span = {
        top: first.headerRow ?? data.top,
        left: data.left,
        rows: data.rows + (first.headerRow === null ? 0 : data.top - first.headerRow),
        cols: data.cols + limits.width,
      };
      const rows = ws.getRangeByIndexes(data.top - 1, data.left - 1, data.rows, 1).load("rowHidden");
      await context.sync();
      const hiddenRows = rows.rowHidden !== false;
      const inTable = !limits.readOnly && (await tableBoxes(context, ws)).some((t) => overlaps(t, span));
      const checked = checkSelection({ sheet: ws.name, ...box, areas: 1, protected: false, used: usedRows, hiddenRows, inTable }, limits);
      if ("problem" in checked) return checked;
      const json = this.hasExcelApi("1.16");
      const values: unknown[][] = [];
      await readAreas(context, [data], [json ? "valuesAsJson" : "values"], (_b, range) => {
        const part = json ? (plainArgument(range.valuesAsJson) as unknown[][]) : range.values;
        values.push(...part);
      });
      const headerRow = first.headerRow ?? (data.top > 1 ? data.top - 1 : null);
      return { ...data, headerRow, wholeColumns: first.wholeColumns, values };
    });
  }

  nonEmpty(areas: readonly Area[]): Promise<number> {
    return Excel.run(async (context) => {
      let n = 0;
      await readAreas(context, areas, ["formulas"], (_b, range) => {
        for (const row of range.formulas) for (const f of row) if (f !== "" && f !== null) n++;
      });
      return n;
    });
  }

  state(areas: readonly Area[]): Promise<{ busy: number; errors: number }> {
    return Excel.run(async (context) => {
      let busy = 0;
      let errors = 0;
      // A card reads as #VALUE! but shows its name (Range.text): only what shows an error code counts.
      await readAreas(context, areas, ["text", "valueTypes"], (_b, range) => {
        range.text.forEach((row, i) =>
          row.forEach((v, j) => {
            if (v === "#BUSY!" || v === "#GETTING_DATA") busy++;
            else if (range.valueTypes[i][j] === "Error" && v.startsWith("#")) errors++;
          }),
        );
      });
      return { busy, errors };
    });
  }

  write(writes: readonly Write[]): Promise<void> {
    return Excel.run((context) => writeAreas(context, writes));
  }

  select(area: Area): Promise<void> {
    return Excel.run(async (context) => {
      const ws = context.workbook.worksheets.getItem(area.sheet);
      ws.getRangeByIndexes(area.top - 1, area.left - 1, area.rows, area.cols).select();
      await context.sync();
    });
  }
}
