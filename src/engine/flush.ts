/**
 * A flush from the queue: the cells gathered in one quiet window go past the credit guard, then to
 * the dispatcher. The flush is planned once: the calls the guard counts are the plan sent.
 */
import type { PersistentCache } from "./cache";
import type { Capabilities } from "./capabilities";
import type { Dispatcher } from "./dispatch";
import { addFinancialWant, addProfileWant, emptyWants, planWants, type WantsPlan } from "./estimate";
import type { BurstGuard } from "./guard";
import { fail, type Want } from "./wants";

export interface FlushContext {
  guard: BurstGuard;
  cache: PersistentCache;
  dispatcher: Dispatcher;
  caps(): Capabilities;
}

/** Sends a flush; false when the guard held it (its cells then fail with the guard's error). */
export async function sendFlush(wants: Want[], ctx: FlushContext): Promise<boolean> {
  let plan: WantsPlan | undefined;
  // Only a burst the guard weighs is planned here; an admitted one without a plan is planned by the dispatcher.
  const cost = () => {
    const set = emptyWants();
    for (const w of wants) {
      if (w.kind === "profile") addProfileWant(set, w.cui, w.fields);
      else addFinancialWant(set, w.cui, w.year, w.fields);
    }
    plan = planWants(set, ctx.caps());
    return plan.calls;
  };
  let cells = 0;
  for (const w of wants) cells += w.waiters.length;
  if (!ctx.guard.admit(cost, cells)) {
    const e = ctx.guard.error();
    for (const w of wants) fail(w, e, ctx.cache);
    return false;
  }
  await ctx.dispatcher.fetch(wants, plan);
  return true;
}
