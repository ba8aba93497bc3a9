/**
 * The one gate every call to the service passes, so that no path can spend what the user did not
 * allow:
 *  - at most `concurrency` calls in flight (lanes.ts says how many the connection carries); a call
 *    whose cells were all cancelled before its turn is dropped unsent;
 *  - after "credits spent" (a 429, or the service's `X-Credits-Remaining` reaching 0) no call with
 *    that key until the plan's period turns over (the day on Free, the month on paid plans, or the
 *    answer's `Retry-After`), the key changes or the user asks to retry (`clearStop`): the cells
 *    then settle at once, at zero calls; persisted, so reopening does not knock again;
 *  - budgets: while one is open, an attempt that could take it past its limit is never sent;
 *  - a breaker: after consecutive calls that got no usable answer (down, timing out), no new call
 *    starts until those in flight have ended, and one attempt alone tries the service (the probe):
 *    the first retry of a call in flight, or else the next call queued. The other retries wait for
 *    its verdict. An answer closes the breaker: the waiting retries are sent and the calls go on as
 *    before. No answer opens it: the waiting retries are refused, and queued calls fail at once for
 *    a short while instead of each waiting out its own timeouts. A burst of failures that says
 *    nothing of the service (connections that all broke at once, as when a busy process lets its
 *    idle connections go stale; a few slow answers that happened to fill every lane) thus costs one
 *    attempt's wait, not every call queued behind it (bench W7 saw 856 batches fail that way without
 *    the probe), nor the calls whose retries came while the probe was out;
 *  - near the Free plan's daily limit while the key's plan is unknown (or Free), one call at a time:
 *    a call that could be past the limit, counting those in flight as spent, waits until none is in
 *    flight and goes alone. Its 429 sets the stop above, and the cells behind it settle at zero
 *    calls; its answer shows the key is not Free (the meter counts the day's answers, persisted),
 *    and the calls go on at full concurrency. Without credit headers a Free key's first fill thus
 *    costs at most 11 calls, not 10 plus every call in flight when the 10th was answered.
 * Attempts, retries included, are counted as the client reports them: charged unless refused
 * before charging (http.ts `mayHaveCharged`).
 */
import { ApiError, CreditsExhaustedError, NetworkError, TimeoutError } from "../../api/errors";
import { ASK_AGAIN } from "../../api/http";
import type { CallRecord, FirmLimit, PlanName } from "../../api/types";
import { LocalInputError } from "../local-errors";
import { kindHas } from "../failures";
import { bucharestDay, nextBucharestMidnight, nextBucharestMonth } from "./bucharest-time";
import type { CreditMeter } from "./meter";
import { KeyValueStore, readJson } from "../cache/store";
import { PLANS } from "./subscription-plans";

export interface QuotaStop {
  /** When the stop began and when it clears (ms since the epoch). */
  since: number;
  until: number;
  /** What set the clearing time: the answer's Retry-After, or the plan's period. */
  by: "retry-after" | "day" | "month";
  /**
   * Whose limit it is, when a firm's server (firma serve in custody mode) said so (its 429's code, or
   * its person's budget at 0): the person's monthly budget there, or the firm's daily cap; absent, the plan's credits.
   */
  firm?: FirmLimit;
}

export interface Budget {
  readonly limit: number;
  /**
   * Attempts that may have been charged since the budget opened. Once closed, it also counts the
   * attempts still in flight then: the service may charge them after the budget stopped listening
   * (a flush's deadline can end the wait before its request does), so what a refresh reports spent
   * is never less than what the service charged.
   */
  readonly spent: number;
  /**
   * Of `spent`, the attempts whose answer does not say they were charged: no answer at all (a broken
   * connection, a timeout, still on its way when the budget closed) or an answer the service may not
   * charge (a 5xx, a 400). The service may or may not have charged them (a kept-alive connection the
   * service had already closed never reached it): what it charged lies between `spent - uncertain`
   * and `spent`.
   */
  readonly uncertain: number;
  /** Attempts refused because the budget was reached. */
  readonly refused: number;
  close(): void;
}

/** A local refusal: the budget would be exceeded. Nothing was sent. */
export class BudgetReachedError extends LocalInputError {
  constructor(limit: number) {
    super("budget_reached", `This refresh's budget of ${limit} credits is reached; the previous value was kept.`);
  }
}

/** The call was not sent: its cells were all cancelled before its turn. */
export const DROPPED: unique symbol = Symbol("firma.dropped");

const STOPS_KEY = "firma.stops.v1";
const BREAKER_AFTER = 6;
const BREAKER_MS = 15_000;

/** A hold of the attempts waiting for the probe's verdict (http.ts: ASK_AGAIN asks the gate again). */
function promised(): { promise: Promise<typeof ASK_AGAIN>; tell: () => void } {
  let tell = () => undefined as void;
  const promise = new Promise<typeof ASK_AGAIN>((resolve) => (tell = () => resolve(ASK_AGAIN)));
  return { promise, tell };
}

interface OpenBudget {
  limit: number;
  spent: number;
  uncertain: number;
  reserved: number;
  refused: number;
  open: boolean;
}

export class CallGate {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private stops: Record<string, QuotaStop> = {};
  /** What the answers said is left, per key, today; `firm`: a person's budget on a firm's server. */
  private readonly remaining = new Map<string, { day: string; value: number; firm: FirmLimit | undefined }>();
  private readonly inflightByKey = new Map<string, number>();
  private readonly budgets = new Set<OpenBudget>();
  private failures = 0;
  /** Enough failures in a row: no new call until those in flight end, and one attempt alone (the probe). */
  private suspect = false;
  /** The probe has been sent: the other attempts wait for its verdict. */
  private probing = false;
  /** The probe's attempt (CallRecord.id); null when the client does not number them. */
  private probeId: number | null = null;
  /** Attempts past beforeCall whose afterCall has not come, all keys. */
  private attemptsOut = 0;
  /** Told when the probe's verdict is in (or it ended without one): the waiting attempts ask again. */
  private verdict: { promise: Promise<typeof ASK_AGAIN>; tell: () => void } | null = null;
  private breakerUntil = 0;
  private breakerError: unknown = null;
  private loaded: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: KeyValueStore,
    private concurrency: number,
    private readonly now: () => number,
    /** The plan the user chose, if any (else the one the meter saw the service report). */
    private readonly chosenPlan: (keyId: string) => PlanName | null | undefined,
    /** The meter and the key calls go out with: the pacing near the Free limit; without them, none. */
    private readonly meter: Pick<CreditMeter, "today" | "detectedPlan"> | null = null,
    private readonly keyOf: () => string = () => "",
  ) {}

  private planOf(keyId: string): PlanName | null {
    return this.chosenPlan(keyId) ?? this.meter?.detectedPlan(keyId) ?? null;
  }

  load(): Promise<void> {
    if (!this.loaded) {
      this.loaded = readJson<Record<string, QuotaStop>>(this.store, STOPS_KEY, {}).then((s) => {
        this.stops = { ...(s ?? {}), ...this.stops };
      });
    }
    return this.loaded;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- concurrency ---------------------------------------------------------------------------

  /**
   * Runs `task` when a place among the calls in flight is free; `wanted` is asked then, and a task
   * no cell waits for any more is dropped (DROPPED) without being sent. `task` is handed its place's
   * release: the client calls it when the answer is final and usable (RequestOptions.onAnswer), so
   * the next call goes out before this answer is read, stored and shown.
   */
  run<T>(task: (release: () => void) => Promise<T>, wanted: () => boolean = () => true): Promise<T | typeof DROPPED> {
    return new Promise((resolve, reject) => {
      this.queue.push(() => {
        if (!wanted()) {
          this.release();
          resolve(DROPPED);
          return;
        }
        let held = true;
        const free = () => {
          if (held) {
            held = false;
            this.release();
          }
        };
        // An answer frees its place at the latest before the caller reads it (earlier, at onAnswer). A
        // failure frees it after the caller has seen it (the breaker counts it before another call may start).
        task(free).then(
          (v) => {
            free();
            resolve(v);
          },
          (e) => {
            reject(e);
            queueMicrotask(free);
          },
        );
      });
      this.next();
    });
  }

  /** Changes the calls in flight at once (credits/lanes.ts: wider over HTTP/2 to the page's own server). */
  setConcurrency(n: number): void {
    if (n === this.concurrency) return;
    this.concurrency = n;
    this.next();
  }

  /** Calls in flight or waiting for their turn. */
  get busy(): number {
    return this.active + this.queue.length;
  }

  private next(): void {
    while (this.queue.length > 0) {
      if (this.suspect) {
        // The breaker's question: the calls in flight end first (one of their retries may ask it),
        // then one call alone asks the service (its attempt claims the probe in beforeCall).
        if (this.active > 0) return;
      } else if (this.active >= this.concurrency || this.nearFreeLimit()) return;
      this.active++;
      this.queue.shift()!();
    }
  }

  /**
   * Whether the next call waits for those in flight: the key's plan is unknown (or Free), no answer
   * today went past the Free plan's daily calls, and the next call could (today's calls as the meter
   * counts them, plus those in flight, spent). A stopped key's calls fail at once, unsent: no wait.
   */
  private nearFreeLimit(): boolean {
    if (this.meter === null || this.active === 0) return false;
    const id = this.keyOf();
    const plan = this.planOf(id);
    if ((plan !== null && plan !== "free") || this.stopFor(id)) return false;
    const limit = PLANS.free.dailyCalls ?? 0;
    const today = this.meter.today(id);
    if (today.answered > limit) return false;
    return today.calls + Math.max(this.active, this.inflightByKey.get(id) ?? 0) + 1 > limit;
  }

  private release(): void {
    this.active--;
    this.next();
  }

  // ---- the client's hooks ----------------------------------------------------------------------

  /**
   * Before every attempt (http.ts; `id`: the attempt's, as its CallRecord will give it): throws to
   * keep it from being sent; returns a promise to hold it, and the client asks again once it settles
   * (within the call's time).
   */
  beforeCall(keyId: string, id?: number): void | Promise<typeof ASK_AGAIN> {
    const stop = this.stopFor(keyId);
    if (stop) throw this.stoppedError(stop);
    if (this.now() < this.breakerUntil) throw this.breakerError ?? new NetworkError();
    // While the breaker asks its question, only the probe is sent (each attempt at a service that
    // does not answer may cost): the first attempt let through asks it, the others wait for its verdict.
    if (this.suspect && this.probing) {
      this.verdict ??= promised();
      return this.verdict.promise;
    }
    const left = this.remaining.get(keyId);
    if (left && left.day === bucharestDay(this.now()) && left.value - (this.inflightByKey.get(keyId) ?? 0) <= 0) {
      // The service said how many credits are left, and calls in flight will use them up.
      if ((this.inflightByKey.get(keyId) ?? 0) === 0) this.setStop(keyId, null, null, left.firm);
      throw new CreditsExhaustedError({ status: 0, firmLimit: left.firm });
    }
    for (const b of this.budgets) {
      if (b.spent + b.reserved >= b.limit) {
        b.refused++;
        throw new BudgetReachedError(b.limit);
      }
    }
    for (const b of this.budgets) b.reserved++;
    this.inflightByKey.set(keyId, (this.inflightByKey.get(keyId) ?? 0) + 1);
    this.attemptsOut++;
    if (this.suspect) {
      // this attempt, let through, is the probe
      this.probing = true;
      this.probeId = id ?? null;
    }
  }

  /** After every attempt, with what the client recorded. */
  afterCall(keyId: string, call: CallRecord): void {
    this.inflightByKey.set(keyId, Math.max(0, (this.inflightByKey.get(keyId) ?? 1) - 1));
    this.attemptsOut = Math.max(0, this.attemptsOut - 1);
    for (const b of this.budgets) {
      b.reserved = Math.max(0, b.reserved - 1);
      if (call.charged) b.spent++;
      if (call.charged && !call.credited) b.uncertain++;
    }
    if (call.quota?.remaining != null) {
      const day = bucharestDay(this.now());
      const known = this.remaining.get(keyId);
      // Counts only fall within a period; answers arrive out of order, so the lowest one is the latest.
      const value = known && known.day === day ? Math.min(known.value, call.quota.remaining) : call.quota.remaining;
      // A firm's server's counts are the person's budget there.
      const firm = call.quota.scope === "firm-budget" ? "budget" : undefined;
      this.remaining.set(keyId, { day, value, firm });
      if (value <= 0) this.setStop(keyId, null, null, firm);
    }
    // A rate limit asks for fewer calls at once, not a stop: the client waits and sends it again (http.ts).
    if (call.status === 429 && !call.rateLimited) this.setStop(keyId, call.retryAfterMs ?? null, call.quota?.plan ?? null, call.firmLimit);
    // The probe's own outcome is its verdict; an attempt sent before it that ends meanwhile is one more
    // failure or, answered, proof enough that the service answers.
    const probe = this.probing && (this.probeId === null || call.id === undefined || call.id === this.probeId);
    if (kindHas(call.errorKind, "noAnswer")) {
      // While open, queued calls fail at once with what the last ones met.
      this.breakerError = call.errorKind === "timeout" ? new TimeoutError(call.durationMs) : new NetworkError();
      this.failures++;
      if (probe) {
        // The probe got no answer either: the service is down for now.
        this.breakerUntil = this.now() + BREAKER_MS;
        this.suspect = this.probing = false;
      } else if (this.failures >= BREAKER_AFTER && this.now() >= this.breakerUntil) this.suspect = true;
    } else if (call.status > 0) {
      this.failures = 0;
      this.breakerUntil = 0;
      this.suspect = this.probing = false;
    } else if (this.probing && (probe || this.attemptsOut === 0)) {
      // The probe ended without a verdict (its caller gave up): the next attempt asks the question.
      this.probing = false;
    }
    if (!this.probing && this.verdict) {
      this.verdict.tell();
      this.verdict = null;
    }
    this.changed();
  }

  /** Remembers the error the breaker answers with while it is open. */
  noteFailure(e: unknown): void {
    if (e instanceof ApiError && kindHas(e.kind, "noAnswer") && e.status === 0) this.breakerError = e;
  }

  // ---- credits spent ---------------------------------------------------------------------------

  stopFor(keyId: string): QuotaStop | null {
    const s = this.stops[keyId];
    if (!s) return null;
    if (this.now() >= s.until) {
      delete this.stops[keyId];
      this.remaining.delete(keyId);
      void this.saveStops();
      return null;
    }
    return s;
  }

  /** The user asks to try again (or knows the plan was topped up). */
  clearStop(keyId: string): void {
    delete this.stops[keyId];
    this.remaining.delete(keyId);
    void this.saveStops();
    this.changed();
  }

  private setStop(keyId: string, retryAfterMs: number | null, plan: PlanName | null = null, firm?: FirmLimit): void {
    const now = this.now();
    const p = plan ?? this.planOf(keyId);
    // A firm's budget is monthly and its cap daily, whatever the plan behind the server.
    const by: QuotaStop["by"] =
      retryAfterMs != null ? "retry-after" : firm === "budget" ? "month" : firm === "day" ? "day" : p && p !== "free" ? "month" : "day";
    const until = retryAfterMs != null ? now + retryAfterMs : by === "month" ? nextBucharestMonth(now) : nextBucharestMidnight(now);
    const old = this.stops[keyId];
    if (old && old.until >= until) return;
    this.stops[keyId] = { since: old?.since ?? now, until, by, ...(firm ? { firm } : {}) };
    void this.saveStops();
    this.changed();
  }

  private stoppedError(stop: QuotaStop): CreditsExhaustedError {
    const e = new CreditsExhaustedError({ status: 0, firmLimit: stop.firm });
    Object.assign(e, { until: stop.until });
    return e;
  }

  private async saveStops(): Promise<void> {
    try {
      await this.store.setItem(STOPS_KEY, JSON.stringify(this.stops));
    } catch {
      /* the stop still holds in memory; only a reload would forget it */
    }
  }

  // ---- budgets ---------------------------------------------------------------------------------

  /** Opens a budget: from now on, attempts that may be charged stop at `limit` while it is open. */
  openBudget(limit: number): Budget {
    if (!(Number.isInteger(limit) && limit >= 0)) throw new TypeError("a budget is a whole number of credits ≥ 0");
    const b: OpenBudget = { limit, spent: 0, uncertain: 0, reserved: 0, refused: 0, open: true };
    this.budgets.add(b);
    return {
      limit,
      get spent() {
        return b.spent;
      },
      get uncertain() {
        return b.uncertain;
      },
      get refused() {
        return b.refused;
      },
      close: () => {
        if (!b.open) return;
        b.open = false;
        this.budgets.delete(b);
        // Attempts still in flight may yet be charged: counted now, since no afterCall reaches a closed budget.
        b.spent += b.reserved;
        b.uncertain += b.reserved;
        b.reserved = 0;
      },
    };
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        /* a listener's failure is its own */
      }
    }
  }
}
