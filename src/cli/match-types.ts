/**
 * The engine's name matching as `firma match` uses it (src/engine/match): its types, and the part of
 * the engine a run needs, so that a test can hand the command a stand-in.
 */
import type { FirmaEngine } from "../engine/engine";

export type {
  Confidence,
  InputProblem,
  MatchCandidate,
  MatchEstimate,
  MatchOutcome,
  MatchReport,
  MatchRunOptions,
  MatchStop,
  NameInput,
} from "../engine/engine";

/** What a match run asks of the engine. */
export type MatchEngine = Pick<FirmaEngine, "ready" | "persist" | "match" | "matchEstimate">;
