/**
 * The credit guard of ordinary recalculation: a burst of cells — a pasted column, a
 * fill-down, a workbook Excel recalculates — is let through while what it costs stays within the
 * user's threshold; past it, the burst is held: its cells settle at once with a message saying so,
 * nothing more is spent, and the pane asks. Confirming lets the burst through when Excel
 * calculates those cells again (the pane makes it). A burst is the flushes that follow each other
 * less than `gapMs` apart. The pane's refresh and the CLI do not pass here: they show their
 * estimate and are confirmed before they start.
 */
import { LocalInputError } from "../local-errors";
import { getValidGuardThreshold } from "../engine-options";

export interface HeldBurst {
  /** Credits the held cells would cost (an upper bound), and how many cells wait. */
  calls: number;
  cells: number;
  since: number;
}

export class GuardHeldError extends LocalInputError {
  constructor(threshold: number) {
    super(
      "guard_held",
      `FIRMA held this calculation: these cells would cost more than ${threshold} credits. Confirm in the FIRMA pane to fill them.`,
    );
  }
}

export class BurstGuard {
  private burst: { lastAt: number; admitted: number; confirmed: boolean; held: HeldBurst | null } | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private threshold: number | null,
    private readonly now: () => number,
    private readonly gapMs = 3000,
  ) {
    this.setThreshold(threshold);
  }

  setThreshold(threshold: number | null): void {
    this.threshold = getValidGuardThreshold(threshold);
  }

  get limit(): number | null {
    return this.threshold;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether a flush that would cost `calls()` (at most) for `cells` cells may go; else it is held.
   * The cost is asked only when the guard counts it (not while off or confirmed).
   */
  admit(cost: () => number, cells: number): boolean {
    const now = this.now();
    if (!this.burst || now - this.burst.lastAt > (this.burst.confirmed ? Math.max(this.gapMs, 10_000) : this.gapMs))
      this.burst = { lastAt: now, admitted: 0, confirmed: false, held: null };
    const b = this.burst;
    b.lastAt = now;
    if (this.threshold === null || b.confirmed) return true;
    const calls = cost();
    if (calls === 0) return true;
    if (!b.held && b.admitted + calls <= this.threshold) {
      b.admitted += calls;
      return true;
    }
    // Once a burst is held, the rest of it is held too: no cell fills in an order the user did not choose.
    b.held = b.held ? { ...b.held, calls: b.held.calls + calls, cells: b.held.cells + cells } : { calls, cells, since: now };
    this.changed();
    return false;
  }

  error(): GuardHeldError {
    return new GuardHeldError(this.threshold ?? 0);
  }

  /** What waits for the user's confirmation, if anything. */
  held(): HeldBurst | null {
    return this.burst?.held ?? null;
  }

  /** The user confirmed: the next burst (Excel calculating the held cells again) goes through. */
  confirm(): void {
    this.burst = { lastAt: this.now(), admitted: 0, confirmed: true, held: null };
    this.changed();
  }

  /** The user declined: forget the held burst (its cells keep the message). */
  dismiss(): void {
    if (this.burst) this.burst.held = null;
    this.changed();
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
