/**
 * Keys, plans and credit counters (O15, O20–O24). Keys are demo-<plan> or demo-<plan>-<suffix>;
 * each distinct key has its own counters, kept in memory. Days and months are Bucharest's.
 */
import { bucharestDay, bucharestMonth } from "./clock";

export type PlanName = "free" | "pro" | "business" | "enterprise";

export interface Plan {
  name: PlanName;
  /** Credits per calendar day, or null. */
  daily: number | null;
  /** Credits per calendar month, or null. */
  monthly: number | null;
  /** Financial years reachable, the latest year counting as the first; null = all. */
  historyYears: number | null;
}

export const PLANS: Record<PlanName, Plan> = {
  free: { name: "free", daily: 10, monthly: null, historyYears: 1 },
  pro: { name: "pro", daily: null, monthly: 4000, historyYears: 5 },
  business: { name: "business", daily: null, monthly: 20000, historyYears: 10 },
  enterprise: { name: "enterprise", daily: null, monthly: null, historyYears: null },
};

/** The plan of a key, or null for a key the service does not know. */
export function planOfKey(key: string): Plan | null {
  const m = /^demo-(free|pro|business|enterprise)(?:-[A-Za-z0-9_.-]+)?$/.exec(key);
  return m ? PLANS[m[1] as PlanName] : null;
}

/** The oldest financial year a plan may ask for. */
export function oldestYear(plan: Plan, latest: number): number {
  return plan.historyYears === null ? -Infinity : latest - plan.historyYears + 1;
}

export interface Usage {
  key: string;
  plan: PlanName | null;
  /**
   * Credits spent (= charged calls) today, this month and since the sandbox started or the key was
   * reset. `total` is a running counter: unlike the request log (the last 50,000 calls) it never rolls off.
   */
  today: number;
  month: number;
  total: number;
  /** Calls that cost nothing: 400, 403, 429, injected faults (unless chargeFailures). */
  refused: number;
  /** Every /v4 call made with the key, charged or not (= total + refused), also a running counter. */
  calls: number;
  /** Credits left in the plan's period (day for free, month for pro and business); null = unlimited. */
  remaining: number | null;
}

interface Counter {
  day: string;
  today: number;
  monthKey: string;
  month: number;
  total: number;
  refused: number;
  calls: number;
}

export class Accounts {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly now: () => number) {}

  /** Credits left for a key of a plan, or null when unlimited. */
  remaining(key: string, plan: Plan): number | null {
    const c = this.counter(key);
    if (plan.daily !== null) return Math.max(0, plan.daily - c.today);
    if (plan.monthly !== null) return Math.max(0, plan.monthly - c.month);
    return null;
  }

  charge(key: string): void {
    const c = this.counter(key);
    c.today++;
    c.month++;
    c.total++;
    c.calls++;
  }

  refuse(key: string): void {
    const c = this.counter(key);
    c.refused++;
    c.calls++;
  }

  usage(key: string): Usage {
    const plan = planOfKey(key);
    const c = plan ? this.counter(key) : { today: 0, month: 0, total: 0, refused: 0, calls: 0 };
    return {
      key,
      plan: plan ? plan.name : null,
      today: c.today,
      month: c.month,
      total: c.total,
      refused: c.refused,
      calls: c.calls,
      remaining: plan ? this.remaining(key, plan) : null,
    };
  }

  /** Keys with counters, in first-use order. */
  keys(): string[] {
    return [...this.counters.keys()];
  }

  reset(key?: string): void {
    if (key === undefined) this.counters.clear();
    else this.counters.delete(key);
  }

  /** The key's counter, its day and month rolled over to now. */
  private counter(key: string): Counter {
    const now = this.now();
    const day = bucharestDay(now);
    const monthKey = bucharestMonth(now);
    let c = this.counters.get(key);
    if (!c) {
      c = { day, today: 0, monthKey, month: 0, total: 0, refused: 0, calls: 0 };
      this.counters.set(key, c);
    }
    if (c.day !== day) {
      c.day = day;
      c.today = 0;
    }
    if (c.monthKey !== monthKey) {
      c.monthKey = monthKey;
      c.month = 0;
    }
    return c;
  }
}
