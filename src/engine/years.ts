import type { PlanName } from "../api/types";
import { LocalInputError, shownInput } from "./local-errors";
import { PLANS } from "./credits/subscription-plans";

/** The first year the service could hold accounts for (companies registered since 1990). */
export const EARLIEST_YEAR = 1990;

/**
 * The latest complete financial year (O19): annual accounts are filed by the end of May and published
 * over June, so from July on it is last calendar year, before that the year before.
 */
export function latestCompleteYear(now: Date = new Date()): number {
  const y = now.getUTCFullYear();
  return now.getUTCMonth() >= 6 ? y - 1 : y - 2;
}

/** The fewest years of history a plan gives (the free plan's one): every plan covers the latest that many. */
const SHORTEST_HISTORY = Math.min(...Object.values(PLANS).map((p) => p.historyYears ?? Infinity));

/** The oldest year a plan may read, or null when the plan has no limit. */
export function oldestYearInPlan(plan: PlanName, latest: number): number | null {
  const h = PLANS[plan].historyYears;
  return h === null ? null : latest - h + 1;
}

export type YearParse = { ok: true; year: number | null } | { ok: false; input: string };

/** A year argument as a cell gives it: null/"" = not given; an integer or digit string; anything else refused. */
export function parseYear(v: unknown): YearParse {
  if (v === null || v === undefined || v === "") return { ok: true, year: null };
  let n: number;
  if (typeof v === "number") n = v;
  else if (typeof v === "string" && /^\s*\d{4}\s*$/.test(v)) n = Number(v);
  else return { ok: false, input: String(v) };
  if (!Number.isInteger(n) || n < 1000 || n > 9999) return { ok: false, input: String(v) };
  return { ok: true, year: n };
}

const invalidYear = (input: string) =>
  new LocalInputError("invalid_year", `invalid year "${input}"`, {
    key: "cell.invalidYear.input",
    params: { input: shownInput(input) },
  });

/**
 * The year rules a cell meets before anything is asked of the service (all free): a year is written
 * as four digits, is not later than the latest year the service has, not before EARLIEST_YEAR, and
 * inside the plan's history when the plan is known.
 */
export class YearPolicy {
  constructor(
    private readonly latest: () => number,
    private readonly plan: () => PlanName | null,
  ) {}

  /** A cell's year argument, checked; left out = the latest year. */
  year(input: unknown): number {
    // The common cell, a four-digit whole number: no parse result made (every financial cell, every recalculation).
    if (typeof input === "number" && Number.isInteger(input) && input >= 1000 && input <= 9999) return this.check(input);
    const p = parseYear(input);
    if (!p.ok) throw invalidYear(p.input);
    return this.check(p.year ?? this.latest());
  }

  /**
   * A history's years, in order. The part of the range that the plan or the service cannot answer
   * is left out (the cell lists the years it can); a range with no such year at all is refused.
   */
  range(fromInput: unknown, toInput: unknown): [number, number] {
    const parse = (v: unknown) => {
      const p = parseYear(v ?? null);
      if (!p.ok) throw invalidYear(p.input);
      return p.year ?? this.latest();
    };
    let [a, b] = [parse(fromInput), parse(toInput)].sort((x, y) => x - y);
    const latest = this.latest();
    const plan = this.plan();
    const oldest = Math.max(EARLIEST_YEAR, (plan && oldestYearInPlan(plan, latest)) || EARLIEST_YEAR);
    if (b >= oldest && a <= latest) {
      a = Math.max(a, oldest);
      b = Math.min(b, latest);
    }
    return [this.check(a), this.check(b)];
  }

  /** The oldest year the plan covers, null when unknown or unlimited. */
  oldest(): number | null {
    const plan = this.plan();
    return plan ? oldestYearInPlan(plan, this.latest()) : null;
  }

  check(y: number): number {
    const latest = this.latest();
    // A year every plan covers (the latest, for the usual cell): the plan is not asked, per cell.
    if (y <= latest && y > latest - SHORTEST_HISTORY && y >= EARLIEST_YEAR) return y;
    if (y > latest) {
      // years as text: a number parameter would be written with a thousands separator
      throw new LocalInputError("year_unavailable", `no data for ${y} yet (latest ${latest})`, {
        key: "cell.yearUnavailable.later",
        params: { year: String(y), latest: String(latest) },
      });
    }
    if (y < EARLIEST_YEAR) {
      throw new LocalInputError("invalid_year", `${y} is before ${EARLIEST_YEAR}`, {
        key: "cell.invalidYear.beforeEarliest",
        params: { year: String(y), earliest: String(EARLIEST_YEAR) },
      });
    }
    const plan = this.plan();
    const oldest = plan ? oldestYearInPlan(plan, latest) : null;
    if (plan && oldest !== null && y < oldest) {
      const label = PLANS[plan].label;
      throw new LocalInputError("year_outside_plan", `${y} is outside the ${label} plan's history (${oldest}–${latest})`, {
        key: "cell.yearOutsidePlan.plan",
        params: { year: String(y), plan: label, oldest: String(oldest), latest: String(latest) },
      });
    }
    return y;
  }
}

/** Years from..to, latest first. */
export function yearsDown(from: number, to: number): number[] {
  const out: number[] = [];
  for (let y = to; y >= from; y--) out.push(y);
  return out;
}
