/**
 * Small XML helpers for reading OOXML parts: a tag scanner that reports offsets (so that the CLI's
 * writers, src/cli/xml-write.ts, can cut and splice the original text), attribute reading, entities
 * and the string escape SpreadsheetML uses.
 */

export interface Tag {
  /** "open" `<a>`, "close" `</a>`, "empty" `<a/>`. */
  kind: "open" | "close" | "empty";
  /** Qualified name as written, e.g. `c` or `x:c`. */
  name: string;
  /** Local name (after the prefix). */
  local: string;
  /** Offset of `<`. */
  start: number;
  /** Offset just after `>`. */
  end: number;
}

/** Thrown by the scanner on malformed markup; callers turn it into their own error. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "XmlSyntaxError";
  }
}

function localName(name: string): string {
  const i = name.indexOf(":");
  return i < 0 ? name : name.slice(i + 1);
}

export function isNameEnd(ch: number): boolean {
  // whitespace, '/', '>'
  return ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d || ch === 0x2f || ch === 0x3e;
}

/**
 * Scans the element tags in `xml[from, to)`, skipping comments, processing instructions,
 * CDATA sections and declarations. Quoted attribute values may contain `>`.
 */
export function* scanTags(xml: string, from = 0, to = xml.length): Generator<Tag> {
  let i = from;
  while (i < to) {
    const lt = xml.indexOf("<", i);
    if (lt < 0 || lt >= to) return;
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (xml.startsWith("<!--", lt)) {
        const e = xml.indexOf("-->", lt + 4);
        if (e < 0) throw new XmlSyntaxError("unterminated comment", lt);
        i = e + 3;
      } else if (xml.startsWith("<![CDATA[", lt)) {
        const e = xml.indexOf("]]>", lt + 9);
        if (e < 0) throw new XmlSyntaxError("unterminated CDATA section", lt);
        i = e + 3;
      } else {
        const e = xml.indexOf(">", lt + 2);
        if (e < 0) throw new XmlSyntaxError("unterminated declaration", lt);
        i = e + 1;
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const e = xml.indexOf("?>", lt + 2);
      if (e < 0) throw new XmlSyntaxError("unterminated processing instruction", lt);
      i = e + 2;
      continue;
    }
    if (next === 0x2f /* / */) {
      const e = xml.indexOf(">", lt + 2);
      if (e < 0) throw new XmlSyntaxError("unterminated end tag", lt);
      const name = xml.slice(lt + 2, e).trim();
      yield { kind: "close", name, local: localName(name), start: lt, end: e + 1 };
      i = e + 1;
      continue;
    }
    // Start or empty-element tag: read the name, then find the closing '>' outside quotes.
    let j = lt + 1;
    while (j < xml.length && !isNameEnd(xml.charCodeAt(j))) j++;
    const name = xml.slice(lt + 1, j);
    if (name === "") throw new XmlSyntaxError("empty tag name", lt);
    let quote = 0;
    let k = j;
    for (; k < xml.length; k++) {
      const ch = xml.charCodeAt(k);
      if (quote) {
        if (ch === quote) quote = 0;
      } else if (ch === 0x22 || ch === 0x27) {
        quote = ch;
      } else if (ch === 0x3e) {
        break;
      }
    }
    if (k >= xml.length) throw new XmlSyntaxError("unterminated start tag", lt);
    const empty = xml.charCodeAt(k - 1) === 0x2f;
    yield { kind: empty ? "empty" : "open", name, local: localName(name), start: lt, end: k + 1 };
    i = k + 1;
  }
}

/** An element's span: from its start tag to the end of its end tag (or the empty tag). */
export interface ElementSpan {
  tag: Tag;
  /** Offset just after the start tag (== end for an empty element). */
  contentStart: number;
  /** Offset of the end tag (== end for an empty element). */
  contentEnd: number;
  end: number;
}

/**
 * Finds the end of the element whose start tag is `open` (which must come from `scanTags`).
 * Returns the element span; throws on unbalanced markup.
 */
export function elementSpan(xml: string, open: Tag, limit = xml.length): ElementSpan {
  if (open.kind === "empty") return { tag: open, contentStart: open.end, contentEnd: open.end, end: open.end };
  let depth = 0;
  for (const t of scanTags(xml, open.end, limit)) {
    if (t.kind === "open") depth++;
    else if (t.kind === "close") {
      if (depth === 0) {
        if (t.name !== open.name) throw new XmlSyntaxError(`mismatched end tag </${t.name}> for <${open.name}>`, t.start);
        return { tag: open, contentStart: open.end, contentEnd: t.start, end: t.end };
      }
      depth--;
    }
  }
  throw new XmlSyntaxError(`unterminated element <${open.name}>`, open.start);
}

/** Direct children of an element (empty-element tags and full elements), in order. */
export function childElements(xml: string, parent: ElementSpan): ElementSpan[] {
  const out: ElementSpan[] = [];
  let depth = 0;
  let current: Tag | null = null;
  for (const t of scanTags(xml, parent.contentStart, parent.contentEnd)) {
    if (t.kind === "empty") {
      if (depth === 0) out.push({ tag: t, contentStart: t.end, contentEnd: t.end, end: t.end });
    } else if (t.kind === "open") {
      if (depth === 0) current = t;
      depth++;
    } else {
      depth--;
      if (depth < 0) throw new XmlSyntaxError(`unexpected end tag </${t.name}>`, t.start);
      if (depth === 0 && current) {
        out.push({ tag: current, contentStart: current.end, contentEnd: t.start, end: t.end });
        current = null;
      }
    }
  }
  if (depth !== 0) throw new XmlSyntaxError("unbalanced element content", parent.contentStart);
  return out;
}

/** One attribute as written in a start tag, with its offsets inside the tag text. */
export interface RawAttribute {
  name: string;
  /** Decoded value. */
  value: string;
  /** Offset of the attribute name within the tag text. */
  start: number;
  /** Offset just after the closing quote. */
  end: number;
  /** Offsets of the raw value (inside the quotes). */
  valueStart: number;
  valueEnd: number;
}

/** Attributes of a start tag's text (`<c r="A1" t="s">` or `<c r="A1"/>`), in document order. */
export function rawAttributes(tagText: string): RawAttribute[] {
  const out: RawAttribute[] = [];
  let i = 1;
  while (i < tagText.length && !isNameEnd(tagText.charCodeAt(i))) i++;
  const n = tagText.length;
  while (i < n) {
    const ch = tagText.charCodeAt(i);
    if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) {
      i++;
      continue;
    }
    if (ch === 0x2f || ch === 0x3e) break;
    const nameStart = i;
    while (i < n) {
      const c = tagText.charCodeAt(i);
      if (c === 0x3d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
      i++;
    }
    const name = tagText.slice(nameStart, i);
    while (i < n && /\s/.test(tagText[i])) i++;
    if (tagText[i] !== "=") throw new XmlSyntaxError(`attribute ${name} has no value`, nameStart);
    i++;
    while (i < n && /\s/.test(tagText[i])) i++;
    const q = tagText[i];
    if (q !== '"' && q !== "'") throw new XmlSyntaxError(`attribute ${name} is not quoted`, i);
    const valueStart = i + 1;
    const valueEnd = tagText.indexOf(q, valueStart);
    if (valueEnd < 0) throw new XmlSyntaxError(`attribute ${name} is not terminated`, i);
    out.push({
      name,
      value: decodeXml(tagText.slice(valueStart, valueEnd)),
      start: nameStart,
      end: valueEnd + 1,
      valueStart,
      valueEnd,
    });
    i = valueEnd + 1;
  }
  return out;
}

/** Attributes of a start tag's text as a map (decoded values). */
export function attributes(tagText: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of rawAttributes(tagText)) m.set(a.name, a.value);
  return m;
}

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; CDATA sections are unwrapped. */
export function decodeXml(s: string): string {
  if (s.indexOf("&") < 0 && s.indexOf("<![CDATA[") < 0) return s;
  let out = "";
  let i = 0;
  while (i < s.length) {
    const amp = s.indexOf("&", i);
    const cd = s.indexOf("<![CDATA[", i);
    if (cd >= 0 && (amp < 0 || cd < amp)) {
      out += s.slice(i, cd);
      const e = s.indexOf("]]>", cd + 9);
      if (e < 0) throw new XmlSyntaxError("unterminated CDATA section", cd);
      out += s.slice(cd + 9, e);
      i = e + 3;
      continue;
    }
    if (amp < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, amp);
    const semi = s.indexOf(";", amp + 1);
    if (semi < 0) throw new XmlSyntaxError("unterminated entity", amp);
    const ent = s.slice(amp + 1, semi);
    if (ent[0] === "#") {
      const code = ent[1] === "x" || ent[1] === "X" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      if (!Number.isFinite(code)) throw new XmlSyntaxError(`bad character reference &${ent};`, amp);
      out += String.fromCodePoint(code);
    } else if (ent in NAMED) {
      out += NAMED[ent];
    } else {
      throw new XmlSyntaxError(`unknown entity &${ent};`, amp);
    }
    i = semi + 1;
  }
  return out;
}

/** SpreadsheetML's `_xHHHH_` escapes decoded (after XML entities; the CLI's `encodeOoxmlString` writes them). */
export function decodeOoxmlString(s: string): string {
  if (s.indexOf("_x") < 0) return s;
  return s.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The text of a string item (`<si>` or `<is>` content): the `<t>` elements, directly or inside
 * rich-text runs `<r>`, concatenated; phonetic runs (`<rPh>`) and properties are ignored.
 */
export function stringItemText(xml: string, from: number, to: number): string {
  let out = "";
  let skipDepth = 0;
  let tOpen: Tag | null = null;
  for (const t of scanTags(xml, from, to)) {
    if (t.local === "rPh") {
      if (t.kind === "open") skipDepth++;
      else if (t.kind === "close") skipDepth--;
      continue;
    }
    if (skipDepth > 0 || t.local !== "t") continue;
    if (t.kind === "open") tOpen = t;
    else if (t.kind === "close" && tOpen) {
      out += decodeXml(xml.slice(tOpen.end, t.start));
      tOpen = null;
    }
  }
  return decodeOoxmlString(out);
}
