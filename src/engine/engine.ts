/**
 * The engine: what the cells ask for, answered with the fewest credits — a facade over one idea
 * per module (docs/architecture.md has the table: options, connection, answers, queue, flush,
 * dispatch, planner, estimate, requests, prefetch, lists, capabilities, years, gate, guard,
 * failures, cache, meter, credits, keys, changes). Its face is what the surfaces need, as methods:
 * one read per kind (a value at once, NOT_FOUND, or a promise), the cost and the refresh of some
 * cells, the watch on changes, settings, and the credits (credits.ts) and the cache as they are shown;
 * never its parts.
 * Deadlines measure the call, not the queue: a call has the client's per-attempt timeout and its
 * total time across attempts, from when it is sent; a cell waits for its call, however long the
 * queue before it. No Office globals here: the add-in passes its storage in.
 */
import type {
  CompanyProfile,
  County,
  FinancialField,
  FinancialYear,
  ProfileField,
  RankingEntry,
  RankingSummary,
  SearchItem,
} from "../api/types";
import { FINANCIAL_FIELDS } from "../api/types";
import { CompanyAnswers, NOT_FOUND, one, type ReadOptions } from "./cells/answers";
import { PersistentCache, type CacheProblem, type CacheStats } from "./cache/cache";
import { Capabilities, ServiceCapabilities } from "./capabilities";
import { Change, ChangeLog } from "./cache/changes";
import { Connection } from "./connection";
import { Credits } from "./credits/credits";
import { Dispatcher, EXTRA_PROFILE, type DispatchContext } from "./plan/dispatch";
import { sendFlush } from "./plan/flush";
import { CallGate, DROPPED } from "./credits/gate";
import { BurstGuard } from "./credits/guard";
import { financialKey, profileKey } from "./keys";
import { ListRequests, listKey, type ListSpec } from "./cells/lists";
import { CreditMeter } from "./credits/meter";
import { getValidBatchWindow, getValidEngineOptions, type EngineOptions, type ResolvedEngineOptions } from "./engine-options";
import { oneCallGate, prefetch, type PrefetchOptions, type PrefetchReport } from "./plan/prefetch";
import { RequestQueue } from "./cells/queue";
import { estimateOf, freshnessOf, needsOf, type CellRequest, type Estimate, type Freshness, type Needs } from "./cells/requests";
import type { Want } from "./cells/wants";
import { YearPolicy } from "./years";
import { coarseEstimate, loadMatching, matching } from "./match/lazy";
import type { MatchContext } from "./match/matcher";
import type { MatchCandidate, MatchEstimate, MatchReport, MatchRunOptions, NameInput } from "./match/types";

export { BudgetReachedError } from "./credits/gate";
export type { EngineOptions } from "./engine-options";
export { NOT_FOUND, type ReadOptions } from "./cells/answers";
export { listKey, type ListSpec } from "./cells/lists";
export type { PrefetchOptions, PrefetchReport } from "./plan/prefetch";
export type { CellRequest, Estimate, Freshness } from "./cells/requests";
export type { Change, WatchedField } from "./cache/changes";
export type { Budget, QuotaStop } from "./credits/gate";
export type { HeldBurst } from "./credits/guard";
export type { Credits } from "./credits/credits";
export type { Completion } from "./cells/wants";
export type { CacheProblem, CacheStats } from "./cache/cache";
export { normalizeName } from "./match/normalize";
export { parseCounty } from "./match/counties";
export { matchRequests } from "./match/lazy";
export type { Confidence, InputProblem, MatchCandidate, MatchEstimate, MatchOutcome } from "./match/types";
export type { MatchReport, MatchRunOptions, MatchStop, NameInput } from "./match/types";

/** The settings a surface may change while the engine runs (configure()); a setting left out stays as it is. */
export interface EngineSettings {
  /** The credit guard's limit for one calculation, in credits; null turns it off (a setting saved in the pane). */
  guardThreshold?: number | null;
  /** The quiet window before queued cells are fetched together, from the next request on (a setting saved in the pane). */
  batchWindowMs?: number;
  /** How old an answer may be to count as fresh, whatever its lifetime; null: its lifetime decides (the CLI's --max-age). */
  maxAgeMs?: number | null;
  /**
   * Cache-only: reads are answered from the cache (fresh, else stale), else with the error the last
   * fetch of that answer met, else "not cached" — never by the service. The CLI writes its cells this
   * way after its one planned fetch, so that nothing is spent twice.
   */
  cacheOnly?: boolean;
}

/** What a list read answers, by the list (ListSpec's fn). */
export type ListAnswer<S extends ListSpec> = S extends { fn: "search" }
  ? SearchItem[]
  : S extends { fn: "rankings" }
    ? RankingSummary[]
    : S extends { fn: "ranking" }
      ? RankingEntry[]
      : County[];

/** The cache as the surfaces show it: its size (CacheStats), the answers it served, its latest problem. */
export type CacheReport = CacheStats & { hits: number; problem?: CacheProblem };

export class FirmaEngine {
  private readonly opts: ResolvedEngineOptions;
  private readonly now: () => number;
  private readonly cache: PersistentCache;
  private readonly meter: CreditMeter;
  private readonly gate: CallGate;
  private readonly guard: BurstGuard;
  private readonly credit: Credits;
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
  /** EngineSettings.cacheOnly. */
  private cacheOnly = false;
  private readyPromise: Promise<void> | null = null;
  private isReady = false;

  constructor(options: EngineOptions) {
    const o = (this.opts = getValidEngineOptions(options));
    this.now = o.now;
    this.cache = new PersistentCache(o.store, { maxEntries: o.maxCacheEntries, now: this.now });
    this.meter = new CreditMeter(o.store, this.now);
    this.gate = new CallGate(o.store, o.concurrency, this.now, o.plan, this.meter, () => this.keyId());
    this.guard = new BurstGuard(o.guardThreshold, this.now);
    this.connection = new Connection(o, this.gate, this.meter, new ServiceCapabilities(o.store));
    const { meter, gate, guard, cache } = this;
    this.credit = new Credits({ meter, gate, guard, cache, keyId: () => this.keyId(), plan: () => this.connection.plan() });
    this.changeLog = new ChangeLog(o.store);
    this.years = new YearPolicy(
      () => this.latestYear(),
      () => this.connection.plan(),
    );
    const [client, caps, latestYear] = [() => this.connection.client, () => this.caps(), () => this.latestYear()];
    const dispatch: DispatchContext = { client, caps, latestYear, cache: this.cache, gate: this.gate, years: this.years };
    dispatch.changes = this.changeLog;
    this.dispatcher = new Dispatcher(dispatch);
    this.oneCall = () => new Dispatcher({ ...dispatch, gate: oneCallGate(this.gate) });
    this.queue = new RequestQueue({ windowMs: o.windowMs, maxWaitMs: o.maxWaitMs, send: (wants) => this.sendFlush(wants) });
    this.lists = new ListRequests(this.cache, {
      client: () => this.connection.client,
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

  // ---- life: loading, settings, the service, saving ------------------------------------------------

  /** Loads the cache, the meter, the credit stops and what was learned about services. */
  ready(): Promise<void> {
    if (!this.readyPromise) {
      this.readyPromise = Promise.all([
        this.cache.load(),
        this.meter.load(),
        this.gate.load(),
        this.connection.capabilities.load(),
        this.changeLog.load(),
        // In Node (the CLI, the server) matching is loaded with the cache, so that its estimates are exact at once.
        typeof window === "undefined" ? loadMatching().catch(() => undefined) : undefined,
      ]).then(() => {
        this.isReady = true;
      });
    }
    return this.readyPromise;
  }

  /** Changes the settings given, in the order of EngineSettings; throws on an invalid one (those before it are applied). */
  configure(settings: EngineSettings): void {
    if (settings.guardThreshold !== undefined) this.guard.setThreshold(settings.guardThreshold);
    if (settings.batchWindowMs !== undefined) this.queue.setWindow(getValidBatchWindow(settings.batchWindowMs));
    if (settings.maxAgeMs !== undefined) this.cache.setMaxAge(settings.maxAgeMs);
    if (settings.cacheOnly !== undefined) this.cacheOnly = settings.cacheOnly;
  }

  /** Checks the service's address now, as the first call would (https, or http on loopback: connection.ts); throws when it is refused. */
  checkAddress(): void {
    void this.connection.client;
  }

  /** One call with `key` (not necessarily the saved one) to check it: the plan and credits left (connection.ts). */
  testKey(key: string): Promise<{ plan: string | null; remaining: number | null }> {
    return this.connection.testKey(key);
  }

  /** Writes cache, meter, stops and learned facts now (a refresh ends with it; the CLI before it exits). */
  async persist(): Promise<void> {
    await Promise.all([this.cache.save(), this.meter.save(), this.connection.capabilities.save(), this.changeLog.save()]);
  }

  /** Sends what is queued now, without waiting for the window (tests). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Resolves when no call is in flight or queued (the CLI reports and exits only then). */
  async idle(): Promise<void> {
    await this.queue.idle();
  }

  // ---- credits and the cache, as the surfaces show them ----------------------------------------------

  /** Usage, the plan, the stop after "credits spent", budgets and the credit guard (credits.ts): one object per engine. */
  credits(): Credits {
    return this.credit;
  }

  /** The cache's size, the answers it served so far, and its latest problem (answers it had to drop, a store that failed). */
  cacheStats(): CacheReport {
    return { ...this.cache.stats(), hits: this.cache.hits, problem: this.cache.problems.at(-1) };
  }

  /** Tells each problem of the cache as it happens: a full cache, a store that failed (a full or failing cache is never silent). */
  onCacheProblem(listener: (p: CacheProblem) => void): () => void {
    return this.cache.onProblem(listener);
  }

  // ---- reads: one per kind; a cached answer at once, without a promise ---------------------------------

  /**
   * A company's profile field: at once when the cache holds it fresh (recalculation takes this path),
   * NOT_FOUND when the cache holds the company as not found (an error made once, not thrown), else a
   * promise of the service's answer — the CUI parsed and the cache read once either way. Bad input
   * throws at once. `options.completion` completes the promise (answers.ts field()).
   */
  profileField(cuiInput: unknown, field: ProfileField, options?: ReadOptions): unknown {
    return this.answers.field("profile", this.answers.cui(cuiInput), 0, field, options);
  }

  /** A company's financial field for a year (blank: the latest), as profileField(). */
  financialField(
    cuiInput: unknown,
    yearInput: unknown,
    field: FinancialField,
    options?: ReadOptions,
  ): number | null | typeof NOT_FOUND | Promise<number | null> {
    const cui = this.answers.cui(cuiInput);
    return this.answers.field("financial", cui, this.years.year(yearInput), field, options) as
      number | null | typeof NOT_FOUND | Promise<number | null>;
  }

  /** A company's profile (FIRMA.PROFIL, the card). */
  async profile(cuiInput: unknown, options?: ReadOptions): Promise<CompanyProfile> {
    const rec = await this.answers.get("profile", this.answers.cui(cuiInput), 0, ["denumire", "stare", ...EXTRA_PROFILE], options);
    return rec as unknown as CompanyProfile;
  }

  /** A company's financial year (blank: the latest), every field (FIRMA.FINANCIAR, the card). */
  async financialRecord(cuiInput: unknown, yearInput: unknown, options?: ReadOptions): Promise<FinancialYear> {
    const cui = this.answers.cui(cuiInput);
    const rec = await this.answers.get("financial", cui, this.years.year(yearInput), [...FINANCIAL_FIELDS], options);
    return rec as unknown as FinancialYear;
  }

  /** Years from..to, latest first, those the service has; `fields` default to all. */
  async history(
    cuiInput: unknown,
    fromInput: unknown,
    toInput: unknown,
    fields: readonly FinancialField[] = FINANCIAL_FIELDS,
    options?: ReadOptions,
  ): Promise<FinancialYear[]> {
    const [from, to] = this.years.range(fromInput, toInput);
    return (await this.answers.history(this.answers.cui(cuiInput), from, to, fields, options)) as unknown as FinancialYear[];
  }

  /**
   * When the company's profile was fetched (ms since the epoch; FIRMA.ACTUALIZAT): at once when the
   * cache holds the profile fresh, else a promise, the profile fetched first if it is not cached (then
   * it costs what DENUMIRE costs). Bad input and a cached "not found" throw at once.
   */
  fetchedAt(cuiInput: unknown, options?: ReadOptions): number | Promise<number> {
    if (this.isReady) {
      const cui = this.answers.cui(cuiInput);
      if (this.answers.fresh("profile", cui, 0, one("denumire")) !== undefined) {
        const t = this.cache.fetchedAt(profileKey(cui));
        if (t !== undefined) return t;
      }
    }
    return this.fetchedAtLater(cuiInput, options);
  }

  /** A list function's answer (a search, the rankings, one ranking, the counties), cached whole under its key (lists.ts). */
  list<S extends ListSpec>(spec: S, options?: ReadOptions): Promise<ListAnswer<S>> {
    const [signal, only, lists] = [options?.signal, !!options?.cacheOnly, this.lists];
    const s: ListSpec = spec;
    const answer =
      s.fn === "search"
        ? lists.search({ ...s.params, limit: s.limit }, signal, only)
        : s.fn === "rankings"
          ? lists.rankings(s.params, signal, only)
          : s.fn === "ranking"
            ? lists.ranking(s.slug, s.limit, signal, only)
            : lists.counties(signal, only);
    return answer as Promise<ListAnswer<S>>;
  }

  // ---- names to CUIs (match/) ----------------------------------------------------------------------------

  /**
   * What matching these rows would cost now: a range while the service's search is not yet learned;
   * bad rows free. In the add-in, before matching is first loaded (match/lazy.ts), a coarse upper bound.
   */
  matchEstimate(inputs: readonly NameInput[]): MatchEstimate {
    const m = matching();
    return m ? m.matchEstimate(this.matchContext(), inputs) : coarseEstimate(inputs);
  }

  /**
   * Matches names (and counties) to CUIs with a confidence (match/README.md): one search per distinct
   * name through the list cache and the call gate; outcomes[i] answers inputs[i].
   */
  async match(inputs: readonly NameInput[], options: MatchRunOptions = {}): Promise<MatchReport> {
    const [m] = await Promise.all([loadMatching(), this.ready()]);
    const report = await m.runMatch(this.matchContext(), inputs, options);
    await this.saveQuietly();
    return report;
  }

  // ---- what cells would cost, a refresh, the watch on what changed --------------------------------------

  /** What fetching these cells would cost now, at most (or, with `refresh`, ignoring the cache). */
  estimate(requests: readonly CellRequest[], options: { refresh?: boolean } = {}): Estimate {
    return estimateOf(requests, this.needs(requests, !!options.refresh), this.caps());
  }

  /**
   * How old the answers behind these cells are: the oldest and newest fetch times (ms since the
   * epoch) of those cached, and how many are not cached at all. The pane shows it.
   */
  freshness(requests: readonly CellRequest[]): Freshness {
    return freshnessOf(requests, { cache: this.cache, years: this.years });
  }

  /**
   * A user-asked refresh: the cached answers these requests would use count as stale (still a
   * fallback if the service fails), the rest of the cache stays fresh; "all": everything cached.
   * List requests carry no parameters and are left alone; invalid ones have nothing cached.
   */
  markStale(requests: readonly CellRequest[] | "all"): void {
    if (requests === "all") return this.cache.markAllStale();
    const stale = (key: string) => this.cache.markStale(key);
    const wants = this.needs(requests, true);
    for (const cui of wants.set.profile.keys()) stale(profileKey(cui));
    for (const [cui, years] of wants.set.financial) for (const y of years.keys()) stale(financialKey(cui, y));
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

  /**
   * What changed in the companies' status, VAT registration, name or address (changes.ts), as answers
   * arrived since the last markChanges() (or since `mark`, a number markChanges() returned), oldest first.
   */
  changes(mark?: number): Change[] {
    return this.changeLog.since(mark);
  }

  /** Starts a new watch period (a refresh begins with it); returns its mark. Persisted with persist(). */
  markChanges(): number {
    return this.changeLog.markNow();
  }

  // ---- internals ------------------------------------------------------------------------------------

  /** What was learned about the current service (capabilities.ts). */
  private caps(): Capabilities {
    return this.connection.caps();
  }

  private keyId(): string {
    return this.connection.keyId();
  }

  private latestYear(): number {
    return this.connection.latestYear();
  }

  /** What matching needs of the engine: searches as lists, the cache, the budget and the guard. */
  private matchContext(): MatchContext {
    // A query form's search, keyed as FIRMA.CAUTA's lists are: one page of 100 (match/queries.ts MATCH_LIMIT).
    const spec = (q: string) => ({ q, judet: undefined, caen: undefined, stare: undefined });
    const key = (q: string) => listKey({ fn: "search", params: spec(q), limit: 100 });
    return {
      search: (q, signal, only) => this.lists.search({ ...spec(q), limit: 100 }, signal, only) as Promise<MatchCandidate[]>,
      fresh: (q) => {
        const hit = this.cache.peek<MatchCandidate[]>(key(q));
        return hit?.fresh ? hit.value : undefined;
      },
      markStale: (q) => this.cache.markStale(key(q)),
      caps: () => this.caps(),
      openBudget: (limit) => this.gate.openBudget(limit),
      guard: (max, cells) => (this.guard.admit(max, cells) ? null : this.guard.error()),
    };
  }

  /** The answers `requests` need that the cache cannot give (all of them with `refresh`). */
  private needs(requests: readonly CellRequest[], refresh: boolean): Needs {
    return needsOf(requests, { cache: this.cache, years: this.years }, refresh);
  }

  /** fetchedAt() when the cache cannot answer at once: the profile asked for first. */
  private async fetchedAtLater(cuiInput: unknown, options?: ReadOptions): Promise<number> {
    const cui = this.answers.cui(cuiInput);
    await this.answers.get("profile", cui, 0, one("denumire"), options);
    return this.cache.fetchedAt(profileKey(cui)) ?? this.now();
  }

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
}
