/**
 * What the Plan and usage part shows, computed from the engine's meter and the plan's limits
 * (pure: no DOM, no Office). Free counts against its daily limit only (O22); Pro and Business
 * against their monthly credits; Enterprise has no limit.
 */
import type { PlanName } from "../api/types";
import type { UsageSnapshot } from "../engine/credits/meter";
import { PLANS } from "../engine/credits/subscription-plans";

export interface MeterView {
  used: number;
  /** null: this period has no limit in the plan (or the plan is unknown). */
  limit: number | null;
  /** used / limit in whole percent (may pass 100), or null without a limit. */
  pct: number | null;
}

export interface UsageWarning {
  level: 80 | 100;
  period: "day" | "month";
  pct: number;
}

export interface UsageView {
  plan: PlanName | null;
  /** Where the plan comes from: the user's choice, or what the service reported (O23). */
  planSource: "user" | "service" | null;
  detectedPlan: PlanName | null;
  today: MeterView;
  month: MeterView;
  /**
   * Credits left in the plan's binding period: Infinity for Enterprise; null when unknown
   * (no plan chosen or reported, and no balance from the service).
   */
  left: number | null;
  /** The balance the service reported with its last answer, if it did. */
  serviceRemaining: number | null;
  warning: UsageWarning | null;
  /** This month's days 1..daysInMonth with their credits (0 where none). */
  daily: { day: number; credits: number }[];
  /** Today's day of the month. */
  dayOfMonth: number;
  daysInMonth: number;
  cacheHits: number;
  savedByBatching: number;
  refused: number;
}

function meter(used: number, limit: number | null): MeterView {
  return { used, limit, pct: limit === null ? null : limit === 0 ? 100 : Math.floor((used * 100) / limit) };
}

/** The days of `YYYY-MM-DD`'s month. */
export function daysInMonth(day: string): number {
  const [y, m] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function usageView(s: UsageSnapshot, chosen: PlanName | null): UsageView {
  const plan = chosen ?? s.detectedPlan ?? null;
  const limits = plan ? PLANS[plan] : null;
  const today = meter(s.today, limits?.dailyCalls ?? null);
  const month = meter(s.month, limits?.monthlyCredits ?? null);

  let left: number | null;
  if (!limits) left = s.remaining;
  else if (limits.dailyCalls !== null) left = Math.max(0, limits.dailyCalls - s.today);
  else if (limits.monthlyCredits !== null) left = Math.max(0, limits.monthlyCredits - s.month);
  else left = Infinity;

  let warning: UsageWarning | null = null;
  for (const [period, m] of [
    ["day", today],
    ["month", month],
  ] as const) {
    if (m.pct === null || m.pct < 80) continue;
    const level = m.pct >= 100 ? 100 : 80;
    if (!warning || level > warning.level || (level === warning.level && m.pct > warning.pct)) warning = { level, period, pct: m.pct };
  }
  if (!warning && limits === null && s.remaining === 0) warning = { level: 100, period: "month", pct: 100 };

  const n = daysInMonth(s.day);
  const byDay = new Map(s.daily.map((d) => [Number(d.day.slice(8, 10)), d.credits]));
  const daily = Array.from({ length: n }, (_, i) => ({ day: i + 1, credits: byDay.get(i + 1) ?? 0 }));

  return {
    plan,
    planSource: chosen ? "user" : s.detectedPlan ? "service" : null,
    detectedPlan: s.detectedPlan,
    today,
    month,
    left,
    serviceRemaining: s.remaining,
    warning,
    daily,
    dayOfMonth: Number(s.day.slice(8, 10)),
    daysInMonth: n,
    cacheHits: s.cacheHits,
    savedByBatching: s.savedByBatching,
    refused: s.refused,
  };
}

/** True when spending `credits` would pass what is left (unknown or unlimited: never). */
export function needsConfirmation(credits: number, left: number | null): boolean {
  return left !== null && credits > left;
}

/** What the Plan and usage part shows for a person of a firm's server: her month against her budget. */
export interface FirmUsageView {
  month: MeterView;
  left: number;
  /** 80: most of the budget spent; 100: none left. */
  warning: 80 | 100 | null;
}

export function firmUsageView(me: { budget: number; spent: number; remaining: number }): FirmUsageView {
  const month = meter(me.spent, me.budget);
  const pct = month.pct ?? 0;
  return { month, left: me.remaining, warning: me.remaining <= 0 || pct >= 100 ? 100 : pct >= 80 ? 80 : null };
}
