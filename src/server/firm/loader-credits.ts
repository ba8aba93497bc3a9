/**
 * The firm loader's credits: who pays a call, her credit reserved in the database right before it is
 * made (fail-closed: a database that does not take the reservation means no call, store-faults.ts), and
 * when the plan's stop after the service's 429 ends.
 */
import { bucharestDay, nextBucharestMidnight, nextBucharestMonth } from "../../engine/credits/bucharest-time";
import type { Call, Requester } from "./loader-calls";
import type { FirmStore } from "./firm-store";
import { CallFailure } from "./upstream";
import { storeCallFailure } from "./store-faults";

/** The person a call is charged to, and the request of hers whose credit it is. */
export interface Payer {
  req: Requester;
  user: string;
  month: string;
  day: string;
}

/** When the plan's stop after a 429 ends: Retry-After, else the next day for a Free plan, else the next month (Bucharest's). */
export function planStopEnd(now: number, plan: string | null, retryAfterMs: number | null): number {
  if (retryAfterMs !== null && retryAfterMs > 0) return now + retryAfterMs;
  return plan === "free" ? nextBucharestMidnight(now) : nextBucharestMonth(now);
}

/**
 * The person who pays, her credit reserved: by how many of the call's answers they wait for, then who
 * asked first (the next one when her budget is spent). Rejects with a CallFailure: the day's cap, the
 * plan's stop, no budget left, or the database not taking the reservation (503).
 */
export async function reservePayer(
  store: FirmStore,
  call: Call,
  maxPerDay: number | null,
  now: number,
  onStoreError?: (e: unknown) => void,
): Promise<Payer> {
  const day = bucharestDay(now);
  const month = day.slice(0, 7);
  const people = new Map<string, { n: number; first: number; requests: Map<Requester, number> }>();
  for (const e of call.entries) {
    for (const r of e.waiters) {
      const p = people.get(r.user) ?? { n: 0, first: r.id, requests: new Map<Requester, number>() };
      p.n++;
      p.first = Math.min(p.first, r.id);
      p.requests.set(r, (p.requests.get(r) ?? 0) + 1);
      people.set(r.user, p);
    }
  }
  const order = [...people].sort(([, a], [, b]) => b.n - a.n || a.first - b.first);
  for (const [user, p] of order) {
    let r: Awaited<ReturnType<FirmStore["reserveCredit"]>>;
    try {
      r = await store.reserveCredit({ user, month, day, maxPerDay, now });
    } catch (e) {
      // Fail-closed: no call without the database recording it (store-faults.ts).
      onStoreError?.(e);
      throw storeCallFailure(e);
    }
    if (r === "ok") {
      const req = [...p.requests].sort(([a, x], [b, y]) => y - x || a.id - b.id)[0][0];
      return { req, user, month, day };
    }
    if (r === "day_limit") throw new CallFailure(429, "day_limit", { limit: maxPerDay ?? 0 });
    if (r === "plan_stopped") {
      const until = (await store.planStoppedUntil(now).catch(() => null)) ?? now;
      throw new CallFailure(429, "plan_stopped", { until }, null, until - now);
    }
  }
  throw new CallFailure(429, "budget_exhausted");
}
