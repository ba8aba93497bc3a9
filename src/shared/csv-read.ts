/**
 * Reading a CSV file as spreadsheet programs save one, Romanian Excel's included: the text encoding
 * (a UTF-8 or UTF-16 byte-order mark; else UTF-8 when the bytes are valid UTF-8, else Windows-1250,
 * the code page of Romanian Windows, with TextDecoder's WHATWG table), the separator (`;` where the
 * decimal comma is the locale's, as Romanian Excel writes; `,`; a tab, as "Unicode text" writes),
 * then the fields by csv-parse (RFC 4180 quoting, CRLF or LF, well kept, no dependencies).
 */
import { parse } from "csv-parse/sync";

/** A file that is not a CSV (binary: `binary`) or whose quoting is broken (`quoting`, with the line). */
export class CsvReadError extends Error {
  override readonly name = "CsvReadError";
  constructor(
    readonly kind: "binary" | "quoting",
    readonly detail = "",
  ) {
    super(`${kind}${detail ? `: ${detail}` : ""}`);
  }
}

export interface CsvRead {
  rows: string[][];
  delimiter: "," | ";" | "\t";
  encoding: "utf-8" | "utf-16le" | "utf-16be" | "windows-1250";
}

/** The text of the file and how it was written. */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: CsvRead["encoding"] } {
  const b = bytes;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { text: new TextDecoder("utf-8").decode(b.subarray(3)), encoding: "utf-8" };
  if (b[0] === 0xff && b[1] === 0xfe) return { text: new TextDecoder("utf-16le").decode(b.subarray(2)), encoding: "utf-16le" };
  if (b[0] === 0xfe && b[1] === 0xff) return { text: new TextDecoder("utf-16be").decode(b.subarray(2)), encoding: "utf-16be" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(b), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1250").decode(b), encoding: "windows-1250" };
  }
}

/**
 * The separator: the one of `;`, tab and `,` found most often outside quotes in the first line that
 * holds any (`;` first on a tie: Romanian Excel's); `,` when none does (a single column).
 */
export function detectDelimiter(text: string): CsvRead["delimiter"] {
  const counts = { ";": 0, "\t": 0, ",": 0 };
  let quoted = false;
  for (let i = 0; i < text.length && i < 1_000_000; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) {
      if (counts[";"] + counts["\t"] + counts[","] > 0) break;
    } else if (!quoted && (ch === ";" || ch === "\t" || ch === ",")) counts[ch]++;
  }
  const best = (Object.keys(counts) as CsvRead["delimiter"][]).reduce((a, d) => (counts[d] > counts[a] ? d : a), ";");
  return counts[best] > 0 ? best : ",";
}

/** Reads the file; throws CsvReadError when it is not text or its quoting is broken. */
export function readCsv(bytes: Uint8Array): CsvRead {
  const { text, encoding } = decodeCsv(bytes);
  // A NUL is in no text a spreadsheet saves: a binary file (an image, a .xls renamed), not a CSV.
  if (text.includes("\0")) throw new CsvReadError("binary");
  const delimiter = detectDelimiter(text);
  try {
    const rows = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false }) as string[][];
    return { rows, delimiter, encoding };
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    throw new CsvReadError("quoting", line ? `${line}` : (e as Error).message);
  }
}
