/**
 * A name's confidence from the companies a search listed (pure; rules of the contract):
 *  - sure: the list is complete (every page read) and exactly one company in it has the same
 *    comparison form (normalize.ts) — struck-off namesakes count — and, when a county was given, the
 *    service says it is in that county;
 *    Where the search may have missed a namesake spelled with other diacritics (a service that does not
 *    fold them, CandidateList.spellings), that one company is likely;
 *  - likely: no such company, and exactly one whose words hold all the name's words (or the reverse),
 *    with no county against it;
 *  - ambiguous: several fit, or the list was not read to its end (the search cap);
 *  - not_found: none fits.
 * A wrong "sure" is the one outcome that must not happen: every doubt lowers the confidence.
 */
import { countyCodeOf } from "./counties";
import { nameWordsOf, normalizeName } from "./normalize";
import type { MatchCandidate, MatchOutcome } from "./types";

/** What the user asked for, read (parseName, parseCounty). */
export interface Wanted {
  name: string;
  alternatives?: readonly string[];
  /** County code, when the row gives one. */
  county?: string;
}

/** The companies a search listed: complete when every page was read. */
export interface CandidateList {
  items: readonly MatchCandidate[];
  complete: boolean;
  /**
   * False when the search may have missed a namesake spelled with other diacritics: a service known
   * not to fold them, asked without the name's written form and its folded one both. Then one
   * namesake found is likely, never sure. @default true
   */
  spellings?: boolean;
}

/** Candidates shown at most per outcome. */
export const SHOWN_CANDIDATES = 20;

export function classify(wanted: Wanted, list: CandidateList): MatchOutcome {
  const forms = new Set([wanted.name, ...(wanted.alternatives ?? [])]);
  const items = distinctByCui(list.items);
  // "yes" the service places it in the county, "no" elsewhere, "unknown" it did not say.
  const inCounty = (c: MatchCandidate): "yes" | "no" | "unknown" => {
    if (wanted.county === undefined) return "yes";
    const code = countyCodeOf(c.judet);
    return code === undefined ? "unknown" : code === wanted.county ? "yes" : "no";
  };
  const same = items.filter((c) => forms.has(normalizeName(c.denumire)));
  if (!list.complete) {
    const shown = same.filter((c) => inCounty(c) !== "no");
    return { confidence: "ambiguous", candidates: shown.slice(0, SHOWN_CANDIDATES).map(copy), incomplete: true };
  }
  const here = same.filter((c) => inCounty(c) === "yes");
  const unsure = same.filter((c) => inCounty(c) === "unknown");
  if (here.length === 1 && unsure.length === 0) {
    const c = here[0];
    if (list.spellings === false) return likely(c);
    return { confidence: "sure", cui: c.cui, officialName: c.denumire, candidates: [copy(c)] };
  }
  if (here.length + unsure.length > 1) return ambiguous([...here, ...unsure]);
  if (unsure.length === 1) return likely(unsure[0]);
  // No namesake in the county asked for: one elsewhere is reported, never chosen.
  const elsewhere = same.filter((c) => inCounty(c) === "no");
  const words = nameWordsOf(wanted.name);
  const fits = items.filter((c) => !same.includes(c) && inCounty(c) !== "no" && wordsFit(words, nameWordsOf(normalizeName(c.denumire))));
  if (fits.length === 1 && elsewhere.length === 0) return likely(fits[0]);
  if (fits.length > 0) return ambiguous([...fits, ...elsewhere]);
  return { confidence: "not_found", candidates: elsewhere.slice(0, SHOWN_CANDIDATES).map(copy) };
}

/** One set of words holds every word of the other (neither empty). */
function wordsFit(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const pool = new Set(large);
  return small.every((w) => pool.has(w));
}

function likely(c: MatchCandidate): MatchOutcome {
  return { confidence: "likely", cui: c.cui, officialName: c.denumire, candidates: [copy(c)] };
}

function ambiguous(cs: readonly MatchCandidate[]): MatchOutcome {
  return { confidence: "ambiguous", candidates: cs.slice(0, SHOWN_CANDIDATES).map(copy) };
}

/** The same company listed twice (a page boundary that moved) counts once. */
function distinctByCui(items: readonly MatchCandidate[]): MatchCandidate[] {
  const seen = new Set<number>();
  return items.filter((c) => !seen.has(c.cui) && seen.add(c.cui));
}

function copy(c: MatchCandidate): MatchCandidate {
  const out: MatchCandidate = { cui: c.cui, denumire: c.denumire };
  if (c.judet != null) out.judet = c.judet;
  if (c.localitate != null) out.localitate = c.localitate;
  if (c.stare != null) out.stare = c.stare;
  return out;
}
