/**
 * The coalescing queue of the cells Excel calculates (dataloader's batch scheduling, with Excel's
 * pace): requests wait a quiet window after the last one (at most `maxWaitMs` after the first),
 * then go out together, planned credit-minimally. A full identification batch goes out at once,
 * without waiting for the timer: the 101st company asking for a profile sends the first 100 (batches
 * ask for every profile field, so a later cell wanting another field of those companies finds it
 * cached; the 100th company's other cells, which Excel may invoke right after its first, still join
 * its want before it leaves: sending at the 100th cost bench W7 11 calls more than its 3,000).
 * Financial batches wait for the window: a company's other years may still come (Excel's
 * calculation order is not documented; a fill that goes column by column — one year for every
 * company, then the next year — would cost one batch per year instead of one range batch).
 * Identical requests share one want, also while it is in flight. A cancelled cell leaves its want;
 * a want no cell waits for is not sent.
 */
import { AbortedError } from "../../api/errors";
import type { CancelSignal } from "../../api/types";
import { MAX_BATCH_IDENTIFICATION } from "../../api/client";
import type { Completion, Rec, Waiter, Want } from "./wants";

export interface QueueOptions {
  windowMs: number;
  maxWaitMs: number;
  /** Sends a flush's wants; every want has settled or failed when it resolves. */
  send: (wants: Want[]) => Promise<void>;
}

export class RequestQueue {
  private windowMs: number;
  private pending = new Map<string, Want>();
  private readonly inflight = new Map<string, Want>();
  /** Profile wants among the pending ones: a full identification batch goes at once. */
  private pendingProfiles = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstPendingAt: number | null = null;
  private lastPendingAt = 0;
  /** A run of requests is under way: the clock was read at its start and is read again at its end. */
  private stamping = false;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly o: QueueOptions) {
    this.windowMs = o.windowMs;
  }

  /**
   * A new quiet window, from the next request on (the pane's setting, applied when saved). A window
   * longer than maxWaitMs stretches the longest wait with it: the user asked to wait that long.
   */
  setWindow(ms: number): void {
    this.windowMs = ms;
  }

  private maxWait(): number {
    return Math.max(this.o.maxWaitMs, this.windowMs);
  }

  /**
   * Waits for the answer `key` gives, with `fields` in it: the record, or its field `pick` alone
   * (a cell's one value: no second promise to take it out of the record).
   */
  request(kind: Want["kind"], key: string, cui: number, year: number, fields: readonly string[], signal?: CancelSignal): Promise<Rec>;
  request(
    kind: Want["kind"],
    key: string,
    cui: number,
    year: number,
    fields: readonly string[],
    signal: CancelSignal | undefined,
    pick: string | null,
    completion?: Completion,
  ): Promise<unknown>;
  request(
    kind: Want["kind"],
    key: string,
    cui: number,
    year: number,
    fields: readonly string[],
    signal?: CancelSignal,
    pick: string | null = null,
    completion: Completion | null = null,
  ): Promise<unknown> {
    if (signal?.aborted) return completeFailure(completion, new AbortedError());
    const promise = new Promise<unknown>(KEEP_RESOLVERS);
    const flying = this.inflight.get(key);
    let want: Want;
    if (flying && !flying.done && includesAll(flying.fields, fields)) {
      want = flying;
    } else {
      let p = this.pending.get(key);
      if (!p) {
        // waiters filled below (an empty array literal would reserve room for 17 at its first push)
        p = { key, kind, cui, year, fields, waiters: NO_WAITERS };
        this.pending.set(key, p);
        if (kind === "profile") this.pendingProfiles++;
      } else if (!includesAll(p.fields, fields)) {
        p.fields = union(p.fields, fields);
      }
      want = p;
      this.schedule();
    }
    const waiter = new CellWaiter(resolveNext!, pick, completion, want, this);
    resolveNext = null;
    want.waiters = joined(want.waiters, waiter);
    // The listener is the waiter itself (an EventListener object: handleEvent), not a closure per cell.
    signal?.addEventListener("abort", waiter, ONCE);
    if (this.pendingProfiles > MAX_BATCH_IDENTIFICATION) this.flushFull();
    return promise;
  }

  /** A cancelled cell leaves its want; a pending want no cell waits for any more is not sent. */
  leave(waiter: CellWaiter, want: Want): void {
    const i = want.waiters.indexOf(waiter);
    if (i >= 0) want.waiters.splice(i, 1);
    if (want.waiters.length === 0 && this.pending.get(want.key) === want) this.untrack(want);
  }

  /** Sends what is queued now. Tests call it to flush without waiting for the window. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.firstPendingAt = null;
    const wants = [...this.pending.values()];
    this.pending = new Map();
    this.pendingProfiles = 0;
    return this.dispatch(wants);
  }

  /** Resolves when no flush is running (the CLI waits for it before it reports or exits). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private untrack(w: Want): void {
    if (this.pending.delete(w.key) && w.kind === "profile") this.pendingProfiles--;
  }

  /** A full identification batch goes out at once: the first 100 profiles pending (the 101st company sends them). */
  private flushFull(): void {
    const out: Want[] = [];
    if (this.pending.size === this.pendingProfiles) {
      // Only profiles are pending (a column of names): the first 100 go, the map starts anew with the rest.
      const rest = new Map<string, Want>();
      for (const w of this.pending.values()) {
        if (out.length < MAX_BATCH_IDENTIFICATION) out.push(w);
        else rest.set(w.key, w);
      }
      this.pending = rest;
      this.pendingProfiles = rest.size;
    } else {
      for (const w of this.pending.values()) {
        if (w.kind !== "profile") continue;
        out.push(w);
        if (out.length === MAX_BATCH_IDENTIFICATION) break;
      }
      for (const w of out) this.untrack(w);
    }
    if (this.pending.size === 0) this.firstPendingAt = null;
    void this.dispatch(out);
  }

  private dispatch(all: Want[]): Promise<void> {
    const wants = all.filter((w) => w.waiters.length > 0);
    if (wants.length === 0) return Promise.resolve();
    for (const w of wants) this.inflight.set(w.key, w);
    const run = this.o
      .send(wants)
      .catch((e) => {
        for (const w of wants) if (!w.done) for (const x of w.waiters) if (!x.settled) ((x.settled = true), x.reject(e));
      })
      .finally(() => {
        for (const w of wants) {
          if (this.inflight.get(w.key) === w) this.inflight.delete(w.key);
          // Every promise settles, even if a bug left one behind.
          for (const x of w.waiters) {
            if (x.settled) continue;
            x.settled = true;
            x.reject(new Error(`FIRMA: no answer for ${w.key}.`));
          }
        }
        this.running.delete(run);
      });
    this.running.add(run);
    return run;
  }

  /**
   * The flush is due a quiet window after the last request, and at most maxWaitMs after the first.
   * One timer serves a whole fill: it is re-armed when it fires early, not reset at every request
   * (resetting cost a clearTimeout and a setTimeout per cell). The clock is read once per run of
   * requests, not per cell (Excel invokes a calculation's cells one after another in one task, and a
   * clock read costs about as much as the rest of a request): the first request of a run reads it,
   * and a microtask reads it again when the run ends, which is when its last request came.
   */
  private schedule(): void {
    if (this.stamping) return;
    this.stamping = true;
    this.stamp(Date.now());
    queueMicrotask(this.runEnded);
  }

  private stamp(now: number): void {
    this.lastPendingAt = now;
    if (this.firstPendingAt === null) this.firstPendingAt = now;
    if (!this.timer) this.arm(now);
  }

  /** The run of requests that read the clock has ended: its last request came now. */
  private readonly runEnded = (): void => {
    this.stamping = false;
    if (this.pending.size > 0) this.stamp(Date.now());
  };

  private arm(now: number): void {
    const due = Math.min(this.lastPendingAt + this.windowMs, (this.firstPendingAt ?? now) + this.maxWait());
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.firstPendingAt === null) {
          if (this.pending.size > 0) this.schedule();
          return;
        }
        const t = Date.now();
        if (t < Math.min(this.lastPendingAt + this.windowMs, this.firstPendingAt + this.maxWait())) this.arm(t);
        else void this.flush();
      },
      Math.max(0, due - now),
    );
  }
}

const ONCE = { once: true } as const;

/** A promise of what `completion` makes of a failure known at once (the promise of the failure itself without one). */
export function completeFailure(completion: Completion | null | undefined, e: unknown): Promise<unknown> {
  if (!completion) return Promise.reject(e);
  try {
    return Promise.resolve(completion.error(e));
  } catch (x) {
    return Promise.reject(x);
  }
}
const NO_WAITERS: Waiter[] = [];

/**
 * The resolve function of the promise being made: one executor for every request, so that a waiting
 * cell costs no executor closure. Its reject function is not kept: a waiter rejects by resolving with a
 * rejected promise, so the reject function (~64 bytes) dies at once instead of waiting with every cell
 * (bench W7: 500,000 of them, promoted to the old generation with the cell).
 */
let resolveNext: ((v: unknown) => void) | null = null;
const KEEP_RESOLVERS = (resolve: (v: unknown) => void): void => {
  resolveNext = resolve;
};

/**
 * What a waiting cell holds: its promise's resolve function, the field it shows (or null for
 * the whole record), and, for a cancellation, its want and queue. It is also the cell's abort
 * listener (handleEvent), so a cell that waits makes no closure. Methods live on the prototype.
 */
class CellWaiter implements Waiter {
  settled = false;

  constructor(
    private readonly res: (v: unknown) => void,
    private readonly pick: string | null,
    private readonly completion: Completion | null,
    private readonly want: Want,
    private readonly queue: RequestQueue,
  ) {}

  resolve(rec: Rec): void {
    const v = this.pick === null ? rec : (rec[this.pick] ?? null);
    if (this.completion === null) return this.res(v);
    try {
      this.res(this.completion.value(v));
    } catch (e) {
      this.res(Promise.reject(e));
    }
  }

  reject(e: unknown): void {
    // Resolved with a rejected promise, the cell's promise rejects with its reason (two microtasks later).
    if (this.completion === null) return this.res(Promise.reject(e));
    try {
      this.res(this.completion.error(e));
    } catch (x) {
      this.res(Promise.reject(x));
    }
  }

  /** The cell was cancelled. */
  handleEvent(): void {
    if (this.settled) return;
    this.settled = true;
    this.queue.leave(this, this.want);
    this.reject(new AbortedError());
  }
}

function includesAll(have: readonly string[], fields: readonly string[]): boolean {
  if (have === fields) return true;
  for (let i = 0; i < fields.length; i++) if (!have.includes(fields[i])) return false;
  return true;
}

/**
 * `a` and the fields of `b` it lacks, in an array of exactly that length. A push onto a full array
 * grows its store to length × 1.5 + 16 slots: ~170 bytes for a field or two, in every want of a fill
 * (200,000 in bench W7).
 */
function union(a: readonly string[], b: readonly string[]): string[] {
  let more: string[] | null = null;
  for (const f of b) if (!a.includes(f) && !more?.includes(f)) (more ??= []).push(f);
  return more === null ? a.slice() : a.concat(more);
}

/**
 * The want's waiters with one more: a new array of exactly that length while they are few (a company's
 * cells: two to five), not a push, which grows the store to 17 slots (~170 bytes per want); then pushed.
 */
function joined(waiters: Waiter[], w: Waiter): Waiter[] {
  if (waiters === NO_WAITERS) return [w];
  if (waiters.length >= 8) {
    waiters.push(w);
    return waiters;
  }
  return waiters.concat(w);
}
