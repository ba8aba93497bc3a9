/**
 * A want: one answer (a profile, or one financial year of a company) that cells wait for, with
 * the fields they need; identical cells share it, also while it is being fetched. Every waiter
 * settles exactly once (dataloader's rule: a failed batch rejects all its keys).
 */
import { NotFoundError } from "../../api/errors";
import type { PersistentCache } from "../cache/cache";
import { failureHas } from "../failures";

export type Rec = Record<string, unknown> & { cui: number };

/**
 * One cell (or one run of the refresh) waiting for a want, told exactly once. What a waiting cell
 * holds is what settling needs, nothing more (queue.ts, CellWaiter; docs/architecture.md, "What a waiting cell holds").
 */
export interface Waiter {
  resolve(v: Rec): void;
  reject(e: unknown): void;
  settled: boolean;
}

/**
 * A cell's completion: what a waiting cell's value becomes before its promise settles, the cell as
 * its host shows it (the add-in: Excel's matrix, or the error thrown). The queue's waiter calls it, so
 * the promise a cell hands Excel is the queue's own, with no promise chained after it per cell.
 * `error` may throw: the promise rejects with what it threw.
 */
export interface Completion {
  value(v: unknown): unknown;
  error(e: unknown): unknown;
}

export interface Want {
  key: string;
  kind: "profile" | "financial";
  cui: number;
  year: number;
  /**
   * The fields the cells need, each once. An array, not a Set: most wants need one field, and the
   * queue shares one frozen list per field (answers.ts `one`) until a second field joins.
   */
  fields: readonly string[];
  /** The cells waiting, in order (an array: a Set per want cost a few hundred bytes per waiting company). */
  waiters: Waiter[];
  /** Settled or failed: late arrivals must not join it. */
  done?: boolean;
  /** Why it failed, when it did (the CLI's report, a cache-only read after a refresh). */
  error?: unknown;
}

/** Whether any cell still waits for the want. */
export function live(w: Want): boolean {
  for (const x of w.waiters) if (!x.settled) return true;
  return false;
}

export function covers(rec: Record<string, unknown>, fields: Iterable<string>): boolean {
  for (const f of fields) if (rec[f] === undefined) return false;
  return true;
}

export function settle(w: Want, rec: Rec | null): void {
  w.done = true;
  for (const waiter of w.waiters) {
    if (waiter.settled) continue;
    waiter.settled = true;
    if (rec === null) waiter.reject(notFound(w.cui, w.kind === "financial" ? w.year : undefined));
    else waiter.resolve(rec);
  }
}

/** Rejects a want's waiters, unless a stale cached answer stands in (failures.ts). */
export function fail(w: Want, e: unknown, cache: PersistentCache): void {
  if (w.done) return;
  w.error = e;
  if (failureHas(e, "staleStandsIn")) {
    const stale = cache.peek<Rec | null>(w.key);
    if (stale && (stale.value === null || covers(stale.value, w.fields))) {
      settle(w, stale.value);
      return;
    }
  }
  w.done = true;
  for (const waiter of w.waiters) {
    if (waiter.settled) continue;
    waiter.settled = true;
    waiter.reject(e);
  }
}

/**
 * The error of a company or year the service does not have. An expected answer, not a fault, and
 * thrown for every recalculated cell that shows it: made without a stack trace, which is costly to
 * capture and would say nothing.
 */
export function notFound(cui: number, year?: number | string): NotFoundError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const e = new NotFoundError({ status: 404 });
    Object.assign(e, { cui, year: year ?? null });
    return e;
  } finally {
    Error.stackTraceLimit = limit;
  }
}
