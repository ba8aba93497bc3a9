import type { PlanName } from "../api/types";
import { PLANS } from "./plans";

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
