/**
 * The watch's changes (engine.changes()) as a table in the user's language: what the pane lists
 * after a refresh and writes to a new sheet. Pure: the company's name is the one the change was
 * recorded with, so building the table asks nothing of the engine or the service.
 */
import type { Change } from "../engine/engine";
import { t, type Lang, type MessageKey } from "./messages";

export type ChangeCell = string | number;

export interface ChangeTable {
  header: string[];
  rows: ChangeCell[][];
  /** The columns of text (all but the CUI): a sheet writes them as text, never as formulas or dates. */
  textColumns: number[];
}

const FIELD_KEYS: Record<Change["field"], MessageKey> = {
  stare: "changes.field.status",
  platitor_tva: "changes.field.vat",
  denumire: "changes.field.name",
  adresa: "changes.field.address",
  judet: "changes.field.county",
  caen_principal: "changes.field.caen",
  j_cod: "changes.field.registry",
};

/** The firm server's financial-year check's field (src/server/firm/watch-diff.ts FINANCIAL_YEAR). */
const OTHER_KEYS: Record<string, MessageKey> = { an_financiar: "changes.field.financialYear" };

/** A watched field's name in the user's language; a field this table does not know, as its code. */
export function fieldLabel(field: string, lang: Lang): string {
  if (Object.prototype.hasOwnProperty.call(OTHER_KEYS, field)) return t(lang, OTHER_KEYS[field]);
  return Object.prototype.hasOwnProperty.call(FIELD_KEYS, field) ? t(lang, FIELD_KEYS[field as Change["field"]]) : field;
}

/** A value as the user reads it: booleans in words, nothing for a missing value. */
export function changeValue(v: unknown, lang: Lang): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "boolean") return t(lang, v ? "changes.yes" : "changes.no");
  return String(v);
}

/** A date as YYYY-MM-DD HH:MM in the local time zone (sorts as text, reads the same in both languages). */
export function changeDate(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "";
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * One row per change: CUI, company, field, before, after, when the old value was fetched, when the
 * change was found. The company is named as in the answer that showed the change (so by its new
 * name when the name is what changed); changes saved before names were recorded have none.
 */
export function changeTable(changes: readonly Change[], lang: Lang): ChangeTable {
  const columns: MessageKey[] = [
    "changes.col.cui",
    "changes.col.company",
    "changes.col.field",
    "changes.col.before",
    "changes.col.after",
    "changes.col.beforeDate",
    "changes.col.afterDate",
  ];
  const header = columns.map((key) => t(lang, key));
  const rows = changes.map((c) => [
    c.cui,
    c.name ?? "",
    fieldLabel(c.field, lang),
    changeValue(c.before, lang),
    changeValue(c.after, lang),
    changeDate(c.beforeFetchedAt),
    changeDate(c.afterFetchedAt),
  ]);
  return { header, rows, textColumns: header.map((_, i) => i).slice(1) };
}
