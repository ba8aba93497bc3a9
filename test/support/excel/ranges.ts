/**
 * The Excel stand-in's ranges and worksheets (Excel.Range, Excel.Worksheet) and what
 * Range.getDependents returns (WorkbookRangeAreas, RangeAreas): reads at sync, writes and calculate
 * methods applied at sync, each method failing with ApiNotFound where `S.excelApi` is older than its set.
 */
import { boxAddress, colLetters, parseRef, quoteSheet, type Box } from "./a1";
import { dependentsOf, formulaCellsIn } from "./calculation";
import { cellAt, ensureCell, excelError, grid, readFormula, readJson, readText, readValue, requireApi, usedBox, valueType } from "./cells";
import type { RequestContext } from "./excel-api";
import { ClientObject, notFound } from "./proxy";
import { utf8Bytes } from "./rules";
import { S, type FormulaCell, type Sheet } from "./state";
import { writeCell, writeJson } from "./writes";
import { refuseProtected, rowHidden, TableCollection, WorksheetProtection } from "./sheet-extras";

type Where = { sheet: Sheet; box: Box };

export class Range extends ClientObject {
  private readonly _resolve: () => Where | null;
  /** `resolve`: where the range is, or null (a null object, only where `orNull`). */
  constructor(ctx: RequestContext, resolve: () => Where | null, orNull = false) {
    super(ctx);
    this._resolve = () => {
      const r = resolve();
      if (!r && !orNull) throw notFound();
      return r;
    };
  }
  private _where(): Where {
    return this._resolve()!;
  }
  _snapshot(list: string[] | null): Record<string, unknown> {
    const r = this._resolve();
    if (!r) return { isNullObject: true };
    const { sheet, box } = r;
    const all: Record<string, () => unknown> = {
      address: () => `${quoteSheet(sheet.name)}!${boxAddress(box)}`,
      values: () => grid(sheet, box, readValue),
      formulas: () => grid(sheet, box, readFormula),
      valueTypes: () => grid(sheet, box, valueType),
      text: () => grid(sheet, box, readText),
      numberFormat: () => grid(sheet, box, (cell) => (cell && cell.numberFormat) || "General"),
      valuesAsJson: () => {
        requireApi("1.16", "Range.valuesAsJson");
        return grid(sheet, box, readJson);
      },
      rowHidden: () => rowHidden(sheet, box),
      rowIndex: () => box.top - 1,
      columnIndex: () => box.left - 1,
      rowCount: () => box.bottom - box.top + 1,
      columnCount: () => box.right - box.left + 1,
    };
    const out: Record<string, unknown> = { isNullObject: false };
    for (const name of list || Object.keys(all)) if (all[name]) out[name] = all[name]();
    if (out.values || out.formulas || out.text || out.valuesAsJson || out.valueTypes) {
      S.reads.push({ sheet: sheet.name, address: boxAddress(box), cells: (box.bottom - box.top + 1) * (box.right - box.left + 1) });
      this._ctx._answerBytes += utf8Bytes(JSON.stringify(out));
    }
    return out;
  }
  // What a sync loaded: reading a property that was not loaded and synced throws, as in office.js.
  get address(): string {
    return this._get("address");
  }
  get values(): unknown[][] {
    return this._get("values");
  }
  set values(v: unknown) {
    this._write(v, false);
  }
  get formulas(): unknown[][] {
    return this._get("formulas");
  }
  set formulas(v: unknown) {
    this._write(v, true);
  }
  get valueTypes(): string[][] {
    return this._get("valueTypes");
  }
  get text(): string[][] {
    return this._get("text");
  }
  /** Sets cell values JSON, types kept (ExcelApi 1.16). */
  get valuesAsJson(): unknown[][] {
    return this._get("valuesAsJson");
  }
  set valuesAsJson(v: unknown) {
    this._write(v, "json");
  }
  get numberFormat(): unknown[][] {
    return this._get("numberFormat");
  }
  /** The number format; "@" (text) makes what is written afterwards text, as in Excel. */
  set numberFormat(v: unknown) {
    const copy: unknown = JSON.parse(JSON.stringify(v));
    this._ctx._queue(() => {
      const { sheet, box } = this._where();
      refuseProtected(sheet);
      for (let r = box.top; r <= box.bottom; r++)
        for (let c = box.left; c <= box.right; c++) {
          const f = Array.isArray(copy) ? copy[r - box.top][c - box.left] : copy;
          const cell = ensureCell(sheet, r, c);
          cell.text = f === "@";
          cell.numberFormat = f;
          cell.format = true;
        }
    }, copy);
  }
  get rowHidden(): boolean | null {
    return this._get("rowHidden");
  }
  get rowIndex(): number {
    return this._get("rowIndex");
  }
  get columnIndex(): number {
    return this._get("columnIndex");
  }
  get rowCount(): number {
    return this._get("rowCount");
  }
  get columnCount(): number {
    return this._get("columnCount");
  }
  private _write(v: unknown, asFormula: boolean | "json"): void {
    const copy: unknown = JSON.parse(JSON.stringify(v));
    this._ctx._queue(() => {
      if (asFormula === "json") requireApi("1.16", "Range.valuesAsJson");
      const { sheet, box } = this._where();
      refuseProtected(sheet);
      const rows = box.bottom - box.top + 1;
      const cols = box.right - box.left + 1;
      const m = (Array.isArray(copy) ? copy : [[copy]]) as unknown[];
      if (m.length !== rows || m.some((row) => !Array.isArray(row) || row.length !== cols)) {
        throw excelError(
          "The number of rows or columns in the input array doesn't match the size or dimensions of the range.",
          "InvalidArgument",
        );
      }
      const cells = m as unknown[][];
      for (let i = 0; i < rows; i++)
        for (let j = 0; j < cols; j++) {
          if (asFormula === "json") writeJson(sheet, box.top + i, box.left + j, cells[i][j]);
          else writeCell(sheet, box.top + i, box.left + j, cells[i][j], asFormula);
        }
      S.writes.push({
        sheet: sheet.name,
        address: boxAddress(box),
        asFormula: asFormula === true,
        ...(asFormula === "json" ? { json: true } : {}),
      });
      // A formula entered is calculated, as when the user types it and presses Enter.
      if (asFormula === true) this._ctx._calc.push(...formulaCellsIn(sheet, box));
    }, copy);
  }
  /** "Selects the specified range in the Excel UI." (ExcelApi 1.1, https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-select-member(1)) */
  select(): void {
    this._ctx._queue(() => {
      const { sheet, box } = this._where();
      S.selection = { sheet: sheet.name, box: { ...box } };
      S.active = sheet.name;
    });
  }
  get worksheet(): Worksheet {
    return new Worksheet(this._ctx, () => {
      const r = this._resolve();
      return r ? r.sheet : null;
    });
  }
  /**
   * "Calculates a range of cells on a worksheet" (ExcelApi 1.6,
   * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-calculate-member(1)):
   * the range's formula cells, nothing else — not the cells that depend on them.
   */
  calculate(): void {
    this._ctx._queue(() => {
      requireApi("1.6", "Range.calculate");
      const { sheet, box } = this._where();
      this._ctx._calc.push(...formulaCellsIn(sheet, box).map((x) => ({ ...x, byCalculate: true })));
    });
  }
  getDependents(): WorkbookRangeAreas {
    return new WorkbookRangeAreas(this._ctx, () => {
      requireApi("1.15", "Range.getDependents");
      const { sheet, box } = this._where();
      const deps = dependentsOf([{ sheet, box }]);
      // "Throws an ItemNotFound error if no dependents are found." (the API reference)
      if (deps.length === 0) throw excelError("No dependents were found.", "ItemNotFound");
      return deps;
    });
  }
  getSpillingToRangeOrNullObject(): Range {
    return new Range(
      this._ctx,
      () => {
        requireApi("1.12", "Range.getSpillingToRangeOrNullObject");
        const r = this._resolve();
        if (!r) return null;
        const anchor = cellAt(r.sheet, r.box.top, r.box.left);
        if (!anchor || !anchor.spill) return null;
        return { sheet: r.sheet, box: { top: r.box.top, left: r.box.left, bottom: anchor.spill.bottom, right: anchor.spill.right } };
      },
      true,
    );
  }
  getCell(row: number, col: number): Range {
    return new Range(this._ctx, () => {
      const r = this._where();
      const top = r.box.top + row;
      const left = r.box.left + col;
      return { sheet: r.sheet, box: { top, left, bottom: top, right: left } };
    });
  }
}

export class Worksheet extends ClientObject {
  private readonly _resolveSheet: () => Sheet | null;
  constructor(ctx: RequestContext, resolveSheet: () => Sheet | null, orNull = false) {
    super(ctx);
    this._resolveSheet = () => {
      const s = resolveSheet();
      if (!s && !orNull) throw notFound();
      return s;
    };
  }
  private _sheet(): Sheet {
    return this._resolveSheet()!;
  }
  _snapshot(): Record<string, unknown> {
    const s = this._resolveSheet();
    return s ? { isNullObject: false, name: s.name } : { isNullObject: true };
  }
  get name(): string {
    return this._get("name");
  }
  private _protection?: WorksheetProtection;
  private _tables?: TableCollection;
  /** A navigation property: the sheet's protection (ExcelApi 1.2; sheet-extras.ts). */
  get protection(): WorksheetProtection {
    this._protection ??= new WorksheetProtection(this._ctx, () => this._sheet());
    return this._protection;
  }
  /** A navigation property: the sheet's tables (ExcelApi 1.1; sheet-extras.ts). */
  get tables(): TableCollection {
    this._tables ??= new TableCollection(this._ctx, () => this._sheet());
    return this._tables;
  }
  getRange(address: string): Range {
    return new Range(this._ctx, () => {
      const sheet = this._sheet();
      const ref = parseRef(address);
      if (!ref) throw excelError(`Invalid address ${address}`, "InvalidArgument");
      return { sheet, box: ref.box };
    });
  }
  getCell(row: number, col: number): Range {
    return new Range(this._ctx, () => ({
      sheet: this._sheet(),
      box: { top: row + 1, left: col + 1, bottom: row + 1, right: col + 1 },
    }));
  }
  getRangeByIndexes(row: number, col: number, rowCount: number, colCount: number): Range {
    return new Range(this._ctx, () => {
      requireApi("1.7", "Worksheet.getRangeByIndexes");
      return { sheet: this._sheet(), box: { top: row + 1, left: col + 1, bottom: row + rowCount, right: col + colCount } };
    });
  }
  /** "Deletes the worksheet from the workbook." (ExcelApi 1.1) */
  delete(): void {
    this._ctx._queue(() => {
      const sheet = this._sheet();
      S.sheets.delete(sheet.name.toLowerCase());
      S.order = S.order.filter((n) => n !== sheet.name);
      if (S.active === sheet.name) S.active = S.order[0];
    });
  }
  /** "Activate the worksheet in the Excel UI." (ExcelApi 1.1) */
  activate(): void {
    this._ctx._queue(() => {
      const sheet = this._sheet();
      S.active = sheet.name;
      S.selection = { sheet: sheet.name, box: { top: 1, left: 1, bottom: 1, right: 1 } };
    });
  }
  getUsedRange(valuesOnly?: boolean): Range {
    return new Range(this._ctx, () => {
      const sheet = this._sheet();
      return { sheet, box: usedBox(sheet, !!valuesOnly) || { top: 1, left: 1, bottom: 1, right: 1 } };
    });
  }
  getUsedRangeOrNullObject(valuesOnly?: boolean): Range {
    return new Range(
      this._ctx,
      () => {
        requireApi("1.4", "Worksheet.getUsedRangeOrNullObject");
        const sheet = this._resolveSheet();
        if (!sheet) return null;
        const box = usedBox(sheet, !!valuesOnly);
        return box ? { sheet, box } : null;
      },
      true,
    );
  }
}

/**
 * What Range.getDependents returns (ExcelApi 1.15): `addresses`, and `areas`, one RangeAreas per
 * worksheet (https://learn.microsoft.com/javascript/api/excel/excel.workbookrangeareas). resolve()
 * gives the dependent cells or throws.
 */
class WorkbookRangeAreas extends ClientObject {
  private _areas?: RangeAreasCollection;
  constructor(
    ctx: RequestContext,
    private readonly _resolveCells: () => FormulaCell[],
  ) {
    super(ctx);
    // The call itself fails at sync (ItemNotFound) even when nothing is loaded.
    ctx._queue(() => _resolveCells());
  }
  private _bySheet(): Map<Sheet, FormulaCell[]> {
    const by = new Map<Sheet, FormulaCell[]>();
    for (const x of this._resolveCells()) {
      if (!by.has(x.sheet)) by.set(x.sheet, []);
      by.get(x.sheet)!.push(x);
    }
    return by;
  }
  _snapshot(): Record<string, unknown> {
    const addresses: string[] = [];
    for (const [sheet, cells] of this._bySheet())
      for (const x of cells) addresses.push(`${quoteSheet(sheet.name)}!${colLetters(x.c)}${x.r}`);
    return { isNullObject: false, addresses };
  }
  get addresses(): string[] {
    return this._get("addresses");
  }
  get areas(): RangeAreasCollection {
    // a navigation property: the same proxy each time, as office.js keeps it
    this._areas ??= new RangeAreasCollection(this._ctx, () => [...this._bySheet().entries()]);
    return this._areas;
  }
}

class RangeAreasCollection extends ClientObject {
  constructor(
    ctx: RequestContext,
    private readonly _resolveSheets: () => [Sheet, FormulaCell[]][],
  ) {
    super(ctx);
  }
  _snapshot(): Record<string, unknown> {
    return {
      items: this._resolveSheets().map(([sheet, cells]) => {
        const areas = new RangeAreas(this._ctx, () => cells);
        areas._data = {
          cellCount: cells.length,
          address: cells.map((x) => `${quoteSheet(sheet.name)}!${colLetters(x.c)}${x.r}`).join(","),
        };
        areas._loaded.add("cellCount");
        areas._loaded.add("address");
        return areas;
      }),
    };
  }
  get items(): RangeAreas[] {
    return this._get("items");
  }
}

/** Rectangles of one worksheet (ExcelApi 1.9, https://learn.microsoft.com/javascript/api/excel/excel.rangeareas). */
class RangeAreas extends ClientObject {
  constructor(
    ctx: RequestContext,
    private readonly _resolveCells: () => FormulaCell[],
  ) {
    super(ctx);
  }
  _snapshot(): Record<string, unknown> {
    return { isNullObject: false };
  }
  get cellCount(): number {
    return this._get("cellCount");
  }
  get address(): string {
    return this._get("address");
  }
  /** "Calculates all cells in the RangeAreas." (ExcelApi 1.9) */
  calculate(): void {
    this._ctx._queue(() => {
      requireApi("1.9", "RangeAreas.calculate");
      this._ctx._calc.push(...this._resolveCells().map((x) => ({ ...x, byCalculate: true })));
    });
  }
}
