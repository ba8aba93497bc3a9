/**
 * What a watch list costs and when it runs. A schedule is a cron expression of five fields (minute
 * hour day-of-month month day-of-week) in Bucharest time, read by croner; the default runs at 06:00
 * every day. A check pays only for companies not fetched since the last Bucharest midnight (a second
 * check on the same day reuses the first's answers), so a month costs at most one check per day
 * the schedule runs on, in the longest month (31 days). Per check: ⌈companies / 100⌉ identification
 * batches when their items carry the watched fields; where they do not, one profile per company on
 * top (the upper bound: a service that ignores `include`, docs/spec-open-points.md O10, is asked one
 * profile per company — after the one batch that showed it, or none when the firm's server knew it
 * already); and, on each day its own schedule runs (monthly by default: the 1st at 06:00),
 * ⌈companies / 50⌉ financial batches for the financial-year check.
 */
import { Cron } from "croner";
import { bucharestDay, bucharestMidnight, bucharestMonth, nextBucharestMidnight } from "../../engine/credits/bucharest-time";

export const DEFAULT_SCHEDULE = "0 6 * * *";
/** The financial-year check's: the 1st of each month at 06:00. */
export const DEFAULT_FINANCIAL_SCHEDULE = "0 6 1 * *";
export const BUCHAREST = "Europe/Bucharest";

/** Companies per identification batch, per financial batch (the service's limits). */
export const IDENT_BATCH = 100;
export const FIN_BATCH = 50;

/** A schedule checked: its expression, or why it is not one (croner's words). */
export type ScheduleCheck = { ok: true; cron: Cron } | { ok: false; reason: string };

/** Reads a five-field cron expression in Bucharest time; never throws. */
export function parseSchedule(expr: string): ScheduleCheck {
  const text = expr.trim().replace(/\s+/g, " ");
  try {
    const cron = new Cron(text, { timezone: BUCHAREST, paused: true, mode: "5-part" });
    // A pattern that can never fire (30 February) has no next run.
    if (cron.nextRun() === null) return { ok: false, reason: "never runs" };
    return { ok: true, cron };
  } catch (e) {
    return { ok: false, reason: (e as Error).message.replace(/^CronPattern:\s*/, "") };
  }
}

/** The Bucharest days, among the 31 from `from`'s, on which the schedule runs at least once. */
export function checkDaysIn31(cron: Cron, from: number): number {
  let days = 0;
  let dayStart = bucharestMidnight(bucharestDay(from)) ?? from;
  for (let i = 0; i < 31; i++) {
    const dayEnd = nextBucharestMidnight(dayStart);
    const next = cron.nextRun(new Date(dayStart - 1));
    if (next !== null && next.getTime() < dayEnd && bucharestDay(next.getTime()) === bucharestDay(dayStart)) days++;
    dayStart = dayEnd;
  }
  return days;
}

/**
 * The days a schedule runs on in a month of 31 days (the current month when it has 31, else the next,
 * from its 1st): a monthly schedule counts once, whatever day of the month it is now.
 */
export function checkDaysInMonth(cron: Cron, now: number): number {
  const [y, m] = bucharestMonth(now).split("-").map(Number);
  const days = (yy: number, mm: number) => new Date(Date.UTC(yy, mm, 0)).getUTCDate();
  const [yy, mm] = days(y, m) === 31 ? [y, m] : m === 12 ? [y + 1, 1] : [y, m + 1];
  const first = bucharestMidnight(`${yy}-${String(mm).padStart(2, "0")}-01`) ?? now;
  return checkDaysIn31(cron, first);
}

export interface CostRange {
  companies: number;
  /** Checks that may each pay, in a month (days the schedule runs on). */
  checksPerMonth: number;
  /** One check: batches only; batches and one profile per company. */
  perCheck: { low: number; high: number };
  /** Financial-year checks in a month (days its schedule runs on). */
  financialChecks: number;
  /** One financial-year check: ⌈companies / 50⌉. */
  perFinancialCheck: number;
  /** The month's financial-year checks together. */
  financial: number;
  /** The month: checks × per check + the financial-year checks. */
  monthly: { low: number; high: number };
}

export function costRange(companies: number, checksPerMonth: number, financialChecks = 1): CostRange {
  const batches = Math.ceil(companies / IDENT_BATCH);
  const perCheck = { low: batches, high: batches + companies };
  const perFinancialCheck = Math.ceil(companies / FIN_BATCH);
  const financial = financialChecks * perFinancialCheck;
  return {
    companies,
    checksPerMonth,
    perCheck,
    financialChecks,
    perFinancialCheck,
    financial,
    monthly: { low: checksPerMonth * perCheck.low + financial, high: checksPerMonth * perCheck.high + financial },
  };
}

/** What a list costs a month, with its schedules (the defaults when it has none): its checks and its financial-year checks. */
export function costOf(companies: number, l: { schedule: string | null; financialSchedule?: string | null }, now: number): CostRange {
  const s = parseSchedule(l.schedule ?? DEFAULT_SCHEDULE);
  const f = parseSchedule(l.financialSchedule ?? DEFAULT_FINANCIAL_SCHEDULE);
  return costRange(companies, s.ok ? checkDaysIn31(s.cron, now) : 31, f.ok ? checkDaysInMonth(f.cron, now) : 31);
}

/** A list's cheapest month weighed against its budget, with the other running lists charged to it. */
export interface BudgetArithmetic {
  /** The cheapest month of the other lists of the same owner (the firm's: the firm's lists) that run. */
  others: number;
  /** others + this list's cheapest month. */
  total: number;
  budget: number;
  fits: boolean;
}

/**
 * The arithmetic of `firma watch add|set` and of the pane's "watch these companies": the cheapest
 * month of list `name` (its cost `cost`), owned by `owner` (null: the firm), and of the other running
 * lists charged to the same budget, against `budget`.
 */
export function budgetArithmetic(
  lists: readonly {
    name: string;
    owner: string | null;
    companies: number;
    schedule: string | null;
    financialSchedule?: string | null;
    stoppedAt: number | null;
  }[],
  name: string,
  owner: string | null,
  cost: CostRange,
  budget: number,
  now: number,
): BudgetArithmetic {
  let others = 0;
  for (const l of lists) {
    if (l.name !== name && l.owner === owner && l.stoppedAt === null) others += costOf(l.companies, l, now).monthly.low;
  }
  const total = others + cost.monthly.low;
  return { others, total, budget, fits: total <= budget };
}
