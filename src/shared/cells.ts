/**
 * What a cell shows, without Office: values, and errors as { error, message } objects that
 * functions.ts turns into CustomFunctions.Error and the CLI into `t="e"` cells.
 */
import { LocalInputError } from "../engine/errors";

export type ExcelErrorName = "#N/A" | "#VALUE!" | "#NUM!" | "#REF!" | "#NAME?" | "#DIV/0!" | "#NULL!" | "#SPILL!" | "#CALC!" | "#BUSY!";

export interface CellError {
  error: ExcelErrorName;
  message: string;
  /** The failure's kind (not enumerable: cells compare by error and message). The CLI keeps old values on passing causes. */
  readonly cause?: string;
}
export type Scalar = string | number | boolean;

/**
 * A company card (FIRMA.FISA), Office-free: the cell's text and named values in sections.
 * functions.ts makes Excel's entity value of it; the CLI and hosts without entity values never get
 * one (EvalContext.cards false: the function answers the text).
 */
export interface CardCell {
  card: true;
  text: string;
  /** Property name → value, in card order; null values are left out. */
  properties: Record<string, Scalar>;
  /** The card's sections: a title and the property names listed under it. */
  sections: { title: string; properties: string[] }[];
}
export type Cell = Scalar | CellError | CardCell;
/** A cell as a file holds it: no card. */
export type PlainCell = Scalar | CellError;
export type Matrix = Cell[][];

export type Lang = "ro" | "en";

export function isCellError(v: unknown): v is CellError {
  return typeof v === "object" && v !== null && typeof (v as CellError).error === "string" && (v as CellError).error.startsWith("#");
}

export function isCard(v: unknown): v is CardCell {
  return typeof v === "object" && v !== null && (v as CardCell).card === true;
}

/** Short messages that say what happened and what to do; Romanian first, English when the user chose it. */
const MESSAGES: Record<string, [ExcelErrorName, string, string]> = {
  invalid_cui: [
    "#VALUE!",
    "CUI invalid (cifra de control sau formatul). Verificați codul.",
    "Invalid CUI (control digit or format). Check the code.",
  ],
  empty_cui: [
    "#VALUE!",
    "CUI lipsă: celula e goală; scrieți codul fiscal al firmei.",
    "CUI missing: the cell is empty; enter the company's tax ID.",
  ],
  invalid_year: [
    "#VALUE!",
    "An invalid: scrieți un an cu 4 cifre, din 1990 încoace, de ex. 2024.",
    "Invalid year: use a four-digit year from 1990 on, e.g. 2024.",
  ],
  invalid_slug: [
    "#VALUE!",
    "Identificator de top invalid: copiați unul din FIRMA.TOPURI.",
    "Invalid ranking id: copy one from FIRMA.TOPURI.",
  ],
  invalid_limit: [
    "#VALUE!",
    "Limită invalidă: scrieți un număr întreg de la 1 la 1000.",
    "Invalid limit: use a whole number from 1 to 1000.",
  ],
  invalid_field: [
    "#VALUE!",
    "Câmp necunoscut: folosiți un nume valid: denumire, stare, județ, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
    "Unknown field: use a valid name: denumire (name), stare (status), judet (county), localitate (locality), adresa (address), caen_principal, platitor_tva (vat), j_cod, cifra_afaceri (revenue), profit_net, active_totale (assets), datorii_totale (liabilities), numar_angajati (employees).",
  ],
  invalid_argument: ["#VALUE!", "Argument invalid: vedeți Ajutor în panoul FIRMA.", "Invalid argument: see Help in the FIRMA pane."],
  year_outside_plan: [
    "#N/A",
    "Anul nu e inclus în istoricul planului dvs.; alegeți un an mai recent.",
    "Year outside your plan's history; pick a more recent year.",
  ],
  plan_history: [
    "#N/A",
    "Anul nu e inclus în istoricul planului dvs.; alegeți un an mai recent.",
    "Year outside your plan's history; pick a more recent year.",
  ],
  year_unavailable: [
    "#N/A",
    "Nu există încă date pentru acest an; lăsați anul gol pentru ultimul an disponibil.",
    "No data for this year yet; leave the year empty for the latest one.",
  ],
  not_found: ["#N/A", "Firma nu a fost găsită (CUI inexistent); verificați codul.", "Company not found (unknown CUI); check the code."],
  not_found_year: [
    "#N/A",
    "Nu există date financiare pentru acest an; încercați alt an (vezi FIRMA.ISTORIC).",
    "No financial data for this year; try another year (see FIRMA.ISTORIC).",
  ],
  not_found_ranking: ["#N/A", "Topul nu există: alegeți unul din FIRMA.TOPURI.", "No such ranking: pick one from FIRMA.TOPURI."],
  invalid_base_url: [
    "#N/A",
    "Adresa serviciului nu e acceptată: folosiți o adresă https în panoul FIRMA.",
    "Service address refused: use an https address in the FIRMA pane.",
  ],
  missing_key: ["#N/A", "Lipsește cheia API: introduceți-o în panoul FIRMA.", "API key missing: enter it in the FIRMA pane."],
  invalid_key: ["#N/A", "Cheie API invalidă: verificați-o în panoul FIRMA.", "Invalid API key: check it in the FIRMA pane."],
  credits_exhausted: [
    "#N/A",
    "Credite epuizate pentru perioada curentă; vedeți Consum în panou.",
    "Credits used up for this period; see Usage in the pane.",
  ],
  bad_request: ["#VALUE!", "Serviciul a respins cererea: verificați argumentele.", "The service refused the request: check the arguments."],
  unavailable: [
    "#N/A",
    "Serviciu indisponibil; reîncercați cu Actualizare din panou.",
    "Service unavailable; retry with Refresh in the pane.",
  ],
  timeout: [
    "#N/A",
    "Serviciul nu a răspuns la timp; reîncercați cu Actualizare din panou.",
    "The service did not answer in time; retry with Refresh in the pane.",
  ],
  aborted: ["#N/A", "Calcul anulat.", "Calculation cancelled."],
  budget_reached: [
    "#N/A",
    "Bugetul de credite al actualizării s-a atins; măriți-l și reîncercați.",
    "The refresh's credit budget is reached; raise it and retry.",
  ],
  guard_held: [
    "#N/A",
    "Oprit de limita de credite: confirmați în panoul FIRMA pentru a completa.",
    "Held by the credit limit: confirm in the FIRMA pane to fill these cells.",
  ],
  preview: ["#N/A", "Previzualizare: apăsați Enter pentru a aduce datele.", "Preview: press Enter to fetch the data."],
  not_cached: ["#N/A", "Nu s-a primit răspuns pentru această celulă; reîncercați.", "No answer was received for this cell; retry."],
};

export function cellError(kind: keyof typeof MESSAGES | string, lang: Lang, cause: string = kind): CellError {
  const m = MESSAGES[kind] ?? MESSAGES.unavailable;
  const e: CellError = { error: m[0], message: lang === "en" ? m[2] : m[1] };
  Object.defineProperty(e, "cause", { value: cause, enumerable: false });
  return e;
}

/** Any failure → the cell error that says what to do. Never includes the service's raw text (it could echo a key). */
export function toCellError(e: unknown, lang: Lang, financial = false): CellError {
  if (isCellError(e)) return e;
  if (e instanceof LocalInputError) return cellError(e.kind, lang);
  const kind = (e as { kind?: unknown } | null)?.kind;
  if (typeof kind === "string") {
    if (kind === "not_found") return cellError(financial ? "not_found_year" : "not_found", lang, kind);
    if (kind in MESSAGES) return cellError(kind, lang);
    return cellError("unavailable", lang, kind);
  }
  return cellError("unavailable", lang, "network");
}
