/**
 * The engine's name matcher as the pane uses it: the types of the contract the engine implements
 * (src/engine/match: FirmaEngine.match and matchEstimate). Until the engine carries them, the flow
 * finds the two methods at run time and says the matcher is missing when they are not there.
 */
import type { CancelSignal } from "../../api/types";

export type Confidence = "sure" | "likely" | "ambiguous" | "not_found" | "not_searched";
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
  cui?: number;
  officialName?: string;
  candidates: MatchCandidate[];
  problem?: { kind: InputProblem; detail?: string };
  stoppedBy?: MatchStop;
}
export interface MatchEstimate {
  min: number;
  max: number;
  distinct: number;
  cached: number;
  invalid: number;
}
export interface MatchRunOptions {
  signal?: CancelSignal;
  maxCredits?: number;
  refresh?: boolean;
  onProgress?: (done: number, total: number) => void;
}
export interface MatchReport {
  outcomes: MatchOutcome[];
  credits: number;
}

/** The two methods the flow calls. */
export interface MatchEngine {
  matchEstimate(inputs: readonly NameInput[]): MatchEstimate;
  match(inputs: readonly NameInput[], options?: MatchRunOptions): Promise<MatchReport>;
}
