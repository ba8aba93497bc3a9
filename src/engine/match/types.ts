/** Name matching's types: what the surfaces give the engine and what it answers (the helpers' contract). */
import type { CancelSignal } from "../../api/types";

export type Confidence = "sure" | "likely" | "ambiguous" | "not_found" | "not_searched";

/** One row: raw cell values. */
export interface NameInput {
  name: unknown;
  county?: unknown;
}

export interface MatchCandidate {
  cui: number;
  denumire: string;
  judet?: string;
  localitate?: string;
  stare?: string;
}

export type InputProblem = "empty" | "not_text" | "too_short" | "only_legal_form" | "unknown_county";
export type MatchStop = "budget" | "quota" | "guard" | "plan" | "key" | "service" | "aborted";

export interface MatchOutcome {
  confidence: Confidence;
  /** sure: the company; likely: the one candidate (never filled on its own). */
  cui?: number;
  officialName?: string;
  /** likely: [the one]; ambiguous: those that fit (first 20); not_found: namesakes in another county (first 20). */
  candidates: MatchCandidate[];
  /** Bad input caught locally, no credit spent: confidence "not_searched". detail: e.g. the county's text. */
  problem?: { kind: InputProblem; detail?: string };
  /** not_searched because a stop came before this name. */
  stoppedBy?: MatchStop;
  /** not_searched by a stop: the error behind it (the surfaces say it as they say that error anywhere). */
  cause?: unknown;
  /**
   * ambiguous because the service listed more companies than FIRMA reads for one name (the search
   * cap): the list was not read to its end, so no candidate can be sure (and none can be ruled out).
   */
  incomplete?: boolean;
}

export interface MatchEstimate {
  /** Credits: a range (max counts a second query form per name while the service's search is not yet learned). */
  min: number;
  max: number;
  /** Distinct searches: normalized names (the county is checked on the answers, so one search serves every county). */
  distinct: number;
  /** Of those, answered from the cache (0 credits). */
  cached: number;
  /** Inputs with a problem (0 credits). */
  invalid: number;
}

export interface MatchRunOptions {
  signal?: CancelSignal;
  /** The run's budget in credits: never exceeded; the names past it are not_searched, stoppedBy "budget". */
  maxCredits?: number;
  /** Ask again even what the cache holds fresh. */
  refresh?: boolean;
  onProgress?: (done: number, total: number) => void;
  /**
   * Answer from the cache only (a cell's value preview, firma refresh's write pass after its fetch):
   * a search not cached is not_searched, stoppedBy "plan"; no guard, nothing sent.
   */
  cacheOnly?: boolean;
}

/** outcomes[i] answers inputs[i]. */
export interface MatchReport {
  outcomes: MatchOutcome[];
  /** The credits the run counts as spent (its budget's): the calls answered, and those that may have reached the service. */
  credits: number;
  /**
   * Of those, the calls without an answer saying what happened (a broken connection, a timeout, a 5xx):
   * the service may not have charged them (Budget.uncertain).
   */
  uncertain: number;
}
