/**
 * From a row to what is searched, for free: bad input caught (an empty cell, a number, a one-letter
 * name, a legal form alone, a county FIRMA does not know), rows grouped by their comparison form (one
 * search however many ways a name is written), and each group's query forms.
 *
 * The service's search semantics are not documented (docs/spec-open-points.md, O30): words or
 * substrings, diacritics folded or not. So a query is the name as the user wrote it, upper case, from
 * the first word to the last — a plain substring of the official name when the user wrote it as the
 * registry does — and a second form without diacritics for a service that does not fold them. Whether
 * the service folds is learned once per service address (capabilities.ts `searchFolds`): an answer
 * holding a name that matches the query only once folded shows that it folds (one form is enough from
 * then on); a company found by the folded form that the complete answer to the other form lacked shows
 * that it does not (both forms stay needed where the first finds no namesake).
 */
import { parseCounty } from "./counties";
import { foldText, parseName, upperRo } from "./normalize";
import type { Wanted } from "./classify";
import type { InputProblem, MatchCandidate, MatchEstimate, NameInput } from "./types";

/** A search's page size and the most FIRMA reads for one name: one page (one credit at a page of 100). */
export const MATCH_LIMIT = 100;

/** A row read: what it asks for, or the problem that costs nothing. */
export type ReadRow = { problem: { kind: InputProblem; detail?: string } } | { wanted: Wanted; query: string };

export function readRow(input: NameInput): ReadRow {
  const v = input.name;
  if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) return { problem: { kind: "empty" } };
  if (typeof v !== "string" || /^\s*(?:RO)?[\d\s.,]+$/i.test(v)) return { problem: { kind: "not_text", detail: String(v) } };
  const parsed = parseName(v);
  if (!parsed) {
    const kind = /[\p{L}\p{N}]/u.test(v) ? "only_legal_form" : "too_short";
    return { problem: { kind, detail: v.trim() } };
  }
  if (parsed.name.replace(/ /g, "").length < 2) return { problem: { kind: "too_short", detail: v.trim() } };
  let county = parseCounty(input.county);
  if (county === null) return { problem: { kind: "unknown_county", detail: String(input.county).trim() } };
  // "SC Dedeman SRL Bacău": the words after the legal form name the county, when they are one.
  if (county === undefined && parsed.tail !== "") county = parseCounty(parsed.tail) ?? undefined;
  const wanted: Wanted = { name: parsed.name, alternatives: parsed.alternatives, county: county?.code };
  return { wanted, query: parsed.query };
}

/** Rows with the same comparison form share one search: the query with diacritics, if one row has them. */
export interface SearchGroup {
  name: string;
  query: string;
  rows: number[];
}

export function groupRows(rows: readonly ReadRow[]): SearchGroup[] {
  const groups = new Map<string, SearchGroup>();
  rows.forEach((r, i) => {
    if ("problem" in r) return;
    const g = groups.get(r.wanted.name);
    if (!g) groups.set(r.wanted.name, { name: r.wanted.name, query: r.query, rows: [i] });
    else {
      g.rows.push(i);
      if (foldText(g.query) === g.query && foldText(r.query) !== r.query) g.query = r.query;
    }
  });
  return [...groups.values()];
}

/**
 * The query forms of a group, in order: as written (with its diacritics), then folded when that
 * differs and the service is not known to fold; only the folded form for a service that folds.
 */
export function queryForms(query: string, folds: boolean | undefined): string[] {
  const folded = foldText(query);
  if (folds === true || folded === query) return [folded];
  return [query, folded];
}

/** The search params of a query form, as the list cache keys them (the same keys as FIRMA.CAUTA's). */
export const searchParams = (q: string) => ({ q, judet: undefined, caen: undefined, stare: undefined });

/** A query form's search as a list request (the pane's estimate, a refresh's prefetch). */
export const matchSearchSpec = (q: string) => ({ fn: "search" as const, params: searchParams(q), limit: MATCH_LIMIT });

/** The form of `forms` a run sends after `asked`, if any. */
export function otherForm(forms: readonly string[], asked: string): string | undefined {
  return forms.find((q) => q !== asked);
}

/** Whether an answer shows that the service folds diacritics: a name it gave matches a query word only folded. */
export function showsFolding(query: string, items: readonly MatchCandidate[]): boolean {
  const words = upperRo(query).match(/[\p{L}\p{N}]+/gu) ?? [];
  return items.some((c) => {
    const exact = upperRo(c.denumire);
    const folded = foldText(c.denumire);
    return words.some((w) => !exact.includes(w) && folded.includes(foldText(w)));
  });
}

/** What a search's answer is, seen from the cache: fresh or not, and then whether it settles the name. */
export interface CacheView {
  /** The fresh answer to a query form, or undefined. */
  fresh(q: string): MatchCandidate[] | undefined;
  /** Whether the answer names the group's company (a namesake): then the second form is not needed. */
  settles(group: SearchGroup, items: readonly MatchCandidate[]): boolean;
}

/** The credits matching these rows would cost: one search per group and form not cached; the second form's at most. */
export function estimateRows(rows: readonly ReadRow[], folds: boolean | undefined, cache: CacheView | null): MatchEstimate {
  const groups = groupRows(rows);
  let [min, max, cached] = [0, 0, 0];
  for (const g of groups) {
    const forms = queryForms(g.query, folds); // what the run may send
    // Any form still fresh answers first (matcher.ts), whatever was learned since.
    const asked = queryForms(g.query, undefined).find((q) => cache?.fresh(q) !== undefined);
    const hit = asked === undefined ? undefined : cache?.fresh(asked);
    if (hit) cached++;
    else {
      min++;
      max++;
    }
    // The other form: always on a service known not to fold (matcher.ts), else where the first found no namesake.
    const other = otherForm(forms, asked ?? forms[0]);
    if (other !== undefined && !(folds !== false && hit && cache?.settles(g, hit)) && !cache?.fresh(other)) max++;
  }
  const invalid = rows.filter((r) => "problem" in r).length;
  return { min, max, distinct: groups.length, cached, invalid };
}

/**
 * The searches matching these rows may send, as list requests (the pane's estimate, firma refresh's
 * fetch): each distinct name's query forms, the folded one included where it differs (an upper bound
 * while the service's folding is not known to the caller).
 */
export function matchSearches(inputs: readonly NameInput[]) {
  return groupRows(inputs.map(readRow)).flatMap((g) => queryForms(g.query, undefined).map(matchSearchSpec));
}
