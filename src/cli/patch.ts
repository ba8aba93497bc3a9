/**
 * Writing results into formula cells, surgically.
 *
 * For each result the patcher touches only: the `t` attribute and `<v>` of the formula cell
 * (and drops its `vm`, the pointer to a rich value that no longer applies, and any `<is>`);
 * for an array formula, the `ref` of its `<f>` when the spill changes size; and the cells of
 * the spill range. Cells are located by their offsets in the sheet XML, edited as text and
 * spliced back: every byte outside the edited elements stays as it was, and parts that end up
 * identical keep their original compressed bytes (see xlsx-package.ts).
 *
 * How each kind of formula takes a result:
 * - dynamic-array formula (`cm` → XLDAPR, what Excel writes for custom functions): a scalar
 *   or a 1×1 array fills the cell, `ref` becomes the cell. An R×C array spills from the cell:
 *   `ref` becomes the new range; the other cells get plain values (text as `t="str"`, like
 *   Excel's own spill cells); cells missing from the XML are inserted in their row in column
 *   order (rows in row order); cells of the old spill that the new one no longer covers are
 *   cleared (removed, or kept empty when they carry a style). Before writing, the new range is
 *   checked like Excel does: a cell outside the old spill that holds a value or a formula, a
 *   merged range, or the sheet edge blocks it. Then nothing is overwritten: the formula gets
 *   #SPILL! (stored as #VALUE!, see below), its old spill is cleared, and the outcome names
 *   the blocking cells.
 * - legacy array formula (`t="array"` without dynamic metadata, Ctrl+Shift+Enter): its range
 *   is fixed; the result fills it, a single row/column is repeated across it as Excel does,
 *   and positions the result does not reach get #N/A. `ref` never changes.
 * - ordinary formula (no `t`, or a shared formula): one value. For an array result only the
 *   top-left value is written (what implicit intersection shows), with a note.
 *
 * Values: text `t="str"` with the SpreadsheetML escapes, numbers without `t`, booleans `t="b"`
 * 1/0, errors `t="e"`. The file has no place for an error's message (the report keeps it).
 * Errors newer than the classic seven (#SPILL!, #CALC!, #BUSY!, ...) are stored as #VALUE!:
 * Excel itself stores them that way plus a rich-value record, which this patcher does not
 * create. Non-finite numbers become #NUM!; null becomes 0 (what Excel shows for a custom
 * function's null).
 */
import { Workbook, type ParsedCell, type ParsedSheet } from "./workbook";
import {
  Box,
  MAX_COLS,
  MAX_ROWS,
  boxContains,
  boxUnion,
  boxesIntersect,
  cellKey,
  formatBox,
  formatCellRef,
  parseBox,
  parseCellRef,
} from "../shared/sheet/a1";
import { CLASSIC_ERRORS, CellError, CellValue, isCellError } from "../shared/sheet/cell-values";
import { childElements, elementSpan, escapeXmlText, encodeOoxmlString, rawAttributes, scanTags, setAttribute } from "./xml";

export type ResultValue = CellValue | null;
export type PatchValue = ResultValue | ResultValue[][];

export interface CellResult {
  sheet: string;
  /** A1 address of the formula cell ("B2" or "$B$2"). */
  address: string;
  value: PatchValue;
}

export interface PatchOutcome {
  sheet: string;
  address: string;
  /**
   * written: the value(s) are in the file; spill: the spill was blocked, the cell holds #SPILL!;
   * skipped: nothing written (not a formula cell, unknown sheet or address).
   */
  status: "written" | "spill" | "skipped";
  /** The range the formula's values cover now (the cell itself for a scalar or a blocked spill). */
  range?: string;
  /** For a blocked spill: the cells (or merged ranges, or "edge") in the way. */
  blockedBy?: string[];
  /** What was adapted, Romanian / English. */
  notes: string[];
}

export interface PatchReport {
  outcomes: PatchOutcome[];
  /** Package parts whose content changed. */
  changedParts: string[];
}

const CLASSIC = new Set<string>(CLASSIC_ERRORS);

interface Encoded {
  t: string | null;
  v: string;
}

/** How a value is stored: the `t` attribute (null = none) and the `<v>` text (XML-escaped). */
export function encodeValue(value: ResultValue, notes?: string[]): Encoded {
  if (value === null || value === undefined) return { t: null, v: "0" };
  if (typeof value === "string") return { t: "str", v: escapeXmlText(encodeOoxmlString(value)) };
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      notes?.push("număr nefinit scris ca #NUM! / non-finite number written as #NUM!");
      return { t: "e", v: "#NUM!" };
    }
    return { t: null, v: Object.is(value, -0) ? "0" : String(value).replace("e", "E") };
  }
  if (typeof value === "boolean") return { t: "b", v: value ? "1" : "0" };
  if (isCellError(value)) {
    const code = value.error.toUpperCase();
    if (CLASSIC.has(code)) return { t: "e", v: escapeXmlText(code) };
    notes?.push(
      `${code} stocat ca #VALUE! (formatul fișierului nu are cod pentru el) / ${code} stored as #VALUE! (the file format has no code for it)`,
    );
    return { t: "e", v: "#VALUE!" };
  }
  notes?.push("valoare de tip necunoscut scrisă ca #VALUE! / value of unknown type written as #VALUE!");
  return { t: "e", v: "#VALUE!" };
}

const CELL_ATTR_ORDER = ["r", "s"];

/**
 * Rewrites one `<c>` element's text: the value (t + v), optionally the `<f ref>`; keeps every
 * other attribute and child as written. `value === undefined` leaves the value alone.
 */
export function rewriteCellXml(xml: string, change: { value?: Encoded; fRef?: string }): string {
  const first = scanTags(xml).next();
  if (first.done) throw new Error("not an element");
  const span = elementSpan(xml, first.value);
  let startTag = xml.slice(span.tag.start, span.tag.end);
  const kids = span.tag.kind === "empty" ? [] : childElements(xml, span);
  if (change.value) {
    startTag = setAttribute(startTag, "t", change.value.t, CELL_ATTR_ORDER);
    startTag = setAttribute(startTag, "vm", null);
  }
  const qname = span.tag.name;
  const prefix = qname.includes(":") ? qname.slice(0, qname.indexOf(":") + 1) : "";
  let content = "";
  let pos = span.contentStart;
  let wroteV = false;
  const vEl = (text: string) => `<${prefix}v>${text}</${prefix}v>`;
  for (const k of kids) {
    const local = k.tag.local;
    if (local === "f" && change.fRef !== undefined) {
      const fTag = setAttribute(xml.slice(k.tag.start, k.tag.end), "ref", change.fRef, ["t"]);
      content += xml.slice(pos, k.tag.start) + fTag;
      pos = k.tag.end;
    } else if (local === "v" && change.value) {
      content += xml.slice(pos, k.tag.start);
      content +=
        k.tag.kind === "empty" ? vEl(change.value.v) : xml.slice(k.tag.start, k.tag.end) + change.value.v + xml.slice(k.contentEnd, k.end);
      pos = k.end;
      wroteV = true;
    } else if (local === "is" && change.value) {
      content += xml.slice(pos, k.tag.start);
      pos = k.end;
    }
    if (local === "f" && change.value && !kids.some((x) => x.tag.local === "v")) {
      // a formula without <v>: the value goes right after <f>
      content += xml.slice(pos, k.end) + vEl(change.value.v);
      pos = k.end;
      wroteV = true;
    }
  }
  if (change.value && !wroteV) {
    // no <f>, no <v>: the value is the first child
    const head = vEl(change.value.v);
    if (span.tag.kind === "empty") {
      return startTag.replace(/\s*\/>$/, ">") + head + `</${qname}>`;
    }
    return startTag + head + content + xml.slice(pos, span.contentEnd) + xml.slice(span.contentEnd, span.end);
  }
  if (span.tag.kind === "empty") return startTag;
  return startTag + content + xml.slice(pos, span.end);
}

/**
 * Empties a (non-formula) cell: removes its value and type. Returns null when nothing worth
 * keeping remains (the element can go), else the element with its remaining attributes
 * (a style, for instance).
 */
export function clearCellXml(xml: string): string | null {
  const first = scanTags(xml).next();
  if (first.done) throw new Error("not an element");
  const span = elementSpan(xml, first.value);
  let startTag = xml.slice(span.tag.start, span.tag.end);
  for (const a of ["t", "vm", "cm"]) startTag = setAttribute(startTag, a, null);
  const kids = span.tag.kind === "empty" ? [] : childElements(xml, span);
  const keep = kids.filter((k) => k.tag.local !== "v" && k.tag.local !== "is");
  const others = rawAttributes(startTag).filter((a) => a.name !== "r");
  if (keep.length === 0) {
    if (others.length === 0) return null;
    return startTag.endsWith("/>") ? startTag : startTag.replace(/\s*>$/, "/>");
  }
  let out = startTag.endsWith("/>") ? startTag.replace(/\s*\/>$/, ">") : startTag;
  for (const k of keep) out += xml.slice(k.tag.start, k.end);
  return out + `</${span.tag.name}>`;
}

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
class SheetEditor {
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
    const usesSpans = rows.some((r) => r.attrs.has("spans"));
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
      const spans = existing.attrs.get("spans");
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

function normalize(value: PatchValue, notes: string[]): ResultValue | ResultValue[][] {
  if (!Array.isArray(value)) return value;
  if (value.length === 0 || !Array.isArray(value[0]) || value[0].length === 0) {
    notes.push("rezultat matrice gol: #CALC! / empty array result: #CALC!");
    return { error: "#CALC!", message: "empty array" };
  }
  const width = value[0].length;
  if (value.some((r) => !Array.isArray(r) || r.length !== width)) {
    notes.push("rezultat matrice cu rânduri inegale: #VALUE! / ragged array result: #VALUE!");
    return { error: "#VALUE!", message: "ragged array" };
  }
  if (value.length === 1 && width === 1) return value[0][0];
  return value;
}

const SPILL: CellError = {
  error: "#SPILL!",
  message: "zona de revărsare nu este liberă / the spill range is not empty",
};

/**
 * Writes results into the workbook's package (in place: `wb.pkg`); returns what happened to
 * each. Results are applied in the given order, so a spill sees the spills written before it.
 * Serialize with `wb.pkg.toBytes()`.
 */
export function patchWorkbook(wb: Workbook, results: CellResult[]): PatchReport {
  const outcomes: PatchOutcome[] = [];
  const editors = new Map<string, SheetEditor>();
  for (const res of results) {
    const notes: string[] = [];
    const info = wb.sheet(res.sheet);
    const pos = parseCellRef(res.address);
    if (!info || !info.part || !pos) {
      outcomes.push({
        sheet: res.sheet,
        address: res.address,
        status: "skipped",
        notes: ["foaie sau adresă necunoscută / unknown sheet or address"],
      });
      continue;
    }
    let ed = editors.get(info.name);
    if (!ed) {
      const sheet = wb.parseSheet(info.name);
      ed = new SheetEditor(sheet, sheet.prefix);
      editors.set(info.name, ed);
    }
    const sheet = ed.sheet;
    const address = formatCellRef(pos.row, pos.col);
    const cell = sheet.cells.get(cellKey(pos.row, pos.col));
    if (!cell?.f) {
      outcomes.push({
        sheet: info.name,
        address,
        status: "skipped",
        notes: ["celula nu conține o formulă / the cell holds no formula"],
      });
      continue;
    }
    const value = normalize(res.value, notes);
    const ft = cell.f.attrs.get("t");
    const anchor: Box = { top: pos.row, left: pos.col, bottom: pos.row, right: pos.col };

    if (ft !== "array") {
      // ordinary or shared formula: one value
      let v: ResultValue;
      if (Array.isArray(value)) {
        notes.push(
          "formulă obișnuită (nu matrice dinamică): s-a scris doar valoarea din stânga sus / ordinary (non-dynamic-array) formula: only the top-left value was written",
        );
        v = value[0][0];
      } else v = value;
      ed.write(pos.row, pos.col, encodeValue(v, notes));
      outcomes.push({ sheet: info.name, address, status: "written", range: address, notes });
      continue;
    }

    const oldBox = parseBox(cell.f.attrs.get("ref") ?? "") ?? anchor;
    if (!wb.isDynamicArray(cell)) {
      // legacy array formula: fixed range, broadcast a single row/column, #N/A beyond the result
      const rows = Array.isArray(value) ? value : [[value]];
      for (let r = oldBox.top; r <= oldBox.bottom; r++) {
        for (let c = oldBox.left; c <= oldBox.right; c++) {
          const i = rows.length === 1 ? 0 : r - oldBox.top;
          const j = rows[0].length === 1 ? 0 : c - oldBox.left;
          const v: ResultValue = i < rows.length && j < rows[0].length ? rows[i][j] : { error: "#N/A", message: "" };
          ed.write(r, c, encodeValue(v, r === oldBox.top && c === oldBox.left ? notes : undefined));
        }
      }
      outcomes.push({
        sheet: info.name,
        address,
        status: "written",
        range: formatBox(oldBox),
        notes,
      });
      continue;
    }

    // dynamic array
    const rows = Array.isArray(value) ? value : [[value]];
    const newBox: Box = {
      top: pos.row,
      left: pos.col,
      bottom: pos.row + rows.length - 1,
      right: pos.col + rows[0].length - 1,
    };
    const blockedBy: string[] = [];
    if (newBox.bottom > MAX_ROWS || newBox.right > MAX_COLS) blockedBy.push("edge");
    const bottom = Math.min(newBox.bottom, MAX_ROWS);
    const right = Math.min(newBox.right, MAX_COLS);
    for (let r = newBox.top; r <= bottom; r++) {
      for (let c = newBox.left; c <= right; c++) {
        if (r === pos.row && c === pos.col) continue;
        const occ = ed.occupied(r, c);
        const ours = boxContains(oldBox, r, c);
        if (occ.formula || (occ.value && !ours)) blockedBy.push(formatCellRef(r, c));
      }
    }
    if (rows.length > 1 || rows[0].length > 1) {
      for (const m of sheet.merges) if (boxesIntersect(m, newBox)) blockedBy.push(formatBox(m));
    }
    const clearOld = (keep: Box | null) => {
      for (let r = oldBox.top; r <= oldBox.bottom; r++)
        for (let c = oldBox.left; c <= oldBox.right; c++) {
          if (r === pos.row && c === pos.col) continue;
          if (keep && boxContains(keep, r, c)) continue;
          ed!.clear(r, c);
        }
    };
    if (blockedBy.length) {
      clearOld(null);
      ed.write(pos.row, pos.col, encodeValue(SPILL, notes), address);
      outcomes.push({
        sheet: info.name,
        address,
        status: "spill",
        range: address,
        blockedBy,
        notes,
      });
      continue;
    }
    const newRef = formatBox(newBox);
    clearOld(newBox);
    for (let r = newBox.top; r <= newBox.bottom; r++) {
      for (let c = newBox.left; c <= newBox.right; c++) {
        const v = rows[r - newBox.top][c - newBox.left];
        if (r === pos.row && c === pos.col) ed.write(r, c, encodeValue(v, notes), newRef);
        else ed.write(r, c, encodeValue(v, notes));
      }
    }
    outcomes.push({
      sheet: info.name,
      address,
      status: "written",
      range: newRef,
      notes: [...new Set(notes)],
    });
  }
  for (const ed of editors.values()) {
    if (!ed.changed) continue;
    wb.pkg.write(ed.sheet.part, ed.toXml());
  }
  wb.invalidate();
  return { outcomes, changedParts: wb.pkg.changedNames() };
}
