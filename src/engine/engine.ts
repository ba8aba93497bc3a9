/**
 * The engine: what the cells ask for, answered with the fewest credits.
 *
 * - Coalescing: requests are queued and flushed together, a short window after the last one
 *   (at most `maxWaitMs` after the first); identical requests share one fetch, also while it is
 *   in flight; each flush is planned credit-minimally (planner.ts) and split at the batch limits.
 * - Results are matched by CUI (and year), never by position; each request settles on its own.
 * - A persistent cache answers repeated requests (recalculation, reopening, reloading) for free;
 *   when a refresh fails for a passing reason, a stale cached value is served instead.
 * - Every HTTP call goes through the client's `onCall` hook into the credit meter.
 * No Office globals here: the add-in passes its storage in as a KeyValueStore.
 */
import { FirmaClient } from "../api";
import { AbortedError, ApiError, NotFoundError, TimeoutError } from "../api/errors";
import { getValidBaseUrl } from "../api/options";
import {
  BatchIdentificationItem,
  CancelSignal,
  CompanyProfile,
  County,
  FINANCIAL_FIELDS,
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
import { TTL, PersistentCache } from "./cache";
import { describeCuiFailure, parseCui } from "./cui";
import { LocalInputError } from "./errors";
import { limiter } from "./limiter";
import { CreditMeter, keyFingerprint, UsageSnapshot } from "./meter";
import { PLANS } from "./plans";
import { FinancialBatchCall, planFinancialBatches, planIdentification, yearsOf } from "./planner";
import { KeyValueStore, readJson } from "./store";
import { EARLIEST_YEAR, latestCompleteYear, oldestYearInPlan, parseYear } from "./years";

export interface EngineOptions {
  /** The service's base address; a function is read again at each call (the pane may change it). */
  baseUrl: string | (() => string);
  /** The user's key, read at each call; null → the cell says a key is missing, no call is made. */
  apiKey: () => string | null | undefined;
  /** Where cache, meter and learned facts persist (OfficeRuntime.storage in the add-in). */
  store: KeyValueStore;
  /** The user's plan, if they chose one; otherwise the plan the service reports (O23), if any. */
  plan?: () => PlanName | null | undefined;
  /** Quiet time after the last request before a flush. @default 40 */
  windowMs?: number;
  /** Longest a request waits for its flush. @default 1000 */
  maxWaitMs?: number;
  /** Calls in flight at once. @default 6 */
  concurrency?: number;
  /** Per-attempt timeout of a call. @default 10000 */
  timeoutMs?: number;
  /**
   * Longest a cell waits for its answer, from when it asked: the batching window, calls queued behind
   * others, attempts and retries together. Then it shows a timeout error (a stale cached value if
   * there is one); a call still running goes on and fills the cache for the next recalculation.
   * Also each call's budget across its attempts. @default 30000
   */
  totalTimeoutMs?: number;
  /** Retries of network errors and 5xx. @default 2 */
  retries?: number;
  /** @default 200 */
  retryDelayMs?: number;
  /** The latest financial year the service has; @default the rule of O19 */
  latestYear?: number;
  /** Cache size bound. @default 20000 */
  maxCacheEntries?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

interface Capabilities {
  /** Batch identification honours `include` (O10). */
  include?: boolean;
  /** Fields batch financial items carry (O17). */
  batchFinancialFields?: FinancialField[];
  /** Range entries carry every financial field (O16). */
  rangeFull?: boolean;
  /** Latest year the service answered with. */
  latestYear?: number;
}

type Rec = Record<string, unknown> & { cui: number };

interface Waiter {
  resolve: (v: Rec) => void;
  reject: (e: unknown) => void;
  settled: boolean;
}

interface Want {
  key: string;
  kind: "p" | "f";
  cui: number;
  year: number;
  fields: Set<string>;
  waiters: Set<Waiter>;
  /** Settled or failed: late arrivals must not join it. */
  done?: boolean;
}

export type CellRequest =
  | { kind: "profile"; cui: unknown; field: ProfileField }
  | { kind: "financial"; cui: unknown; year: unknown; field: FinancialField }
  | { kind: "history"; cui: unknown; from: unknown; to: unknown; field: FinancialField }
  | { kind: "list"; calls: number };

export interface Estimate {
  cells: number;
  invalid: number;
  cached: number;
  distinctCuis: number;
  calls: number;
  credits: number;
}

/**
 * What the engine's *Now methods answer when the cache cannot. A registered symbol: the engine may
 * have been made by the pane's bundle and be used by the functions' bundle (runtime.ts).
 */
export const NOT_CACHED: unique symbol = Symbol.for("firma.notCached");

const BASIC_PROFILE = new Set(["denumire", "stare"]);
const EXTRA_PROFILE: ProfileField[] = ["judet", "localitate", "adresa", "caen_principal", "platitor_tva", "j_cod"];
const TRANSIENT = new Set(["network", "server", "timeout", "credits_exhausted", "shape"]);
const CAPS_KEY = "firma.caps.v1";

export class FirmaEngine {
  readonly cache: PersistentCache;
  readonly meter: CreditMeter;
  private readonly opts: EngineOptions;
  private readonly windowMs: number;
  private readonly maxWaitMs: number;
  private readonly totalTimeoutMs: number;
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  private readonly now: () => number;
  private clientFor: { baseUrl: string; client: FirmaClient } | null = null;
  private caps: Capabilities = {};
  private readyPromise: Promise<void> | null = null;
  private isReady = false;
  private pending = new Map<string, Want>();
  private readonly inflight = new Map<string, Want>();
  private readonly listInflight = new Map<string, Promise<unknown>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstPendingAt: number | null = null;
  private lastPendingAt = 0;
  private reportedHits = 0;
  private lastKey: { key: string; id: string } | null = null;
  private ruleYearMemo: { year: number; from: number; until: number } | null = null;

  constructor(options: EngineOptions) {
    this.opts = options;
    this.windowMs = positive(options.windowMs ?? 40, "windowMs", true);
    this.maxWaitMs = positive(options.maxWaitMs ?? 1000, "maxWaitMs", true);
    this.totalTimeoutMs = positive(options.totalTimeoutMs ?? 30_000, "totalTimeoutMs");
    this.limit = limiter(options.concurrency ?? 6);
    this.now = options.now ?? Date.now;
    this.cache = new PersistentCache(options.store, { maxEntries: options.maxCacheEntries, now: this.now });
    this.meter = new CreditMeter(options.store, this.now);
  }

  /** Loads the cache, the meter and what was learned about the service. */
  ready(): Promise<void> {
    if (!this.readyPromise) {
      this.readyPromise = Promise.all([
        this.cache.load(),
        this.meter.load(),
        readJson<Capabilities>(this.opts.store, CAPS_KEY, {}).then((c) => (this.caps = { ...c, ...this.caps })),
      ]).then(() => {
        this.isReady = true;
      });
    }
    return this.readyPromise;
  }

  /**
   * The client, made anew when the base address changes. An address the client refuses (plain http
   * off loopback, credentials in it…) fails every request locally, with nothing sent.
   */
  get client(): FirmaClient {
    const baseUrl = typeof this.opts.baseUrl === "function" ? this.opts.baseUrl() : this.opts.baseUrl;
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
          totalTimeoutMs: this.totalTimeoutMs,
          retries: this.opts.retries,
          retryDelayMs: this.opts.retryDelayMs,
          fetch: this.opts.fetch,
          onCall: (call) => this.meter.record(this.keyId(), call),
        }),
      };
    }
    return this.clientFor.client;
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
    return this.opts.plan?.() ?? this.meter.detectedPlan(this.keyId());
  }

  latestYear(): number {
    return Math.max(this.opts.latestYear ?? this.ruleYear(), this.caps.latestYear ?? 0);
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
    const stale = (key: string) => {
      const hit = this.cache.peek<unknown>(key);
      if (hit?.fresh) this.cache.set(key, hit.value, 0);
    };
    for (const r of requests) {
      if (r.kind === "list") continue;
      const p = parseCui(r.cui);
      if (!p.ok) continue;
      try {
        if (r.kind === "profile") stale(`p:${p.cui}`);
        else if (r.kind === "financial") stale(`f:${p.cui}:${this.year(r.year)}`);
        else for (const y of range(...this.yearRange(r.from, r.to))) stale(`f:${p.cui}:${y}`);
      } catch {
        /* an invalid year: nothing is cached for it */
      }
    }
  }

  /** Writes cache, meter and learned facts now (the CLI calls this before it exits). */
  async persist(): Promise<void> {
    await Promise.all([this.cache.save(), this.meter.save(), this.opts.store.setItem(CAPS_KEY, JSON.stringify(this.caps))]);
  }

  // ---- per-company requests -------------------------------------------------------------

  /**
   * profileField() answered at once from the cache, without a promise: the value, NOT_CACHED when
   * the service would have to be asked; throws what profileField() rejects with (invalid input, a
   * cached "not found"). Recalculation of cached cells takes this path (the functions try it first).
   */
  profileFieldNow(cuiInput: unknown, field: ProfileField): unknown {
    if (!this.isReady) return NOT_CACHED;
    const cui = this.cui(cuiInput);
    const rec = this.fresh(`p:${cui}`, "p", cui, 0, one(field));
    return rec === undefined ? NOT_CACHED : (rec[field] ?? null);
  }

  /** financialField() answered at once from the cache, as profileFieldNow(). */
  financialFieldNow(cuiInput: unknown, yearInput: unknown, field: FinancialField): number | null | typeof NOT_CACHED {
    if (!this.isReady) return NOT_CACHED;
    const cui = this.cui(cuiInput);
    const year = this.year(yearInput);
    const rec = this.fresh(`f:${cui}:${year}`, "f", cui, year, one(field));
    return rec === undefined ? NOT_CACHED : ((rec[field] as number | null | undefined) ?? null);
  }

  async profileField(cuiInput: unknown, field: ProfileField, signal?: CancelSignal): Promise<unknown> {
    const rec = await this.request("p", this.cui(cuiInput), 0, [field], signal);
    return rec[field] ?? null;
  }

  async profile(cuiInput: unknown, signal?: CancelSignal): Promise<CompanyProfile> {
    const rec = await this.request("p", this.cui(cuiInput), 0, ["denumire", "stare", ...EXTRA_PROFILE], signal);
    return rec as unknown as CompanyProfile;
  }

  async financialField(cuiInput: unknown, yearInput: unknown, field: FinancialField, signal?: CancelSignal): Promise<number | null> {
    const cui = this.cui(cuiInput);
    const rec = await this.request("f", cui, this.year(yearInput), [field], signal);
    return (rec[field] as number | null | undefined) ?? null;
  }

  async financialRecord(cuiInput: unknown, yearInput: unknown, signal?: CancelSignal): Promise<FinancialYear> {
    const cui = this.cui(cuiInput);
    const rec = await this.request("f", cui, this.year(yearInput), [...FINANCIAL_FIELDS], signal);
    return rec as unknown as FinancialYear;
  }

  /** Years from..to, latest first, those the service has; `fields` default to all. */
  async history(
    cuiInput: unknown,
    fromInput: unknown,
    toInput: unknown,
    fields: readonly FinancialField[] = FINANCIAL_FIELDS,
    signal?: CancelSignal,
  ): Promise<FinancialYear[]> {
    const cui = this.cui(cuiInput);
    const [from, to] = this.yearRange(fromInput, toInput);
    const rows = await Promise.all(
      range(from, to).map((y) =>
        this.request("f", cui, y, fields, signal).then(
          (r) => r as unknown as FinancialYear,
          (e) => {
            // a year the service has no data for, or that the plan turns out not to cover, is left out
            if (
              e instanceof NotFoundError ||
              (e as { kind?: string }).kind === "plan_history" ||
              (e as { kind?: string }).kind === "year_outside_plan"
            )
              return null;
            throw e;
          },
        ),
      ),
    );
    const found = rows.filter((r): r is FinancialYear => r !== null);
    if (found.length === 0) throw notFound(cui, `${from}–${to}`);
    return found;
  }

  // ---- lists ------------------------------------------------------------------------------

  search(params: SearchParams & { limit?: number }, signal?: CancelSignal): Promise<SearchItem[]> {
    const limit = params.limit ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return Promise.reject(
        new LocalInputError(
          "invalid_limit",
          "Limita trebuie să fie un număr întreg între 1 și 1000. / The limit must be a whole number from 1 to 1000.",
        ),
      );
    }
    const p = { q: params.q, judet: params.judet, caen: params.caen, stare: params.stare };
    return this.cachedList(`l:search:${JSON.stringify(p)}:${limit}`, TTL.list, async () => {
      const out: SearchItem[] = [];
      for await (const item of this.client.search({ ...p, limit: Math.min(limit, 100) }, { signal })) {
        out.push(item);
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  rankings(params: RankingListParams, signal?: CancelSignal): Promise<RankingSummary[]> {
    return this.cachedList(`l:topuri:${JSON.stringify(params)}`, TTL.list, () => this.client.listRankings(params, { signal }));
  }

  ranking(slug: string, limit: number, signal?: CancelSignal): Promise<RankingEntry[]> {
    if (typeof slug !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/.test(slug)) {
      return Promise.reject(
        new LocalInputError(
          "invalid_slug",
          "Identificator de top invalid: litere, cifre și cratime (vezi FIRMA.TOPURI). / Invalid ranking id: letters, digits and hyphens (see FIRMA.TOPURI).",
        ),
      );
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return Promise.reject(
        new LocalInputError(
          "invalid_limit",
          "Limita trebuie să fie un număr întreg între 1 și 1000. / The limit must be a whole number from 1 to 1000.",
        ),
      );
    }
    return this.cachedList(`l:top:${slug}:${limit}`, TTL.list, async () => {
      const out: RankingEntry[] = [];
      for await (const e of this.client.ranking(slug, { limit: Math.min(limit, 100), signal })) {
        out.push(e);
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  counties(signal?: CancelSignal): Promise<County[]> {
    return this.cachedList("l:judete", TTL.counties, () => this.client.counties({ signal }));
  }

  // ---- estimates --------------------------------------------------------------------------

  /** What fetching these cells would cost now (or, with `refresh`, ignoring the cache). */
  estimate(requests: readonly CellRequest[], options: { refresh?: boolean } = {}): Estimate {
    const basic = new Set<number>();
    const extra = new Set<number>();
    const finWants = new Map<number, Set<number>>();
    const direct = new Map<number, Set<number>>();
    const cuis = new Set<number>();
    let invalid = 0;
    let cached = 0;
    let listCalls = 0;
    const fresh = (key: string, fields: readonly string[]) => {
      if (options.refresh) return false;
      const h = this.cache.peek<Rec | null>(key);
      return !!h && h.fresh && (h.value === null || fields.every((f) => h.value![f] !== undefined));
    };
    const wantFinancial = (cui: number, year: number, field: FinancialField) => {
      if (fresh(`f:${cui}:${year}`, [field])) return true;
      const known = this.caps.batchFinancialFields;
      const target = known && !known.includes(field) ? direct : finWants;
      (target.get(cui) ?? target.set(cui, new Set()).get(cui)!).add(year);
      return false;
    };
    for (const r of requests) {
      if (r.kind === "list") {
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
          if (fresh(`p:${p.cui}`, [r.field])) cached++;
          else (BASIC_PROFILE.has(r.field) ? basic : extra).add(p.cui);
        } else if (r.kind === "financial") {
          if (wantFinancial(p.cui, this.year(r.year), r.field)) cached++;
        } else {
          const [from, to] = this.yearRange(r.from, r.to);
          const all = range(from, to).map((y) => wantFinancial(p.cui, y, r.field));
          if (all.every(Boolean)) cached++;
        }
      } catch {
        invalid++;
        continue;
      }
      cuis.add(p.cui);
    }
    for (const c of extra) basic.delete(c);
    let calls = planIdentification([...basic], [...extra], this.caps.include).length;
    calls += planFinancialBatches(finWants).length;
    for (const years of direct.values()) calls += years.size > 1 && this.caps.rangeFull !== false ? 1 : years.size;
    calls += listCalls;
    return { cells: requests.length, invalid, cached, distinctCuis: cuis.size, calls, credits: calls };
  }

  // ---- internals: validation ----------------------------------------------------------------

  private cui(input: unknown): number {
    const p = parseCui(input);
    if (!p.ok) throw new LocalInputError("invalid_cui", describeCuiFailure(p.reason));
    return p.cui;
  }

  private year(input: unknown): number {
    const p = parseYear(input);
    if (!p.ok)
      throw new LocalInputError(
        "invalid_year",
        `An invalid: „${p.input}”; scrieți un an cu patru cifre, de ex. 2024. / Invalid year "${p.input}": use a four-digit year.`,
      );
    return this.checkYear(p.year ?? this.latestYear());
  }

  /**
   * A history's years, in order. The part of the range that the plan or the service cannot answer
   * is left out (the cell lists the years it can); a range with no such year at all is refused.
   */
  private yearRange(fromInput: unknown, toInput: unknown): [number, number] {
    const parse = (v: unknown) => {
      const p = parseYear(v ?? null);
      if (!p.ok)
        throw new LocalInputError(
          "invalid_year",
          `An invalid: „${p.input}”; scrieți un an cu patru cifre, de ex. 2024. / Invalid year "${p.input}": use a four-digit year.`,
        );
      return p.year ?? this.latestYear();
    };
    let [a, b] = [parse(fromInput), parse(toInput)].sort((x, y) => x - y);
    const plan = this.plan();
    const oldest = Math.max(EARLIEST_YEAR, (plan && oldestYearInPlan(plan, this.latestYear())) || EARLIEST_YEAR);
    if (b >= oldest && a <= this.latestYear()) {
      a = Math.max(a, oldest);
      b = Math.min(b, this.latestYear());
    }
    return [this.checkYear(a), this.checkYear(b)];
  }

  private checkYear(y: number): number {
    const latest = this.latestYear();
    if (y > latest) {
      throw new LocalInputError(
        "year_unavailable",
        `Anul ${y} nu are încă date; ultimul an disponibil: ${latest}. / No data for ${y} yet; latest year: ${latest}.`,
      );
    }
    if (y < EARLIEST_YEAR) {
      throw new LocalInputError(
        "invalid_year",
        `Anul ${y} este înainte de ${EARLIEST_YEAR}: serviciul nu are date. / ${y} is before ${EARLIEST_YEAR}: no data.`,
      );
    }
    const plan = this.plan();
    const oldest = plan ? oldestYearInPlan(plan, latest) : null;
    if (plan && oldest !== null && y < oldest) {
      const label = PLANS[plan].label;
      throw new LocalInputError(
        "year_outside_plan",
        `Anul ${y} nu e inclus în planul ${label} (ani ${oldest}–${latest}); alegeți un an din plan sau un plan mai mare. / ${y} is outside the ${label} plan's history (${oldest}–${latest}).`,
      );
    }
    return y;
  }

  // ---- internals: queue -------------------------------------------------------------------

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

  private async request(kind: "p" | "f", cui: number, year: number, fields: readonly string[], signal?: CancelSignal): Promise<Rec> {
    if (!this.isReady) await this.ready();
    const key = kind === "p" ? `p:${cui}` : `f:${cui}:${year}`;
    const rec = this.fresh(key, kind, cui, year, fields);
    if (rec !== undefined) return rec;
    if (signal?.aborted) throw new AbortedError();
    return new Promise<Rec>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, settled: false };
      const flying = this.inflight.get(key);
      let want: Want;
      if (flying && !flying.done && fields.every((f) => flying.fields.has(f))) {
        want = flying;
      } else {
        want = this.pending.get(key) ?? { key, kind, cui, year, fields: new Set(), waiters: new Set() };
        this.pending.set(key, want);
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
          if (want.waiters.size === 0 && this.pending.get(key) === want) this.pending.delete(key);
          reject(new AbortedError());
        },
        { once: true },
      );
    });
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
    if (!this.timer) this.armFlush(now);
  }

  private armFlush(now: number): void {
    const due = Math.min(this.lastPendingAt + this.windowMs, (this.firstPendingAt ?? now) + this.maxWaitMs);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.firstPendingAt === null) return; // flushed meanwhile
        const t = Date.now();
        if (t < Math.min(this.lastPendingAt + this.windowMs, this.firstPendingAt + this.maxWaitMs)) this.armFlush(t);
        else void this.flush();
      },
      Math.max(0, due - now),
    );
  }

  /** Sends what is queued now. Tests call it to flush without waiting for the window. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const since = this.firstPendingAt ?? Date.now();
    this.firstPendingAt = null;
    const wants = [...this.pending.values()].filter((w) => w.waiters.size > 0);
    this.pending = new Map();
    if (wants.length === 0) return;
    for (const w of wants) this.inflight.set(w.key, w);
    // Every cell settles within totalTimeoutMs of its request (the flush's oldest asked at `since`),
    // however long its call waits behind slow ones for a place among the `concurrency` in flight.
    const deadline = setTimeout(
      () => {
        const e = new TimeoutError(this.totalTimeoutMs);
        for (const w of wants) this.fail(w, e);
      },
      Math.max(0, since + this.totalTimeoutMs - Date.now()),
    );
    (deadline as { unref?: () => void }).unref?.();
    try {
      await Promise.all([
        this.fetchIdentification(wants.filter((w) => w.kind === "p")),
        this.fetchFinancial(wants.filter((w) => w.kind === "f")),
      ]);
    } catch (e) {
      for (const w of wants) this.fail(w, e);
    } finally {
      clearTimeout(deadline);
      for (const w of wants) {
        if (this.inflight.get(w.key) === w) this.inflight.delete(w.key);
        // Every promise settles, even if a bug above left one behind.
        this.fail(w, new Error(`FIRMA: cererea pentru ${w.key} nu a primit răspuns. / No answer for ${w.key}.`));
      }
      void this.saveCaps();
    }
  }

  private settle(w: Want, rec: Rec | null): void {
    w.done = true;
    for (const waiter of w.waiters) {
      if (waiter.settled) continue;
      waiter.settled = true;
      if (rec === null) waiter.reject(notFound(w.cui, w.kind === "f" ? w.year : undefined));
      else waiter.resolve(rec);
    }
  }

  /** Rejects a want's waiters, unless a passing failure can be covered by a stale cached value. */
  private fail(w: Want, e: unknown): void {
    if ([...w.waiters].every((x) => x.settled)) return;
    if (e instanceof ApiError && TRANSIENT.has(e.kind)) {
      const stale = this.cache.peek<Rec | null>(w.key);
      if (stale && (stale.value === null || [...w.fields].every((f) => stale.value![f] !== undefined))) {
        this.settle(w, stale.value);
        return;
      }
    }
    w.done = true;
    for (const waiter of w.waiters) {
      if (waiter.settled) continue;
      waiter.settled = true;
      waiter.reject(e);
    }
  }

  private store(key: string, item: Record<string, unknown> | null, ttl: number): Rec | null {
    if (item === null) {
      this.cache.set(key, null, TTL.notFound);
      return null;
    }
    const old = this.cache.peek<Rec | null>(key)?.value;
    const merged: Rec = { ...(old ?? {}) } as Rec;
    for (const [k, v] of Object.entries(item)) if (v !== undefined) merged[k] = v;
    this.cache.set(key, merged, ttl);
    return merged;
  }

  private async fetchIdentification(wants: Want[]): Promise<void> {
    if (wants.length === 0) return;
    const byCui = new Map(wants.map((w) => [w.cui, w]));
    const covers = (rec: Rec, w: Want) => [...w.fields].every((f) => rec[f] !== undefined);
    const leftovers: Want[] = [];
    const open = () => wants.filter((w) => !w.done && !leftovers.includes(w));
    const needsExtra = (w: Want) => [...w.fields].some((f) => !BASIC_PROFILE.has(f));

    const runBatch = async (cuis: number[], include: boolean) => {
      let items: BatchIdentificationItem[];
      try {
        items = await this.client.batchIdentification(cuis, include ? { include: EXTRA_PROFILE } : {});
      } catch (e) {
        for (const c of cuis) this.fail(byCui.get(c)!, e);
        return;
      }
      const found = new Map<number, BatchIdentificationItem>();
      for (const it of items) if (!found.has(it.cui)) found.set(it.cui, it);
      if (include && this.caps.include === undefined && found.size > 0) {
        this.caps.include = [...found.values()].some((it) => EXTRA_PROFILE.every((f) => (it as Record<string, unknown>)[f] !== undefined));
      }
      for (const c of cuis) {
        const w = byCui.get(c)!;
        const it = found.get(c);
        const rec = this.store(w.key, it ? (it as Record<string, unknown>) : null, TTL.profile);
        if (rec === null || covers(rec, w)) this.settle(w, rec);
        else leftovers.push(w);
      }
    };
    const runSingle = async (w: Want) => {
      try {
        const p = await this.client.getCompany(w.cui);
        this.settle(w, this.store(w.key, p as unknown as Record<string, unknown>, TTL.profile));
      } catch (e) {
        if (e instanceof NotFoundError) this.settle(w, this.store(w.key, null, 0));
        else this.fail(w, e);
      }
    };
    const plan = () => {
      const ws = open();
      return planIdentification(
        ws.filter((w) => !needsExtra(w)).map((w) => w.cui),
        ws.filter(needsExtra).map((w) => w.cui),
        this.caps.include,
      );
    };

    let calls = plan();
    if (this.caps.include === undefined && calls.length > 1 && calls[0].kind === "batch" && calls[0].include) {
      // Probe once whether `include` works before planning the rest (O10).
      await this.limit(() => runBatch((calls[0] as { cuis: number[] }).cuis, true));
      calls = plan();
    }
    await Promise.all(
      calls.map((c) => this.limit(() => (c.kind === "batch" ? runBatch(c.cuis, c.include) : runSingle(byCui.get(c.cui)!)))),
    );
    await Promise.all(leftovers.map((w) => this.limit(() => runSingle(w))));
  }

  private async fetchFinancial(wants: Want[]): Promise<void> {
    if (wants.length === 0) return;
    const byKey = new Map(wants.map((w) => [`${w.cui}:${w.year}`, w]));
    const batchable = (w: Want) => {
      const known = this.caps.batchFinancialFields;
      return known === undefined || [...w.fields].some((f) => (known as string[]).includes(f));
    };
    const direct: Want[] = wants.filter((w) => !batchable(w));
    const need = new Map<number, Set<number>>();
    for (const w of wants) if (batchable(w)) (need.get(w.cui) ?? need.set(w.cui, new Set()).get(w.cui)!).add(w.year);

    const ttl = (an: number) => (an < this.latestYear() ? TTL.closedYear : TTL.latestYear);
    const covers = (rec: Rec, w: Want) => [...w.fields].every((f) => rec[f] !== undefined);

    const runBatch = async (call: FinancialBatchCall) => {
      const years = yearsOf(call.years);
      let items: FinancialYear[];
      try {
        items = await this.client.batchFinancial(call.cuis, call.years);
      } catch (e) {
        if (e instanceof ApiError && e.kind === "plan_history" && years.length > 1) {
          // Planned before the plan was known (O15). The refusal told us the plan (X-Plan, O23)
          // and cost nothing (O20): refuse the years outside it locally and plan the rest again;
          // if the plan is still unknown, go year by year so that only the refused years fail.
          const plan = this.plan();
          const oldest = plan ? oldestYearInPlan(plan, this.latestYear()) : null;
          const again = new Map<number, Set<number>>();
          for (const c of call.cuis) {
            for (const y of years) {
              const w = byKey.get(`${c}:${y}`);
              if (!w) continue;
              if (oldest !== null && y < oldest) {
                try {
                  this.checkYear(y);
                } catch (local) {
                  this.fail(w, local);
                }
              } else (again.get(c) ?? again.set(c, new Set()).get(c)!).add(y);
            }
          }
          const calls = oldest === null ? years.map((an) => ({ cuis: call.cuis, years: { an } })) : planFinancialBatches(again);
          for (const next of calls) await runBatch(next);
          return;
        }
        for (const c of call.cuis) for (const y of years) if (byKey.has(`${c}:${y}`)) this.fail(byKey.get(`${c}:${y}`)!, e);
        return;
      }
      const asked = new Set(call.cuis);
      const found = new Map<string, FinancialYear>();
      for (const it of items) {
        if (!asked.has(it.cui) || !years.includes(it.an)) continue;
        const k = `${it.cui}:${it.an}`;
        if (!found.has(k)) found.set(k, it);
      }
      if (found.size > 0) {
        if (this.caps.batchFinancialFields === undefined) {
          this.caps.batchFinancialFields = FINANCIAL_FIELDS.filter((f) => [...found.values()].some((it) => it[f] !== undefined));
        }
        const maxYear = Math.max(...[...found.values()].map((it) => it.an));
        if (maxYear > this.latestYear()) this.caps.latestYear = maxYear;
      }
      for (const c of call.cuis) {
        for (const y of years) {
          const k = `${c}:${y}`;
          const it = found.get(k);
          const w = byKey.get(k);
          if (!w) {
            if (it) this.store(`f:${k}`, it as unknown as Record<string, unknown>, ttl(y));
            continue;
          }
          const rec = this.store(w.key, it ? (it as unknown as Record<string, unknown>) : null, ttl(y));
          if (rec === null || covers(rec, w)) this.settle(w, rec);
          else direct.push(w);
        }
      }
    };
    await Promise.all(planFinancialBatches(need).map((call) => this.limit(() => runBatch(call))));

    // Fields the batch items lack: the single-company endpoints (a range per company when it
    // wants several years and range entries carry every field, else one call per year).
    const byCui = new Map<number, Want[]>();
    for (const w of direct) (byCui.get(w.cui) ?? byCui.set(w.cui, []).get(w.cui)!).push(w);
    const perYear = (w: Want) =>
      this.limit(async () => {
        try {
          const r = await this.client.getFinancialYear(w.cui, w.year);
          this.settle(w, this.store(w.key, r as unknown as Record<string, unknown>, ttl(w.year)));
        } catch (e) {
          if (e instanceof NotFoundError) this.settle(w, this.store(w.key, null, 0));
          else this.fail(w, e);
        }
      });
    await Promise.all(
      [...byCui.values()].map(async (ws) => {
        if (ws.length < 2 || this.caps.rangeFull === false) return Promise.all(ws.map(perYear));
        const years = ws.map((w) => w.year);
        const later: Want[] = [];
        await this.limit(async () => {
          try {
            const r = await this.client.getFinancialRange(ws[0].cui, Math.min(...years), Math.max(...years));
            const byYear = new Map(r.data.map((d) => [d.an, d]));
            if (this.caps.rangeFull === undefined && r.data.length > 0) {
              this.caps.rangeFull = r.data.every((d) => FINANCIAL_FIELDS.every((f) => d[f] !== undefined));
            }
            for (const w of ws) {
              const d = byYear.get(w.year);
              const rec = this.store(w.key, d ? (d as unknown as Record<string, unknown>) : null, ttl(w.year));
              if (rec === null || covers(rec, w)) this.settle(w, rec);
              else later.push(w);
            }
          } catch (e) {
            if (e instanceof NotFoundError) for (const w of ws) this.settle(w, this.store(w.key, null, 0));
            else for (const w of ws) this.fail(w, e);
          }
        });
        await Promise.all(later.map(perYear));
      }),
    );
  }

  private cachedList<T>(key: string, ttl: number, fetcher: () => Promise<T>): Promise<T> {
    return (async () => {
      if (!this.isReady) await this.ready();
      const hit = this.cache.getFresh<T>(key);
      if (hit) return hit.value;
      const flying = this.listInflight.get(key) as Promise<T> | undefined;
      if (flying) return flying;
      const p = fetcher()
        .then(
          (v) => {
            this.cache.set(key, v, ttl);
            return v;
          },
          (e) => {
            const stale = this.cache.peek<T>(key);
            if (stale && e instanceof ApiError && TRANSIENT.has(e.kind)) return stale.value;
            throw e;
          },
        )
        .finally(() => this.listInflight.delete(key));
      this.listInflight.set(key, p);
      return p;
    })();
  }

  private async saveCaps(): Promise<void> {
    try {
      await this.opts.store.setItem(CAPS_KEY, JSON.stringify(this.caps));
    } catch {
      /* storage full or gone: the engine still works, it just re-learns next time */
    }
  }
}

/**
 * The error of a company or year the service does not have. An expected answer, not a fault, and
 * thrown for every recalculated cell that shows it: made without a stack trace, which is costly to
 * capture and would say nothing.
 */
function notFound(cui: number, year?: number | string): NotFoundError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const e = new NotFoundError({ status: 404 });
    Object.assign(e, { cui, year: year ?? null });
    return e;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const ONE_FIELD = new Map<string, readonly string[]>();

/** [field], made once per field (the per-cell path asks for it at every cell). */
function one(field: string): readonly string[] {
  let list = ONE_FIELD.get(field);
  if (!list) ONE_FIELD.set(field, (list = [field]));
  return list;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let y = to; y >= from; y--) out.push(y);
  return out;
}

function positive(v: number, name: string, allowZero = false): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) {
    throw new TypeError(`FIRMA engine option ${name} must be a ${allowZero ? "non-negative" : "positive"} number, got ${String(v)}`);
  }
  return v;
}
