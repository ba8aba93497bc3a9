/**
 * The coalescing queue of the cells Excel calculates (dataloader's batch scheduling, with Excel's
 * pace): requests wait a quiet window after the last one (at most `maxWaitMs` after the first),
 * then go out together, planned credit-minimally. A full identification batch goes out at once,
 * without waiting for the timer: the 101st company asking for a profile sends the first 100 (batches
 * ask for every profile field, so a later cell wanting another field of those companies finds it
 * cached). Financial batches wait for the window: a company's other years may still come (Excel's
 * calculation order is not documented; a fill that goes column by column — one year for every
 * company, then the next year — would cost one batch per year instead of one range batch).
 * Identical requests share one want, also while it is in flight. A cancelled cell leaves its want;
 * a want no cell waits for is not sent.
 */
import { AbortedError } from "../api/errors";
import type { CancelSignal } from "../api/types";
import { MAX_BATCH_IDENTIFICATION } from "../api/client";
import type { Rec, Waiter, Want } from "./wants";

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
  private readonly pendingProfiles = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstPendingAt: number | null = null;
  private lastPendingAt = 0;
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

  /** Waits for the answer `key` gives, with `fields` in it. */
  request(kind: Want["kind"], key: string, cui: number, year: number, fields: readonly string[], signal?: CancelSignal): Promise<Rec> {
    if (signal?.aborted) return Promise.reject(new AbortedError());
    return new Promise<Rec>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, settled: false };
      const flying = this.inflight.get(key);
      let want: Want;
      if (flying && !flying.done && fields.every((f) => flying.fields.has(f))) {
        want = flying;
      } else {
        let p = this.pending.get(key);
        if (!p) {
          p = { key, kind, cui, year, fields: new Set(), waiters: new Set() };
          this.pending.set(key, p);
          this.track(p);
        }
        want = p;
        for (const f of fields) want.fields.add(f);
        this.schedule();
      }
      want.waiters.add(waiter);
      signal?.addEventListener(
        "abort",
        () => {
          if (waiter.settled) return;
          waiter.settled = true;
          want.waiters.delete(waiter);
          if (want.waiters.size === 0 && this.pending.get(key) === want) this.untrack(want);
          reject(new AbortedError());
        },
        { once: true },
      );
      this.flushFull();
    });
  }

  /** Sends what is queued now. Tests call it to flush without waiting for the window. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.firstPendingAt = null;
    const wants = [...this.pending.values()];
    this.pending = new Map();
    this.pendingProfiles.clear();
    return this.dispatch(wants);
  }

  /** Resolves when no flush is running (the CLI waits for it before it reports or exits). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private track(w: Want): void {
    if (w.kind === "profile") this.pendingProfiles.add(w.key);
  }

  private untrack(w: Want): void {
    this.pending.delete(w.key);
    if (w.kind === "profile") this.pendingProfiles.delete(w.key);
  }

  /** A full identification batch goes out at once: the first 100 profiles. */
  private flushFull(): void {
    if (this.pendingProfiles.size > MAX_BATCH_IDENTIFICATION) {
      const keys = [...this.pendingProfiles].slice(0, MAX_BATCH_IDENTIFICATION);
      void this.dispatch(this.take(keys));
    }
  }

  private take(keys: string[]): Want[] {
    const out: Want[] = [];
    for (const k of keys) {
      const w = this.pending.get(k);
      if (!w) continue;
      this.untrack(w);
      out.push(w);
    }
    if (this.pending.size === 0) this.firstPendingAt = null;
    return out;
  }

  private dispatch(all: Want[]): Promise<void> {
    const wants = all.filter((w) => w.waiters.size > 0);
    if (wants.length === 0) return Promise.resolve();
    for (const w of wants) this.inflight.set(w.key, w);
    const run = this.o
      .send(wants)
      .catch((e) => {
        for (const w of wants) if (!w.done) w.waiters.forEach((x) => !x.settled && ((x.settled = true), x.reject(e)));
      })
      .finally(() => {
        for (const w of wants) {
          if (this.inflight.get(w.key) === w) this.inflight.delete(w.key);
          // Every promise settles, even if a bug left one behind.
          for (const x of w.waiters) {
            if (x.settled) continue;
            x.settled = true;
            x.reject(new Error(`FIRMA: cererea pentru ${w.key} nu a primit răspuns. / No answer for ${w.key}.`));
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
   * (resetting cost a clearTimeout and a setTimeout per cell).
   */
  private schedule(): void {
    const now = Date.now();
    this.lastPendingAt = now;
    if (this.firstPendingAt === null) this.firstPendingAt = now;
    if (!this.timer) this.arm(now);
  }

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
