/**
 * The engine's credits as the surfaces see them (the pane's usage and guard, the CLI's budget): what
 * was spent, the plan the checks use, the stop after "credits spent", a refresh's hard budget, and
 * the burst the credit guard holds. One object per engine over its meter, call gate and guard
 * (meter.ts, gate.ts, guard.ts), so that no surface reaches those parts.
 */
import type { PlanName } from "../../api/types";
import type { PersistentCache } from "../cache/cache";
import type { Budget, CallGate, QuotaStop } from "./gate";
import type { BurstGuard, HeldBurst } from "./guard";
import type { CreditMeter, UsageSnapshot } from "./meter";

/** The parts the credits read, and the current key and plan (connection.ts). */
export interface CreditParts {
  meter: CreditMeter;
  gate: CallGate;
  guard: BurstGuard;
  cache: PersistentCache;
  keyId(): string;
  plan(): PlanName | null;
}

export class Credits {
  private reportedHits = 0;

  constructor(private readonly parts: CreditParts) {}

  /** The current key's usage: credits today and this month, cache hits, credits batching saved (meter.ts). */
  usage(): UsageSnapshot {
    const { meter, cache } = this.parts;
    meter.recordCacheHits(cache.hits - this.reportedHits);
    this.reportedHits = cache.hits;
    return meter.snapshot(this.parts.keyId());
  }

  /** The plan the checks use: the user's choice, else what the service reported. */
  plan(): PlanName | null {
    return this.parts.plan();
  }

  /** The stop after "credits spent" for the current key: when it began and when it clears; null when none. */
  quotaStop(): QuotaStop | null {
    return this.parts.gate.stopFor(this.parts.keyId());
  }

  /** The user asks to try again before the stop clears by itself. */
  clearQuotaStop(): void {
    this.parts.gate.clearStop(this.parts.keyId());
  }

  /** Opens a hard budget: while open, no attempt that could take the spend past `limit` is sent. */
  openBudget(limit: number): Budget {
    return this.parts.gate.openBudget(limit);
  }

  /** The credit guard's limit for one calculation; null when it is off. */
  guardLimit(): number | null {
    return this.parts.guard.limit;
  }

  /** The burst the credit guard holds for the user's confirmation, if any. */
  heldBurst(): HeldBurst | null {
    return this.parts.guard.held();
  }

  /** The user confirmed the held burst: the next calculation of those cells fetches them. */
  confirmHeld(): void {
    this.parts.guard.confirm();
  }

  /** The user declined the held burst: it is forgotten, its cells keep their message. */
  dismissHeld(): void {
    this.parts.guard.dismiss();
  }

  /** Tells when usage, the stop or the guard changed (the pane redraws). */
  onChange(listener: () => void): () => void {
    const { meter, gate, guard } = this.parts;
    const offs = [meter.subscribe(listener), gate.onChange(listener), guard.onChange(listener)];
    return () => offs.forEach((off) => off());
  }
}
