/**
 * Reading an .xlsx workbook for `firma refresh`: its sheets, shared strings, cell values, and
 * the cells whose formulas call the add-in's namespace, with their arguments resolved to
 * constants. Read-only: `patch.ts` does the writing, on the same parsed offsets.
 *
 * Parts are located the OPC way (package rels → workbook part → workbook rels), not by
 * assumed names. The sheet XML is scanned, not parsed into a tree, so each cell keeps the
 * offsets of its element, its `<f>` and its `<v>` in the original text.
 */
import { XlsxError, XlsxPackage } from "./xlsx-package";
import {
  XmlSyntaxError,
  attributes,
  childElements,
  decodeOoxmlString,
  decodeXml,
  elementSpan,
  scanTags,
  stringItemText,
  type ElementSpan,
} from "./xml";
import { Box, boxesIntersect, cellKey, formatCellRef, parseBox, parseCellRef } from "../shared/sheet/a1";
import { FormulaArg, NamespaceCall, NotEvaluableReason, analyzeFormula, describeReason, shiftFormula } from "../shared/sheet/formula";
import { ReadValue } from "../shared/sheet/cell-values";

const REL_OFFICE_DOCUMENT = /\/officeDocument$/;
const REL_WORKSHEET = /\/worksheet$/;
const REL_SHARED_STRINGS = /\/sharedStrings$/;
const REL_SHEET_METADATA = /\/sheetMetadata$/;

const MAIN_CONTENT_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
  "application/vnd.ms-excel.template.macroEnabled.main+xml",
]);

/** The largest range an argument may cover (cells). */
import { MAX_ARGUMENT_CELLS } from "../shared/sheet/arguments";
export { MAX_ARGUMENT_CELLS };

export interface Relationship {
  id: string;
  type: string;
  target: string;
  /** Resolved part name (no leading "/"), or null for an external target. */
  part: string | null;
}

export interface SheetInfo {
  name: string;
  sheetId: string;
  relId: string;
  /** Part name in the package, e.g. "xl/worksheets/sheet1.xml"; null when the sheet is not a worksheet (chart sheet, ...). */
  part: string | null;
  state: "visible" | "hidden" | "veryHidden";
  /** 0-based position in the workbook. */
  index: number;
}

/** A `<c>` element as found in the sheet XML; offsets are into `ParsedSheet.xml`. */
export interface ParsedCell {
  row: number;
  col: number;
  start: number;
  end: number;
  /** End of the start tag. */
  tagEnd: number;
  selfClosing: boolean;
  attrs: Map<string, string>;
  f?: { span: ElementSpan; attrs: Map<string, string>; text: string };
  v?: { span: ElementSpan; text: string };
  is?: { span: ElementSpan };
}

export interface ParsedRow {
  r: number;
  span: ElementSpan;
  attrs: Map<string, string>;
  cells: ParsedCell[];
}

export interface ArrayRegion {
  anchor: ParsedCell;
  box: Box;
  dynamic: boolean;
}

export interface ParsedSheet {
  info: SheetInfo;
  part: string;
  xml: string;
  /** Element prefix used by the sheet ("" or e.g. "x:"), for elements the patcher inserts. */
  prefix: string;
  sheetData: ElementSpan;
  rows: ParsedRow[];
  cells: Map<number, ParsedCell>;
  dimension?: { tagStart: number; tagEnd: number; ref: string };
  merges: Box[];
  /** Array formulas (dynamic or legacy) and the ranges their `<f ref>` covers. */
  arrays: ArrayRegion[];
}

export interface ArgProblem {
  /** 0-based argument position; null for a problem of the whole formula. */
  arg: number | null;
  reason: NotEvaluableReason;
  text: string;
  /** Romanian, then English. */
  message: string;
}

export interface FormulaCell {
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
  /** True when the call can be evaluated: every argument is a literal or a reference that resolves. */
  evaluable: boolean;
  problems: ArgProblem[];
}

/** An argument resolved to constants: a scalar (null = empty cell or omitted) or rows of them. */
export type ArgValue = ReadValue | ReadValue[][];

export interface ResolvedArgs {
  ok: true;
  args: ArgValue[];
  /** Formula cells whose value feeds an argument (a referenced formula cell, or the anchor of a spill covering a referenced cell). */
  dependsOn: Array<{ sheet: string; address: string }>;
}

export type ValueOverride = (sheet: string, row: number, col: number) => ReadValue | undefined;

function dirname(part: string): string {
  const i = part.lastIndexOf("/");
  return i < 0 ? "" : part.slice(0, i + 1);
}

/** Resolves a relationship target against the part that owns the rels. */
export function resolvePartName(sourcePart: string, target: string): string {
  let path = target.startsWith("/") ? target.slice(1) : dirname(sourcePart) + target;
  path = path.split("#")[0];
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "." && seg !== "") out.push(seg);
  }
  return out.map((s) => (/%[0-9A-Fa-f]{2}/.test(s) ? decodeURIComponent(s) : s)).join("/");
}

function relsPartOf(part: string): string {
  return `${dirname(part)}_rels/${part.slice(dirname(part).length)}.rels`;
}

function badPart(part: string, e: unknown): XlsxError {
  const where = e instanceof XmlSyntaxError ? ` @${e.offset}: ${e.message}` : e instanceof Error ? `: ${e.message}` : "";
  return new XlsxError("corrupt", "xlsx.damagedPart", { part }, where.trim());
}

/** The root element of an XML part. */
function rootElement(xml: string): ElementSpan {
  for (const t of scanTags(xml)) {
    if (t.kind === "open" || t.kind === "empty") return elementSpan(xml, t);
    break;
  }
  throw new XmlSyntaxError("no root element", 0);
}

export class Workbook {
  readonly sheets: SheetInfo[];
  readonly workbookPart: string;
  private readonly workbookRels: Relationship[];
  private sst: string[] | null = null;
  private dynamicCm: Set<number> | null = null;
  private readonly parsed = new Map<string, { bytes: Uint8Array; sheet: ParsedSheet }>();
  private readonly arrayIndex = new WeakMap<ParsedSheet, Map<number, ParsedCell[]>>();
  private readonly sharedMasters = new WeakMap<ParsedSheet, Map<string, ParsedCell>>();

  private constructor(readonly pkg: XlsxPackage) {
    const rootRels = this.readRels("_rels/.rels", "");
    const office = rootRels.find((r) => REL_OFFICE_DOCUMENT.test(r.type) && r.part);
    if (!office || !office.part || !pkg.has(office.part)) {
      throw new XlsxError("not_xlsx", "xlsx.noMainPart", {});
    }
    this.workbookPart = pkg.entryName(office.part)!;
    const ct = this.contentTypeOf(this.workbookPart);
    if (ct !== null && !MAIN_CONTENT_TYPES.has(ct)) {
      throw new XlsxError("not_xlsx", "xlsx.notWorkbook", {}, ct);
    }
    this.workbookRels = this.readRels(relsPartOf(this.workbookPart), this.workbookPart);
    this.sheets = this.readSheets();
  }

  /** Opens a workbook from the bytes of an .xlsx file; throws `XlsxError` when it is not one. */
  static open(bytes: Uint8Array): Workbook {
    return new Workbook(XlsxPackage.open(bytes));
  }

  private text(part: string): string {
    return this.pkg.readText(part);
  }

  private contentTypeOf(part: string): string | null {
    let xml: string;
    try {
      xml = this.text("[Content_Types].xml");
    } catch {
      return null;
    }
    try {
      const lower = "/" + part.toLowerCase();
      const ext = part.slice(part.lastIndexOf(".") + 1).toLowerCase();
      let byExt: string | null = null;
      for (const t of scanTags(xml)) {
        if (t.kind === "close") continue;
        const a = attributes(xml.slice(t.start, t.end));
        if (t.local === "Override" && (a.get("PartName") ?? "").toLowerCase() === lower) return a.get("ContentType") ?? null;
        if (t.local === "Default" && (a.get("Extension") ?? "").toLowerCase() === ext) byExt = a.get("ContentType") ?? null;
      }
      return byExt;
    } catch (e) {
      throw badPart("[Content_Types].xml", e);
    }
  }

  /** The relationships of a rels part (empty when the part does not exist). */
  readRels(relsPart: string, sourcePart: string): Relationship[] {
    if (!this.pkg.has(relsPart)) return [];
    const xml = this.text(relsPart);
    const out: Relationship[] = [];
    try {
      for (const t of scanTags(xml)) {
        if (t.kind === "close" || t.local !== "Relationship") continue;
        const a = attributes(xml.slice(t.start, t.end));
        const target = a.get("Target") ?? "";
        const external = a.get("TargetMode") === "External";
        out.push({
          id: a.get("Id") ?? "",
          type: a.get("Type") ?? "",
          target,
          part: external ? null : resolvePartName(sourcePart, target),
        });
      }
    } catch (e) {
      throw badPart(relsPart, e);
    }
    return out;
  }

  /** Relationships of the workbook part. */
  get relationships(): readonly Relationship[] {
    return this.workbookRels;
  }

  private readSheets(): SheetInfo[] {
    const xml = this.text(this.workbookPart);
    const out: SheetInfo[] = [];
    try {
      for (const t of scanTags(xml)) {
        if (t.kind === "close" || t.local !== "sheet") continue;
        const a = attributes(xml.slice(t.start, t.end));
        let relId = "";
        for (const [k, v] of a) if (/(^|:)id$/.test(k) && k !== "sheetId") relId = v;
        const rel = this.workbookRels.find((r) => r.id === relId);
        const part = rel && rel.part && REL_WORKSHEET.test(rel.type) && this.pkg.has(rel.part) ? this.pkg.entryName(rel.part)! : null;
        const st = a.get("state");
        out.push({
          name: a.get("name") ?? "",
          sheetId: a.get("sheetId") ?? "",
          relId,
          part,
          state: st === "hidden" || st === "veryHidden" ? st : "visible",
          index: out.length,
        });
      }
    } catch (e) {
      throw badPart(this.workbookPart, e);
    }
    return out;
  }

  /** A sheet by name, case-insensitively (as Excel compares sheet names). */
  sheet(name: string): SheetInfo | undefined {
    const u = name.toUpperCase();
    return this.sheets.find((s) => s.name.toUpperCase() === u);
  }

  /** The shared string table (empty when the workbook has none). */
  sharedStrings(): string[] {
    if (this.sst) return this.sst;
    const rel = this.workbookRels.find((r) => REL_SHARED_STRINGS.test(r.type) && r.part);
    const out: string[] = [];
    if (rel?.part && this.pkg.has(rel.part)) {
      const xml = this.text(rel.part);
      try {
        const root = rootElement(xml);
        for (const si of childElements(xml, root)) {
          if (si.tag.local !== "si") continue;
          out.push(stringItemText(xml, si.contentStart, si.contentEnd));
        }
      } catch (e) {
        throw badPart(rel.part, e);
      }
    }
    this.sst = out;
    return out;
  }

  /** The `cm` indices (1-based) that denote dynamic-array cells, from the sheet metadata part. */
  private dynamicArrayCellMetadata(): Set<number> | null {
    if (this.dynamicCm) return this.dynamicCm;
    const rel = this.workbookRels.find((r) => REL_SHEET_METADATA.test(r.type) && r.part);
    if (!rel?.part || !this.pkg.has(rel.part)) return null;
    const xml = this.text(rel.part);
    const set = new Set<number>();
    try {
      const root = rootElement(xml);
      let xldaprType = -1;
      const dynamicBk = new Set<number>();
      const cellBks: Array<Array<{ t: number; v: number }>> = [];
      for (const child of childElements(xml, root)) {
        if (child.tag.local === "metadataTypes") {
          let i = 0;
          for (const mt of childElements(xml, child)) {
            if (mt.tag.local !== "metadataType") continue;
            i++;
            if (attributes(xml.slice(mt.tag.start, mt.tag.end)).get("name") === "XLDAPR") xldaprType = i;
          }
        } else if (child.tag.local === "futureMetadata" && attributes(xml.slice(child.tag.start, child.tag.end)).get("name") === "XLDAPR") {
          let i = 0;
          for (const bk of childElements(xml, child)) {
            if (bk.tag.local !== "bk") continue;
            for (const t of scanTags(xml, bk.contentStart, bk.contentEnd)) {
              if (t.local === "dynamicArrayProperties" && t.kind !== "close") {
                const f = attributes(xml.slice(t.start, t.end)).get("fDynamic");
                if (f === "1" || f === "true") dynamicBk.add(i);
              }
            }
            i++;
          }
        } else if (child.tag.local === "cellMetadata") {
          for (const bk of childElements(xml, child)) {
            if (bk.tag.local !== "bk") continue;
            const rcs: Array<{ t: number; v: number }> = [];
            for (const t of scanTags(xml, bk.contentStart, bk.contentEnd)) {
              if (t.local !== "rc" || t.kind === "close") continue;
              const a = attributes(xml.slice(t.start, t.end));
              rcs.push({ t: Number(a.get("t")), v: Number(a.get("v")) });
            }
            cellBks.push(rcs);
          }
        }
      }
      cellBks.forEach((rcs, i) => {
        if (rcs.some((rc) => rc.t === xldaprType && dynamicBk.has(rc.v))) set.add(i + 1);
      });
    } catch (e) {
      throw badPart(rel.part, e);
    }
    this.dynamicCm = set;
    return set;
  }

  /** Whether a cell's `cm` marks a dynamic array. Without a metadata part, any `cm` on an array formula counts. */
  isDynamicArray(cell: ParsedCell): boolean {
    if (cell.f?.attrs.get("t") !== "array") return false;
    const cm = cell.attrs.get("cm");
    if (cm === undefined) return false;
    const set = this.dynamicArrayCellMetadata();
    return set === null ? true : set.has(Number(cm));
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
    const xml = this.text(info.part);
    let sheet: ParsedSheet;
    try {
      sheet = this.scanSheet(info, info.part, xml);
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

  private scanSheet(info: SheetInfo, part: string, xml: string): ParsedSheet {
    const root = rootElement(xml);
    const prefix = root.tag.name.includes(":") ? root.tag.name.slice(0, root.tag.name.indexOf(":") + 1) : "";
    let sheetData: ElementSpan | undefined;
    let dimension: ParsedSheet["dimension"];
    const merges: Box[] = [];
    for (const child of childElements(xml, root)) {
      const local = child.tag.local;
      if (local === "sheetData") sheetData = child;
      else if (local === "dimension") {
        dimension = {
          tagStart: child.tag.start,
          tagEnd: child.tag.end,
          ref: attributes(xml.slice(child.tag.start, child.tag.end)).get("ref") ?? "",
        };
      } else if (local === "mergeCells") {
        for (const m of childElements(xml, child)) {
          const b = parseBox(attributes(xml.slice(m.tag.start, m.tag.end)).get("ref") ?? "");
          if (b) merges.push(b);
        }
      }
    }
    if (!sheetData) throw new XmlSyntaxError("worksheet has no sheetData", root.tag.start);
    const rows: ParsedRow[] = [];
    const cells = new Map<number, ParsedCell>();
    const arrays: ArrayRegion[] = [];
    let lastRow = 0;
    for (const rowEl of childElements(xml, sheetData)) {
      if (rowEl.tag.local !== "row") continue;
      const rowAttrs = attributes(xml.slice(rowEl.tag.start, rowEl.tag.end));
      const r = rowAttrs.has("r") ? Number(rowAttrs.get("r")) : lastRow + 1;
      if (!Number.isInteger(r) || r < 1 || r <= lastRow)
        throw new XmlSyntaxError(`bad or unordered row number ${rowAttrs.get("r")}`, rowEl.tag.start);
      lastRow = r;
      const row: ParsedRow = { r, span: rowEl, attrs: rowAttrs, cells: [] };
      rows.push(row);
      let lastCol = 0;
      for (const cEl of childElements(xml, rowEl)) {
        if (cEl.tag.local !== "c") continue;
        const cAttrs = attributes(xml.slice(cEl.tag.start, cEl.tag.end));
        let col: number;
        const ref = cAttrs.get("r");
        if (ref !== undefined) {
          const p = parseCellRef(ref);
          if (!p || p.row !== r) throw new XmlSyntaxError(`cell ${ref} is not in row ${r}`, cEl.tag.start);
          col = p.col;
        } else col = lastCol + 1;
        if (col <= lastCol) throw new XmlSyntaxError(`cells out of order in row ${r}`, cEl.tag.start);
        lastCol = col;
        const cell: ParsedCell = {
          row: r,
          col,
          start: cEl.tag.start,
          end: cEl.end,
          tagEnd: cEl.tag.end,
          selfClosing: cEl.tag.kind === "empty",
          attrs: cAttrs,
        };
        for (const k of childElements(xml, cEl)) {
          if (k.tag.local === "f") {
            cell.f = {
              span: k,
              attrs: attributes(xml.slice(k.tag.start, k.tag.end)),
              text: decodeXml(xml.slice(k.contentStart, k.contentEnd)),
            };
          } else if (k.tag.local === "v") {
            cell.v = { span: k, text: decodeXml(xml.slice(k.contentStart, k.contentEnd)) };
          } else if (k.tag.local === "is") {
            cell.is = { span: k };
          }
        }
        row.cells.push(cell);
        cells.set(cellKey(r, col), cell);
        if (cell.f?.attrs.get("t") === "array") {
          const box = parseBox(cell.f.attrs.get("ref") ?? "") ?? {
            top: r,
            left: col,
            bottom: r,
            right: col,
          };
          arrays.push({ anchor: cell, box, dynamic: this.isDynamicArray(cell) });
        }
      }
    }
    return { info, part, xml, prefix, sheetData, rows, cells, dimension, merges, arrays };
  }

  /** The value of a parsed cell (null when it holds none). */
  valueOf(cell: ParsedCell | undefined, sheet: ParsedSheet): ReadValue {
    if (!cell) return null;
    const t = cell.attrs.get("t") ?? "n";
    if (t === "inlineStr") {
      if (cell.is) return stringItemText(sheet.xml, cell.is.span.contentStart, cell.is.span.contentEnd);
      return cell.v ? decodeOoxmlString(cell.v.text) : null;
    }
    if (!cell.v) return null;
    const text = cell.v.text;
    switch (t) {
      case "s": {
        const s = this.sharedStrings()[Number(text)];
        return s === undefined ? null : s;
      }
      case "str":
        return decodeOoxmlString(text);
      case "b":
        return text === "1" || text.toLowerCase() === "true";
      case "e":
        return { error: text, message: "" };
      case "d":
        return text;
      default: {
        if (text.trim() === "") return null;
        const n = Number(text);
        return Number.isFinite(n) ? n : text;
      }
    }
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

  /** The formula text of a cell: its own, or for a shared formula's child, the master's moved. */
  private formulaText(cell: ParsedCell, masters: Map<string, ParsedCell>): string | null {
    const f = cell.f!;
    if (f.attrs.get("t") === "shared" && f.text === "") {
      const master = masters.get(f.attrs.get("si") ?? "");
      if (!master) return null;
      return shiftFormula(master.f!.text, cell.row - master.row, cell.col - master.col);
    }
    return f.text;
  }

  /**
   * The formula of any cell (for a cell sharing a formula, the master's moved), as stored; null
   * when the cell holds none. For the formula evaluator (evaluate-formula.ts).
   */
  formulaAt(sheetName: string, row: number, col: number): string | null {
    const sheet = this.parseSheet(sheetName);
    const cell = sheet.cells.get(cellKey(row, col));
    if (!cell?.f) return null;
    let masters = this.sharedMasters.get(sheet);
    if (!masters) {
      masters = new Map();
      for (const r of sheet.rows)
        for (const c of r.cells)
          if (c.f?.attrs.get("t") === "shared" && c.f.text !== "" && c.f.attrs.has("si")) masters.set(c.f.attrs.get("si")!, c);
      this.sharedMasters.set(sheet, masters);
    }
    return this.formulaText(cell, masters);
  }

  /** The array formula (spill or legacy array) whose range covers a cell, if any. */
  arrayAt(sheetName: string, row: number, col: number): ArrayRegion | undefined {
    const sheet = this.parseSheet(sheetName);
    const anchor = this.arraysOver(sheet, { top: row, left: col, bottom: row, right: col })[0];
    return anchor && sheet.arrays.find((a) => a.anchor === anchor);
  }

  /**
   * Every cell whose formula calls `namespace` (both spellings), in sheet order then row-major.
   * Cells whose formula only contains such a call inside something larger are included with
   * `evaluable: false` (reason "nested"), so the caller can report them.
   */
  findFormulas(namespace = "FIRMA"): FormulaCell[] {
    const out: FormulaCell[] = [];
    for (const info of this.sheets) {
      if (!info.part) continue;
      const sheet = this.parseSheet(info.name);
      const masters = new Map<string, ParsedCell>();
      for (const row of sheet.rows)
        for (const c of row.cells)
          if (c.f?.attrs.get("t") === "shared" && c.f.text !== "" && c.f.attrs.has("si")) masters.set(c.f.attrs.get("si")!, c);
      for (const row of sheet.rows) {
        for (const cell of row.cells) {
          if (!cell.f) continue;
          const text = this.formulaText(cell, masters);
          const ft = (cell.f.attrs.get("t") ?? "normal") as FormulaCell["formulaType"];
          const base = {
            sheet: info.name,
            address: formatCellRef(cell.row, cell.col),
            row: cell.row,
            col: cell.col,
            formulaType: ft,
            dynamic: this.isDynamicArray(cell),
            ref: cell.f.attrs.get("ref"),
            cached: this.valueOf(cell, sheet),
          };
          if (text === null) {
            // a shared child whose master is missing: only worth reporting if it could be ours
            continue;
          }
          const an = analyzeFormula(text, namespace);
          if (an.kind === "none") continue;
          if (an.kind === "unparseable") {
            out.push({
              ...base,
              formula: text,
              evaluable: false,
              problems: [
                {
                  arg: null,
                  reason: "syntax",
                  text,
                  message: `${describeReason("syntax")}: ${an.message}`,
                },
              ],
            });
            continue;
          }
          if (an.kind === "nested") {
            out.push({
              ...base,
              formula: text,
              evaluable: false,
              problems: [{ arg: null, reason: "nested", text, message: describeReason("nested") }],
            });
            continue;
          }
          const problems = this.checkArgs(an.call.args, info.name, cell, base.ref);
          out.push({
            ...base,
            formula: text,
            call: an.call,
            evaluable: problems.length === 0,
            problems,
          });
        }
      }
    }
    return out;
  }

  private checkArgs(args: FormulaArg[], sheetName: string, cell: ParsedCell, ref: string | undefined): ArgProblem[] {
    const problems: ArgProblem[] = [];
    const own = ref
      ? (parseBox(ref) ?? { top: cell.row, left: cell.col, bottom: cell.row, right: cell.col })
      : { top: cell.row, left: cell.col, bottom: cell.row, right: cell.col };
    args.forEach((a, i) => {
      const problem = (reason: NotEvaluableReason) => problems.push({ arg: i, reason, text: a.text, message: describeReason(reason) });
      if (a.kind === "unsupported") return problem(a.reason);
      if (a.kind !== "ref") return;
      const target = a.sheet === null ? this.sheet(sheetName) : this.sheet(a.sheet);
      if (!target || !target.part) return problem("unknownSheet");
      const cells = (a.box.bottom - a.box.top + 1) * (a.box.right - a.box.left + 1);
      if (cells > MAX_ARGUMENT_CELLS) return problem("rangeTooLarge");
      if (target.name === sheetName && boxesIntersect(a.box, own)) return problem("circular");
    });
    return problems;
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

  /**
   * The arguments of an evaluable formula cell as constants: literals as they are, a cell
   * reference as its value (null when empty), a range as rows of values, an omitted argument
   * as null. `override` supplies values computed in this run (e.g. a FIRMA cell another
   * formula refers to) before the saved values are used.
   */
  resolveArguments(fc: FormulaCell, override?: ValueOverride): ResolvedArgs | { ok: false; problems: ArgProblem[] } {
    if (!fc.call || !fc.evaluable) return { ok: false, problems: fc.problems };
    const args: ArgValue[] = [];
    const deps = new Map<string, { sheet: string; address: string }>();
    for (const a of fc.call.args) {
      switch (a.kind) {
        case "missing":
          args.push(null);
          break;
        case "literal":
          args.push(a.value);
          break;
        case "array":
          args.push(a.value);
          break;
        case "ref": {
          const info = a.sheet === null ? this.sheet(fc.sheet)! : this.sheet(a.sheet)!;
          const sheet = this.parseSheet(info.name);
          const valueAt = (r: number, c: number): ReadValue => {
            const o = override?.(info.name, r, c);
            if (o !== undefined) return o;
            const cell = sheet.cells.get(cellKey(r, c));
            if (cell?.f)
              deps.set(`${info.name}!${formatCellRef(r, c)}`, {
                sheet: info.name,
                address: formatCellRef(r, c),
              });
            return this.valueOf(cell, sheet);
          };
          for (const anchor of this.arraysOver(sheet, a.box)) {
            const addr = formatCellRef(anchor.row, anchor.col);
            deps.set(`${info.name}!${addr}`, { sheet: info.name, address: addr });
          }
          if (a.single) {
            args.push(valueAt(a.box.top, a.box.left));
          } else {
            const rows: ReadValue[][] = [];
            for (let r = a.box.top; r <= a.box.bottom; r++) {
              const line: ReadValue[] = [];
              for (let c = a.box.left; c <= a.box.right; c++) line.push(valueAt(r, c));
              rows.push(line);
            }
            args.push(rows);
          }
          break;
        }
        default:
          return { ok: false, problems: fc.problems };
      }
    }
    return { ok: true, args, dependsOn: [...deps.values()] };
  }
}
