/**
 * A cell's saved value as SpreadsheetML stores it, decoded: the `t` attribute says how to read
 * `<v>` (a shared-string index, text, a boolean, an error code, a date, a number) or the inline
 * `<is>` string item.
 */
import { decodeOoxmlString, stringItemText } from "./xml";
import type { ParsedCell, ParsedSheet } from "./sheet-scan";
import { ReadValue } from "../sheet/cell-values";

/** The value of a parsed cell (null when it holds none); `sharedStrings` is asked only for a cell of type `s`. */
export function decodeCell(cell: ParsedCell | undefined, sheet: ParsedSheet, sharedStrings: () => readonly string[]): ReadValue {
  if (!cell) return null;
  const t = cell.t ?? "n";
  if (t === "inlineStr") {
    if (cell.is) return stringItemText(sheet.xml, cell.is.contentStart, cell.is.contentEnd);
    return cell.v ? decodeOoxmlString(cell.v.text) : null;
  }
  if (!cell.v) return null;
  const text = cell.v.text;
  switch (t) {
    case "s": {
      const s = sharedStrings()[Number(text)];
      return s === undefined ? null : s;
    }
    case "str":
      return decodeOoxmlString(text);
    case "b":
      return text === "1" || text.toLowerCase() === "true";
    case "e":
      return { error: text, message: "" };
    case "d":
      return text;
    default: {
      if (text.trim() === "") return null;
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
  }
}
