/**
 * What a cell shows, without Office: values, and errors as { error, message } objects that
 * functions.ts turns into CustomFunctions.Error and the CLI into `t="e"` cells.
 */
import { isRateLimit } from "../api/errors";
import type { FirmLimit } from "../api/types";
import { LocalInputError, type MessageRef } from "../engine/local-errors";
import { kindOf, type FailureKind } from "../engine/failures";
import { keySegment, t, type Lang, type MessageKey } from "./messages";
import { getSettings } from "./settings";

export type ExcelErrorName = "#N/A" | "#VALUE!" | "#NUM!" | "#REF!" | "#NAME?" | "#DIV/0!" | "#NULL!" | "#SPILL!" | "#CALC!" | "#BUSY!";

export interface CellError {
  error: ExcelErrorName;
  message: string;
  /** The failure's kind (not enumerable: cells compare by error and message); a refresh keeps old values on some (failures.ts). */
  readonly cause?: FailureKind;
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

export type { Lang } from "./messages";

export function isCellError(v: unknown): v is CellError {
  return typeof v === "object" && v !== null && typeof (v as CellError).error === "string" && (v as CellError).error.startsWith("#");
}

export function isCard(v: unknown): v is CardCell {
  return typeof v === "object" && v !== null && (v as CardCell).card === true;
}

/** A service's value as a cell holds it: null/undefined → "" (an empty-looking cell). */
export function toScalar(v: unknown): Scalar {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "string") return v;
  return String(v);
}

/** toScalar(), a card left as it is. */
export function toCell(v: unknown): Cell {
  return isCard(v) ? v : toScalar(v);
}

/** A failure as a cell names it more precisely than its kind does. */
type Variant =
  | "empty_cui"
  | "not_found_year"
  | "not_found_ranking"
  | "unavailable"
  | "preview"
  | "unreachable_cross_origin"
  | "firm_budget"
  | "firm_day_limit"
  | "rate_limited";

/** The variant that says a firm's server's limit (api/errors.ts FirmLimit) was met. */
export const FIRM_VARIANT: Readonly<Record<FirmLimit, Variant>> = { budget: "firm_budget", day: "firm_day_limit" };

/** The kind behind each variant: what the cell's `cause` says. */
const VARIANT_OF: Readonly<Record<Variant, FailureKind>> = {
  empty_cui: "invalid_cui",
  not_found_year: "not_found",
  not_found_ranking: "not_found",
  unavailable: "network",
  preview: "not_cached",
  unreachable_cross_origin: "network",
  firm_budget: "credits_exhausted",
  firm_day_limit: "credits_exhausted",
  rate_limited: "server",
};

/**
 * The Excel error each failure shows; its message (what happened, what to do) is the catalog's
 * `cell.<kind>` (src/shared/messages) in the user's language, or `cell.<variant>` for the kinds
 * in SAID_AS.
 */
const CELL_ERRORS: Readonly<Record<FailureKind | Variant, ExcelErrorName>> = {
  invalid_cui: "#VALUE!",
  empty_cui: "#VALUE!",
  invalid_year: "#VALUE!",
  invalid_slug: "#VALUE!",
  invalid_limit: "#VALUE!",
  invalid_field: "#VALUE!",
  invalid_argument: "#VALUE!",
  input_error: "#VALUE!",
  year_outside_plan: "#N/A",
  plan_history: "#N/A",
  year_unavailable: "#N/A",
  not_found: "#N/A",
  not_found_year: "#N/A",
  not_found_ranking: "#N/A",
  invalid_base_url: "#N/A",
  missing_key: "#N/A",
  invalid_key: "#N/A",
  credits_exhausted: "#N/A",
  bad_request: "#VALUE!",
  server: "#N/A",
  network: "#N/A",
  shape: "#N/A",
  unavailable: "#N/A",
  timeout: "#N/A",
  aborted: "#N/A",
  budget_reached: "#N/A",
  guard_held: "#N/A",
  preview: "#N/A",
  not_cached: "#N/A",
  unreachable_cross_origin: "#N/A",
  firm_budget: "#N/A",
  firm_day_limit: "#N/A",
  rate_limited: "#N/A",
};

/** Kinds whose message is a variant's: the user needs the same advice for each. */
const SAID_AS: Partial<Record<FailureKind, FailureKind | Variant>> = {
  server: "unavailable",
  network: "unavailable",
  shape: "unavailable",
  input_error: "invalid_argument",
};

/**
 * In the add-in's page, a service on another origin that gave no answer may be down or may refuse
 * the page (CORS): the browser does not tell which (Fetch standard: a CORS failure is a network
 * error), so the message names both. Not in Node (the CLI), where there is no page.
 */
function crossOriginService(): boolean {
  try {
    if (typeof location === "undefined" || !/^https?:$/.test(location.protocol)) return false;
    return new URL(getSettings().baseUrl, location.href).origin !== location.origin;
  } catch {
    return false;
  }
}

/**
 * The errors a custom function may answer with: `CustomFunctions.ErrorCode` has seven, and of those
 * "#NAME?" and "#REF!" are "supported as a custom function input error, but not as a custom function
 * output error"; only #VALUE! and #N/A carry a message
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors).
 */
export const OUTPUT_ERRORS: ReadonlySet<string> = new Set(["#N/A", "#VALUE!", "#DIV/0!", "#NUM!", "#NULL!"]);

/**
 * The cell of a function whose argument cell holds an Excel error: that error, as Excel answers for a
 * function that takes no errors (one Excel cannot answer with becomes #VALUE!), and a message that
 * says where it comes from. `cui`: the argument is the CUI (else another argument).
 */
export function inputErrorCell(code: string, lang: Lang, cui: boolean): CellError {
  const e: CellError = {
    error: (OUTPUT_ERRORS.has(code) ? code : "#VALUE!") as ExcelErrorName,
    message: t(lang, cui ? "cell.inputError.cui" : "cell.inputError.argument", { code }),
  };
  Object.defineProperty(e, "cause", { value: "input_error", enumerable: false });
  return e;
}

/**
 * The error cells without a detail, by kind, language and cause: each is the same every time (a
 * recalculation of a column of "not found" cells would otherwise format its message, and make an
 * object with a hidden property, per cell). Frozen: shared cells are never changed.
 */
const PLAIN_ERRORS = new Map<Lang, Map<string, CellError>>();

export function cellError(kind: FailureKind | Variant, lang: Lang, cause?: FailureKind, detail?: MessageRef): CellError {
  if (detail) return makeCellError(kind, lang, cause, detail);
  // By language, then by kind (and cause, when one is given): no id string made per cell.
  let byKind = PLAIN_ERRORS.get(lang);
  if (!byKind) PLAIN_ERRORS.set(lang, (byKind = new Map()));
  const id = cause === undefined ? kind : `${kind}|${cause}`;
  let e = byKind.get(id);
  if (!e) byKind.set(id, (e = Object.freeze(makeCellError(kind, lang, cause))));
  return e;
}

function makeCellError(kind: FailureKind | Variant, lang: Lang, cause?: FailureKind, detail?: MessageRef): CellError {
  const said = (SAID_AS as Partial<Record<string, string>>)[kind] ?? kind;
  const message = detail ? t(lang, detail.key, detail.params) : t(lang, `cell.${keySegment(said)}` as MessageKey);
  const e: CellError = { error: CELL_ERRORS[kind], message };
  cause ??= (VARIANT_OF as Partial<Record<string, FailureKind>>)[kind] ?? (kind as FailureKind);
  Object.defineProperty(e, "cause", { value: cause, enumerable: false });
  return e;
}

/** Any failure → the cell error that says what to do. Never includes the service's raw text (it could echo a key). */
export function toCellError(e: unknown, lang: Lang, financial = false): CellError {
  if (isCellError(e)) return e;
  // the precise cause the engine found, when it names one (a wrong control digit, a year after the latest…)
  if (e instanceof LocalInputError) return cellError(e.kind, lang, e.kind, e.detail);
  const kind = kindOf(e);
  if (kind === "network" && crossOriginService()) return cellError("unreachable_cross_origin", lang);
  if (kind === "not_found") return cellError(financial ? "not_found_year" : "not_found", lang);
  // A firm's server (custody mode) named whose limit it is: the person's budget or the firm's day.
  const firm = (e as { firmLimit?: unknown } | null)?.firmLimit;
  if (kind === "credits_exhausted" && (firm === "budget" || firm === "day")) return cellError(FIRM_VARIANT[firm], lang);
  // A rate limit outlasted the call's time (http.ts waits it out while it can): not the service down.
  if (isRateLimit(e)) return cellError("rate_limited", lang);
  return kind === null ? cellError("unavailable", lang) : cellError(kind, lang);
}
