/**
 * The plan of a set of wants: the calls that answer them (planner.ts's batches), and what they cost
 * at most. A flush is planned here once (flush.ts): the credit guard counts this plan's calls and the
 * dispatcher sends its batches as they are; what an answer shows updates it here, each in one place:
 * the identification probe's outcome (afterIdentificationProbe), a refused financial history
 * (afterHistoryRefusal). The estimates (pane, CLI --dry-run) count the same plan.
 *
 * The count is an upper bound (`spent ≤ estimate`, on first contact with any service): where the
 * service's behaviour is not known yet (capabilities.ts), every possible behaviour is costed and the
 * dearest one counts, with the probe the dispatcher makes to find out. Once it is known the count is exact.
 */
import { FINANCIAL_FIELDS, type FinancialField } from "../../api/types";
import type { Capabilities } from "../capabilities";
import {
  identificationCallCount,
  planFinancialBatches,
  planIdentification,
  type FinancialBatchCall,
  type IdentificationCall,
  yearsOf as yearsOfCall,
} from "./planner";

/** What batch items carry for certain (the documentation's fields). */
export const BASIC_PROFILE: ReadonlySet<string> = new Set(["denumire", "stare"]);
export const DOCUMENTED_BATCH_FINANCIAL: readonly FinancialField[] = ["cifra_afaceri", "profit_net"];

export interface WantSet {
  /** CUI → profile fields wanted. */
  profile: Map<number, Set<string>>;
  /** CUI → year → financial fields wanted. */
  financial: Map<number, Map<number, Set<string>>>;
}

export function emptyWants(): WantSet {
  return { profile: new Map(), financial: new Map() };
}

export function addProfileWant(w: WantSet, cui: number, fields: Iterable<string>): void {
  const s = w.profile.get(cui) ?? w.profile.set(cui, new Set()).get(cui)!;
  for (const f of fields) s.add(f);
}

export function addFinancialWant(w: WantSet, cui: number, year: number, fields: Iterable<string>): void {
  const years = w.financial.get(cui) ?? w.financial.set(cui, new Map()).get(cui)!;
  const s = years.get(year) ?? years.set(year, new Set()).get(year)!;
  for (const f of fields) s.add(f);
}

/** A want as the plan sees it: a queued want (wants.ts), or one entry of a WantSet. */
export interface PlannedWant {
  kind: "profile" | "financial";
  cui: number;
  /** The financial year (0 for a profile). */
  year: number;
  fields: Iterable<string>;
}

/** The wants of a WantSet, profiles first, in the order they were added. */
export function* wantsOf(set: WantSet): Generator<PlannedWant> {
  for (const [cui, fields] of set.profile) yield { kind: "profile", cui, year: 0, fields };
  for (const [cui, years] of set.financial) for (const [year, fields] of years) yield { kind: "financial", cui, year, fields };
}

/** The calls that answer a set of wants (dispatch.ts sends them), and how many calls that is at most. */
export interface WantsPlan {
  /** At most this many calls. */
  calls: number;
  /**
   * The identification calls, in order. Where it is not known whether batches honour `include` (O10),
   * planned as if they do: the first batch is then the probe, and afterIdentificationProbe plans the rest.
   */
  identification: IdentificationCall[];
  /** The batch financial calls; where it is not known which fields batch items carry (O17), every want is batched. */
  financialBatches: FinancialBatchCall[];
}

/** Whether a profile want asks for a field beyond the basic ones every batch item carries. */
export function needsExtra(fields: Iterable<string>): boolean {
  if (Array.isArray(fields)) {
    // a queued want's fields (an array): no iterator per want (this runs for every want of every flush)
    for (let i = 0; i < fields.length; i++) if (!BASIC_PROFILE.has(fields[i] as string)) return true;
    return false;
  }
  for (const f of fields) if (!BASIC_PROFILE.has(f)) return true;
  return false;
}

/** Whether any of `fields` is in `list` (and, with `outside`, whether any is not). */
function anyIn(fields: Iterable<string>, list: readonly string[], outside = false): boolean {
  for (const f of fields) if (list.includes(f) !== outside) return true;
  return false;
}

/** The single-company financial calls: `n` years of a CUI cost one range call where range entries carry every field. */
function directCalls(direct: ReadonlyMap<number, number>, rangeFull: boolean | undefined): number {
  let calls = 0;
  let multi = false;
  for (const n of direct.values()) {
    if (n > 1) multi = true;
    calls += n > 1 && rangeFull === true ? 1 : n;
  }
  // Not known whether range entries carry every field: one company's range is tried first (the probe).
  if (rangeFull === undefined && multi) calls += 1;
  return calls;
}

const count = (m: Map<number, number>, cui: number) => m.set(cui, (m.get(cui) ?? 0) + 1);

/**
 * The plan of `wants` against a service with `caps`: each batch planned once, the bound counted
 * from it (the other possible behaviours are counted, not planned).
 */
export function planWants(wants: Iterable<PlannedWant>, caps: Capabilities): WantsPlan {
  const basic: number[] = [];
  const extra: number[] = [];
  const need = new Map<number, Set<number>>();
  // Per CUI, the years whose fields batch items lack: under the known batch fields, else under each
  // of the two possible ones (every field, or only the documented ones).
  const known = caps.batchFinancialFields;
  const direct = new Map<number, number>();
  const directIfDocumented = new Map<number, number>();
  for (const w of wants) {
    if (w.kind === "profile") {
      (needsExtra(w.fields) ? extra : basic).push(w.cui);
      continue;
    }
    // Unknown batch fields: every want is batched first, and what the items lack is asked after.
    if (known === undefined || anyIn(w.fields, known)) (need.get(w.cui) ?? need.set(w.cui, new Set()).get(w.cui)!).add(w.year);
    if (anyIn(w.fields, known ?? FINANCIAL_FIELDS, true)) count(direct, w.cui);
    if (known === undefined && anyIn(w.fields, DOCUMENTED_BATCH_FINANCIAL, true)) count(directIfDocumented, w.cui);
  }
  const plan: WantsPlan = { calls: 0, identification: [], financialBatches: [] };
  if (basic.length + extra.length > 0) {
    plan.identification = planIdentification(basic, extra, caps.include);
    const honoured = plan.identification.length;
    if (caps.include !== undefined) plan.calls += honoured;
    else {
      // Unknown: batches ask for every field; if they come back without them, the first batch was the
      // probe and the companies that need more are asked one by one.
      const ignored = identificationCallCount(basic.length, extra.length, false);
      plan.calls += ignored > honoured ? Math.max(honoured, 1 + ignored) : honoured;
    }
  }
  if (need.size + direct.size > 0) {
    plan.financialBatches = planFinancialBatches(need);
    const single = directCalls(direct, caps.rangeFull);
    plan.calls +=
      plan.financialBatches.length + (known === undefined ? Math.max(single, directCalls(directIfDocumented, caps.rangeFull)) : single);
  }
  return plan;
}

/** The upper bound of the calls the dispatcher makes for `wants` against a service with `caps`. */
export function upperBoundCalls(wants: WantSet, caps: Capabilities): number {
  return planWants(wantsOf(wants), caps).calls;
}

/**
 * The identification probe's outcome in the plan, the one place it is applied: the calls still to
 * send for `open` (the wants the probe's batch left open), planned under what it showed (caps.include).
 */
export function afterIdentificationProbe(plan: WantsPlan, open: Iterable<PlannedWant>, caps: Capabilities): IdentificationCall[] {
  const basic: number[] = [];
  const extra: number[] = [];
  for (const w of open) (needsExtra(w.fields) ? extra : basic).push(w.cui);
  return (plan.identification = planIdentification(basic, extra, caps.include));
}

/**
 * A batch financial call refused for the plan's history (O15), in the plan, the one place it is
 * applied: the refusal told the plan (X-Plan, O23) and cost nothing. Years older than `oldest` (the
 * plan's oldest year, null while unknown) are refused locally; the rest are planned again, or year by
 * year while the plan is still unknown, so that only the refused years fail.
 */
export function afterHistoryRefusal<W extends { cui: number; year: number }>(
  call: FinancialBatchCall,
  wants: readonly W[],
  oldest: number | null,
): { outside: W[]; calls: FinancialBatchCall[] } {
  if (oldest === null) return { outside: [], calls: yearsOfCall(call.years).map((year) => ({ cuis: call.cuis, years: { year } })) };
  const outside: W[] = [];
  const again = new Map<number, Set<number>>();
  for (const w of wants) {
    if (w.year < oldest) outside.push(w);
    else (again.get(w.cui) ?? again.set(w.cui, new Set()).get(w.cui)!).add(w.year);
  }
  return { outside, calls: planFinancialBatches(again) };
}
