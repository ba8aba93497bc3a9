/**
 * What "Add columns" offers, from the functions' catalog (src/shared/fields.ts, function-table.ts):
 * each profile field, each financial figure for a year or a range of years, the company card and the
 * fetch date — each a function id, its header in the user's language, and the formula of a row.
 * Formulas are written as Range.formulas takes them: the functions' ids and "," between arguments
 * (docs/excel.md, "Add columns"). The requests of a column are what its formulas would ask for
 * (estimate-requests.ts), so that the estimate is the cost of the same formulas typed by hand.
 */
import type { CellRequest } from "../../engine/engine";
import { colToLetters } from "../../shared/sheet/a1";
import { cellRequests } from "../../shared/estimate-requests";
import { PROFILE_FUNCTIONS, PROFILE_ORDER } from "../../shared/fields";
import { t, type Lang } from "../i18n";
import { ft } from "./texts";

export interface ColumnItem {
  /** The function's id (FIRMA.<id>). */
  id: string;
  /** Takes a year. */
  financial: boolean;
  /** How the header names it, in a language (a financial one without its year). */
  label(lang: Lang): string;
  /** Excel's number format for its cells (the fetch date), or null. */
  numberFormat: string | null;
  /** Only as a formula: a card cannot be written as a frozen value everywhere (flow texts, columns.cardFormulaOnly). */
  formulaOnly: boolean;
}

/** The per-field functions by field: DENUMIRE… NRREG, then CIFRA_AFACERI… ANGAJATI (not CA: the same figure). */
const PROFILE_IDS = PROFILE_ORDER.map((f) => Object.keys(PROFILE_FUNCTIONS).find((id) => PROFILE_FUNCTIONS[id] === f)!);
const FINANCIAL_IDS = ["CIFRA_AFACERI", "PROFIT", "ACTIVE", "DATORII", "ANGAJATI"];

/** Every item, in the order the pane lists them. */
export const COLUMN_ITEMS: readonly ColumnItem[] = [
  ...PROFILE_IDS.map((id, i) => ({
    id,
    financial: false,
    label: (l: Lang) => t(l, "header.profil").split("|")[i + 1],
    numberFormat: null,
    formulaOnly: false,
  })),
  ...FINANCIAL_IDS.map((id, i) => ({
    id,
    financial: true,
    label: (l: Lang) => t(l, "header.financiar").split("|")[i + 1], // FINANCIAL_IDS in FINANCIAL_ORDER
    numberFormat: null,
    formulaOnly: false,
  })),
  { id: "FISA", financial: false, label: (l) => ft(l, "columns.item.card"), numberFormat: null, formulaOnly: true },
  { id: "ACTUALIZAT", financial: false, label: (l) => ft(l, "columns.item.fetched"), numberFormat: "yyyy-mm-dd hh:mm", formulaOnly: false },
];

/** One column to add: an item and, for a financial one, its year (null: the latest, the argument left out). */
export interface Column {
  item: ColumnItem;
  year: number | null;
}

/** The columns of the chosen items: a financial item once per year, latest first. */
export function columnsOf(items: readonly ColumnItem[], years: readonly (number | null)[]): Column[] {
  return items.flatMap((item) => (item.financial ? years.map((year) => ({ item, year })) : [{ item, year: null }]));
}

/** The header of a column in the user's language: "Cifra de afaceri 2024". */
export function headerOf(c: Column, lang: Lang): string {
  return c.year === null ? c.item.label(lang) : `${c.item.label(lang)} ${c.year}`;
}

/** The formula of a column in a row, for Range.formulas: `=FIRMA.DENUMIRE(A2)`, `=FIRMA.PROFIT(A2,2024)`. */
export function formulaOf(c: Column, cuiCol: number, row: number): string {
  const ref = `${colToLetters(cuiCol)}${row}`;
  return c.year === null ? `=FIRMA.${c.item.id}(${ref})` : `=FIRMA.${c.item.id}(${ref},${c.year})`;
}

/** What the formulas of these columns would ask the engine for, over the CUI column's values (one request per cell). */
export function requestsOf(columns: readonly Column[], cuis: readonly unknown[]): CellRequest[] {
  const matrix = cuis.map((c) => [c]);
  return columns.flatMap((c) => cellRequests(c.item.id, c.year === null ? [matrix] : [matrix, c.year]));
}
