/**
 * What a set of wants costs, as an upper bound (`spent ≤ estimate`, on first contact with any
 * service). The cost follows dispatch.ts call for call; where the service's behaviour is
 * not known yet (capabilities.ts), every possible behaviour is costed and the dearest one counts,
 * with the probe the dispatcher makes to find out. Once the behaviour is known the count is exact.
 */
import { FINANCIAL_FIELDS, type FinancialField } from "../api/types";
import type { Capabilities } from "./capabilities";
import { planFinancialBatches, planIdentification, type FinancialBatchCall, type IdentificationCall } from "./planner";

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

/** Identification calls under known behaviour (dispatch.ts: include is always asked unless refused). */
function identificationPlan(profile: WantSet["profile"], include: boolean): IdentificationCall[] {
  const basic: number[] = [];
  const extra: number[] = [];
  for (const [cui, fields] of profile) ([...fields].some((f) => !BASIC_PROFILE.has(f)) ? extra : basic).push(cui);
  return planIdentification(basic, extra, include);
}

/** Financial calls under known behaviour: how many, and the batches among them. */
function financialPlan(
  financial: WantSet["financial"],
  batchFields: readonly string[],
  rangeFull: boolean | undefined,
  batchEverything = false,
): { calls: number; batches: FinancialBatchCall[] } {
  const need = new Map<number, Set<number>>();
  const direct = new Map<number, number>();
  for (const [cui, years] of financial) {
    for (const [year, fields] of years) {
      const batchable = batchEverything || [...fields].some((f) => batchFields.includes(f));
      if (batchable) (need.get(cui) ?? need.set(cui, new Set()).get(cui)!).add(year);
      if ([...fields].some((f) => !batchFields.includes(f))) direct.set(cui, (direct.get(cui) ?? 0) + 1);
    }
  }
  const batches = planFinancialBatches(need);
  let calls = batches.length;
  let multi = false;
  for (const n of direct.values()) {
    if (n > 1) multi = true;
    calls += n > 1 && rangeFull === true ? 1 : n;
  }
  // Not known whether range entries carry every field: one company's range is tried first (the probe).
  if (rangeFull === undefined && multi) calls += 1;
  return { calls, batches };
}

/**
 * The calls a flush's wants need: the dispatcher sends these batches (where the service's behaviour
 * is known, it plans them itself otherwise), so that a flush the credit guard counts is planned once.
 */
export interface WantsPlan {
  /** At most this many calls. */
  calls: number;
  identification?: IdentificationCall[];
  financialBatches?: FinancialBatchCall[];
}

/** The upper bound of the calls the dispatcher makes for `wants` against a service with `caps`. */
export function upperBoundCalls(wants: WantSet, caps: Capabilities): number {
  return planWants(wants, caps).calls;
}

/** upperBoundCalls(), with the batches the dispatcher can send as they are. */
export function planWants(wants: WantSet, caps: Capabilities): WantsPlan {
  const plan: WantsPlan = { calls: 0 };
  if (wants.profile.size > 0) {
    if (caps.include !== undefined) {
      plan.identification = identificationPlan(wants.profile, caps.include);
      plan.calls += plan.identification.length;
    } else {
      // Unknown: batches ask for every field; if they come back without them, the first batch was the
      // probe and the companies that need more are asked one by one.
      const honoured = identificationPlan(wants.profile, true).length;
      const ignored = identificationPlan(wants.profile, false).length;
      plan.calls += ignored > honoured ? Math.max(honoured, 1 + ignored) : honoured;
    }
  }
  if (wants.financial.size > 0) {
    // Unknown batch fields: every want is batched first, and what the items lack is asked after.
    if (caps.batchFinancialFields !== undefined) {
      const known = financialPlan(wants.financial, caps.batchFinancialFields, caps.rangeFull);
      plan.calls += known.calls;
      plan.financialBatches = known.batches;
    } else {
      let fin = 0;
      for (const fields of [FINANCIAL_FIELDS, DOCUMENTED_BATCH_FINANCIAL]) {
        fin = Math.max(fin, financialPlan(wants.financial, fields, caps.rangeFull, true).calls);
      }
      plan.calls += fin;
    }
  }
  return plan;
}
