/**
 * A refresh's fetch (the CLI, the pane's refresh): every answer a set of cells needs, in one plan —
 * the calls of the estimate, no more, each sent as soon as it is planned. Answers go to the cache;
 * failures are remembered for the cache-only reads that follow.
 *
 * Where the service's behaviour is not known yet (the estimate is a range), the refresh can send its
 * first call alone, the probe: it is a call the plan needs anyway, and its answer tells what the
 * service does (capabilities.ts), so the estimate of the rest is exact; the caller sees it before
 * the rest is sent (`onProbe`). The probe plus the rest never cost more than the upper bound.
 */
import type { CancelSignal } from "../../api/types";
import type { PersistentCache } from "../cache/cache";
import type { Capabilities } from "../capabilities";
import type { Dispatcher } from "./dispatch";
import { planWants, wantsOf, type WantSet } from "./estimate";
import { kindOf, type FailureKind } from "../failures";
import { DROPPED, type CallGate } from "../credits/gate";
import { financialKey, profileKey } from "../keys";
import { listKey, type ListRequests, type ListSpec } from "../cells/lists";
import { yearsOf } from "./planner";
import type { CellRequest, Estimate, Needs } from "../cells/requests";
import type { Waiter, Want } from "../cells/wants";

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
  estimate(requests: readonly CellRequest[], refresh: boolean): Estimate;
  caps(): Capabilities;
  /** A dispatcher that sends one call and drops the rest it would plan (the probe). */
  oneCall(): Dispatcher;
}

export interface PrefetchOptions {
  force?: boolean;
  signal?: CancelSignal;
  /**
   * Called after the probe, when one was sent (the estimate was a range): `rest` is the exact
   * estimate of what is left, `sent` the probe's calls. Answering false stops the refresh there.
   * Without it, no probe is sent on its own (the dispatcher still learns from its first batch).
   */
  onProbe?: (rest: Estimate, sent: number) => boolean | Promise<boolean>;
}

export async function prefetch(ctx: PrefetchContext, requests: readonly CellRequest[], options: PrefetchOptions): Promise<PrefetchReport> {
  if (options.onProbe) {
    // One call per unknown that changes the count (include, then batch financial fields): at most two.
    let sent = 0;
    while (sent < 2 && !options.signal?.aborted) {
      const n = await probe(ctx, requests, { ...options, force: !!options.force && sent === 0 });
      if (n === 0) break;
      sent += n;
    }
    if (sent > 0) {
      // What `force` would fetch again was marked stale by the probe: the rest is what is not fresh.
      if (!(await options.onProbe(ctx.estimate(requests, false), sent))) return { wanted: 0, failed: {} };
      options = { ...options, force: false, onProbe: undefined };
    }
  }
  const { set } = ctx.needs(requests, !!options.force);
  const wants: Want[] = [];
  // One waiter per want, the run itself: settled (not waiting) once the run is stopped, so that
  // calls not yet sent are dropped (gate.ts).
  const waiters: Waiter[] = [];
  const waiter = (): Waiter => {
    const w: Waiter = { resolve: ignore, reject: ignore, settled: !!options.signal?.aborted };
    waiters.push(w);
    return w;
  };
  // The wants' lists of fields, one per distinct list (most wants of a refresh ask the same one or two fields).
  const lists = new Map<string, readonly string[]>();
  const fieldsOf = (fields: ReadonlySet<string>): readonly string[] => {
    const list = [...fields];
    const key = list.join("\n");
    return lists.get(key) ?? (lists.set(key, list), list);
  };
  options.signal?.addEventListener("abort", () => waiters.forEach((w) => (w.settled = true)), { once: true });
  for (const [cui, fields] of set.profile) wants.push(want("profile", profileKey(cui), cui, 0, fieldsOf(fields), waiter()));
  for (const [cui, years] of set.financial)
    for (const [y, fields] of years) wants.push(want("financial", financialKey(cui, y), cui, y, fieldsOf(fields), waiter()));
  for (const w of wants) ctx.failures.delete(w.key);
  const failed: PrefetchReport["failed"] = {};
  const note = (key: string, e: unknown) => {
    ctx.failures.set(key, e);
    const k = kindOf(e) ?? "error";
    failed[k] = (failed[k] ?? 0) + 1;
  };
  // Lists too (CAUTA, TOP…): each distinct one once, unless cached.
  const specs = new Map<string, ListSpec>();
  for (const r of requests) if (r.kind === "list" && r.list) specs.set(listKey(r.list), r.list);
  const listFetches = [...specs].map(async ([key, spec]) => {
    if (!options.force && ctx.cache.peek(key)?.fresh) return;
    if (options.force) ctx.cache.markStale(key);
    ctx.failures.delete(key);
    try {
      await ctx.lists.fetch(spec, options.signal);
    } catch (e) {
      note(key, e);
    }
  });
  await Promise.all([ctx.dispatcher.fetch(wants, planWants(wants, ctx.caps())), ...listFetches]);
  for (const w of wants) if (w.error !== undefined) note(w.key, w.error);
  return { wanted: wants.length + specs.size, failed };
}

/**
 * The probe: the first call the refresh's plan would send, alone, where its answer settles what the
 * estimate does not know (whether batch identification honours `include`, O10; which fields batch
 * financial items carry, O17). Returns the calls sent: 0 when the estimate is already exact.
 */
async function probe(ctx: PrefetchContext, requests: readonly CellRequest[], options: PrefetchOptions): Promise<number> {
  if (ctx.estimate(requests, !!options.force).exact) return 0;
  const needs = ctx.needs(requests, !!options.force);
  const wants = probeWants(needs.set, ctx.caps());
  if (wants.length === 0) return 0;
  if (options.force) {
    // The rest is fetched without `force`: what it would have fetched again counts as stale now.
    for (const [cui] of needs.set.profile) ctx.cache.markStale(profileKey(cui));
    for (const [cui, years] of needs.set.financial) for (const y of years.keys()) ctx.cache.markStale(financialKey(cui, y));
    for (const r of requests) if (r.kind === "list" && r.list) ctx.cache.markStale(listKey(r.list));
  }
  const waiter: Waiter = { resolve: ignore, reject: ignore, settled: !!options.signal?.aborted };
  options.signal?.addEventListener("abort", () => (waiter.settled = true), { once: true });
  for (const w of wants) w.waiters.push(waiter);
  await ctx.oneCall().fetch(wants, planWants(wants, ctx.caps()));
  return 1;
}

/**
 * The wants of the probe's one call, the first call of the refresh's plan that shows something: its
 * first identification batch where it asks `include` of a service not known to honour it, else its
 * first financial batch where the batch items' fields are not known.
 */
function probeWants(set: WantSet, caps: Capabilities): Want[] {
  const plan = planWants(wantsOf(set), caps);
  if (caps.include === undefined && plan.identification[0]?.kind === "batch" && plan.identification[0].include) {
    return plan.identification[0].cuis.map((cui) => want("profile", profileKey(cui), cui, 0, [...set.profile.get(cui)!], null));
  }
  if (caps.batchFinancialFields !== undefined || set.financial.size === 0) return [];
  const first = plan.financialBatches[0];
  return first.cuis.flatMap((cui) =>
    yearsOf(first.years)
      .filter((y) => set.financial.get(cui)?.has(y))
      .map((y) => want("financial", financialKey(cui, y), cui, y, [...set.financial.get(cui)!.get(y)!], null)),
  );
}

/** A want of the run's own (a list of fields made once for all the wants that share it: prefetch's fieldsOf). */
function want(kind: Want["kind"], key: string, cui: number, year: number, fields: readonly string[], waiter: Waiter | null): Want {
  return { key, kind, cui, year, fields, waiters: waiter ? [waiter] : [] };
}

/** The run's waiters take nothing from what they wait for (the cache has it): one function for them all, not two closures each. */
const ignore = () => undefined;

/** The gate, letting one call through: the calls after it are dropped unsent (DROPPED). */
export function oneCallGate(gate: CallGate): CallGate {
  let sent = false;
  const run: CallGate["run"] = (task, wanted) => {
    if (sent) return Promise.resolve(DROPPED);
    sent = true;
    return gate.run(task, wanted);
  };
  return new Proxy(gate, {
    get(target, prop) {
      if (prop === "run") return run;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
