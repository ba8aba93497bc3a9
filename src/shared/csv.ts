/**
 * CSV as FIRMA writes it, for every CSV it writes (`firma refresh --csv` and `--changes`, `firma audit
 * --csv`, and any later export): RFC 4180 fields, lines ended by CRLF, a BOM on request, and text that
 * can never become a formula when the file is opened in a spreadsheet program.
 *
 * CSV injection (OWASP; CWE-1236): Excel, LibreOffice and Google Sheets read a CSV field as if it were
 * typed into the cell, so a text that begins with `=`, `+`, `-` or `@` becomes a formula
 * (`=HYPERLINK(…)` leaks data with one click; DDE payloads run commands on older setups), and a tab or
 * a carriage return in front of one does the same in some of them. A company's name or address comes
 * from the service, and `--csv` writes whole sheets, the user's own cells included: whatever its origin,
 * a text field that begins with one of those characters (after any byte-order marks, which a reader
 * drops) is written with a single quote in front and inside double quotes, as OWASP's guidance says.
 * A spreadsheet then shows it as text; a script that reads the column sees the leading `'` and can
 * strip it. Numbers are written as numbers: a negative profit is `-1200`, never `'-1200`.
 */

/** What a field may hold: a cell's text, number or boolean, or nothing. */
export type CsvValue = string | number | boolean | null | undefined;

/**
 * The characters that make a spreadsheet read a field as a formula when they come first: OWASP's
 * list (=, +, -, @, tab, carriage return) and the NUL of ASVS 1.2.10.
 */
const TRIGGER = /^\ufeff*[=+\-@\t\r\0]/;

/** Characters that make a field need quotes (RFC 4180, 2.6). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field: a number as itself (finite; NaN and ±Infinity, which no spreadsheet reads as numbers,
 * as empty), a boolean as TRUE or FALSE, nothing as empty, a text neutralized when it would be a
 * formula, then quoted where RFC 4180 needs it (and always when neutralized, as OWASP advises).
 */
export function csvField(v: CsvValue): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  const text = String(v);
  if (TRIGGER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: its fields made safe, separated by commas. */
export function csvRecord(values: readonly CsvValue[]): string {
  return values.map(csvField).join(",");
}

/**
 * A whole CSV file: each record on its own line, every line ended by CRLF (RFC 4180, 2.1). With
 * `bom`, a UTF-8 byte-order mark first, so that Excel reads the diacritics as UTF-8.
 */
export function csvDocument(rows: readonly (readonly CsvValue[])[], options: { bom?: boolean } = {}): string {
  let out = options.bom ? "\ufeff" : "";
  for (const row of rows) out += csvRecord(row) + "\r\n";
  return out;
}
