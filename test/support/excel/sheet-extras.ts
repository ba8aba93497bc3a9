/**
 * What the stand-in's sheets carry besides cells, for the pane's flows: protection, Excel tables, and
 * the selection's areas. Each copies its Microsoft page:
 *  - WorksheetProtection.protected, "Specifies if protection of the worksheet is enabled" (ExcelApi 1.2,
 *    https://learn.microsoft.com/javascript/api/excel/excel.worksheetprotection). Writing to a protected
 *    sheet's (locked) cells fails; the stand-in fails every write with AccessDenied, "You cannot perform
 *    the requested operation" (https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-error-handling),
 *    the stricter reading (cells a protection leaves unlocked are not played);
 *  - Worksheet.tables and Table.getRange(), "Gets the range object associated with the entire table"
 *    (ExcelApi 1.1, https://learn.microsoft.com/javascript/api/excel/excel.tablecollection);
 *  - Workbook.getSelectedRanges() (ExcelApi 1.9): every area of the selection, `areaCount`
 *    (https://learn.microsoft.com/javascript/api/excel/excel.rangeareas).
 */
import type { Box } from "./a1";
import { excelError, requireApi } from "./cells";
import type { RequestContext } from "./excel-api";
import { ClientObject } from "./proxy";
import { Range } from "./ranges";
import { S, type Sheet } from "./state";

/** The stand-in's extras, set by setup: protected sheets (lower-case names), hidden rows by sheet, tables, the selection's areas. */
export const EXTRAS = {
  protectedSheets: new Set<string>(),
  hiddenRows: new Map<string, Set<number>>(),
  tables: [] as { sheet: string; name: string; box: Box }[],
  selectionAreas: 1,
};

export function refuseProtected(sheet: Sheet): void {
  if (EXTRAS.protectedSheets.has(sheet.name.toLowerCase()))
    throw excelError("You cannot perform the requested operation (the sheet is protected).", "AccessDenied");
}

/**
 * "Represents if all rows in the current range are hidden. Value is true when all rows in a range are
 * hidden. Value is false when no rows in the range are hidden. Value is null when some rows in a range
 * are hidden and other rows in the same range are not hidden." (ExcelApi 1.2,
 * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-rowhidden-member)
 */
export function rowHidden(sheet: Sheet, box: Box): boolean | null {
  requireApi("1.2", "Range.rowHidden");
  const hidden = EXTRAS.hiddenRows.get(sheet.name.toLowerCase()) ?? new Set<number>();
  let n = 0;
  for (const r of hidden) if (r >= box.top && r <= box.bottom) n++;
  return n === 0 ? false : n === box.bottom - box.top + 1 ? true : null;
}

export class WorksheetProtection extends ClientObject {
  constructor(
    ctx: RequestContext,
    private readonly _resolveSheet: () => Sheet,
  ) {
    super(ctx);
  }
  _snapshot(): Record<string, unknown> {
    requireApi("1.2", "WorksheetProtection");
    return { isNullObject: false, protected: EXTRAS.protectedSheets.has(this._resolveSheet().name.toLowerCase()) };
  }
  get protected(): boolean {
    return this._get("protected");
  }
}

export class Table extends ClientObject {
  constructor(
    ctx: RequestContext,
    private readonly _sheet: Sheet,
    private readonly _box: Box,
  ) {
    super(ctx);
  }
  _snapshot(): Record<string, unknown> {
    return { isNullObject: false };
  }
  get name(): string {
    return this._get("name");
  }
  getRange(): Range {
    return new Range(this._ctx, () => ({ sheet: this._sheet, box: { ...this._box } }));
  }
}

export class TableCollection extends ClientObject {
  constructor(
    ctx: RequestContext,
    private readonly _resolveSheet: () => Sheet,
  ) {
    super(ctx);
  }
  _snapshot(): Record<string, unknown> {
    const sheet = this._resolveSheet();
    return {
      isNullObject: false,
      items: EXTRAS.tables
        .filter((t) => t.sheet === sheet.name.toLowerCase())
        .map((t) => {
          const table = new Table(this._ctx, sheet, t.box);
          table._data = { name: t.name };
          table._loaded.add("name");
          return table;
        }),
    };
  }
  get items(): Table[] {
    return this._get("items");
  }
}

export class SelectedAreas extends ClientObject {
  _snapshot(): Record<string, unknown> {
    requireApi("1.9", "Workbook.getSelectedRanges");
    return { isNullObject: false, areaCount: EXTRAS.selectionAreas };
  }
  get areaCount(): number {
    return this._get("areaCount");
  }
}

/** "Gets the currently active cell from the workbook." (ExcelApi 1.7): the stand-in's is the selection's first cell. */
export function activeCell(ctx: RequestContext, sheetOf: (name: string) => Sheet): Range {
  return new Range(ctx, () => {
    requireApi("1.7", "Workbook.getActiveCell");
    if (!S.selection) return null;
    const b = S.selection.box;
    return { sheet: sheetOf(S.selection.sheet), box: { top: b.top, left: b.left, bottom: b.top, right: b.left } };
  });
}
