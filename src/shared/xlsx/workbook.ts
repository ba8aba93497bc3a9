/**
 * Reading an .xlsx workbook, for `firma refresh`, `firma match` and `firma watch --file`: its
 * sheets, cell values, and the cells whose formulas call the add-in's namespace. Read-only: the
 * CLI's `patch.ts` does the writing, on the same parsed offsets, through the package it opened the
 * workbook over (`Workbook.over`, src/cli/writable-package.ts). The facade over one reader per idea: the package's parts (`workbook-parts.ts`), the
 * shared strings (`shared-strings.ts`), the dynamic-array metadata (`dynamic-arrays.ts`), the
 * sheet scan (`sheet-scan.ts`), the cell values (`cell-decoding.ts`) and the shared formulas
 * (`shared-formulas.ts`).
 */
import { XlsxError, XlsxPackage } from "./xlsx-package";
import { badPart, findWorkbookPart, readRels, readSheets, type Relationship, type SheetInfo } from "./workbook-parts";
import { readSharedStrings } from "./shared-strings";
import { readDynamicArrayCellMetadata } from "./dynamic-arrays";
import { scanSheet, type ArrayRegion, type ParsedCell, type ParsedSheet } from "./sheet-scan";
import { decodeCell } from "./cell-decoding";
import { formulaText } from "./shared-formulas";
import { Box, boxesIntersect, cellKey, formatCellRef, parseCellRef } from "../sheet/a1";
import { NamespaceCall, analyzeFormula } from "../sheet/formula";
import { ReadValue } from "../sheet/cell-values";

export { resolvePartName, type Relationship, type SheetInfo } from "./workbook-parts";
export type { ArrayRegion, ParsedCell, ParsedRow, ParsedSheet } from "./sheet-scan";

/** A formula as the file stores it (the pane's FormulaCell is a formula as Excel shows it now). */
export interface StoredFormula {
  sheet: string;
  address: string;
  row: number;
  col: number;
  /** The formula as stored (for a cell sharing a formula, the formula derived from the master). */
  formula: string;
  /** `<f t>`: "normal" when absent. */
  formulaType: "normal" | "array" | "shared" | "dataTable";
  /** A dynamic-array formula (`cm` pointing at XLDAPR dynamic-array metadata). */
  dynamic: boolean;
  /** `<f ref>` of an array formula: its spill (or legacy array) range. */
  ref?: string;
  /** The value Excel saved with the formula. */
  cached: ReadValue;
  /** The namespace call, when the whole formula is one call. */
  call?: NamespaceCall;
}

/**
 * A formula findFormulas found: its call analysed again when asked, not kept (a refresh of 100,000
 * rows reads none of its 200,000 calls this way: its evaluator reads each whole formula).
 */
class FoundFormula implements StoredFormula {
  constructor(
    readonly sheet: string,
    readonly address: string,
    readonly row: number,
    readonly col: number,
    readonly formula: string,
    readonly formulaType: StoredFormula["formulaType"],
    readonly dynamic: boolean,
    readonly ref: string | undefined,
    readonly cached: ReadValue,
    private readonly namespace: string,
  ) {}

  get call(): NamespaceCall | undefined {
    const an = analyzeFormula(this.formula, this.namespace);
    return an.kind === "call" ? an.call : undefined;
  }
}

/** The part of a worksheet in use: the cells holding a value or a formula (a style alone does not count). */
export interface UsedRange {
  /** First and last used rows, last used column (1-based; 0 when the sheet is empty). */
  top: number;
  bottom: number;
  right: number;
  /** True when the cell holds a value or a formula. */
  occupied(row: number, col: number): boolean;
}

export class Workbook<P extends XlsxPackage = XlsxPackage> {
  readonly sheets: SheetInfo[];
  readonly workbookPart: string;
  private readonly workbookRels: Relationship[];
  private sst: string[] | null = null;
  /** undefined: not read yet; null: the workbook has no metadata part. */
  private dynamicCm: Set<number> | null | undefined = undefined;
  private readonly parsed = new Map<string, { bytes: Uint8Array; sheet: ParsedSheet }>();
  private readonly arrayIndex = new WeakMap<ParsedSheet, Map<number, ParsedCell[]>>();

  private constructor(readonly pkg: P) {
    const main = findWorkbookPart(pkg);
    this.workbookPart = main.part;
    this.workbookRels = main.rels;
    this.sheets = readSheets(pkg, this.workbookPart, this.workbookRels);
  }

  /** Opens a workbook from the bytes of an .xlsx file; throws `XlsxError` when it is not one. */
  static open(bytes: Uint8Array): Workbook {
    return new Workbook(XlsxPackage.open(bytes));
  }

  /** A workbook over a package already opened (one the caller may write into); throws `XlsxError`. */
  static over<P extends XlsxPackage>(pkg: P): Workbook<P> {
    return new Workbook(pkg);
  }

  /** The relationships of a rels part (empty when the part does not exist). */
  readRels(relsPart: string, sourcePart: string): Relationship[] {
    return readRels(this.pkg, relsPart, sourcePart);
  }

  /** Relationships of the workbook part. */
  get relationships(): readonly Relationship[] {
    return this.workbookRels;
  }

  /** A sheet by name, case-insensitively (as Excel compares sheet names). */
  sheet(name: string): SheetInfo | undefined {
    const u = name.toUpperCase();
    return this.sheets.find((s) => s.name.toUpperCase() === u);
  }

  /** The shared string table (empty when the workbook has none). */
  sharedStrings(): string[] {
    this.sst ??= readSharedStrings(this.pkg, this.workbookRels);
    return this.sst;
  }

  /** Whether a cell's `cm` marks a dynamic array. Without a metadata part, any `cm` on an array formula counts. */
  isDynamicArray(cell: ParsedCell): boolean {
    if (cell.f?.t !== "array") return false;
    const cm = cell.cm;
    if (cm === undefined) return false;
    if (this.dynamicCm === undefined) this.dynamicCm = readDynamicArrayCellMetadata(this.pkg, this.workbookRels);
    return this.dynamicCm === null ? true : this.dynamicCm.has(Number(cm));
  }

  /** Parses (once) and returns a worksheet. */
  parseSheet(name: string): ParsedSheet {
    const info = this.sheet(name);
    if (!info) throw new XlsxError("not_xlsx", "xlsx.noSheet", { name });
    const cached = this.parsed.get(info.name);
    // the package hands out the same buffer until the part is rewritten
    if (cached && cached.bytes === this.pkg.read(cached.sheet.part)) return cached.sheet;
    if (!info.part) throw new XlsxError("unsupported", "xlsx.notWorksheet", { name: info.name });
    const bytes = this.pkg.read(info.part);
    const xml = this.pkg.readText(info.part);
    let sheet: ParsedSheet;
    try {
      sheet = scanSheet(info, info.part, xml, (cell) => this.isDynamicArray(cell));
    } catch (e) {
      if (e instanceof XlsxError) throw e;
      throw badPart(info.part, e);
    }
    this.parsed.set(info.name, { bytes, sheet });
    return sheet;
  }

  /** Forgets parsed sheets (after the package was changed). */
  invalidate(): void {
    this.parsed.clear();
  }

  /** The used range of a worksheet (see `UsedRange`). */
  usedRange(name: string): UsedRange {
    const sheet = this.parseSheet(name);
    let top = 0;
    let bottom = 0;
    let right = 0;
    const filled = new Set<number>();
    for (const cell of sheet.cells.values()) {
      if (!cell.f && !cell.v && !cell.is) continue;
      filled.add(cellKey(cell.row, cell.col));
      top = top === 0 ? cell.row : Math.min(top, cell.row);
      bottom = Math.max(bottom, cell.row);
      right = Math.max(right, cell.col);
    }
    return { top, bottom, right, occupied: (row, col) => filled.has(cellKey(row, col)) };
  }

  /** The value of a parsed cell (null when it holds none). */
  valueOf(cell: ParsedCell | undefined, sheet: ParsedSheet): ReadValue {
    return decodeCell(cell, sheet, () => this.sharedStrings());
  }

  /** A cell's value by sheet name and A1 address ("B3" or "$B$3"); null when empty or missing. */
  getValue(sheet: string, address: string): ReadValue {
    const s = this.parseSheet(sheet);
    const p = parseCellRef(address);
    if (!p) throw new RangeError(`bad cell address ${address}`);
    return this.valueOf(s.cells.get(cellKey(p.row, p.col)), s);
  }

  /** The parsed cell at an address, if the sheet has an element for it. */
  getCell(sheet: string, address: string): ParsedCell | undefined {
    const p = parseCellRef(address);
    if (!p) throw new RangeError(`bad cell address ${address}`);
    return this.parseSheet(sheet).cells.get(cellKey(p.row, p.col));
  }

  /**
   * The formula of any cell (for a cell sharing a formula, the master's moved), as stored; null
   * when the cell holds none. For the CLI's formula engine (excel-formulas.ts).
   */
  formulaAt(sheetName: string, row: number, col: number): string | null {
    const sheet = this.parseSheet(sheetName);
    const cell = sheet.cells.get(cellKey(row, col));
    return cell?.f ? formulaText(sheet, cell) : null;
  }

  /** The array formula (spill or legacy array) whose range covers a cell, if any. */
  arrayAt(sheetName: string, row: number, col: number): ArrayRegion | undefined {
    const sheet = this.parseSheet(sheetName);
    const anchor = this.arraysOver(sheet, { top: row, left: col, bottom: row, right: col })[0];
    return anchor && sheet.arrays.find((a) => a.anchor === anchor);
  }

  /**
   * Every cell whose formula calls `namespace` (both spellings), in sheet order then row-major:
   * a formula that is one call carries it (`call`); one that holds a call inside something
   * larger, or that cannot be read, is listed without it.
   */
  findFormulas(namespace = "FIRMA"): StoredFormula[] {
    const out: StoredFormula[] = [];
    for (const info of this.sheets) {
      if (!info.part) continue;
      const sheet = this.parseSheet(info.name);
      for (const row of sheet.rows) {
        for (const cell of row.cells) {
          if (!cell.f) continue;
          const cached = this.valueOf(cell, sheet); // a damaged shared-string table fails here, whatever the formula
          const text = formulaText(sheet, cell);
          if (text === null) continue; // a shared child whose master is missing
          if (analyzeFormula(text, namespace).kind === "none") continue;
          out.push(
            new FoundFormula(
              info.name,
              formatCellRef(cell.row, cell.col),
              cell.row,
              cell.col,
              text,
              (cell.f.t ?? "normal") as StoredFormula["formulaType"],
              this.isDynamicArray(cell),
              cell.f.ref,
              cached,
              namespace,
            ),
          );
        }
      }
    }
    return out;
  }

  /** Anchors of the array formulas (spills) whose range meets `box`. */
  private arraysOver(sheet: ParsedSheet, box: Box): ParsedCell[] {
    const area = (box.bottom - box.top + 1) * (box.right - box.left + 1);
    if (area >= sheet.arrays.length) return sheet.arrays.filter((ar) => boxesIntersect(ar.box, box)).map((ar) => ar.anchor);
    let index = this.arrayIndex.get(sheet);
    if (!index) {
      index = new Map();
      for (const ar of sheet.arrays) {
        for (let r = ar.box.top; r <= ar.box.bottom; r++)
          for (let c = ar.box.left; c <= ar.box.right; c++) {
            const k = cellKey(r, c);
            const list = index.get(k);
            if (list) list.push(ar.anchor);
            else index.set(k, [ar.anchor]);
          }
      }
      this.arrayIndex.set(sheet, index);
    }
    const out = new Set<ParsedCell>();
    for (let r = box.top; r <= box.bottom; r++)
      for (let c = box.left; c <= box.right; c++) for (const a of index.get(cellKey(r, c)) ?? []) out.add(a);
    return [...out];
  }
}
