/**
 * What cells ask of the engine as data (the pane's and the CLI's view of a workbook), and what a
 * set of them needs: the answers the cache cannot give, what fetching them would cost at most, and
 * how old the answers behind them are.
 */
import { parseCui } from "../../api/cui";
import { FINANCIAL_FIELDS, type FinancialField, type ProfileField } from "../../api/types";
import type { PersistentCache } from "../cache/cache";
import type { Capabilities } from "../capabilities";
import { addFinancialWant, addProfileWant, emptyWants, upperBoundCalls, type WantSet } from "../plan/estimate";
import { financialKey, profileKey } from "../keys";
import { listKey, type ListSpec } from "./lists";
import type { Rec } from "./wants";
import { yearsDown, type YearPolicy } from "../years";

export type CellRequest =
  | { kind: "profile"; cui: unknown; field: ProfileField }
  | { kind: "financial"; cui: unknown; year: unknown; field: FinancialField }
  | { kind: "history"; cui: unknown; from: unknown; to: unknown; field: FinancialField }
  | { kind: "list"; calls: number; list?: ListSpec };

export interface Estimate {
  cells: number;
  invalid: number;
  cached: number;
  distinctCuis: number;
  /** At most this many calls (an upper bound: the dearer case where the service's behaviour is unknown). */
  calls: number;
  credits: number;
  /**
   * The credits if the service answers every field its batches are asked for: the low end of the
   * range shown while its behaviour is unknown (= credits when exact).
   */
  ifAnswered: number;
  /** True when the service's behaviour is known for every call counted: the figure is then exact. */
  exact: boolean;
}

export interface Needs {
  /** The answers to fetch, with the fields wanted of each. */
  set: WantSet;
  cuis: Set<number>;
  invalid: number;
  cached: number;
  /** Calls the list requests not cached need. */
  listCalls: number;
}

export interface RequestContext {
  cache: PersistentCache;
  years: YearPolicy;
}

/** The answers `requests` need that the cache cannot give (all of them with `refresh`). */
export function needsOf(requests: readonly CellRequest[], ctx: RequestContext, refresh = false): Needs {
  const { cache, years } = ctx;
  const set: WantSet = emptyWants();
  const cuis = new Set<number>();
  let invalid = 0;
  let cached = 0;
  let listCalls = 0;
  const lists = new Set<string>();
  const fresh = (key: string, field: string) => {
    if (refresh) return false;
    const h = cache.peek<Rec | null>(key);
    return !!h && h.fresh && (h.value === null || h.value[field] !== undefined);
  };
  const wantFinancial = (cui: number, year: number, field: string) => {
    if (fresh(financialKey(cui, year), field)) return true;
    addFinancialWant(set, cui, year, [field]);
    return false;
  };
  for (const r of requests) {
    if (r.kind === "list") {
      // The same list twice is fetched once; a cached list costs nothing.
      const key = r.list ? listKey(r.list) : null;
      if (key !== null && (lists.has(key) || (!refresh && cache.peek(key)?.fresh))) {
        cached++;
        continue;
      }
      if (key !== null) lists.add(key);
      listCalls += r.calls;
      continue;
    }
    const p = parseCui(r.cui);
    if (!p.ok) {
      invalid++;
      continue;
    }
    try {
      if (r.kind === "profile") {
        if (fresh(profileKey(p.cui), r.field)) cached++;
        else addProfileWant(set, p.cui, [r.field]);
      } else if (r.kind === "financial") {
        if (wantFinancial(p.cui, years.year(r.year), r.field)) cached++;
      } else {
        const [from, to] = years.range(r.from, r.to);
        const all = yearsDown(from, to).map((y) => wantFinancial(p.cui, y, r.field));
        if (all.every(Boolean)) cached++;
      }
    } catch {
      invalid++;
      continue;
    }
    cuis.add(p.cui);
  }
  return { set, cuis, invalid, cached, listCalls };
}

/** What fetching `requests` would cost now, at most; exact when no behaviour still unknown could change the count. */
export function estimateOf(requests: readonly CellRequest[], needs: Needs, caps: Capabilities): Estimate {
  const calls = upperBoundCalls(needs.set, caps) + needs.listCalls;
  const hopeful: Capabilities = {
    include: caps.include ?? true,
    batchFinancialFields: caps.batchFinancialFields ?? [...FINANCIAL_FIELDS],
    rangeFull: caps.rangeFull ?? true,
  };
  const ifAnswered = Math.min(calls, upperBoundCalls(needs.set, hopeful) + needs.listCalls);
  return {
    cells: requests.length,
    invalid: needs.invalid,
    cached: needs.cached,
    distinctCuis: needs.cuis.size,
    calls,
    credits: calls,
    ifAnswered,
    exact: calls === ifAnswered,
  };
}

export interface Freshness {
  oldest: number | null;
  newest: number | null;
  cached: number;
  missing: number;
}

/**
 * How old the answers behind these cells are: the oldest and newest fetch times (ms since the
 * epoch) of those cached, and how many are not cached at all. The pane shows it.
 */
export function freshnessOf(requests: readonly CellRequest[], ctx: RequestContext): Freshness {
  const { cache, years } = ctx;
  let oldest: number | null = null;
  let newest: number | null = null;
  let cached = 0;
  let missing = 0;
  const seen = new Set<string>();
  const look = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const t = cache.fetchedAt(key);
    if (t === undefined) return void missing++;
    cached++;
    oldest = oldest === null ? t : Math.min(oldest, t);
    newest = newest === null ? t : Math.max(newest, t);
  };
  for (const r of requests) {
    if (r.kind === "list") {
      if (r.list) look(listKey(r.list));
      continue;
    }
    const p = parseCui(r.cui);
    if (!p.ok) continue;
    try {
      if (r.kind === "profile") look(profileKey(p.cui));
      else if (r.kind === "financial") look(financialKey(p.cui, years.year(r.year)));
      else for (const y of yearsDown(...years.range(r.from, r.to))) look(financialKey(p.cui, y));
    } catch {
      /* an invalid year: nothing behind it */
    }
  }
  return { oldest, newest, cached, missing };
}
