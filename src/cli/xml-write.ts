/**
 * Writing XML for surgical work on OOXML parts: in-place attribute editing and the text escapes
 * SpreadsheetML uses. Nothing here re-serializes a document: callers cut and splice the original
 * text (offsets from src/shared/xlsx/xml.ts's scanner), so every byte they do not touch stays as it
 * was.
 */
import { isNameEnd, rawAttributes } from "../shared/xlsx/xml";

/**
 * Sets (value string) or removes (null) one attribute in a start tag's text, touching nothing
 * else. A new attribute goes right after the last present attribute among `after`
 * (in that order of preference), else right after the tag name.
 */
export function setAttribute(tagText: string, name: string, value: string | null, after: readonly string[] = []): string {
  const attrs = rawAttributes(tagText);
  const existing = attrs.find((a) => a.name === name);
  if (existing) {
    if (value === null) {
      // remove the attribute and the whitespace before it
      let s = existing.start;
      while (s > 0 && /\s/.test(tagText[s - 1])) s--;
      return tagText.slice(0, s) + tagText.slice(existing.end);
    }
    const quote = tagText[existing.valueStart - 1];
    const enc = quote === '"' ? escapeXmlAttr(value) : escapeXmlAttr(value).replace(/'/g, "&apos;");
    return tagText.slice(0, existing.valueStart) + enc + tagText.slice(existing.valueEnd);
  }
  if (value === null) return tagText;
  let at = -1;
  // `after` lists the attributes that should precede the new one, in schema order:
  // insert after the last of them that is present.
  for (const pref of [...after].reverse()) {
    const a = attrs.find((x) => x.name === pref);
    if (a) {
      at = a.end;
      break;
    }
  }
  if (at < 0) {
    at = 1;
    while (at < tagText.length && !isNameEnd(tagText.charCodeAt(at))) at++;
  }
  return tagText.slice(0, at) + ` ${name}="${escapeXmlAttr(value)}"` + tagText.slice(at);
}

/** Escapes text content: `&`, `<`, `>`. */
export function escapeXmlText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/** Escapes an attribute value for double quotes. */
export function escapeXmlAttr(s: string): string {
  return s.replace(/[&<>"\t\n\r]/g, (c) =>
    c === "&"
      ? "&amp;"
      : c === "<"
        ? "&lt;"
        : c === ">"
          ? "&gt;"
          : c === '"'
            ? "&quot;"
            : `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`,
  );
}

/**
 * SpreadsheetML string escape (ST_Xstring): characters XML 1.0 cannot carry are written as
 * `_xHHHH_`, and a literal `_xHHHH_` in the text is protected as `_x005F_xHHHH_`.
 * Excel also writes a carriage return as `_x000D_`.
 */
export function encodeOoxmlString(s: string): string {
  return s.replace(
    // control characters on purpose: they are what must be escaped
    // eslint-disable-next-line no-control-regex
    /_x[0-9A-Fa-f]{4}_|[\u0000-\u0008\u000B\u000C\u000D\u000E-\u001F\uFFFE\uFFFF]/g,
    (m) => (m.length > 1 ? "_x005F" + m : `_x${m.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`),
  );
}
