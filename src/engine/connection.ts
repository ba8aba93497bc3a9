/**
 * The engine's link to the service: a client per address (made anew when the pane changes it), the
 * key's fingerprint, the plan the checks use, the latest financial year, and the test of a key.
 * Every call of the client passes the gate (budgets, the stop after "credits spent") and is counted
 * by the meter under the key that made it; its answer may widen the gate (credits/lanes.ts).
 */
import { FirmaClient } from "../api";
import { getValidBaseUrl } from "../api/options";
import type { PlanName } from "../api/types";
import { Capabilities, ServiceCapabilities } from "./capabilities";
import { LocalInputError } from "./local-errors";
import type { CallGate } from "./credits/gate";
import { CreditMeter, keyFingerprint } from "./credits/meter";
import type { ResolvedEngineOptions } from "./engine-options";
import { latestCompleteYear } from "./years";
import { turnClock } from "./cells/turn-clock";
import { Lanes } from "./credits/lanes";

export class Connection {
  private clientFor: { baseUrl: string; client: FirmaClient } | null = null;
  private lastKey: { key: string; id: string } | null = null;
  private ruleYearMemo: { year: number; from: number; until: number } | null = null;
  private readonly clock: () => number;
  private readonly lanes: Lanes;

  constructor(
    private readonly opts: ResolvedEngineOptions,
    private readonly gate: CallGate,
    private readonly meter: CreditMeter,
    readonly capabilities: ServiceCapabilities,
  ) {
    this.clock = turnClock(opts.now); // asked for every financial cell: one clock read per run of cells
    this.lanes = new Lanes(opts.page, opts.concurrency, opts.multiplexedConcurrency);
  }

  baseUrl(): string {
    return this.opts.baseUrl();
  }

  /**
   * The client, made anew when the base address changes. An address the client refuses (plain http
   * off loopback, credentials in it…) fails every request locally, with nothing sent.
   */
  get client(): FirmaClient {
    const baseUrl = this.baseUrl();
    if (!this.clientFor || this.clientFor.baseUrl !== baseUrl) {
      checkedBaseUrl(baseUrl);
      const o = this.opts;
      // Another address: as wide as what is known of it now (another origin than the page's: 6 at once).
      this.gate.setConcurrency(this.lanes.for(baseUrl));
      this.clientFor = {
        baseUrl,
        client: new FirmaClient({
          baseUrl,
          apiKey: o.apiKey,
          timeoutMs: o.timeoutMs,
          totalTimeoutMs: o.totalTimeoutMs,
          retries: o.retries,
          retryDelayMs: o.retryDelayMs,
          fetch: o.fetch,
          beforeCall: (attempt) => this.gate.beforeCall(this.keyId(), attempt.id),
          onCall: (call) => {
            const id = this.keyId();
            this.gate.afterCall(id, call);
            this.meter.record(id, call);
            // Each answer may show how the calls travel: wider over HTTP/2 to the page's own server (lanes.ts).
            this.gate.setConcurrency(this.lanes.for(baseUrl));
          },
        }),
      };
    }
    return this.clientFor.client;
  }

  /**
   * One call (the counties list, the cheapest answer) with `key`, which need not be the saved one,
   * to check it: the plan and the credits left as the service reports them. Counted by the meter
   * under that key like every call; no retry (a test should say at once what happened). Rejects with
   * the client's typed errors, or LocalInputError "invalid_base_url".
   */
  async testKey(key: string): Promise<{ plan: string | null; remaining: number | null }> {
    const baseUrl = this.baseUrl();
    checkedBaseUrl(baseUrl);
    const id = keyFingerprint(key);
    const client = new FirmaClient({
      baseUrl,
      apiKey: () => key,
      retries: 0,
      timeoutMs: this.opts.timeoutMs,
      fetch: this.opts.fetch,
      onCall: (call) => this.meter.record(id, call),
    });
    await client.counties();
    const quota = client.lastQuota;
    return { plan: quota.plan ?? null, remaining: quota.remaining ?? null };
  }

  /** What was learned about the current service (capabilities.ts). */
  caps(): Capabilities {
    return this.capabilities.of(this.baseUrl());
  }

  keyId(): string {
    const key = this.opts.apiKey() ?? "";
    // Asked for every financial cell (the plan's history check): remember the last key's fingerprint.
    if (this.lastKey === null || this.lastKey.key !== key) this.lastKey = { key, id: keyFingerprint(key) };
    return this.lastKey.id;
  }

  /** The plan the checks use: the user's choice, else what the service reported. */
  plan(): PlanName | null {
    return this.opts.plan() ?? this.meter.detectedPlan(this.keyId());
  }

  latestYear(): number {
    return Math.max(this.opts.latestYear ?? this.ruleYear(), this.caps().latestYear ?? 0);
  }

  /** latestCompleteYear (O19) for now, computed once per calendar month (it is asked for every financial cell). */
  private ruleYear(): number {
    const t = this.clock();
    const m = this.ruleYearMemo;
    if (m !== null && t >= m.from && t < m.until) return m.year;
    const d = new Date(t);
    const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const until = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    this.ruleYearMemo = { year: latestCompleteYear(d), from, until };
    return this.ruleYearMemo.year;
  }
}

/** The address as the client takes it; one it refuses fails locally, as a cell's input would. */
function checkedBaseUrl(baseUrl: string): void {
  try {
    getValidBaseUrl(baseUrl);
  } catch (e) {
    throw new LocalInputError("invalid_base_url", (e as Error).message);
  }
}
