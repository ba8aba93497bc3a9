/**
 * How many calls `firma serve` has at the service at once: the server, not each person's add-in, is
 * where the service's rate limit (which it does not publish) is met. Over HTTP/2 an add-in asks many
 * things at once; what reaches the service is governed here, as TCP governs its window:
 *  - it begins at `initial` calls at once and grows while the answers stay fast and clean: by one for
 *    each clean answer until the first sign of overload (the limit doubles with every round of calls),
 *    then by one for each round (a limit's worth of clean answers);
 *  - a 429, a 503 or a 504 from the service, or a call that timed out, halves it (never below 1) and
 *    ends the doubling; the calls that were already out when it halved do not halve it again;
 *  - an answer much slower than the fastest of the recent ones (`slowFactor` times) does not grow it,
 *    and nor does one while the limit is not in use, when it was sent nor when it came back (fewer
 *    calls out than it allows and none waiting): the limit grows with use only;
 *  - it never passes `ceiling` (`firma serve --upstream-concurrency`).
 * Other answers (a 404, a 400, a 500, a connection that broke) say nothing of the service's load.
 *
 * `run` holds a place among the calls at once for a task (the firm loader's whole call: its credit
 * reserved, the service asked, the answers kept); `observe` wraps the call to the service itself, and
 * tells the governor what came back. Deterministic: no timer, the clock injected.
 */

/** What one call to the service said about its load. */
export type Verdict = "clean" | "overload" | "neutral";

export interface GovernorOptions {
  /** The most calls at once, whatever the answers. @default 128 */
  ceiling?: number;
  /** Calls at once to begin with. @default the smaller of 16 and the ceiling */
  initial?: number;
  /** An answer slower than this many times the fastest of the last 32 clean ones is not fast. @default 2 */
  slowFactor?: number;
  /** @default performance.now */
  now?: () => number;
}

export const GOVERNOR_DEFAULTS = { ceiling: 128, initial: 16, slowFactor: 2 } as const;

/** The verdict of an HTTP status from the service: 429, 503 and 504 say it is overloaded; 200 and 404 are clean. */
export function verdictOf(status: number): Verdict {
  if (status === 429 || status === 503 || status === 504) return "overload";
  return status === 200 || status === 404 ? "clean" : "neutral";
}

/** A call on its way: when it left, in which epoch (halvings so far), and whether the limit was in use then. */
interface Ticket {
  at: number;
  epoch: number;
  full: boolean;
}

const RECENT = 32;

export class UpstreamGovernor {
  readonly ceiling: number;
  private current: number;
  /** The limit up to which it doubles: the ceiling until the first overload, then the halved limit. */
  private threshold: number;
  private credit = 0;
  private epoch = 0;
  private active = 0;
  private sending = 0;
  private readonly queue: (() => void)[] = [];
  private readonly recent: number[] = [];
  private readonly slowFactor: number;
  private readonly now: () => number;
  /** What it did, for the metrics and the tests. */
  readonly stats = { overloads: 0, halvings: 0, highest: 0 };

  constructor(o: GovernorOptions = {}) {
    const ceiling = o.ceiling ?? GOVERNOR_DEFAULTS.ceiling;
    if (!(Number.isInteger(ceiling) && ceiling >= 1)) throw new TypeError("upstream governor: ceiling must be a whole number ≥ 1");
    const initial = o.initial ?? Math.min(GOVERNOR_DEFAULTS.initial, ceiling);
    if (!(Number.isInteger(initial) && initial >= 1 && initial <= ceiling))
      throw new TypeError("upstream governor: initial must be a whole number from 1 to the ceiling");
    this.ceiling = ceiling;
    this.current = initial;
    this.threshold = ceiling;
    this.slowFactor = o.slowFactor ?? GOVERNOR_DEFAULTS.slowFactor;
    this.now = o.now ?? (() => performance.now());
    this.stats.highest = initial;
  }

  /** Calls allowed at once now. */
  get limit(): number {
    return this.current;
  }

  /** Tasks holding a place now. */
  get inFlight(): number {
    return this.active;
  }

  /** Tasks waiting for a place. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `task` when a place is free (in order of arrival); its place is freed when it settles. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            this.active--;
            this.pump();
          });
      });
      this.pump();
    });
  }

  /**
   * Wraps one call to the service: `verdict` reads what came back (or what was thrown), and the
   * governor learns from it.
   */
  async observe<T>(call: () => Promise<T>, verdict: (outcome: { value: T } | { error: unknown }) => Verdict): Promise<T> {
    const t = this.sent();
    try {
      const value = await call();
      this.answered(t, verdict({ value }));
      return value;
    } catch (error) {
      this.answered(t, verdict({ error }));
      throw error;
    } finally {
      this.sending--;
    }
  }

  private sent(): Ticket {
    this.sending++;
    return { at: this.now(), epoch: this.epoch, full: this.inUse() };
  }

  /** As many calls out as it allows, or others waiting for a place. */
  private inUse(): boolean {
    return this.sending >= this.current || this.queue.length > 0;
  }

  private answered(t: Ticket, v: Verdict): void {
    if (v === "overload") {
      this.stats.overloads++;
      // One halving per round: the calls already out when it halved do not halve it again.
      if (t.epoch !== this.epoch) return;
      this.epoch++;
      this.stats.halvings++;
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.threshold = this.current;
      this.credit = 0;
      return;
    }
    if (v !== "clean") return;
    const ms = this.now() - t.at;
    const fastest = this.recent.length > 0 ? Math.min(...this.recent) : ms;
    this.recent.push(ms);
    if (this.recent.length > RECENT) this.recent.shift();
    if (!(t.full || this.inUse()) || ms > this.slowFactor * Math.max(fastest, 1)) return;
    if (this.current >= this.ceiling) return;
    if (this.current < this.threshold) this.current++;
    else if (++this.credit >= this.current) {
      this.credit = 0;
      this.current++;
    }
    this.stats.highest = Math.max(this.stats.highest, this.current);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.current && this.queue.length > 0) {
      this.active++;
      this.queue.shift()!();
    }
  }
}
