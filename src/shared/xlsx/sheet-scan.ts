/**
 * A worksheet's XML scanned, not parsed into a tree: its rows and cells, each cell keeping the
 * offsets of its element, its `<f>` and its `<v>` in the original text (what the patcher splices),
 * plus the sheet's dimension, merged ranges and array formulas.
 */
import { XmlSyntaxError, attributes, childElements, decodeXml, type ElementSpan } from "./xml";
import { rootElement, type SheetInfo } from "./workbook-parts";
import { Box, cellKey, parseBox, parseCellRef } from "../sheet/a1";

/**
 * A `<c>` element as found in the sheet XML; offsets are into `ParsedSheet.xml`. Only the attributes
 * FIRMA reads are kept, as plain fields (absent when the element has none): a sheet of 100,000 rows
 * holds hundreds of thousands of cells, and a map of attributes and a span object for each cell and
 * each of its children took about 1 KB a cell (`firma refresh`'s memory).
 */
export interface ParsedCell {
  row: number;
  col: number;
  start: number;
  end: number;
  /** End of the start tag. */
  tagEnd: number;
  selfClosing: boolean;
  /** `t`: the type of its value (absent: a number). */
  t?: string;
  /** `cm`: its cell metadata (a dynamic array's). */
  cm?: string;
  /** `<f>`: its `t` (absent: an ordinary formula), `ref` (an array's range) and `si` (a shared formula's index), and its text. */
  f?: { t?: string; ref?: string; si?: string; text: string };
  v?: { text: string };
  /** `<is>`, an inline string: where its content is. */
  is?: { contentStart: number; contentEnd: number };
}

export interface ParsedRow {
  r: number;
  span: ElementSpan;
  /** `spans`: the columns its cells take, as Excel hints them ("1:3"). */
  spans?: string;
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

/** Scans a worksheet part; `isDynamicArray` tells a dynamic array formula from a legacy one. Throws `XmlSyntaxError`. */
export function scanSheet(info: SheetInfo, part: string, xml: string, isDynamicArray: (cell: ParsedCell) => boolean): ParsedSheet {
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
    const row: ParsedRow = { r, span: rowEl, cells: [] };
    if (rowAttrs.has("spans")) row.spans = rowAttrs.get("spans");
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
      };
      const t = cAttrs.get("t");
      if (t !== undefined) cell.t = t;
      const cm = cAttrs.get("cm");
      if (cm !== undefined) cell.cm = cm;
      if (cEl.tag.kind !== "empty")
        for (const k of childElements(xml, cEl)) {
          if (k.tag.local === "f") {
            const fAttrs = attributes(xml.slice(k.tag.start, k.tag.end));
            const f: NonNullable<ParsedCell["f"]> = { text: decodeXml(xml.slice(k.contentStart, k.contentEnd)) };
            for (const name of ["t", "ref", "si"] as const) if (fAttrs.has(name)) f[name] = fAttrs.get(name);
            cell.f = f;
          } else if (k.tag.local === "v") {
            cell.v = { text: decodeXml(xml.slice(k.contentStart, k.contentEnd)) };
          } else if (k.tag.local === "is") {
            cell.is = { contentStart: k.contentStart, contentEnd: k.contentEnd };
          }
        }
      row.cells.push(cell);
      cells.set(cellKey(r, col), cell);
      if (cell.f?.t === "array") {
        const box = parseBox(cell.f.ref ?? "") ?? { top: r, left: col, bottom: r, right: col };
        arrays.push({ anchor: cell, box, dynamic: isDynamicArray(cell) });
      }
    }
  }
  return { info, part, xml, prefix, sheetData, rows, cells, dimension, merges, arrays };
}
