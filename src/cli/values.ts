/**
 * Plain copies for people without FIRMA: `--values-only` replaces the FIRMA formulas of a
 * refreshed workbook by their values, so that LibreOffice or Google Sheets, which do not know the
 * add-in's functions, show the values instead of #NAME?; `--csv` writes a sheet's values as CSV.
 * Both work on the package the refresh produced; every other byte stays as it was.
 */
import { cellKey, formatCellRef, parseCellRef } from "../shared/sheet/a1";
import { isCellError } from "../shared/sheet/cell-values";
import { csvDocument, type CsvValue } from "../shared/csv";
import type { Workbook } from "../shared/xlsx/workbook";
import type { WritableWorkbook } from "./writable-package";
import { childElements, elementSpan, scanTags } from "../shared/xlsx/xml";
import { setAttribute } from "./xml-write";

/** A cell's XML without its `<f>` (and the dynamic-array metadata index `cm`): its value stays. */
export function dropFormulaXml(xml: string): string {
  const first = scanTags(xml).next();
  if (first.done) return xml;
  const span = elementSpan(xml, first.value);
  if (span.tag.kind === "empty") return xml;
  let start = xml.slice(span.tag.start, span.tag.end);
  start = setAttribute(start, "cm", null);
  let out = start;
  let pos = span.contentStart;
  for (const k of childElements(xml, span)) {
    if (k.tag.local !== "f") continue;
    out += xml.slice(pos, k.tag.start);
    pos = k.end;
  }
  return out + xml.slice(pos, span.end);
}

/**
 * Removes the formulas of `cells` (sheet name → addresses), keeping their values; the calculation
 * chain forgets them too (Excel repairs a chain that names cells without formulas).
 */
export function stripFormulas(wb: WritableWorkbook, cells: readonly { sheet: string; address: string }[]): number {
  const bySheet = new Map<string, Set<number>>();
  for (const c of cells) {
    const p = parseCellRef(c.address);
    if (!p) continue;
    (bySheet.get(c.sheet) ?? bySheet.set(c.sheet, new Set()).get(c.sheet)!).add(cellKey(p.row, p.col));
  }
  let stripped = 0;
  const gone = new Map<string, Set<string>>(); // sheetId → addresses
  for (const [name, keys] of bySheet) {
    const sheet = wb.parseSheet(name);
    const edits = [...keys]
      .map((k) => sheet.cells.get(k))
      .filter((c): c is NonNullable<typeof c> => !!c && !!c.f)
      .sort((a, b) => b.start - a.start);
    let xml = sheet.xml;
    for (const c of edits) {
      xml = xml.slice(0, c.start) + dropFormulaXml(xml.slice(c.start, c.end)) + xml.slice(c.end);
      stripped++;
      (gone.get(sheet.info.sheetId) ?? gone.set(sheet.info.sheetId, new Set()).get(sheet.info.sheetId)!).add(formatCellRef(c.row, c.col));
    }
    if (edits.length) wb.pkg.write(sheet.part, xml);
  }
  pruneCalcChain(wb, gone);
  return stripped;
}

/** Drops the chain's entries for cells that no longer hold a formula (an entry's sheet `i` carries over to the next). */
function pruneCalcChain(wb: WritableWorkbook, gone: Map<string, Set<string>>): void {
  const part = "xl/calcChain.xml";
  if (gone.size === 0 || !wb.pkg.has(part)) return;
  const xml = wb.pkg.readText(part);
  let sheet = "";
  let carry: string | null = null;
  let kept = 0;
  const out = xml.replace(/<((?:\w+:)?c)\b([^>]*?)\/>/g, (whole, tag: string, attrs: string) => {
    const i = /\bi="(\d+)"/.exec(attrs)?.[1];
    if (i !== undefined) sheet = i;
    const r = /\br="([A-Z]+\d+)"/.exec(attrs)?.[1] ?? "";
    if (gone.get(sheet)?.has(r)) {
      if (i !== undefined) carry = i;
      return "";
    }
    kept++;
    if (carry !== null && i === undefined) {
      const c = carry;
      carry = null;
      return `<${tag} i="${c}"${attrs}/>`;
    }
    carry = null;
    return whole;
  });
  // A chain cannot be empty; when no formula is left in it, an entry-less chain would be invalid: keep it (Excel rebuilds it).
  if (kept > 0) wb.pkg.write(part, out);
}

/**
 * A sheet's values as a CSV file (src/shared/csv.ts: RFC 4180, a BOM, text that cannot become a
 * formula; errors as their code, e.g. #N/A), its used rows and columns.
 */
export function sheetCsv(wb: Workbook, name: string): string {
  const sheet = wb.parseSheet(name);
  let rows = 0;
  let cols = 0;
  for (const c of sheet.cells.values()) {
    rows = Math.max(rows, c.row);
    cols = Math.max(cols, c.col);
  }
  const lines: CsvValue[][] = [];
  for (let r = 1; r <= rows; r++) {
    const cells: CsvValue[] = [];
    for (let c = 1; c <= cols; c++) {
      const v = sheet.cells.has(cellKey(r, c)) ? wb.getValue(name, formatCellRef(r, c)) : null;
      cells.push(isCellError(v) ? v.error : v);
    }
    lines.push(cells);
  }
  return csvDocument(lines, { bom: true });
}
