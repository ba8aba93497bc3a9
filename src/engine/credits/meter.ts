import type { PlanName } from "../../api/types";
import { bucharestDay } from "./bucharest-time";
import { KeyValueStore, readJson } from "../cache/store";

/** A short, non-reversible label for a key, so that counters never store the key itself. */
export function keyFingerprint(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return "k" + h.toString(16).padStart(8, "0");
}

interface KeyUsage {
  /** credits per day of the current and previous months, "YYYY-MM-DD" → n */
  days: Record<string, number>;
  refused: number;
  plan: PlanName | null;
  remaining: number | null;
  /** Calls the service answered (and presumably charged) on one day, the latest: what the gate's pacing asks. */
  answered?: { day: string; count: number };
}

interface MeterState {
  keys: Record<string, KeyUsage>;
  cacheHits: number;
  itemsFetched: number;
  calls: number;
}

export interface UsageSnapshot {
  keyId: string;
  day: string;
  today: number;
  month: number;
  /** This month's days with their credits, oldest first. */
  daily: { day: string; credits: number }[];
  refused: number;
  /** Plan the service reported (O23), if it did. */
  detectedPlan: PlanName | null;
  remaining: number | null;
  /** Answers served from the cache instead of the service (each would have cost at least one call's share). */
  cacheHits: number;
  /** Credits batching saved: items fetched minus calls that fetched them. */
  savedByBatching: number;
}

export interface MeteredCall {
  credited: boolean;
  /** May have been charged (http.ts `mayHaveCharged`): what the meter counts; `credited` when absent. */
  charged?: boolean;
  status: number;
  cuiCount?: number;
  quota?: { plan: PlanName | null; remaining: number | null };
}

/**
 * Counts every HTTP call that may have been charged (a 5xx or a timeout too: only refusals before
 * charging are free), per key, per day and per month, persisted, and tells listeners. An upper
 * bound of what the service's own counter, the authority, says.
 */
export class CreditMeter {
  private state: MeterState = { keys: {}, cacheHits: 0, itemsFetched: 0, calls: 0 };
  private readonly listeners = new Set<() => void>();
  private loaded: Promise<void> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number = Date.now,
    private readonly storageKey = "firma.meter.v1",
  ) {}

  load(): Promise<void> {
    if (!this.loaded) {
      this.loaded = readJson<MeterState | null>(this.store, this.storageKey, null).then((saved) => {
        if (saved && saved.keys) {
          for (const [k, u] of Object.entries(saved.keys)) {
            const mine = this.state.keys[k];
            if (!mine) this.state.keys[k] = u;
            else {
              for (const [d, n] of Object.entries(u.days)) mine.days[d] = (mine.days[d] ?? 0) + n;
              if (u.answered && mine.answered?.day === u.answered.day) mine.answered.count += u.answered.count;
              else if (u.answered && !mine.answered) mine.answered = u.answered;
            }
          }
          this.state.cacheHits += saved.cacheHits ?? 0;
          this.state.itemsFetched += saved.itemsFetched ?? 0;
          this.state.calls += saved.calls ?? 0;
        }
      });
    }
    return this.loaded;
  }

  record(keyId: string, call: MeteredCall): void {
    const u = this.usage(keyId);
    if (call.charged ?? call.credited) {
      const d = bucharestDay(this.now());
      u.days[d] = (u.days[d] ?? 0) + 1;
      this.state.calls++;
      this.state.itemsFetched += Math.max(1, call.cuiCount ?? 1);
      if (call.credited) u.answered = { day: d, count: u.answered?.day === d ? u.answered.count + 1 : 1 };
    } else if (call.status >= 400 && call.status < 500) {
      u.refused++;
    }
    if (call.quota) {
      if (call.quota.plan) u.plan = call.quota.plan;
      if (call.quota.remaining !== null) u.remaining = call.quota.remaining;
    }
    this.changed();
  }

  recordCacheHits(n: number): void {
    if (n <= 0) return;
    this.state.cacheHits += n;
    this.changed();
  }

  snapshot(keyId: string): UsageSnapshot {
    const u = this.state.keys[keyId] ?? { days: {}, refused: 0, plan: null, remaining: null };
    const day = bucharestDay(this.now());
    const month = day.slice(0, 7);
    const daily = Object.entries(u.days)
      .filter(([d]) => d.startsWith(month))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([d, credits]) => ({ day: d, credits }));
    return {
      keyId,
      day,
      today: u.days[day] ?? 0,
      month: daily.reduce((s, d) => s + d.credits, 0),
      daily,
      refused: u.refused,
      detectedPlan: u.plan,
      remaining: u.remaining,
      cacheHits: this.state.cacheHits,
      savedByBatching: Math.max(0, this.state.itemsFetched - this.state.calls),
    };
  }

  /** The plan the service last reported for a key (O23), or null: what snapshot() says, without building one. */
  detectedPlan(keyId: string): PlanName | null {
    return this.state.keys[keyId]?.plan ?? null;
  }

  /**
   * A key's calls today, without building a snapshot (the gate asks before each call near the Free
   * limit): those that may have been charged (what the meter counts) and those the service answered.
   */
  today(keyId: string): { calls: number; answered: number } {
    const u = this.state.keys[keyId];
    if (!u) return { calls: 0, answered: 0 };
    const day = bucharestDay(this.now());
    return { calls: u.days[day] ?? 0, answered: u.answered?.day === day ? u.answered.count : 0 };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async save(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.store.setItem(this.storageKey, JSON.stringify(this.state));
  }

  private usage(keyId: string): KeyUsage {
    let u = this.state.keys[keyId];
    if (!u) u = this.state.keys[keyId] = { days: {}, refused: 0, plan: null, remaining: null };
    // keep the current and the previous month only
    const cutoff = bucharestDay(this.now() - 62 * 86_400_000);
    for (const d of Object.keys(u.days)) if (d < cutoff) delete u.days[d];
    return u;
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        /* a listener's failure is its own */
      }
    }
    if (!this.saveTimer) {
      this.saveTimer = setTimeout(() => {
        this.saveTimer = null;
        this.save().catch(() => undefined);
      }, 300);
      (this.saveTimer as { unref?: () => void }).unref?.();
    }
  }
}
