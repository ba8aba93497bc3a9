/**
 * Name matching is loaded when first needed, not with the add-in's startup scripts (bench/run.ts
 * keeps those under a budget): match(), the first FIRMA.CUI cell or an estimate load it; in Node (the
 * CLI, the server) the engine loads it with its cache (ready()). Until it is loaded, an estimate is a
 * coarse upper bound: two searches per distinct text.
 */
import type { CellRequest } from "../cells/requests";
import type { MatchEstimate, NameInput } from "./types";

export type MatchModule = typeof import("./module");

let loaded: MatchModule | null = null;
let loading: Promise<MatchModule> | null = null;

export function loadMatching(): Promise<MatchModule> {
  return (loading ??= import(/* webpackChunkName: "match" */ "./module").then((m) => (loaded = m)));
}

/** The module when loaded; else null, and it starts loading. */
export function matching(): MatchModule | null {
  if (!loaded) loadMatching().catch(() => (loading = null));
  return loaded;
}

/** The estimate before the module is loaded: two searches per distinct non-blank text, nothing known cached. */
export function coarseEstimate(inputs: readonly NameInput[]): MatchEstimate {
  const texts = new Set<string>();
  let invalid = 0;
  for (const r of inputs) {
    if (typeof r.name === "string" && r.name.trim() !== "") texts.add(r.name.trim().toUpperCase());
    else invalid++;
  }
  return { min: 0, max: 2 * texts.size, distinct: texts.size, cached: 0, invalid };
}

/** FIRMA.CUI's searches as list requests (the estimate, a refresh's fetch): exact once the module is loaded. */
export function matchRequests(inputs: readonly NameInput[]): CellRequest[] {
  const m = matching();
  if (m) return m.matchSearches(inputs).map((list) => ({ kind: "list", calls: 1, list }));
  return Array.from({ length: coarseEstimate(inputs).distinct }, () => ({ kind: "list", calls: 2 }));
}
