/**
 * The engine: what the cells ask for, answered with the fewest credits — a facade over one idea
 * per module:
 *  - queue.ts     coalescing: cells gathered into flushes, full batches sent at once;
 *  - dispatch.ts  the calls that answer a flush, matched by CUI and year;
 *  - estimate.ts  what wants cost, an upper bound while the service's behaviour is unknown;
 *  - capabilities.ts what was learned about each service address;
 *  - years.ts     the year rules checked for free;
 *  - gate.ts      concurrency, budgets, the stop after "credits spent", the breaker;
 *  - guard.ts     the credit guard of ordinary recalculation;
 *  - lists.ts     search, rankings, counties: shared fetches cancelled only by all their callers;
 *  - cache.ts, meter.ts, keys.ts, planner.ts.
 * Deadlines measure the call, not the queue: a call has the client's per-attempt timeout and its
 * total time across attempts, from when it is sent; a cell waits for its call, however long the
 * queue before it (issue 10). No Office globals here: the add-in passes its storage in.
 */
import { FirmaClient } from "../api";
import { AbortedError } from "../api/errors";
import { getValidBaseUrl } from "../api/options";
import type {
  CancelSignal,
  CompanyProfile,
  County,
  FinancialField,
  FinancialYear,
  PlanName,
  ProfileField,
  RankingEntry,
  RankingListParams,
  RankingSummary,
  SearchItem,
  SearchParams,
} from "../api/types";
import { FINANCIAL_FIELDS } from "../api/types";
import { TTL, PersistentCache } from "./cache";
import { Capabilities, ServiceCapabilities } from "./capabilities";
import { Change, ChangeLog } from "./changes";
import { parseCui, type CuiFailure } from "../api/cui";
import { Dispatcher, EXTRA_PROFILE } from "./dispatch";
import { LocalInputError, shownInput, type MessageRef } from "./errors";
import { addFinancialWant, addProfileWant, emptyWants, upperBoundCalls, WantSet } from "./estimate";
import { failureHas, kindOf, type FailureKind } from "./failures";
import { Budget, CallGate, QuotaStop } from "./gate";
import { BurstGuard, HeldBurst } from "./guard";
import { COUNTIES_KEY, financialKey, profileKey, rankingKey, rankingsKey, searchKey } from "./keys";
import { ListFetches } from "./lists";
import { CreditMeter, keyFingerprint, UsageSnapshot } from "./meter";
import { getValidBatchWindow, getValidEngineOptions, type EngineOptions, type ResolvedEngineOptions } from "./options";
import { RequestQueue } from "./queue";
import { covers, fail, notFound, type Rec, type Waiter, type Want } from "./wants";
import { latestCompleteYear, YearPolicy, yearsDown } from "./years";

export { BudgetReachedError } from "./gate";
export type { EngineOptions } from "./options";
export type { Change, WatchedField } from "./changes";
export type { Budget, QuotaStop } from "./gate";
export type { HeldBurst } from "./guard";

export type CellRequest =
  | { kind: "profile"; cui: unknown; field: ProfileField }
  | { kind: "financial"; cui: unknown; year: unknown; field: FinancialField }
  | { kind: "history"; cui: unknown; from: unknown; to: unknown; field: FinancialField }
  | { kind: "list"; calls: number; list?: ListSpec };

/** A list request as the engine keys it (keys.ts): the estimate counts it 0 when it is cached. */
export type ListSpec =
  | { fn: "search"; params: { q?: string; judet?: string; caen?: string; stare?: string }; limit: number }
  | { fn: "rankings"; params: RankingListParams }
  | { fn: "ranking"; slug: string; limit: number }
  | { fn: "counties" };

export function listKey(l: ListSpec): string {
  if (l.fn === "search") return searchKey(l.params, l.limit);
  if (l.fn === "rankings") return rankingsKey(l.params);
  if (l.fn === "ranking") return rankingKey(l.slug, l.limit);
  return COUNTIES_KEY;
}

export interface Estimate {
  cells: number;
  invalid: number;
  cached: number;
  distinctCuis: number;
  /** At most this many calls (an upper bound: the dearer case where the service's behaviour is unknown). */
  calls: number;
  credits: number;
  /** True when the service's behaviour is known for every call counted: the figure is then exact. */
  exact: boolean;
}

/**
 * How one request may be answered. `cacheOnly`: from the cache (fresh, else stale) or "not cached",
 * never by the service — Excel's value preview (functions.ts) asks this way for one invocation,
 * while the engine-wide `cacheOnly` of the CLI stays as it is. An EvalContext passes as it is.
 */
export interface RequestOptions {
  cacheOnly?: boolean;
}

const DEFAULT_REQUEST: RequestOptions = {};

export interface PrefetchReport {
  /** Answers asked for, and of those, that failed (by error kind). */
  wanted: number;
  failed: Partial<Record<FailureKind | "error", number>>;
}

/**
 * What the engine's *Now methods answer when the cache cannot. A registered symbol: the engine may
 * have been made by the pane's bundle and be used by the functions' bundle (runtime.ts).
 */
export const NOT_CACHED: unique symbol = Symbol.for("firma.notCached");

export class FirmaEngine {
  readonly cache: PersistentCache;
  readonly meter: CreditMeter;
  readonly gate: CallGate;
  readonly guard: BurstGuard;
  /**
   * Cache-only: requests are answered from the cache (fresh, else stale), else with the error the
   * last fetch of that answer met, else "not cached" — never by the service. The CLI writes its
   * cells this way after its one planned fetch, so that nothing is spent twice.
   */
  cacheOnly = false;
  private readonly opts: ResolvedEngineOptions;
  private readonly now: () => number;
  private readonly capabilities: ServiceCapabilities;
  private readonly years: YearPolicy;
  private readonly dispatcher: Dispatcher;
  private readonly queue: RequestQueue;
  private readonly lists: ListFetches;
  private readonly failures = new Map<string, unknown>();
  private readonly changeLog: ChangeLog;
  private clientFor: { baseUrl: string; client: FirmaClient } | null = null;
  private readyPromise: Promise<void> | null = null;
  private isReady = false;
  private reportedHits = 0;
  private lastKey: { key: string; id: string } | null = null;
  private ruleYearMemo: { year: number; from: number; until: number } | null = null;

  constructor(options: EngineOptions) {
    const o = (this.opts = getValidEngineOptions(options));
    this.now = o.now;
    this.cache = new PersistentCache(o.store, { maxEntries: o.maxCacheEntries, now: this.now });
    this.meter = new CreditMeter(o.store, this.now);
    this.gate = new CallGate(o.store, o.concurrency, this.now, (id) => o.plan() ?? this.meter.detectedPlan(id));
    this.guard = new BurstGuard(o.guardThreshold, this.now);
    this.capabilities = new ServiceCapabilities(o.store);
    this.changeLog = new ChangeLog(o.store);
    this.years = new YearPolicy(
      () => this.latestYear(),
      () => this.plan(),
    );
    this.dispatcher = new Dispatcher({
      client: () => this.client,
      caps: () => this.caps(),
      cache: this.cache,
      gate: this.gate,
      years: this.years,
      latestYear: () => this.latestYear(),
      changes: this.changeLog,
    });
    this.queue = new RequestQueue({ windowMs: o.windowMs, maxWaitMs: o.maxWaitMs, send: (wants) => this.sendFlush(wants) });
    this.lists = new ListFetches(this.cache);
  }

  /** Loads the cache, the meter, the credit stops and what was learned about services. */
  ready(): Promise<void> {
    if (!this.readyPromise) {
      this.readyPromise = Promise.all([
        this.cache.load(),
        this.meter.load(),
        this.gate.load(),
        this.capabilities.load(),
        this.changeLog.load(),
      ]).then(() => {
        this.isReady = true;
      });
    }
    return this.readyPromise;
  }

  private baseUrl(): string {
    return this.opts.baseUrl();
  }

  /**
   * The client, made anew when the base address changes. An address the client refuses (plain http
   * off loopback, credentials in it…) fails every request locally, with nothing sent.
   */
  get client(): FirmaClient {
    const baseUrl = this.baseUrl();
    if (!this.clientFor || this.clientFor.baseUrl !== baseUrl) {
      try {
        getValidBaseUrl(baseUrl);
      } catch (e) {
        throw new LocalInputError("invalid_base_url", (e as Error).message);
      }
      this.clientFor = {
        baseUrl,
        client: new FirmaClient({
          baseUrl,
          apiKey: this.opts.apiKey,
          timeoutMs: this.opts.timeoutMs,
          totalTimeoutMs: this.opts.totalTimeoutMs,
          retries: this.opts.retries,
          retryDelayMs: this.opts.retryDelayMs,
          fetch: this.opts.fetch,
          beforeCall: () => this.gate.beforeCall(this.keyId()),
          onCall: (call) => {
            const id = this.keyId();
            this.gate.afterCall(id, call);
            this.meter.record(id, call);
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
    try {
      getValidBaseUrl(baseUrl);
    } catch (e) {
      throw new LocalInputError("invalid_base_url", (e as Error).message);
    }
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

  usage(): UsageSnapshot {
    this.meter.recordCacheHits(this.cache.hits - this.reportedHits);
    this.reportedHits = this.cache.hits;
    return this.meter.snapshot(this.keyId());
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
    const t = this.now();
    const m = this.ruleYearMemo;
    if (m !== null && t >= m.from && t < m.until) return m.year;
    const d = new Date(t);
    const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const until = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    this.ruleYearMemo = { year: latestCompleteYear(d), from, until };
    return this.ruleYearMemo.year;
  }

  // ---- credits: the stop, budgets, the guard ---------------------------------------------------

  /** The stop after "credits spent" for the current key: when it began and when it clears; null when none. */
  quotaStop(): QuotaStop | null {
    return this.gate.stopFor(this.keyId());
  }

  /** The user asks to try again before the stop clears by itself. */
  clearQuotaStop(): void {
    this.gate.clearStop(this.keyId());
  }

  /** Opens a hard budget: while open, no attempt that could take the spend past `limit` is sent. */
  openBudget(limit: number): Budget {
    return this.gate.openBudget(limit);
  }

  setGuardThreshold(threshold: number | null): void {
    this.guard.setThreshold(threshold);
  }

  /** The quiet window before queued cells are fetched together, from the next request on (a setting saved in the pane). */
  setBatchWindow(ms: number): void {
    this.queue.setWindow(getValidBatchWindow(ms));
  }

  /** The burst the credit guard holds for the user's confirmation, if any. */
  heldBurst(): HeldBurst | null {
    return this.guard.held();
  }

  /** The user confirmed the held burst: the next calculation of those cells fetches them. */
  confirmHeld(): void {
    this.guard.confirm();
  }

  /** Tells when usage, the stop or the guard changed (the pane redraws). */
  onChange(listener: () => void): () => void {
    const offs = [this.meter.subscribe(listener), this.gate.onChange(listener), this.guard.onChange(listener)];
    return () => offs.forEach((off) => off());
  }

  /** Resolves when no call is in flight or queued (the CLI reports and exits only then). */
  async idle(): Promise<void> {
    await this.queue.idle();
  }

  // ---- refresh ---------------------------------------------------------------------------------

  /** A user-asked refresh: what is cached counts as stale (still a fallback if the service fails). */
  refreshAll(): void {
    this.cache.markAllStale();
  }

  /**
   * A user-asked refresh of some cells (the pane's "refresh the selection"): the cached answers
   * these requests would use count as stale (still a fallback if the service fails); the rest of
   * the cache stays fresh. List requests carry no parameters and are left alone; invalid ones
   * have nothing cached.
   */
  markStale(requests: readonly CellRequest[]): void {
    const stale = (key: string) => this.cache.markStale(key);
    const wants = this.wantsOf(requests, { refresh: true });
    for (const cui of wants.set.profile.keys()) stale(profileKey(cui));
    for (const [cui, years] of wants.set.financial) for (const y of years.keys()) stale(financialKey(cui, y));
  }

  /** Writes cache, meter, stops and learned facts now (a refresh ends with it; the CLI before it exits). */
  async persist(): Promise<void> {
    await Promise.all([this.cache.save(), this.meter.save(), this.capabilities.save(), this.changeLog.save()]);
  }

  // ---- the watch on what changed (changes.ts) --------------------------------------------------

  /**
   * What changed in the companies' status, VAT registration, name or address, as answers arrived
   * since the last markChanges() (or since `mark`, a number markChanges() returned), oldest first.
   */
  changes(mark?: number): Change[] {
    return this.changeLog.since(mark);
  }

  /** Starts a new watch period (a refresh begins with it); returns its mark. Persisted with persist(). */
  markChanges(): number {
    return this.changeLog.markNow();
  }

  /**
   * Fetches what `requests` need in one plan (the CLI, the pane's refresh): the calls of the
   * estimate, no more, each sent as soon as it is planned. Answers go to the cache; failures are
   * remembered for cache-only reads. With `force`, cached answers are fetched again.
   */
  async prefetch(requests: readonly CellRequest[], options: { force?: boolean; signal?: CancelSignal } = {}): Promise<PrefetchReport> {
    await this.ready();
    const { set } = this.wantsOf(requests, { refresh: options.force });
    const wants: Want[] = [];
    // One waiter per want, the run itself: settled (not waiting) once the run is stopped, so that
    // calls not yet sent are dropped (gate.ts).
    const waiters: Waiter[] = [];
    const waiter = (): Waiter => {
      const w: Waiter = { resolve: () => undefined, reject: () => undefined, settled: !!options.signal?.aborted };
      waiters.push(w);
      return w;
    };
    options.signal?.addEventListener("abort", () => waiters.forEach((w) => (w.settled = true)), { once: true });
    for (const [cui, fields] of set.profile) wants.push(want("p", profileKey(cui), cui, 0, fields, waiter()));
    for (const [cui, years] of set.financial)
      for (const [y, fields] of years) wants.push(want("f", financialKey(cui, y), cui, y, fields, waiter()));
    for (const w of wants) this.failures.delete(w.key);
    const failed: PrefetchReport["failed"] = {};
    const note = (key: string, e: unknown) => {
      this.failures.set(key, e);
      const k = kindOf(e) ?? "error";
      failed[k] = (failed[k] ?? 0) + 1;
    };
    // Lists too (CAUTA, TOP…): each distinct one once, unless cached.
    const lists = new Map<string, ListSpec>();
    for (const r of requests) if (r.kind === "list" && r.list) lists.set(listKey(r.list), r.list);
    const listFetches = [...lists].map(async ([key, spec]) => {
      if (!options.force && this.cache.peek(key)?.fresh) return;
      if (options.force) this.cache.markStale(key);
      this.failures.delete(key);
      try {
        await this.fetchList(spec, options.signal);
      } catch (e) {
        note(key, e);
      }
    });
    await Promise.all([this.dispatcher.fetch(wants), ...listFetches]);
    for (const w of wants) if (w.error !== undefined) note(w.key, w.error);
    await this.saveQuietly();
    return { wanted: wants.length + lists.size, failed };
  }

  // ---- per-company requests -------------------------------------------------------------------

  /**
   * profileField() answered at once from the cache, without a promise: the value, NOT_CACHED when
   * the service would have to be asked; throws what profileField() rejects with (invalid input, a
   * cached "not found"). Recalculation of cached cells takes this path (the functions try it first).
   */
  profileFieldNow(cuiInput: unknown, field: ProfileField): unknown {
    if (!this.isReady) return NOT_CACHED;
    const cui = this.cui(cuiInput);
    const rec = this.fresh(profileKey(cui), "p", cui, 0, one(field));
    return rec === undefined ? NOT_CACHED : (rec[field] ?? null);
  }

  /** financialField() answered at once from the cache, as profileFieldNow(). */
  financialFieldNow(cuiInput: unknown, yearInput: unknown, field: FinancialField): number | null | typeof NOT_CACHED {
    if (!this.isReady) return NOT_CACHED;
    const cui = this.cui(cuiInput);
    const year = this.years.year(yearInput);
    const rec = this.fresh(financialKey(cui, year), "f", cui, year, one(field));
    return rec === undefined ? NOT_CACHED : ((rec[field] as number | null | undefined) ?? null);
  }

  async profileField(cuiInput: unknown, field: ProfileField, signal?: CancelSignal, options?: RequestOptions): Promise<unknown> {
    const rec = await this.request("p", this.cui(cuiInput), 0, [field], signal, options);
    return rec[field] ?? null;
  }

  async profile(cuiInput: unknown, signal?: CancelSignal, options?: RequestOptions): Promise<CompanyProfile> {
    const rec = await this.request("p", this.cui(cuiInput), 0, ["denumire", "stare", ...EXTRA_PROFILE], signal, options);
    return rec as unknown as CompanyProfile;
  }

  async financialField(
    cuiInput: unknown,
    yearInput: unknown,
    field: FinancialField,
    signal?: CancelSignal,
    options?: RequestOptions,
  ): Promise<number | null> {
    const cui = this.cui(cuiInput);
    const rec = await this.request("f", cui, this.years.year(yearInput), [field], signal, options);
    return (rec[field] as number | null | undefined) ?? null;
  }

  async financialRecord(cuiInput: unknown, yearInput: unknown, signal?: CancelSignal, options?: RequestOptions): Promise<FinancialYear> {
    const cui = this.cui(cuiInput);
    const rec = await this.request("f", cui, this.years.year(yearInput), [...FINANCIAL_FIELDS], signal, options);
    return rec as unknown as FinancialYear;
  }

  /** Years from..to, latest first, those the service has; `fields` default to all. */
  async history(
    cuiInput: unknown,
    fromInput: unknown,
    toInput: unknown,
    fields: readonly FinancialField[] = FINANCIAL_FIELDS,
    signal?: CancelSignal,
    options?: RequestOptions,
  ): Promise<FinancialYear[]> {
    const cui = this.cui(cuiInput);
    const [from, to] = this.years.range(fromInput, toInput);
    const rows = await Promise.all(
      yearsDown(from, to).map((y) =>
        this.request("f", cui, y, fields, signal, options).then(
          (r) => r as unknown as FinancialYear,
          (e) => {
            // a year the service has no data for, or that the plan turns out not to cover, is left out
            if (failureHas(e, "noFigures")) return null;
            throw e;
          },
        ),
      ),
    );
    const found = rows.filter((r): r is FinancialYear => r !== null);
    if (found.length === 0) throw notFound(cui, `${from}–${to}`);
    return found;
  }

  /**
   * When the company's profile was fetched (ms since the epoch), fetching it first if it is not
   * cached (then it costs what DENUMIRE costs). The answer FIRMA.ACTUALIZAT shows.
   */
  async fetchedAt(cuiInput: unknown, signal?: CancelSignal, options?: RequestOptions): Promise<number> {
    const cui = this.cui(cuiInput);
    await this.request("p", cui, 0, one("denumire"), signal, options);
    return this.cache.fetchedAt(profileKey(cui)) ?? this.now();
  }

  /** fetchedAt() from the cache only: NOT_CACHED when the profile is not there fresh. */
  fetchedAtNow(cuiInput: unknown): number | typeof NOT_CACHED {
    if (!this.isReady) return NOT_CACHED;
    const cui = this.cui(cuiInput);
    if (this.fresh(profileKey(cui), "p", cui, 0, one("denumire")) === undefined) return NOT_CACHED;
    return this.cache.fetchedAt(profileKey(cui)) ?? NOT_CACHED;
  }

  /**
   * How old the answers behind these cells are: the oldest and newest fetch times (ms since the
   * epoch) of those cached, and how many are not cached at all. The pane shows it.
   */
  freshness(requests: readonly CellRequest[]): { oldest: number | null; newest: number | null; cached: number; missing: number } {
    let oldest: number | null = null;
    let newest: number | null = null;
    let cached = 0;
    let missing = 0;
    const seen = new Set<string>();
    const look = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const t = this.cache.fetchedAt(key);
      if (t === undefined) return void missing++;
      cached++;
      oldest = oldest === null ? t : Math.min(oldest, t);
      newest = newest === null ? t : Math.max(newest, t);
    };
    for (const r of requests) {
      if (r.kind === "list") {
        if (r.list) look(listKey(r.list));
        continue;
      }
      const p = parseCui(r.cui);
      if (!p.ok) continue;
      try {
        if (r.kind === "profile") look(profileKey(p.cui));
        else if (r.kind === "financial") look(financialKey(p.cui, this.years.year(r.year)));
        else for (const y of yearsDown(...this.years.range(r.from, r.to))) look(financialKey(p.cui, y));
      } catch {
        /* an invalid year: nothing behind it */
      }
    }
    return { oldest, newest, cached, missing };
  }

  // ---- lists ----------------------------------------------------------------------------------

  search(params: SearchParams & { limit?: number }, signal?: CancelSignal, options?: RequestOptions): Promise<SearchItem[]> {
    const limit = params.limit ?? 20;
    if (!validLimit(limit)) return Promise.reject(limitError());
    const p = { q: params.q, judet: params.judet, caen: params.caen, stare: params.stare };
    return this.list(searchKey(p, limit), TTL.list, signal, options, async (s) => {
      const out: SearchItem[] = [];
      for await (const item of this.client.search({ ...p, limit: Math.min(limit, 100) }, { signal: s })) {
        out.push(item);
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  rankings(params: RankingListParams, signal?: CancelSignal, options?: RequestOptions): Promise<RankingSummary[]> {
    return this.list(rankingsKey(params), TTL.list, signal, options, (s) => this.client.listRankings(params, { signal: s }));
  }

  ranking(slug: string, limit: number, signal?: CancelSignal, options?: RequestOptions): Promise<RankingEntry[]> {
    if (typeof slug !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/.test(slug)) {
      return Promise.reject(
        new LocalInputError(
          "invalid_slug",
          "Identificator de top invalid: litere, cifre și cratime (vezi FIRMA.TOPURI). / Invalid ranking id: letters, digits and hyphens (see FIRMA.TOPURI).",
        ),
      );
    }
    if (!validLimit(limit)) return Promise.reject(limitError());
    return this.list(rankingKey(slug, limit), TTL.list, signal, options, async (s) => {
      const out: RankingEntry[] = [];
      for await (const e of this.client.ranking(slug, { limit: Math.min(limit, 100), signal: s })) {
        out.push(e);
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  counties(signal?: CancelSignal, options?: RequestOptions): Promise<County[]> {
    return this.list(COUNTIES_KEY, TTL.counties, signal, options, (s) => this.client.counties({ signal: s }));
  }

  private fetchList(spec: ListSpec, signal?: CancelSignal): Promise<unknown> {
    if (spec.fn === "search") return this.search({ ...spec.params, limit: spec.limit }, signal);
    if (spec.fn === "rankings") return this.rankings(spec.params, signal);
    if (spec.fn === "ranking") return this.ranking(spec.slug, spec.limit, signal);
    return this.counties(signal);
  }

  private async list<T>(
    key: string,
    ttl: number,
    signal: CancelSignal | undefined,
    options: RequestOptions = DEFAULT_REQUEST,
    fetcher: (s: CancelSignal) => Promise<T>,
  ): Promise<T> {
    if (!this.isReady) await this.ready();
    if (this.cacheOnly || options.cacheOnly) return this.cachedOnly<T>(key, null, !!options.cacheOnly);
    return this.lists.get(key, ttl, fetcher, signal);
  }

  // ---- estimates ------------------------------------------------------------------------------

  /** What fetching these cells would cost now, at most (or, with `refresh`, ignoring the cache). */
  estimate(requests: readonly CellRequest[], options: { refresh?: boolean } = {}): Estimate {
    const w = this.wantsOf(requests, options);
    const caps = this.caps();
    const calls = upperBoundCalls(w.set, caps) + w.listCalls;
    // Exact when no behaviour still unknown could change the count.
    const hopeful: Capabilities = {
      include: caps.include ?? true,
      batchFinancialFields: caps.batchFinancialFields ?? [...FINANCIAL_FIELDS],
      rangeFull: caps.rangeFull ?? true,
    };
    const exact = calls === upperBoundCalls(w.set, hopeful) + w.listCalls;
    return { cells: requests.length, invalid: w.invalid, cached: w.cached, distinctCuis: w.cuis.size, calls, credits: calls, exact };
  }

  /** The answers `requests` need that the cache cannot give (all of them with `refresh`). */
  private wantsOf(requests: readonly CellRequest[], options: { refresh?: boolean }) {
    const set: WantSet = emptyWants();
    const cuis = new Set<number>();
    let invalid = 0;
    let cached = 0;
    let listCalls = 0;
    const lists = new Set<string>();
    const fresh = (key: string, field: string) => {
      if (options.refresh) return false;
      const h = this.cache.peek<Rec | null>(key);
      return !!h && h.fresh && (h.value === null || h.value[field] !== undefined);
    };
    const wantFinancial = (cui: number, year: number, field: string) => {
      if (fresh(financialKey(cui, year), field)) return true;
      addFinancialWant(set, cui, year, [field]);
      return false;
    };
    for (const r of requests) {
      if (r.kind === "list") {
        // The same list twice is fetched once; a cached list costs nothing (issue 11).
        const key = r.list ? listKey(r.list) : null;
        if (key !== null && (lists.has(key) || (!options.refresh && this.cache.peek(key)?.fresh))) {
          cached++;
          continue;
        }
        if (key !== null) lists.add(key);
        listCalls += r.calls;
        continue;
      }
      const p = parseCui(r.cui);
      if (!p.ok) {
        invalid++;
        continue;
      }
      try {
        if (r.kind === "profile") {
          if (fresh(profileKey(p.cui), r.field)) cached++;
          else addProfileWant(set, p.cui, [r.field]);
        } else if (r.kind === "financial") {
          if (wantFinancial(p.cui, this.years.year(r.year), r.field)) cached++;
        } else {
          const [from, to] = this.years.range(r.from, r.to);
          const all = yearsDown(from, to).map((y) => wantFinancial(p.cui, y, r.field));
          if (all.every(Boolean)) cached++;
        }
      } catch {
        invalid++;
        continue;
      }
      cuis.add(p.cui);
    }
    return { set, cuis, invalid, cached, listCalls };
  }

  // ---- internals --------------------------------------------------------------------------------

  private cui(input: unknown): number {
    const p = parseCui(input);
    if (!p.ok) throw new LocalInputError("invalid_cui", `invalid CUI (${p.reason})`, cuiDetail(p.reason, p.input));
    return p.cui;
  }

  /**
   * The fresh cached record that answers a request (counted as a cache hit), undefined when the
   * service must be asked; a cached "not found" is thrown.
   */
  private fresh(key: string, kind: "p" | "f", cui: number, year: number, fields: readonly string[]): Rec | undefined {
    const rec = this.cache.freshValue<Rec | null>(key);
    if (rec === undefined) return undefined;
    if (rec === null) throw notFound(cui, kind === "f" ? year : undefined);
    for (let i = 0; i < fields.length; i++) {
      if (rec[fields[i]] === undefined) {
        this.cache.hits--; // a partial record is not a hit
        return undefined;
      }
    }
    return rec;
  }

  private async request(
    kind: "p" | "f",
    cui: number,
    year: number,
    fields: readonly string[],
    signal?: CancelSignal,
    options: RequestOptions = DEFAULT_REQUEST,
  ): Promise<Rec> {
    if (!this.isReady) await this.ready();
    const key = kind === "p" ? profileKey(cui) : financialKey(cui, year);
    const rec = this.fresh(key, kind, cui, year, fields);
    if (rec !== undefined) return rec;
    if (this.cacheOnly || options.cacheOnly) {
      const r = this.cachedOnly<Rec | null>(key, fields, !!options.cacheOnly);
      if (r === null) throw notFound(cui, kind === "f" ? year : undefined);
      return r;
    }
    if (signal?.aborted) throw new AbortedError();
    return this.queue.request(kind, key, cui, year, fields, signal);
  }

  /**
   * A cache-only answer: stale if that is all there is, else the last fetch's error, else "not
   * cached". A request-level cache-only read (`perRequest`, the value preview) skips the last fetch's
   * error: that belongs to the CLI's run, and the preview says instead that Enter fetches.
   */
  private cachedOnly<T>(key: string, fields: readonly string[] | null, perRequest = false): T {
    const h = this.cache.peek<T>(key);
    if (h && (fields === null || h.value === null || covers(h.value as Record<string, unknown>, fields))) return h.value;
    const e = perRequest ? undefined : this.failures.get(key);
    if (e !== undefined) throw e;
    throw new LocalInputError(
      "not_cached",
      "Răspunsul nu e în cache și nu a fost cerut serviciului. / The answer is not cached and was not asked of the service.",
    );
  }

  /** A flush from the queue: past the credit guard, then dispatched. */
  private async sendFlush(wants: Want[]): Promise<void> {
    const set = emptyWants();
    let cells = 0;
    for (const w of wants) {
      if (w.kind === "p") addProfileWant(set, w.cui, w.fields);
      else addFinancialWant(set, w.cui, w.year, w.fields);
      cells += w.waiters.size;
    }
    if (!this.guard.admit(upperBoundCalls(set, this.caps()), cells)) {
      const e = this.guard.error();
      for (const w of wants) fail(w, e, this.cache);
      return;
    }
    await this.dispatcher.fetch(wants);
    await this.saveQuietly();
  }

  /** Saves the learned facts after a fetch; the cache saves itself at the end of a refresh (persist). */
  private async saveQuietly(): Promise<void> {
    try {
      await this.capabilities.save();
    } catch {
      /* storage full or gone: the engine still works, it re-learns next time */
    }
  }

  /** Sends what is queued now. Tests call it to flush without waiting for the window. */
  flush(): Promise<void> {
    return this.queue.flush();
  }
}

function want(kind: "p" | "f", key: string, cui: number, year: number, fields: Iterable<string>, waiter: Waiter): Want {
  return { key, kind, cui, year, fields: new Set(fields), waiters: new Set([waiter]) };
}

const ONE_FIELD = new Map<string, readonly string[]>();

/** [field], made once per field (the per-cell path asks for it at every cell). */
function one(field: string): readonly string[] {
  let list = ONE_FIELD.get(field);
  if (!list) ONE_FIELD.set(field, (list = [field]));
  return list;
}

const validLimit = (limit: number) => Number.isInteger(limit) && limit >= 1 && limit <= 1000;
const limitError = () =>
  new LocalInputError(
    "invalid_limit",
    "Limita trebuie să fie un număr întreg între 1 și 1000. / The limit must be a whole number from 1 to 1000.",
  );

/** The precise reason a CUI was refused, for the cell's message (the input shortened: a cell may hold anything). */
function cuiDetail(reason: CuiFailure, input: string): MessageRef {
  if (reason === "empty") return { key: "cell.emptyCui" };
  return { key: `cell.invalidCui.${reason}`, params: { input: shownInput(input) } };
}
