/**
 * A flush from the queue: the cells gathered in one quiet window are planned once (estimate.ts), the
 * credit guard counts that plan's calls, and the dispatcher sends that same plan.
 */
import type { PersistentCache } from "../cache/cache";
import type { Capabilities } from "../capabilities";
import type { Dispatcher } from "./dispatch";
import { planWants } from "./estimate";
import type { BurstGuard } from "../credits/guard";
import { fail, type Want } from "../cells/wants";

export interface FlushContext {
  guard: BurstGuard;
  cache: PersistentCache;
  dispatcher: Dispatcher;
  caps(): Capabilities;
}

/** Sends a flush; false when the guard held it (its cells then fail with the guard's error). */
export async function sendFlush(wants: Want[], ctx: FlushContext): Promise<boolean> {
  const plan = planWants(wants, ctx.caps());
  let cells = 0;
  for (const w of wants) cells += w.waiters.length;
  if (!ctx.guard.admit(() => plan.calls, cells)) {
    const e = ctx.guard.error();
    for (const w of wants) fail(w, e, ctx.cache);
    return false;
  }
  await ctx.dispatcher.fetch(wants, plan);
  return true;
}
