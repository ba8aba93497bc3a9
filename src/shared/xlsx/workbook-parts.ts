/**
 * Finding a workbook's parts in its package, the OPC way: package rels → workbook part →
 * workbook rels → sheets, checked against [Content_Types].xml, never by assumed names. Also the
 * one way a damaged part becomes an `XlsxError` for the readers of the other parts.
 */
import { XlsxError, XlsxPackage } from "./xlsx-package";
import { XmlSyntaxError, attributes, elementSpan, scanTags, type ElementSpan } from "./xml";

const REL_OFFICE_DOCUMENT = /\/officeDocument$/;
const REL_WORKSHEET = /\/worksheet$/;

const MAIN_CONTENT_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
  "application/vnd.ms-excel.template.macroEnabled.main+xml",
]);

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

/** The error for a part whose XML cannot be read. */
export function badPart(part: string, e: unknown): XlsxError {
  const where = e instanceof XmlSyntaxError ? ` @${e.offset}: ${e.message}` : e instanceof Error ? `: ${e.message}` : "";
  return new XlsxError("corrupt", "xlsx.damagedPart", { part }, where.trim());
}

/** The root element of an XML part. */
export function rootElement(xml: string): ElementSpan {
  for (const t of scanTags(xml)) {
    if (t.kind === "open" || t.kind === "empty") return elementSpan(xml, t);
    break;
  }
  throw new XmlSyntaxError("no root element", 0);
}

/** The relationships of a rels part (empty when the part does not exist). */
export function readRels(pkg: XlsxPackage, relsPart: string, sourcePart: string): Relationship[] {
  if (!pkg.has(relsPart)) return [];
  const xml = pkg.readText(relsPart);
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

/** The content type [Content_Types].xml gives a part; null when the package has no such part. */
function contentTypeOf(pkg: XlsxPackage, part: string): string | null {
  let xml: string;
  try {
    xml = pkg.readText("[Content_Types].xml");
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

/** The workbook part (its entry name) and its relationships; throws `XlsxError` when the package holds no workbook. */
export function findWorkbookPart(pkg: XlsxPackage): { part: string; rels: Relationship[] } {
  const rootRels = readRels(pkg, "_rels/.rels", "");
  const office = rootRels.find((r) => REL_OFFICE_DOCUMENT.test(r.type) && r.part);
  if (!office || !office.part || !pkg.has(office.part)) {
    throw new XlsxError("not_xlsx", "xlsx.noMainPart", {});
  }
  const part = pkg.entryName(office.part)!;
  const ct = contentTypeOf(pkg, part);
  if (ct !== null && !MAIN_CONTENT_TYPES.has(ct)) {
    throw new XlsxError("not_xlsx", "xlsx.notWorkbook", {}, ct);
  }
  return { part, rels: readRels(pkg, relsPartOf(part), part) };
}

/** The sheets the workbook part lists, in order, each with its worksheet part when it has one. */
export function readSheets(pkg: XlsxPackage, workbookPart: string, rels: readonly Relationship[]): SheetInfo[] {
  const xml = pkg.readText(workbookPart);
  const out: SheetInfo[] = [];
  try {
    for (const t of scanTags(xml)) {
      if (t.kind === "close" || t.local !== "sheet") continue;
      const a = attributes(xml.slice(t.start, t.end));
      let relId = "";
      for (const [k, v] of a) if (/(^|:)id$/.test(k) && k !== "sheetId") relId = v;
      const rel = rels.find((r) => r.id === relId);
      const part = rel && rel.part && REL_WORKSHEET.test(rel.type) && pkg.has(rel.part) ? pkg.entryName(rel.part)! : null;
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
    throw badPart(workbookPart, e);
  }
  return out;
}

/** The part a workbook relationship of this type points to, when the package has it. */
export function relatedPart(pkg: XlsxPackage, rels: readonly Relationship[], type: RegExp): string | null {
  const rel = rels.find((r) => type.test(r.type) && r.part);
  return rel?.part && pkg.has(rel.part) ? rel.part : null;
}
