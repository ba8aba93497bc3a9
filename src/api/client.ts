/**
 * FirmaClient: one method per endpoint of the Company Data Service API v4, each checking its
 * arguments (batches: de-duplicated, refused over their size), and async iterators over paginated
 * lists; behind the methods, the same calls unchecked for the engine (UNCHECKED). The transport
 * (`http.ts`) does timeouts, retries and call records; the tolerant reader (`reader.ts`) does the bodies.
 * No Office globals: runs unchanged in Node 20 and in browsers.
 */
import { unique } from "./chunk";
import { MissingKeyError, InvalidKeyError, redactError } from "./errors";
import { queryString, send, type Attempting, type Call } from "./http";
import * as read from "./reader";
import { normalizeOptions, normalizeRequestOptions, type ClientOptions, type ResolvedOptions } from "./options";
import { isValidCui } from "./cui";
import type {
  BatchIdentificationItem,
  CallRecord,
  CompanyProfile,
  County,
  EndpointName,
  FinancialRange,
  FinancialYear,
  FinancialYears,
  Page,
  QuotaInfo,
  RankingEntry,
  RankingListParams,
  RankingSummary,
  RequestOptions,
  SearchItem,
  SearchParams,
} from "./types";

/** Documented maxima of the batch endpoints. */
export const MAX_BATCH_IDENTIFICATION = 100;
export const MAX_BATCH_FINANCIAL = 50;
/** Page size asked for when the caller does not say (the sandbox's maximum, O9). */
export const DEFAULT_PAGE_SIZE = 100;

export type BatchOptions = RequestOptions & {
  /** Profile fields the batch items should carry (O10), e.g. `["judet", "adresa"]`, or `["all"]`. */
  include?: string[];
};

export interface PageParams {
  /** @default 100 */
  limit?: number;
  /** @default 1 */
  page?: number;
}

/**
 * The key of a client's endpoint calls without the argument checks (`client[UNCHECKED]`), for a caller
 * that has made them: the engine, whose CUIs are checked where a cell or a row gives them (answers.ts,
 * requests.ts), distinct in each batch and never more than a batch holds (queue.ts, planner.ts), and
 * whose years its year policy checks (years.ts). Not exported by index.ts: a user of the client calls
 * its methods, which check (and de-duplicate a batch's CUIs) before they call these.
 */
export const UNCHECKED: unique symbol = Symbol("firma.unchecked");

/** The endpoint calls behind FirmaClient's methods, arguments taken as they are (UNCHECKED). */
export interface UncheckedCalls {
  company(cui: number, opts?: RequestOptions): Promise<CompanyProfile>;
  financialYear(cui: number, an: number | undefined, opts?: RequestOptions): Promise<FinancialYear>;
  financialRange(cui: number, anDeLa: number, anPana: number, opts?: RequestOptions): Promise<FinancialRange>;
  /** Distinct CUIs, at most 100; `include` field names as the query carries them. */
  batchIdentification(
    cuis: readonly number[],
    include: readonly string[] | undefined,
    opts?: RequestOptions,
  ): Promise<BatchIdentificationItem[]>;
  /** Distinct CUIs, at most 50; one year, a range, or neither (never both). */
  batchFinancial(cuis: readonly number[], years: FinancialYears, opts?: RequestOptions): Promise<FinancialYear[]>;
}

/**
 * Every method checks its arguments first: a bad one rejects (TypeError, RangeError) before any call;
 * the iterators reject at their first `next()`. Errors of the service are `ApiError`s (errors.ts).
 */
export class FirmaClient {
  /** What the latest answer's headers said about plan and credits (O23); all null until one says something. */
  lastQuota: QuotaInfo = { plan: null, remaining: null, limit: null };
  private readonly o: ResolvedOptions;

  /** The same endpoint calls without the argument checks, for a caller that made them (UNCHECKED). */
  readonly [UNCHECKED]: UncheckedCalls = {
    company: async (cui, opts) => this.get({ endpoint: "company", path: `/v4/firme/${cui}`, query: "" }, opts, read.readCompany),
    financialYear: async (cui, an, opts) =>
      this.get({ endpoint: "financial", path: `/v4/firme/${cui}/financiar`, query: queryString({ an }) }, opts, (b) =>
        read.pickYear(read.readFinancial(b, cui), cui, an),
      ),
    financialRange: async (cui, anDeLa, anPana, opts) => {
      const query = queryString({ an_de_la: anDeLa, an_pana: anPana });
      return this.get({ endpoint: "financial", path: `/v4/firme/${cui}/financiar`, query }, opts, (b) =>
        read.toRange(read.readFinancial(b, cui), cui),
      );
    },
    batchIdentification: async (cuis, include, opts) => {
      if (cuis.length === 0) return [];
      const query = queryString({ cui: cuis.join(","), include: include?.length ? include.join(",") : undefined });
      return this.get({ endpoint: "batch", path: "/v4/firme/batch", query, cuiCount: cuis.length }, opts, (b) =>
        read.readBatchIdentification(b, cuis),
      );
    },
    batchFinancial: async (cuis, years, opts) => {
      if (cuis.length === 0) return [];
      const { query, keep } = yearsQuery(years);
      const q = queryString({ cui: cuis.join(","), ...query });
      return this.get({ endpoint: "batchFinancial", path: "/v4/firme/batch/financiar", query: q, cuiCount: cuis.length }, opts, (b) =>
        read.readBatchFinancial(b, cuis, keep),
      );
    },
  };

  constructor(options: ClientOptions) {
    const o = normalizeOptions(options);
    const onCall = o.onCall;
    const observe = (call: CallRecord) => {
      if (call.quota) this.lastQuota = call.quota;
      onCall?.(call);
    };
    this.o = { ...o, onCall: observe };
  }

  /** Identification data of one company (`GET /v4/firme/{cui}`). Unknown CUI → `NotFoundError`. */
  async getCompany(cui: number, opts?: RequestOptions): Promise<CompanyProfile> {
    return this[UNCHECKED].company(checkCui(cui), opts);
  }

  /** Financial figures for one year; `an` left out → the latest year the service has (O12, O19). */
  async getFinancialYear(cui: number, an?: number, opts?: RequestOptions): Promise<FinancialYear> {
    checkCui(cui);
    if (an !== undefined) checkYear("an", an);
    return this[UNCHECKED].financialYear(cui, an, opts);
  }

  /** Financial figures for the years `anDeLa` … `anPana`, latest first; years without data are left out (O18). */
  async getFinancialRange(cui: number, anDeLa: number, anPana: number, opts?: RequestOptions): Promise<FinancialRange> {
    checkCui(cui);
    checkRange(anDeLa, anPana);
    return this[UNCHECKED].financialRange(cui, anDeLa, anPana, opts);
  }

  /**
   * Identification data of up to 100 distinct companies in one call (1 credit). Unknown CUIs are
   * simply absent from the result, which follows the order asked. More than 100 → `RangeError`, no call.
   */
  async batchIdentification(cuis: readonly number[], opts: BatchOptions = {}): Promise<BatchIdentificationItem[]> {
    const list = checkBatch(cuis, MAX_BATCH_IDENTIFICATION);
    const { include, ...rest } = opts;
    if (include !== undefined && (!Array.isArray(include) || include.some((f) => typeof f !== "string" || !/^\w+$/.test(f)))) {
      throw new TypeError(`include: expected an array of field names, got ${JSON.stringify(include)}`);
    }
    return this[UNCHECKED].batchIdentification(list, include, rest);
  }

  /**
   * Financial figures of up to 50 distinct companies in one call (1 credit): one year, a range, or
   * (neither) the latest year. Missing (cui, year) pairs are absent. More than 50 → `RangeError`, no call.
   */
  async batchFinancial(cuis: readonly number[], years: FinancialYears = {}, opts?: RequestOptions): Promise<FinancialYear[]> {
    const list = checkBatch(cuis, MAX_BATCH_FINANCIAL);
    checkYears(years);
    return this[UNCHECKED].batchFinancial(list, years, opts);
  }

  /** Pages of a search (O1, O9). Break out of the loop to stop: no further page is fetched. */
  async *searchPages(params: SearchParams = {}, opts?: RequestOptions): AsyncIterableIterator<Page<SearchItem>> {
    const { q, judet, caen, stare } = params;
    const filters = { q, judet, caen, stare };
    for (const [k, v] of Object.entries(filters))
      if (v !== undefined && typeof v !== "string") throw new TypeError(`${k}: expected a string`);
    yield* this.paginate("search", "/v4/firme/search", filters, pageParams(params), read.readSearchPage, opts);
  }

  /** Companies of a search, one by one, across pages. */
  async *search(params: SearchParams = {}, opts?: RequestOptions): AsyncIterableIterator<SearchItem> {
    for await (const page of this.searchPages(params, opts)) yield* page.items;
  }

  /** The rankings (tops), optionally filtered. Sandbox identifiers as examples (O11): `scop` national/judet/localitate, `categorie` cifra-afaceri/profit-net/angajati/active. */
  async listRankings(params: RankingListParams = {}, opts?: RequestOptions): Promise<RankingSummary[]> {
    if (params.an !== undefined) checkYear("an", params.an);
    const query = queryString({ an: params.an, categorie: params.categorie, scop: params.scop });
    return this.get({ endpoint: "rankings", path: "/v4/topuri", query }, opts, read.readRankings);
  }

  /**
   * Pages of one ranking, e.g. `top-cifra-afaceri-2025-judet-cj` (O4, O9). The request options may
   * also ride in `params` (`{ limit, signal }`).
   */
  async *rankingPages(
    slug: string,
    params: PageParams & RequestOptions = {},
    opts?: RequestOptions,
  ): AsyncIterableIterator<Page<RankingEntry>> {
    if (typeof slug !== "string" || slug.trim() === "")
      throw new TypeError(`slug: expected a non-empty string, got ${JSON.stringify(slug)}`);
    const { limit, page, ...inParams } = params;
    const path = `/v4/topuri/${encodeURIComponent(slug.trim())}`;
    yield* this.paginate("ranking", path, {}, pageParams({ limit, page }), read.readRankingPage, { ...inParams, ...opts });
  }

  /** Entries of one ranking, one by one, across pages. */
  async *ranking(
    slug: string,
    params: Pick<PageParams, "limit"> & RequestOptions = {},
    opts?: RequestOptions,
  ): AsyncIterableIterator<RankingEntry> {
    for await (const page of this.rankingPages(slug, { ...params, page: 1 }, opts)) yield* page.items;
  }

  /** The counties, with codes and active-company counts (O5). */
  async counties(opts?: RequestOptions): Promise<County[]> {
    return this.get({ endpoint: "counties", path: "/v4/nomenclatoare/judete", query: "" }, opts, read.readCounties);
  }

  // -------------------------------------------------------------------------------------------
  // Private

  /**
   * Key → transport → reader; the one place errors are caught, to scrub the key from them. A key read
   * without waiting (the engine's is) reaches fetch() in this very call, with no await on the way: a
   * batch sent while Excel is still invoking cells starts its request then (a browser starts it at
   * once), and the next call after an answer starts before that answer's cells are settled.
   */
  private get<T>(call: Call, opts: RequestOptions | undefined, readBody: (body: unknown) => T): Promise<T> {
    try {
      const attempting = normalizeRequestOptions(this.o, opts);
      const source = this.o.apiKey;
      const value = typeof source === "function" ? source() : source;
      if (value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function")
        return Promise.resolve(value).then((v) => this.sendWith(checkKey(v, call.endpoint), call, attempting, readBody));
      return this.sendWith(checkKey(value, call.endpoint), call, attempting, readBody);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private async sendWith<T>(key: string, call: Call, attempting: Attempting, readBody: (body: unknown) => T): Promise<T> {
    try {
      return readBody((await send(this.o, key, call, attempting)).body);
    } catch (e) {
      throw redactError(e, key);
    }
  }

  /**
   * Follows pages (O9): asks `limit`/`page` explicitly; ends when `pages` or `total` say so, else on an
   * empty page or one shorter than the page size; never reads more than `maxPages` pages.
   */
  private async *paginate<T>(
    endpoint: EndpointName,
    path: string,
    filters: Record<string, string | undefined>,
    start: Required<PageParams>,
    readPage: (body: unknown, page: number, limit: number) => Page<T>,
    opts?: RequestOptions,
  ): AsyncGenerator<Page<T>, void, undefined> {
    const { limit } = start;
    let { page } = start;
    for (let n = 0; n < this.o.maxPages; n++, page++) {
      const query = queryString({ ...filters, limit, page });
      const p = await this.get({ endpoint, path, query }, opts, (b) => readPage(b, page, limit));
      yield p;
      if (p.items.length === 0) return;
      if (p.pages !== null ? page >= p.pages : p.total !== null ? page * p.limit >= p.total : p.items.length < p.limit) return;
    }
  }
}

/** The key as a header may carry it (the value the key option gave, or its promise's). */
function checkKey(value: unknown, endpoint: EndpointName): string {
  const key = typeof value === "string" ? value.trim() : "";
  if (key === "") throw new MissingKeyError({ endpoint });
  // A header value must be visible ASCII; fetch would otherwise throw with the key in its message.
  if (!/^[\x21-\x7e]+$/.test(key))
    throw new InvalidKeyError({
      endpoint,
      serviceCode: "key_characters",
      serviceMessage: "the key has characters a header cannot carry",
    });
  return key;
}

function checkCui(cui: number): number {
  if (!isValidCui(cui))
    throw new TypeError(`CUI invalid / invalid CUI: ${String(cui)} (an integer of 2–10 digits with a valid control digit)`);
  return cui;
}

function checkBatch(cuis: readonly number[], max: number): number[] {
  if (!Array.isArray(cuis)) throw new TypeError("cuis: expected an array of CUIs");
  const list = unique(cuis).map(checkCui);
  if (list.length > max) throw new RangeError(`Too many CUIs in one batch: ${list.length} (at most ${max})`);
  return list;
}

function checkYear(name: string, an: number): number {
  if (!Number.isSafeInteger(an) || an < 1900 || an > 2999) throw new TypeError(`${name}: expected a year, got ${String(an)}`);
  return an;
}

function checkRange(anDeLa: number, anPana: number) {
  checkYear("anDeLa", anDeLa);
  checkYear("anPana", anPana);
  if (anDeLa > anPana) throw new RangeError(`anDeLa (${anDeLa}) is after anPana (${anPana})`);
}

/** Page size and first page, checked before the iterator starts (defaults 100 and 1, O9). */
function pageParams({ limit = DEFAULT_PAGE_SIZE, page = 1 }: PageParams): Required<PageParams> {
  for (const [name, n] of Object.entries({ limit, page })) {
    if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`${name}: expected an integer ≥ 1, got ${String(n)}`);
  }
  return { limit, page };
}

/** A financial batch's years, checked: `{ an }`, `{ anDeLa, anPana }` or neither, never both (O12). */
function checkYears(years: FinancialYears): void {
  if (years === null || typeof years !== "object") throw new TypeError("years: expected { an } or { anDeLa, anPana }");
  const y = years as { an?: number; anDeLa?: number; anPana?: number };
  if (y.anDeLa !== undefined || y.anPana !== undefined) {
    if (y.an !== undefined) throw new TypeError("years: give either an or anDeLa/anPana, not both");
    checkRange(y.anDeLa as number, y.anPana as number);
  } else if (y.an !== undefined) checkYear("an", y.an);
}

/** Query of a financial batch (years checked, checkYears), and which years of the answer to keep. */
function yearsQuery(years: FinancialYears): { query: Record<string, number | undefined>; keep: (an: number) => boolean } {
  const y = years as { an?: number; anDeLa?: number; anPana?: number };
  if (y.anDeLa !== undefined || y.anPana !== undefined) {
    const [from, to] = [y.anDeLa!, y.anPana!];
    return { query: { an_de_la: from, an_pana: to }, keep: (an) => an >= from && an <= to };
  }
  if (y.an !== undefined) {
    const an = y.an;
    return { query: { an }, keep: (a) => a === an };
  }
  return { query: {}, keep: () => true };
}
