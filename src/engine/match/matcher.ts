/**
 * Matching a list of names: rows read for free (queries.ts), one search per distinct name through the
 * engine's list cache and call gate (a cached search costs 0; the budget, the credit guard, "credits
 * spent" and the breaker apply as to any list), in rounds — first every name's first query form, then
 * the second form only where the first found no namesake and the service is not known to fold
 * diacritics (learned from the first round's answers, once per service address) — then each row's
 * confidence (classify.ts). A name a stop came before is not_searched with that stop, never not_found.
 */
import type { CancelSignal } from "../../api/types";
import type { Capabilities } from "../capabilities";
import type { Budget } from "../credits/gate";
import { kindOf } from "../failures";
import { classify, type CandidateList } from "./classify";
import { normalizeName } from "./normalize";
import {
  estimateRows,
  groupRows,
  otherForm,
  queryForms,
  readRow,
  showsFolding,
  MATCH_LIMIT,
  type ReadRow,
  type SearchGroup,
} from "./queries";
import type { MatchCandidate, MatchOutcome, MatchReport, MatchRunOptions, MatchStop, NameInput } from "./types";

/** What matching needs of the engine. */
export interface MatchContext {
  /** A search by name, as FIRMA.CAUTA's lists are fetched (lists.ts), MATCH_LIMIT companies at most. */
  search(q: string, signal?: CancelSignal, cacheOnly?: boolean): Promise<MatchCandidate[]>;
  /** The fresh cached answer to a query form (the estimate), or undefined. */
  fresh(q: string): MatchCandidate[] | undefined;
  /** Counts a cached answer as stale (a refresh asks again). */
  markStale(q: string): void;
  caps(): Capabilities;
  openBudget(limit: number): Budget;
  /** The credit guard: null when it lets `max` credits through, else the error it holds them with. */
  guard(max: () => number, cells: number): unknown;
}

/** Searches in flight at once (the call gate has its own limit too). */
const PARALLEL = 6;
/** Failures of the service in a row after which the run stops (each attempt may cost a credit). */
const SERVICE_FAILURES = 3;

type Answer = { items: MatchCandidate[]; complete: boolean } | { error: unknown };

export function matchEstimate(ctx: MatchContext, inputs: readonly NameInput[], refresh = false) {
  return estimateRows(inputs.map(readRow), ctx.caps().searchFolds, refresh ? null : cacheView(ctx));
}

export async function runMatch(ctx: MatchContext, inputs: readonly NameInput[], options: MatchRunOptions = {}): Promise<MatchReport> {
  const rows = inputs.map(readRow);
  const outcomes: MatchOutcome[] = rows.map((r) =>
    "problem" in r ? { confidence: "not_searched", candidates: [], problem: r.problem } : { confidence: "not_searched", candidates: [] },
  );
  const groups = groupRows(rows);
  const total = inputs.length;
  let done = rows.length - groups.reduce((n, g) => n + g.rows.length, 0);
  const progress = (g: SearchGroup) => {
    done += g.rows.length;
    options.onProgress?.(done, total);
  };
  if (groups.length === 0) return { outcomes, credits: 0, uncertain: 0 };
  const stopAll = (gs: SearchGroup[], error: unknown) => gs.forEach((g) => settleStopped(g, error));
  const settleStopped = (g: SearchGroup, error: unknown) => {
    for (const i of g.rows) outcomes[i] = { confidence: "not_searched", candidates: [], stoppedBy: stopOf(error), cause: error };
    progress(g);
  };
  if (options.maxCredits === undefined && !options.cacheOnly) {
    const held = ctx.guard(() => estimateRows(rows, ctx.caps().searchFolds, options.refresh ? null : cacheView(ctx)).max, groups.length);
    if (held) {
      stopAll(groups, held);
      return { outcomes, credits: 0, uncertain: 0 };
    }
  }
  if (options.refresh) for (const g of groups) for (const q of queryForms(g.query, undefined)) ctx.markStale(q);
  const budget = ctx.openBudget(options.maxCredits ?? Number.MAX_SAFE_INTEGER);
  try {
    const run = new Searches(ctx, options.signal, !!options.cacheOnly);
    const caps = ctx.caps();
    // Round 1: every name's first form.
    // A form answered before and still fresh is asked first, so learning that the service folds (which
    // drops the written form) does not pay again for what the cache holds (0 credits through the list cache).
    const firstForm = (g: SearchGroup) => {
      const forms = queryForms(g.query, caps.searchFolds);
      return (options.refresh ? undefined : queryForms(g.query, undefined).find((q) => ctx.fresh(q))) ?? forms[0];
    };
    const asked = groups.map(firstForm);
    const first = await run.all(asked);
    const indexOf = new Map(groups.map((g, k) => [g, k]));
    const askedOf = new Map(groups.map((g, k) => [g, asked[k]]));
    groups.forEach((g, k) => {
      const a = first[k];
      if ("items" in a && caps.searchFolds === undefined && showsFolding(queryForms(g.query, undefined)[0], a.items))
        caps.searchFolds = true;
    });
    // Round 2: the second form, where the first found no namesake in a complete list; on a service known
    // not to fold diacritics, always (a namesake spelled without them is found only by the folded form).
    const needSecond = groups.filter((g, k) => {
      const a = first[k];
      const exact = caps.searchFolds === false;
      const other = otherForm(queryForms(g.query, caps.searchFolds), asked[k], caps.searchFolds);
      return "items" in a && a.complete && other !== undefined && (exact || !hasNamesake(g, rows, a.items));
    });
    const second = await run.all(
      needSecond.map((g) => otherForm(queryForms(g.query, caps.searchFolds), askedOf.get(g)!, caps.searchFolds)!),
    );
    const secondOf = new Map(needSecond.map((g, k) => [g, second[k]]));
    // What the second forms showed: a namesake the folded form found that the complete first answer
    // lacked means the service does not fold (learned before any row is classified).
    for (const [g, b] of secondOf) {
      const a = first[indexOf.get(g)!];
      if (!("items" in a) || !("items" in b)) continue;
      const seen = new Set(a.items.map((c) => c.cui));
      if (
        hasNamesake(
          g,
          rows,
          b.items.filter((c) => !seen.has(c.cui)),
        )
      )
        caps.searchFolds = false;
    }
    groups.forEach((g, k) => {
      const a = first[k];
      const b = secondOf.get(g);
      if ("error" in a) return settleStopped(g, a.error);
      if (b && "error" in b) return settleStopped(g, b.error);
      let list: CandidateList = a;
      if (b) {
        const seen = new Set(a.items.map((c) => c.cui));
        list = { items: [...a.items, ...b.items.filter((c) => !seen.has(c.cui))], complete: a.complete && b.complete };
      }
      // On a service that does not fold diacritics, a name searched in one spelling only (typed without
      // diacritics, or its second form not asked) may have a namesake the search could not show: never sure.
      if (caps.searchFolds === false && !b) list = { ...list, spellings: false };
      for (const i of g.rows) outcomes[i] = classify((rows[i] as Extract<ReadRow, { wanted: unknown }>).wanted, list);
      progress(g);
    });
  } finally {
    budget.close();
  }
  return { outcomes, credits: budget.spent, uncertain: budget.uncertain };
}

/** Whether one of the companies has the group's name (or a form one of its rows may mean). */
function hasNamesake(g: SearchGroup, rows: readonly ReadRow[], items: readonly MatchCandidate[]): boolean {
  const forms = new Set<string>([g.name]);
  for (const i of g.rows) for (const a of (rows[i] as Extract<ReadRow, { wanted: unknown }>).wanted.alternatives ?? []) forms.add(a);
  return items.some((c) => forms.has(normalizeName(c.denumire)));
}

function cacheView(ctx: MatchContext) {
  return {
    fresh: (q: string) => ctx.fresh(q),
    settles: (g: SearchGroup, items: readonly MatchCandidate[]) => items.some((c) => normalizeName(c.denumire) === g.name),
  };
}

/** A run's searches: a few at a time; after a stop, or the service failing again and again, no new one is sent. */
class Searches {
  private stopped: unknown = undefined;
  private serviceFailures = 0;

  constructor(
    private readonly ctx: MatchContext,
    private readonly signal: CancelSignal | undefined,
    private readonly cacheOnly: boolean,
  ) {}

  async all(queries: readonly string[]): Promise<Answer[]> {
    const out: Answer[] = new Array(queries.length);
    let next = 0;
    const worker = async () => {
      while (next < queries.length) {
        const k = next++;
        out[k] = await this.one(queries[k]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queries.length) }, worker));
    return out;
  }

  private async one(q: string): Promise<Answer> {
    if (this.stopped !== undefined) return { error: this.stopped };
    try {
      const items = await this.ctx.search(q, this.signal, this.cacheOnly);
      this.serviceFailures = 0;
      return { items, complete: items.length < MATCH_LIMIT };
    } catch (e) {
      // Not cached (cache-only reads): this name only; the service failing: the run after a few.
      const stop = stopOf(e);
      if (stop === "plan") return { error: e };
      if (stop !== "service" || ++this.serviceFailures >= SERVICE_FAILURES) this.stopped ??= e;
      return { error: e };
    }
  }
}

/** The stop an error means for the names not searched. */
export function stopOf(e: unknown): MatchStop {
  switch (kindOf(e)) {
    case "budget_reached":
      return "budget";
    case "guard_held":
      return "guard";
    case "credits_exhausted":
      return "quota";
    case "missing_key":
    case "invalid_key":
      return "key";
    case "aborted":
      return "aborted";
    case "not_cached": // a refresh's plan did not fetch it (the CLI writes its cells from the cache)
      return "plan";
    default:
      return "service";
  }
}
