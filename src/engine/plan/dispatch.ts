/**
 * Dispatch: the calls that answer a set of wants, sent through the gate (concurrency, budgets,
 * credits-spent stop), their answers matched to the wants by CUI and year — never by position —
 * and stored in the cache. It sends the plan it is handed (estimate.ts, planWants: the one the credit
 * guard counted) and plans nothing itself, but for what a call's answer shows: the identification
 * probe's outcome and a refused history update the plan (afterIdentificationProbe, afterHistoryRefusal).
 *
 * - The client is called through its unchecked entry (client.ts, UNCHECKED): the engine checked each
 *   CUI and year where a cell gave it, and its batches hold distinct CUIs, never too many.
 * - Identification batches always ask `include` for every profile field unless the service is
 *   known to ignore it: it costs nothing more, and a later cell wanting another field of the same
 *   company is answered from the cache whatever order Excel calculates cells in.
 * - Where the service's behaviour is unknown (O10, O16, O17), the first call shows it and the rest
 *   is planned after it (capabilities.ts).
 * - An answer that names companies nobody asked for is ignored; one that gives a company twice
 *   with different data fails that company (a stale value covers it), never guesses.
 */
import type { FirmaClient } from "../../api/index";
import { UNCHECKED } from "../../api/client";
import { ApiError, NotFoundError, ResponseShapeError } from "../../api/errors";
import { FINANCIAL_FIELDS, type BatchIdentificationItem, type FinancialYear, type FinancialYears } from "../../api/types";
import { TTL, type PersistentCache } from "../cache/cache";
import type { Capabilities } from "../capabilities";
import type { ChangeLog } from "../cache/changes";
import { afterHistoryRefusal, afterIdentificationProbe, type WantsPlan } from "./estimate";
import { DROPPED, type CallGate } from "../credits/gate";
import { financialKey } from "../keys";
import { yearsOf, type FinancialBatchCall, type YearSpec } from "./planner";
import { inNextTask } from "../cells/next-task";
import { covers, fail, live, settle, type Rec, type Want } from "../cells/wants";
import type { YearPolicy } from "../years";

export const EXTRA_PROFILE = ["judet", "localitate", "adresa", "caen_principal", "platitor_tva", "j_cod"] as const;

export interface DispatchContext {
  client(): FirmaClient;
  caps(): Capabilities;
  cache: PersistentCache;
  gate: CallGate;
  years: YearPolicy;
  latestYear(): number;
  /** The watch on what changed (changes.ts): told of every profile that arrives. */
  changes?: ChangeLog;
}

export class Dispatcher {
  constructor(private readonly ctx: DispatchContext) {}

  /**
   * Fetches what `wants` need; every want settles or fails by the time this resolves. `plan`: the
   * plan estimate.ts made for exactly these wants a moment ago (planWants; the credit guard's count).
   */
  async fetch(wants: readonly Want[], plan: WantsPlan): Promise<void> {
    const profile: Want[] = [];
    const financial: Want[] = [];
    for (const w of wants) (w.kind === "profile" ? profile : financial).push(w);
    if (financial.length === 0) return this.identification(profile, plan);
    if (profile.length === 0) return this.financial(financial, plan.financialBatches);
    await Promise.all([this.identification(profile, plan), this.financial(financial, plan.financialBatches)]);
  }

  /**
   * A call through the gate; `task` hands the client its place's release as `onAnswer` (gate.ts `run`).
   * Its answer is stored and its cells settled in a task of their own (next-task.ts): answers that
   * arrived meanwhile free their places and send their next calls first.
   */
  private send<T>(wants: readonly Want[], task: (onAnswer: () => void) => Promise<T>): Promise<T | typeof DROPPED> {
    return this.ctx.gate.run(task, () => wants.some(live)).then(inNextTask);
  }

  /** Stores an answer under `key`; `profileOf`: the CUI when it is a profile (the watch on changes compares those). */
  private store(key: string, item: Record<string, unknown> | null, ttl: number, profileOf: number | null = null): Rec | null {
    const { cache } = this.ctx;
    if (item === null) {
      cache.set(key, null, TTL.notFound);
      return null;
    }
    const old = cache.peek<Rec | null>(key)?.value;
    if (!old) {
      // A first answer (every company of a first fill): nothing to merge, nothing to compare.
      const rec = fresh(item);
      cache.set(key, rec, ttl);
      return rec;
    }
    const oldFetchedAt = cache.fetchedAt(key);
    const merged = mergeInto({ ...old } as Rec, item);
    cache.set(key, merged, ttl);
    // Every answer passes here: the watch compares the new profile with the one held (stale or not),
    // item by item, before the merge hides what the cache had.
    if (this.ctx.changes && profileOf !== null) {
      this.ctx.changes.compare(profileOf, old, oldFetchedAt, item, cache.fetchedAt(key) ?? Date.now());
    }
    return merged;
  }

  private fail(w: Want, e: unknown): void {
    this.ctx.gate.noteFailure(e);
    fail(w, e, this.ctx.cache);
  }

  private async identification(wants: Want[], plan: WantsPlan): Promise<void> {
    if (wants.length === 0) return;
    const caps = this.ctx.caps();
    const byCui = new Map<number, Want>();
    for (const w of wants) byCui.set(w.cui, w);
    const leftovers: Want[] = [];

    const runBatch = async (cuis: number[]) => {
      const group = cuis.map((c) => byCui.get(c)!);
      const include = caps.include !== false;
      let items: BatchIdentificationItem[] | typeof DROPPED;
      try {
        items = await this.send(group, (onAnswer) =>
          this.ctx.client()[UNCHECKED].batchIdentification(cuis, include ? EXTRA_PROFILE : undefined, { onAnswer }),
        );
      } catch (e) {
        for (const w of group) this.fail(w, e);
        return;
      }
      if (items === DROPPED) return;
      const found = matchOnce(items, (it) => it.cui, new Set(cuis));
      if (include && caps.include === undefined && found.items.size > 0) {
        caps.include = [...found.items.values()].some((it) => EXTRA_PROFILE.some((f) => (it as Record<string, unknown>)[f] !== undefined));
      }
      for (const w of group) {
        if (found.conflicts.has(w.cui)) {
          this.fail(w, conflict(w.cui));
          continue;
        }
        const it = found.items.get(w.cui);
        const rec = this.store(w.key, it ? (it as Record<string, unknown>) : null, TTL.profile, w.cui);
        if (rec === null || covers(rec, w.fields)) settle(w, rec);
        else leftovers.push(w);
      }
    };
    const runSingle = async (w: Want) => {
      try {
        const p = await this.send([w], (onAnswer) => this.ctx.client()[UNCHECKED].company(w.cui, { onAnswer }));
        if (p === DROPPED) return;
        settle(w, this.store(w.key, p as unknown as Record<string, unknown>, TTL.profile, w.cui));
      } catch (e) {
        if (e instanceof NotFoundError) settle(w, this.store(w.key, null, 0, w.cui));
        else this.fail(w, e);
      }
    };
    let calls = plan.identification;
    if (caps.include === undefined && calls.length > 1 && calls[0].kind === "batch" && calls[0].include) {
      // Whether `include` works (O10) decides the rest of the plan: one batch shows it first, and the
      // wants it left open are planned under what it showed.
      await runBatch(calls[0].cuis);
      calls = afterIdentificationProbe(
        plan,
        wants.filter((w) => !w.done && !(leftovers.length > 0 && leftovers.includes(w))),
        caps,
      );
    }
    await Promise.all(calls.map((c) => (c.kind === "batch" ? runBatch(c.cuis) : runSingle(byCui.get(c.cui)!))));
    await Promise.all(leftovers.map(runSingle));
  }

  private async financial(wants: Want[], batches: readonly FinancialBatchCall[]): Promise<void> {
    if (wants.length === 0) return;
    const caps = this.ctx.caps();
    const byKey = new Map(wants.map((w) => [w.key, w]));
    const batchable = (w: Want) => {
      const known = caps.batchFinancialFields;
      return known === undefined || [...w.fields].some((f) => (known as string[]).includes(f));
    };
    const direct: Want[] = wants.filter((w) => !batchable(w));
    const latest = this.ctx.latestYear();
    const ttl = (year: number) => (year < latest ? TTL.closedYear : TTL.latestYear);

    const runBatch = async (call: FinancialBatchCall): Promise<void> => {
      const years = yearsOf(call.years);
      const group: Want[] = [];
      for (const c of call.cuis)
        for (const y of years) {
          const w = byKey.get(financialKey(c, y));
          if (w) group.push(w);
        }
      let items: FinancialYear[] | typeof DROPPED;
      try {
        items = await this.send(group, (onAnswer) =>
          this.ctx.client()[UNCHECKED].batchFinancial(call.cuis, apiYears(call.years), { onAnswer }),
        );
      } catch (e) {
        if (e instanceof ApiError && e.kind === "plan_history" && years.length > 1) {
          // Planned before the plan was known: the refusal updates the plan (estimate.ts).
          const { outside, calls } = afterHistoryRefusal(call, group, this.ctx.years.oldest());
          for (const w of outside) {
            try {
              this.ctx.years.check(w.year);
            } catch (local) {
              this.fail(w, local);
            }
          }
          for (const next of calls) await runBatch(next);
          return;
        }
        for (const w of group) this.fail(w, e);
        return;
      }
      if (items === DROPPED) return;
      const asked = new Set(call.cuis);
      const found = matchOnce(
        items.filter((it) => years.includes(it.an)),
        (it) => financialKey(it.cui, it.an),
        null,
        (it) => asked.has(it.cui),
      );
      if (found.items.size > 0) {
        if (caps.batchFinancialFields === undefined) {
          caps.batchFinancialFields = FINANCIAL_FIELDS.filter((f) => [...found.items.values()].some((it) => it[f] !== undefined));
        }
        const maxYear = Math.max(...[...found.items.values()].map((it) => it.an));
        if (maxYear > latest) caps.latestYear = maxYear;
      }
      for (const c of call.cuis) {
        for (const y of years) {
          const k = financialKey(c, y);
          const w = byKey.get(k);
          if (found.conflicts.has(k)) {
            if (w) this.fail(w, conflict(c));
            continue;
          }
          const it = found.items.get(k);
          if (!w) {
            // A year the range brought that no cell asked for: kept, it may be asked next.
            if (it) this.store(k, it as unknown as Record<string, unknown>, ttl(y));
            continue;
          }
          const rec = this.store(w.key, it ? (it as unknown as Record<string, unknown>) : null, ttl(y));
          if (rec === null || covers(rec, w.fields)) settle(w, rec);
          else direct.push(w);
        }
      }
    };
    await Promise.all(batches.map(runBatch));

    // Fields the batch items lack: the single-company endpoints (a range per company when it wants
    // several years and range entries carry every field, else one call per year).
    const byCui = new Map<number, Want[]>();
    for (const w of direct) if (!w.done) (byCui.get(w.cui) ?? byCui.set(w.cui, []).get(w.cui)!).push(w);
    const perYear = async (w: Want) => {
      try {
        const r = await this.send([w], (onAnswer) => this.ctx.client()[UNCHECKED].financialYear(w.cui, w.year, { onAnswer }));
        if (r === DROPPED) return;
        settle(w, this.store(w.key, r as unknown as Record<string, unknown>, ttl(w.year)));
      } catch (e) {
        if (e instanceof NotFoundError) settle(w, this.store(w.key, null, 0));
        else this.fail(w, e);
      }
    };
    const viaRange = async (ws: Want[]) => {
      if (ws.length < 2 || caps.rangeFull === false) return void (await Promise.all(ws.map(perYear)));
      const years = ws.map((w) => w.year);
      const later: Want[] = [];
      try {
        const r = await this.send(ws, (onAnswer) =>
          this.ctx.client()[UNCHECKED].financialRange(ws[0].cui, Math.min(...years), Math.max(...years), { onAnswer }),
        );
        if (r === DROPPED) return;
        const byYear = new Map(r.data.map((d) => [d.an, d]));
        if (caps.rangeFull === undefined && r.data.length > 0) {
          caps.rangeFull = r.data.every((d) => FINANCIAL_FIELDS.every((f) => d[f] !== undefined));
        }
        for (const w of ws) {
          const d = byYear.get(w.year);
          const rec = this.store(w.key, d ? (d as unknown as Record<string, unknown>) : null, ttl(w.year));
          if (rec === null || covers(rec, w.fields)) settle(w, rec);
          else later.push(w);
        }
      } catch (e) {
        if (e instanceof NotFoundError) for (const w of ws) settle(w, this.store(w.key, null, 0));
        else for (const w of ws) this.fail(w, e);
      }
      await Promise.all(later.map(perYear));
    };
    const groups = [...byCui.values()];
    if (caps.rangeFull === undefined) {
      // Whether range entries carry every field (O16) is shown by one company's range first.
      const probe = groups.findIndex((ws) => ws.length > 1);
      if (probe >= 0) await viaRange(groups.splice(probe, 1)[0]);
    }
    await Promise.all(groups.map(viaRange));
  }
}

/**
 * The items of an answer by key, first occurrence; keys given twice with different data are
 * conflicts; items for keys nobody asked for are dropped.
 */
function matchOnce<T, K>(
  items: readonly T[],
  keyOf: (it: T) => K,
  asked: ReadonlySet<K> | null,
  keep: (it: T) => boolean = () => true,
): { items: Map<K, T>; conflicts: Set<K> } {
  const out = new Map<K, T>();
  const conflicts = new Set<K>();
  for (const it of items) {
    const k = keyOf(it);
    if ((asked && !asked.has(k)) || !keep(it)) continue;
    const seen = out.get(k);
    if (seen === undefined) out.set(k, it);
    else if (seen !== it && JSON.stringify(seen) !== JSON.stringify(it)) conflicts.add(k);
  }
  return { items: out, conflicts };
}

function conflict(cui: number): ResponseShapeError {
  return new ResponseShapeError(`the answer gives CUI ${cui} twice, with different data`, { field: "cui" });
}

/** The years as the client's parameters name them. */
function apiYears(spec: YearSpec): FinancialYears {
  return "year" in spec ? { an: spec.year } : { anDeLa: spec.from, anPana: spec.to };
}

/** `item`'s defined values over `rec`'s (no array of entries made per answer). */
function mergeInto(rec: Rec, item: Record<string, unknown>): Rec {
  for (const k in item) {
    const v = item[k];
    if (v !== undefined) rec[k] = v;
  }
  return rec;
}

/** A first answer: the parsed item itself (the reader makes one per answer), copied only if it has undefined values. */
function fresh(item: Record<string, unknown>): Rec {
  for (const k in item) if (item[k] === undefined) return mergeInto({} as Rec, item);
  return item as Rec;
}
