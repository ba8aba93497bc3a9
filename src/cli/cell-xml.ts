/**
 * One cell element's text edited in place: a value encoded as SpreadsheetML stores it (`t` and
 * `<v>`), written into a `<c>` (keeping every other attribute and child as written), or removed
 * from one. The patcher's smallest step; nothing here knows the sheet around the cell.
 */
import { CLASSIC_ERRORS, CellValue, isCellError } from "../shared/sheet/cell-values";
import { childElements, elementSpan, rawAttributes, scanTags } from "../shared/xlsx/xml";
import { escapeXmlText, encodeOoxmlString, setAttribute } from "./xml-write";

export type ResultValue = CellValue | null;

const CLASSIC = new Set<string>(CLASSIC_ERRORS);

export interface Encoded {
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
