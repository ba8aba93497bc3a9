/**
 * What `firma match` writes: three columns in the workbook, a CSV, the JSON of --json, the words of
 * each outcome. A guess is never shown as a certainty: the CUI and the official name are written
 * only for a "sure" outcome; a "likely" or "ambiguous" row gets its confidence alone (its candidates
 * are in the summary and in --json, to check); "not found" and "not searched" say so, and why.
 */
import { colToLetters, formatBox, formatCellRef } from "../shared/sheet/a1";
import { isCellError, type ReadValue } from "../shared/sheet/cell-values";
import { csvDocument, type CsvValue } from "../shared/csv";
import { kindOf } from "../engine/failures";
import { isMessageKey, keySegment, t, type Lang, type MessageKey } from "../shared/messages/node";
import type { Table } from "./match-input";
import type { MatchCandidate, MatchOutcome } from "./match-types";
import { SheetEditor } from "./sheet-editor";

/** A row of names: where it is in the table, and what the engine answered. */
export interface MatchedRow {
  row: number;
  outcome: MatchOutcome;
}

/**
 * Why a name was not searched, in the user's words: its input's problem, or the stop that came first,
 * said as `firma refresh` says that failure (what happened and what to do), else by the stop's kind.
 */
export function whyNotSearched(o: MatchOutcome, lang: Lang): string {
  if (o.problem) return t(lang, `cli.match.problem.${keySegment(o.problem.kind)}` as MessageKey, { county: o.problem.detail ?? "" });
  const kind = kindOf(o.cause);
  const key = kind === null ? "" : `cli.cause.${keySegment(kind)}`;
  return isMessageKey(key) ? t(lang, key) : t(lang, `cli.match.stop.${o.stoppedBy ?? "service"}` as MessageKey);
}

/** An outcome as --json gives it: what the engine answered, without the error object behind a stop. */
export function outcomeJson(o: MatchOutcome) {
  const { confidence, cui, officialName, candidates, problem, stoppedBy, incomplete } = o;
  return { confidence, cui, officialName, candidates, problem, stoppedBy, incomplete };
}

/** The confidence as the workbook's third column says it. */
export function confidenceText(o: MatchOutcome, lang: Lang): string {
  switch (o.confidence) {
    case "sure":
      return t(lang, "cli.match.confidence.sure");
    case "likely":
      return t(lang, "cli.match.confidence.likely", { n: o.candidates.length || 1 });
    case "ambiguous":
      return o.incomplete
        ? t(lang, "cli.match.confidence.ambiguousMore")
        : t(lang, "cli.match.confidence.ambiguous", { n: o.candidates.length });
    case "not_found":
      return t(lang, "cli.match.confidence.notFound");
    default:
      return t(lang, "cli.match.confidence.notSearched", { why: whyNotSearched(o, lang) });
  }
}

/** The three values of a row: the CUI and the official name only when sure. */
export function threeCells(o: MatchOutcome, lang: Lang): [number | null, string | null, string] {
  const sure = o.confidence === "sure" && o.cui !== undefined;
  return [sure ? o.cui! : null, sure ? (o.officialName ?? null) : null, confidenceText(o, lang)];
}

/** The three target columns of a workbook and the rows they cover (the header's included). */
export interface Targets {
  col: number;
  top: number;
  bottom: number;
}

export function targetRange(t: Targets): string {
  return formatBox({ top: t.top, left: t.col, bottom: t.bottom, right: t.col + 2 });
}

/** The target cells that are not empty: those with a formula (never written over) and those with a value. */
export function occupiedTargets(table: Table, targets: Targets): { formulas: string[]; values: string[] } {
  const out = { formulas: [] as string[], values: [] as string[] };
  if (!table.workbook || !table.sheet) return out;
  const sheet = table.workbook.parseSheet(table.sheet);
  const ed = new SheetEditor(sheet, sheet.prefix);
  for (let r = targets.top; r <= targets.bottom; r++)
    for (let c = targets.col; c < targets.col + 3; c++) {
      const occ = ed.occupied(r, c);
      if (occ.formula) out.formulas.push(formatCellRef(r, c));
      else if (occ.value) out.values.push(formatCellRef(r, c));
    }
  return out;
}

/**
 * The workbook with the three columns written (a header row first when the table has one), as bytes;
 * every other part and cell stays as it was.
 */
export function matchedWorkbook(table: Table, targets: Targets, rows: readonly MatchedRow[], header: boolean, lang: Lang): Uint8Array {
  const wb = table.workbook!;
  const sheet = wb.parseSheet(table.sheet!);
  const ed = new SheetEditor(sheet, sheet.prefix);
  const put = (row: number, values: readonly (string | number | null)[]) =>
    values.forEach((v, i) => ed.writePlain(row, targets.col + i, v));
  if (header) put(table.top, [t(lang, "cli.match.header.cui"), t(lang, "cli.match.header.name"), t(lang, "cli.match.header.confidence")]);
  for (const r of rows) put(r.row, threeCells(r.outcome, lang));
  wb.pkg.write(sheet.part, ed.toXml());
  wb.invalidate();
  return wb.pkg.toBytes();
}

/** A cell's value as a CSV field (an error as its code). */
const field = (v: ReadValue): CsvValue => (isCellError(v) ? v.error : v);

/**
 * The CSV: the input's columns (its used range), then `cui`, `official_name`, `confidence` (the id:
 * sure, likely, ambiguous, not_found, not_searched). src/shared/csv.ts writes it (a BOM, CRLF, text
 * that cannot become a formula).
 */
export function matchedCsv(table: Table, rows: readonly MatchedRow[], header: boolean): string {
  const width = table.right;
  const input = (row: number) => Array.from({ length: width }, (_, i) => field(table.value(row, i + 1)));
  const lines: CsvValue[][] = [];
  if (header) lines.push([...input(table.top), "cui", "official_name", "confidence"]);
  for (const r of rows) {
    const sure = r.outcome.confidence === "sure";
    lines.push([...input(r.row), sure ? r.outcome.cui : null, sure ? r.outcome.officialName : null, r.outcome.confidence]);
  }
  return csvDocument(lines, { bom: true });
}

/** One candidate in a line: "12345678 X SRL (Bacău, Bacău; radiată)". */
export function candidateText(c: MatchCandidate): string {
  const where = [c.judet, c.localitate].filter(Boolean).join(", ");
  const extra = [where, c.stare].filter(Boolean).join("; ");
  return `${c.cui} ${c.denumire}${extra ? ` (${extra})` : ""}`;
}

/** The column's letter, for the messages. */
export const letter = colToLetters;
