/**
 * A sheet's pending cell edits, applied in one splice pass over its XML: edited cells replaced at
 * their offsets, new cells inserted in their row in column order, new rows in row order, the
 * rows' `spans` hints and the sheet's `<dimension>` widened. Every other byte stays as it was.
 */
import type { ParsedCell, ParsedSheet } from "../shared/xlsx/workbook";
import { Box, boxUnion, cellKey, formatBox, formatCellRef, parseBox } from "../shared/sheet/a1";
import { attributes, childElements, elementSpan, scanTags } from "../shared/xlsx/xml";
import { encodeOoxmlString, escapeXmlAttr, escapeXmlText, setAttribute } from "./xml-write";
import { clearCellXml, encodeValue, rewriteCellXml, type Encoded } from "./cell-xml";

/** The first item (in a list sorted by `key`) whose key is greater than `n`. */
function firstAfter<T>(list: readonly T[], n: number, key: (x: T) => number): T | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid]) > n) hi = mid;
    else lo = mid + 1;
  }
  return list[lo];
}

interface Op {
  pos: number;
  end: number;
  text: string;
  /** Inserts sort before replacements at the same position. */
  insert: boolean;
}

/** Pending edits of one sheet, applied in one splice pass. */
export class SheetEditor {
  /** Current XML of touched existing cells (null: element removed). */
  private readonly edited = new Map<number, string | null>();
  /** Cells that did not exist in the file: row → col → XML. */
  private readonly added = new Map<number, Map<number, string>>();
  private written: Box | null = null;

  constructor(
    readonly sheet: ParsedSheet,
    private readonly prefix: string,
  ) {}

  private original(key: number): ParsedCell | undefined {
    return this.sheet.cells.get(key);
  }

  /** The cell's current XML, or null when it has none. */
  currentXml(row: number, col: number): string | null {
    const key = cellKey(row, col);
    if (this.edited.has(key)) return this.edited.get(key)!;
    const o = this.original(key);
    if (o) return this.sheet.xml.slice(o.start, o.end);
    return this.added.get(row)?.get(col) ?? null;
  }

  /** True when the cell holds a formula or a value (a style alone does not count). */
  occupied(row: number, col: number): { formula: boolean; value: boolean } {
    const xml = this.currentXml(row, col);
    if (xml === null) return { formula: false, value: false };
    const first = scanTags(xml).next();
    if (first.done) return { formula: false, value: false };
    const span = elementSpan(xml, first.value);
    if (span.tag.kind === "empty") return { formula: false, value: false };
    let formula = false;
    let value = false;
    for (const k of childElements(xml, span)) {
      if (k.tag.local === "f") formula = true;
      if (k.tag.local === "v" || k.tag.local === "is") value = true;
    }
    return { formula, value };
  }

  private set(row: number, col: number, xml: string | null): void {
    const key = cellKey(row, col);
    if (this.original(key)) this.edited.set(key, xml);
    else if (xml === null) this.added.get(row)?.delete(col);
    else {
      if (!this.added.has(row)) this.added.set(row, new Map());
      this.added.get(row)!.set(col, xml);
    }
  }

  write(row: number, col: number, value: Encoded, fRef?: string): void {
    const cur = this.currentXml(row, col);
    const base = cur ?? `<${this.prefix}c r="${formatCellRef(row, col)}"/>`;
    this.set(row, col, rewriteCellXml(base, { value, fRef }));
    const here: Box = { top: row, left: col, bottom: row, right: col };
    this.written = this.written ? boxUnion(this.written, here) : here;
  }

  /**
   * A plain (formula-free) value cell, its whole element written anew: the cell's style (`s`) kept,
   * a number as `<v>`, a text as an inline string (`t="inlineStr"`: text by the format's definition,
   * whatever its first character), null as no value. Not for a cell holding a formula.
   */
  writePlain(row: number, col: number, value: string | number | null): void {
    const cur = this.currentXml(row, col);
    const style = cur === null ? undefined : attributes(cur.slice(0, cur.indexOf(">") + 1)).get("s");
    const p = this.prefix;
    const head = `<${p}c r="${formatCellRef(row, col)}"${style === undefined ? "" : ` s="${escapeXmlAttr(style)}"`}`;
    if (value === null) {
      this.set(row, col, style === undefined ? null : `${head}/>`);
      return;
    }
    this.set(
      row,
      col,
      typeof value === "number"
        ? `${head}><${p}v>${encodeValue(value).v}</${p}v></${p}c>`
        : `${head} t="inlineStr"><${p}is><${p}t xml:space="preserve">${escapeXmlText(encodeOoxmlString(value))}</${p}t></${p}is></${p}c>`,
    );
    const here: Box = { top: row, left: col, bottom: row, right: col };
    this.written = this.written ? boxUnion(this.written, here) : here;
  }

  clear(row: number, col: number): void {
    const cur = this.currentXml(row, col);
    if (cur === null) return;
    if (this.occupied(row, col).formula) return; // never clear a formula
    this.set(row, col, clearCellXml(cur));
  }

  get changed(): boolean {
    return this.edited.size > 0 || [...this.added.values()].some((m) => m.size > 0);
  }

  toXml(): string {
    const { xml, rows, sheetData, dimension } = this.sheet;
    const ops: Op[] = [];
    for (const [key, text] of this.edited) {
      const o = this.sheet.cells.get(key)!;
      ops.push({ pos: o.start, end: o.end, text: text ?? "", insert: false });
    }
    const rowByNumber = new Map(rows.map((r) => [r.r, r]));
    const usesSpans = rows.some((r) => r.spans !== undefined);
    const p = this.prefix;
    const newRows: Array<{ r: number; text: string }> = [];
    for (const [r, colsMap] of this.added) {
      if (colsMap.size === 0) continue;
      const cols = [...colsMap.keys()].sort((a, b) => a - b);
      const existing = rowByNumber.get(r);
      if (!existing) {
        const spans = usesSpans ? ` spans="${cols[0]}:${cols[cols.length - 1]}"` : "";
        newRows.push({
          r,
          text: `<${p}row r="${r}"${spans}>${cols.map((c) => colsMap.get(c)!).join("")}</${p}row>`,
        });
        continue;
      }
      // spans hint: widen a single "a:b" range to cover the new cells
      let rowTag = xml.slice(existing.span.tag.start, existing.span.tag.end);
      const spans = existing.spans;
      const m = spans ? /^(\d+):(\d+)$/.exec(spans) : null;
      if (m) {
        const lo = Math.min(Number(m[1]), cols[0]);
        const hi = Math.max(Number(m[2]), cols[cols.length - 1]);
        if (lo !== Number(m[1]) || hi !== Number(m[2])) rowTag = setAttribute(rowTag, "spans", `${lo}:${hi}`);
      }
      if (existing.span.tag.kind === "empty") {
        const open = rowTag.replace(/\s*\/>$/, ">");
        ops.push({
          pos: existing.span.tag.start,
          end: existing.span.tag.end,
          text: open + cols.map((c) => colsMap.get(c)!).join("") + `</${existing.span.tag.name}>`,
          insert: false,
        });
        continue;
      }
      if (rowTag !== xml.slice(existing.span.tag.start, existing.span.tag.end)) {
        ops.push({
          pos: existing.span.tag.start,
          end: existing.span.tag.end,
          text: rowTag,
          insert: false,
        });
      }
      // each new cell goes before the first existing cell to its right, else before </row>
      const groups = new Map<number, string>();
      for (const c of cols) {
        const before = firstAfter(existing.cells, c, (x) => x.col);
        const at = before ? before.start : existing.span.contentEnd;
        groups.set(at, (groups.get(at) ?? "") + colsMap.get(c)!);
      }
      for (const [at, text] of groups) ops.push({ pos: at, end: at, text, insert: true });
    }
    if (newRows.length) {
      newRows.sort((a, b) => a.r - b.r);
      if (sheetData.tag.kind === "empty") {
        const open = xml.slice(sheetData.tag.start, sheetData.tag.end).replace(/\s*\/>$/, ">");
        ops.push({
          pos: sheetData.tag.start,
          end: sheetData.tag.end,
          text: open + newRows.map((r) => r.text).join("") + `</${sheetData.tag.name}>`,
          insert: false,
        });
      } else {
        const groups = new Map<number, string>();
        for (const nr of newRows) {
          const before = firstAfter(rows, nr.r, (x) => x.r);
          const at = before ? before.span.tag.start : sheetData.contentEnd;
          groups.set(at, (groups.get(at) ?? "") + nr.text);
        }
        for (const [at, text] of groups) ops.push({ pos: at, end: at, text, insert: true });
      }
    }
    if (dimension && this.written) {
      const old = parseBox(dimension.ref);
      const next = old ? boxUnion(old, this.written) : null;
      if (next && formatBox(next) !== formatBox(old!)) {
        const tag = setAttribute(xml.slice(dimension.tagStart, dimension.tagEnd), "ref", formatBox(next));
        ops.push({ pos: dimension.tagStart, end: dimension.tagEnd, text: tag, insert: false });
      }
    }
    ops.sort((a, b) => a.pos - b.pos || (a.insert === b.insert ? 0 : a.insert ? -1 : 1));
    let out = "";
    let last = 0;
    for (const op of ops) {
      if (op.pos < last) throw new Error("overlapping sheet edits");
      out += xml.slice(last, op.pos) + op.text;
      last = op.end;
    }
    return out + xml.slice(last);
  }
}
