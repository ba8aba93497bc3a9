/**
 * The engine: what the cells ask for, answered with the fewest credits — a facade over one idea
 * per module (docs/architecture.md has the table: options, connection, answers, queue, flush,
 * dispatch, planner, estimate, requests, prefetch, lists, capabilities, years, gate, guard,
 * failures, cache, meter, keys, changes).
 * Deadlines measure the call, not the queue: a call has the client's per-attempt timeout and its
 * total time across attempts, from when it is sent; a cell waits for its call, however long the
 * queue before it. No Office globals here: the add-in passes its storage in.
 */
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
import { CompanyAnswers, NOT_FOUND, one, type RequestOptions } from "./answers";
import { PersistentCache } from "./cache";
import { Capabilities, ServiceCapabilities } from "./capabilities";
import { Change, ChangeLog } from "./changes";
import { Connection } from "./connection";
import { Dispatcher, EXTRA_PROFILE, type DispatchContext } from "./dispatch";
import { sendFlush } from "./flush";
import { Budget, CallGate, DROPPED, QuotaStop } from "./gate";
import { BurstGuard, HeldBurst } from "./guard";
import { financialKey, profileKey } from "./keys";
import { ListRequests } from "./lists";
import { CreditMeter, UsageSnapshot } from "./meter";
import { getValidBatchWindow, getValidEngineOptions, type EngineOptions, type ResolvedEngineOptions } from "./engine-options";
import { oneCallGate, prefetch, type PrefetchOptions, type PrefetchReport } from "./prefetch";
import { RequestQueue } from "./queue";
import { estimateOf, freshnessOf, needsOf, type CellRequest, type Estimate, type Freshness, type Needs } from "./requests";
import { notFound, type Want } from "./wants";
import { YearPolicy } from "./years";

export { BudgetReachedError } from "./gate";
export type { EngineOptions } from "./engine-options";
export { NOT_FOUND, type RequestOptions } from "./answers";
export { listKey, type ListSpec } from "./lists";
export type { PrefetchOptions, PrefetchReport } from "./prefetch";
export type { CellRequest, Estimate, Freshness } from "./requests";
export type { Change, WatchedField } from "./changes";
export type { Budget, QuotaStop } from "./gate";
export type { HeldBurst } from "./guard";

/**
 * What the engine's *Now methods answer when the cache cannot: a symbol, so that no value a cell
 * could hold (null, "", 0) is mistaken for "ask the service".
 */
export const NOT_CACHED: unique symbol = Symbol("firma.notCached");

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
  private readonly connection: Connection;
  private readonly years: YearPolicy;
  private readonly dispatcher: Dispatcher;
  /** A dispatcher that sends one call only: the probe of a refresh (prefetch.ts). */
  private readonly oneCall: () => Dispatcher;
  private readonly queue: RequestQueue;
  private readonly lists: ListRequests;
  private readonly answers: CompanyAnswers;
  /** The last fetch's failure of each answer (a refresh's prefetch), for the cache-only reads after it. */
  private readonly failures = new Map<string, unknown>();
  private readonly changeLog: ChangeLog;
  private readyPromise: Promise<void> | null = null;
  private isReady = false;
  private reportedHits = 0;

  constructor(options: EngineOptions) {
    const o = (this.opts = getValidEngineOptions(options));
    this.now = o.now;
    this.cache = new PersistentCache(o.store, { maxEntries: o.maxCacheEntries, now: this.now });
    this.meter = new CreditMeter(o.store, this.now);
    this.gate = new CallGate(o.store, o.concurrency, this.now, o.plan, this.meter, () => this.keyId());
    this.guard = new BurstGuard(o.guardThreshold, this.now);
    this.connection = new Connection(o, this.gate, this.meter, new ServiceCapabilities(o.store));
    this.changeLog = new ChangeLog(o.store);
    this.years = new YearPolicy(
      () => this.latestYear(),
      () => this.plan(),
    );
    const [client, caps, latestYear] = [() => this.client, () => this.caps(), () => this.latestYear()];
    const dispatch: DispatchContext = { client, caps, latestYear, cache: this.cache, gate: this.gate, years: this.years };
    dispatch.changes = this.changeLog;
    this.dispatcher = new Dispatcher(dispatch);
    this.oneCall = () => new Dispatcher({ ...dispatch, gate: oneCallGate(this.gate) });
    this.queue = new RequestQueue({ windowMs: o.windowMs, maxWaitMs: o.maxWaitMs, send: (wants) => this.sendFlush(wants) });
    this.lists = new ListRequests(this.cache, {
      client: () => this.client,
      ready: () => (this.isReady ? null : this.ready()),
      cacheOnly: (perRequest) => this.cacheOnly || perRequest,
      cachedOnly: (key, perRequest) => this.answers.cachedOnly(key, null, perRequest),
      run: async (task, wanted) => {
        const r = await this.gate.run(task, wanted);
        return r === DROPPED ? undefined : r;
      },
    });
    this.answers = new CompanyAnswers({
      cache: this.cache,
      queue: this.queue,
      failures: this.failures,
      isReady: () => this.isReady,
      ready: () => this.ready(),
      cacheOnly: () => this.cacheOnly,
    });
  }

  /** Loads the cache, the meter, the credit stops and what was learned about services. */
  ready(): Promise<void> {
    if (!this.readyPromise) {
      this.readyPromise = Promise.all([
        this.cache.load(),
        this.meter.load(),
        this.gate.load(),
        this.connection.capabilities.load(),
        this.changeLog.load(),
      ]).then(() => {
        this.isReady = true;
      });
    }
    return this.readyPromise;
  }

  /** The client of the current service address (connection.ts). */
  get client() {
    return this.connection.client;
  }

  /** One call with `key` (not necessarily the saved one) to check it: the plan and credits left (connection.ts). */
  testKey(key: string): Promise<{ plan: string | null; remaining: number | null }> {
    return this.connection.testKey(key);
  }

  /** What was learned about the current service (capabilities.ts). */
  caps(): Capabilities {
    return this.connection.caps();
  }

  keyId(): string {
    return this.connection.keyId();
  }

  usage(): UsageSnapshot {
    this.meter.recordCacheHits(this.cache.hits - this.reportedHits);
    this.reportedHits = this.cache.hits;
    return this.meter.snapshot(this.keyId());
  }

  /** The plan the checks use: the user's choice, else what the service reported. */
  plan(): PlanName | null {
    return this.connection.plan();
  }

  latestYear(): number {
    return this.connection.latestYear();
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
    const wants = this.needs(requests, true);
    for (const cui of wants.set.profile.keys()) stale(profileKey(cui));
    for (const [cui, years] of wants.set.financial) for (const y of years.keys()) stale(financialKey(cui, y));
  }

  /** Writes cache, meter, stops and learned facts now (a refresh ends with it; the CLI before it exits). */
  async persist(): Promise<void> {
    await Promise.all([this.cache.save(), this.meter.save(), this.connection.capabilities.save(), this.changeLog.save()]);
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
   * remembered for cache-only reads. With `force`, cached answers are fetched again. With `onProbe`,
   * where the estimate is a range, the first call goes alone and `onProbe` hears the exact rest.
   */
  async prefetch(requests: readonly CellRequest[], options: PrefetchOptions = {}): Promise<PrefetchReport> {
    await this.ready();
    const { cache, dispatcher, lists, failures, oneCall } = this;
    const needs = (r: readonly CellRequest[], refresh: boolean) => this.needs(r, refresh);
    const estimate = (r: readonly CellRequest[], refresh: boolean) => this.estimate(r, { refresh });
    const ctx = { cache, dispatcher, lists, failures, oneCall, needs, estimate, caps: () => this.caps() };
    const report = await prefetch(ctx, requests, options);
    await this.saveQuietly();
    return report;
  }

  // ---- per-company requests -------------------------------------------------------------------

  /**
   * profileField() answered at once from the cache, without a promise: the value, NOT_CACHED when
   * the service would have to be asked; throws what profileField() rejects with (invalid input, a
   * cached "not found").
   */
  profileFieldNow(cuiInput: unknown, field: ProfileField): unknown {
    if (!this.isReady) return NOT_CACHED;
    const rec = this.answers.fresh("profile", this.answers.cui(cuiInput), 0, one(field));
    return rec === undefined ? NOT_CACHED : (rec[field] ?? null);
  }

  /** financialField() answered at once from the cache, as profileFieldNow(). */
  financialFieldNow(cuiInput: unknown, yearInput: unknown, field: FinancialField): number | null | typeof NOT_CACHED {
    if (!this.isReady) return NOT_CACHED;
    const rec = this.answers.fresh("financial", this.answers.cui(cuiInput), this.years.year(yearInput), one(field));
    return rec === undefined ? NOT_CACHED : ((rec[field] as number | null | undefined) ?? null);
  }

  /**
   * A cell's profile field: at once when the cache holds it fresh (recalculation takes this path),
   * NOT_FOUND when the cache holds the company as not found (an error made once, not thrown), else a
   * promise of the service's answer — the CUI parsed and the cache read once either way. Bad input
   * throws at once.
   */
  profileFieldOrFetch(cuiInput: unknown, field: ProfileField, signal?: CancelSignal, options?: RequestOptions): unknown {
    return this.answers.field("profile", this.answers.cui(cuiInput), 0, field, signal, options);
  }

  /** A cell's financial field, as profileFieldOrFetch(). */
  financialFieldOrFetch(
    cuiInput: unknown,
    yearInput: unknown,
    field: FinancialField,
    signal?: CancelSignal,
    options?: RequestOptions,
  ): number | null | typeof NOT_FOUND | Promise<number | null> {
    const cui = this.answers.cui(cuiInput);
    return this.answers.field("financial", cui, this.years.year(yearInput), field, signal, options) as
      number | null | typeof NOT_FOUND | Promise<number | null>;
  }

  async profileField(cuiInput: unknown, field: ProfileField, signal?: CancelSignal, options?: RequestOptions): Promise<unknown> {
    const v = this.profileFieldOrFetch(cuiInput, field, signal, options);
    if (v === NOT_FOUND) throw notFound(this.answers.cui(cuiInput));
    return v;
  }

  async profile(cuiInput: unknown, signal?: CancelSignal, options?: RequestOptions): Promise<CompanyProfile> {
    const rec = await this.answers.request(
      "profile",
      this.answers.cui(cuiInput),
      0,
      ["denumire", "stare", ...EXTRA_PROFILE],
      signal,
      options,
    );
    return rec as unknown as CompanyProfile;
  }

  async financialField(
    cuiInput: unknown,
    yearInput: unknown,
    field: FinancialField,
    signal?: CancelSignal,
    options?: RequestOptions,
  ): Promise<number | null> {
    const v = this.financialFieldOrFetch(cuiInput, yearInput, field, signal, options);
    if (v === NOT_FOUND) throw notFound(this.answers.cui(cuiInput), this.years.year(yearInput));
    return v as number | null;
  }

  async financialRecord(cuiInput: unknown, yearInput: unknown, signal?: CancelSignal, options?: RequestOptions): Promise<FinancialYear> {
    const cui = this.answers.cui(cuiInput);
    const rec = await this.answers.request("financial", cui, this.years.year(yearInput), [...FINANCIAL_FIELDS], signal, options);
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
    const [from, to] = this.years.range(fromInput, toInput);
    return (await this.answers.history(this.answers.cui(cuiInput), from, to, fields, signal, options)) as unknown as FinancialYear[];
  }

  /**
   * When the company's profile was fetched (ms since the epoch), fetching it first if it is not
   * cached (then it costs what DENUMIRE costs). The answer FIRMA.ACTUALIZAT shows.
   */
  async fetchedAt(cuiInput: unknown, signal?: CancelSignal, options?: RequestOptions): Promise<number> {
    const cui = this.answers.cui(cuiInput);
    await this.answers.request("profile", cui, 0, one("denumire"), signal, options);
    return this.cache.fetchedAt(profileKey(cui)) ?? this.now();
  }

  /** fetchedAt() from the cache only: NOT_CACHED when the profile is not there fresh. */
  fetchedAtNow(cuiInput: unknown): number | typeof NOT_CACHED {
    if (!this.isReady) return NOT_CACHED;
    const cui = this.answers.cui(cuiInput);
    if (this.answers.fresh("profile", cui, 0, one("denumire")) === undefined) return NOT_CACHED;
    return this.cache.fetchedAt(profileKey(cui)) ?? NOT_CACHED;
  }

  /**
   * How old the answers behind these cells are: the oldest and newest fetch times (ms since the
   * epoch) of those cached, and how many are not cached at all. The pane shows it.
   */
  freshness(requests: readonly CellRequest[]): Freshness {
    return freshnessOf(requests, { cache: this.cache, years: this.years });
  }

  // ---- lists ----------------------------------------------------------------------------------

  search(params: SearchParams & { limit?: number }, signal?: CancelSignal, options?: RequestOptions): Promise<SearchItem[]> {
    return this.lists.search(params, signal, !!options?.cacheOnly);
  }

  rankings(params: RankingListParams, signal?: CancelSignal, options?: RequestOptions): Promise<RankingSummary[]> {
    return this.lists.rankings(params, signal, !!options?.cacheOnly);
  }

  ranking(slug: string, limit: number, signal?: CancelSignal, options?: RequestOptions): Promise<RankingEntry[]> {
    return this.lists.ranking(slug, limit, signal, !!options?.cacheOnly);
  }

  counties(signal?: CancelSignal, options?: RequestOptions): Promise<County[]> {
    return this.lists.counties(signal, !!options?.cacheOnly);
  }

  // ---- estimates ------------------------------------------------------------------------------

  /** What fetching these cells would cost now, at most (or, with `refresh`, ignoring the cache). */
  estimate(requests: readonly CellRequest[], options: { refresh?: boolean } = {}): Estimate {
    return estimateOf(requests, this.needs(requests, !!options.refresh), this.caps());
  }

  /** The answers `requests` need that the cache cannot give (all of them with `refresh`). */
  private needs(requests: readonly CellRequest[], refresh: boolean): Needs {
    return needsOf(requests, { cache: this.cache, years: this.years }, refresh);
  }

  // ---- internals --------------------------------------------------------------------------------

  /** A flush from the queue: past the credit guard, then dispatched (flush.ts). */
  private async sendFlush(wants: Want[]): Promise<void> {
    if (await sendFlush(wants, { guard: this.guard, cache: this.cache, dispatcher: this.dispatcher, caps: () => this.caps() }))
      await this.saveQuietly();
  }

  /** Saves the learned facts after a fetch; the cache saves itself at the end of a refresh (persist). */
  private async saveQuietly(): Promise<void> {
    try {
      await this.connection.capabilities.save();
    } catch {
      /* storage full or gone: the engine still works, it re-learns next time */
    }
  }

  /** Sends what is queued now. Tests call it to flush without waiting for the window. */
  flush(): Promise<void> {
    return this.queue.flush();
  }
}
