/**
 * A refresh's fetch (the CLI, the pane's refresh): every answer a set of cells needs, in one plan —
 * the calls of the estimate, no more, each sent as soon as it is planned. Answers go to the cache;
 * failures are remembered for the cache-only reads that follow.
 */
import type { CancelSignal } from "../api/types";
import type { PersistentCache } from "./cache";
import type { Dispatcher } from "./dispatch";
import { kindOf, type FailureKind } from "./failures";
import { financialKey, profileKey } from "./keys";
import { listKey, type ListRequests, type ListSpec } from "./lists";
import type { CellRequest, Needs } from "./requests";
import type { Waiter, Want } from "./wants";

export interface PrefetchReport {
  /** Answers asked for, and of those, that failed (by error kind). */
  wanted: number;
  failed: Partial<Record<FailureKind | "error", number>>;
}

export interface PrefetchContext {
  cache: PersistentCache;
  dispatcher: Dispatcher;
  lists: ListRequests;
  /** The last fetch's failure of each answer, for the cache-only reads after the refresh. */
  failures: Map<string, unknown>;
  needs(requests: readonly CellRequest[], refresh: boolean): Needs;
}

export async function prefetch(
  ctx: PrefetchContext,
  requests: readonly CellRequest[],
  options: { force?: boolean; signal?: CancelSignal },
): Promise<PrefetchReport> {
  const { set } = ctx.needs(requests, !!options.force);
  const wants: Want[] = [];
  // One waiter per want, the run itself: settled (not waiting) once the run is stopped, so that
  // calls not yet sent are dropped (gate.ts).
  const waiters: Waiter[] = [];
  const waiter = (): Waiter => {
    const w: Waiter = { resolve: () => undefined, reject: () => undefined, settled: !!options.signal?.aborted };
    waiters.push(w);
    return w;
  };
  options.signal?.addEventListener("abort", () => waiters.forEach((w) => (w.settled = true)), { once: true });
  for (const [cui, fields] of set.profile) wants.push(want("profile", profileKey(cui), cui, 0, fields, waiter()));
  for (const [cui, years] of set.financial)
    for (const [y, fields] of years) wants.push(want("financial", financialKey(cui, y), cui, y, fields, waiter()));
  for (const w of wants) ctx.failures.delete(w.key);
  const failed: PrefetchReport["failed"] = {};
  const note = (key: string, e: unknown) => {
    ctx.failures.set(key, e);
    const k = kindOf(e) ?? "error";
    failed[k] = (failed[k] ?? 0) + 1;
  };
  // Lists too (CAUTA, TOP…): each distinct one once, unless cached.
  const lists = new Map<string, ListSpec>();
  for (const r of requests) if (r.kind === "list" && r.list) lists.set(listKey(r.list), r.list);
  const listFetches = [...lists].map(async ([key, spec]) => {
    if (!options.force && ctx.cache.peek(key)?.fresh) return;
    if (options.force) ctx.cache.markStale(key);
    ctx.failures.delete(key);
    try {
      await ctx.lists.fetch(spec, options.signal);
    } catch (e) {
      note(key, e);
    }
  });
  await Promise.all([ctx.dispatcher.fetch(wants), ...listFetches]);
  for (const w of wants) if (w.error !== undefined) note(w.key, w.error);
  return { wanted: wants.length + lists.size, failed };
}

function want(kind: Want["kind"], key: string, cui: number, year: number, fields: Iterable<string>, waiter: Waiter): Want {
  return { key, kind, cui, year, fields: new Set(fields), waiters: new Set([waiter]) };
}
