/**
 * Every way a request can fail, by kind, and what each kind means for the cell and the credits.
 * One vocabulary for the whole add-in: the client's kinds (the service answered, or did not) and
 * the engine's (found without asking, or chosen not to ask). A table of kinds is typed
 * `Record<FailureKind, …>`, so that a new kind does not compile until every table says what it does.
 */
import type { ApiErrorKind } from "../api/types";
import type { LocalErrorKind } from "./local-errors";

export type FailureKind = ApiErrorKind | LocalErrorKind;

export interface FailureTraits {
  /** Found without asking the service: it costs nothing. */
  local: boolean;
  /** No answer came at all (the breaker counts these). */
  noAnswer: boolean;
  /**
   * A stale cached answer stands in for the fresh one: the service could not answer now, or FIRMA
   * chose not to ask (budget, guard, credits spent). Nothing about the company is learned.
   */
  staleStandsIn: boolean;
  /**
   * A refresh leaves the cell's old value as it is: the failure says nothing about the company
   * (service down, budget, credits spent, key refused, run stopped…), so an answer the workbook
   * already holds is better than an error.
   */
  keepsOldValue: boolean;
  /** A year for which a company has no figures to show: FIRMA.ISTORIC leaves it out. */
  noFigures: boolean;
}

const SERVICE_DOWN: FailureTraits = { local: false, noAnswer: false, staleStandsIn: true, keepsOldValue: true, noFigures: false };
const NOT_ASKED: FailureTraits = { local: true, noAnswer: false, staleStandsIn: true, keepsOldValue: true, noFigures: false };
const REFUSED: FailureTraits = { local: false, noAnswer: false, staleStandsIn: false, keepsOldValue: true, noFigures: false };
const BAD_INPUT: FailureTraits = { local: true, noAnswer: false, staleStandsIn: false, keepsOldValue: false, noFigures: false };
const NO_YEAR: FailureTraits = { ...BAD_INPUT, noFigures: true };

export const FAILURES: Readonly<Record<FailureKind, FailureTraits>> = {
  // the service's answers (or their absence)
  missing_key: REFUSED,
  invalid_key: REFUSED,
  plan_history: { ...REFUSED, keepsOldValue: false, noFigures: true },
  credits_exhausted: SERVICE_DOWN,
  not_found: { ...REFUSED, keepsOldValue: false, noFigures: true },
  bad_request: { ...REFUSED, keepsOldValue: false },
  server: SERVICE_DOWN,
  network: { ...SERVICE_DOWN, noAnswer: true },
  timeout: { ...SERVICE_DOWN, noAnswer: true },
  aborted: { ...REFUSED, local: true },
  shape: SERVICE_DOWN,
  // found before asking, or chosen not to ask
  invalid_cui: BAD_INPUT,
  invalid_year: BAD_INPUT,
  year_outside_plan: NO_YEAR,
  year_unavailable: NO_YEAR,
  invalid_slug: BAD_INPUT,
  invalid_limit: BAD_INPUT,
  invalid_field: BAD_INPUT,
  invalid_argument: BAD_INPUT,
  input_error: BAD_INPUT,
  invalid_base_url: BAD_INPUT,
  budget_reached: NOT_ASKED,
  guard_held: NOT_ASKED,
  not_cached: { ...NOT_ASKED, staleStandsIn: false },
};

/** The kind of a failure thrown anywhere below the surfaces; null for anything else. */
export function kindOf(e: unknown): FailureKind | null {
  const kind = (e as { kind?: unknown } | null | undefined)?.kind;
  return typeof kind === "string" && Object.prototype.hasOwnProperty.call(FAILURES, kind) ? (kind as FailureKind) : null;
}

/** Whether `e` is a failure of a kind with the trait. */
export function failureHas(e: unknown, trait: keyof FailureTraits): boolean {
  const kind = kindOf(e);
  return kind !== null && FAILURES[kind][trait];
}

/** Whether a kind (a cell error's cause) has the trait. */
export function kindHas(kind: FailureKind | null | undefined, trait: keyof FailureTraits): boolean {
  return kind != null && FAILURES[kind][trait];
}
