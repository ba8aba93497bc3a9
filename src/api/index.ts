/**
 * The typed client of the Company Data Service API v4: the one public surface of `src/api`. Data
 * flows one way, cell → function → engine → client → service; the client uses no Office global and
 * runs unchanged in Node 20 and in browsers.
 *
 * ```ts
 * import { FirmaClient } from "../api";
 * const client = new FirmaClient({
 *   baseUrl: "http://127.0.0.1:3001", // required; with or without a trailing /v4; https, except on loopback
 *   apiKey: () => storage.key,        // a string, or a function read at each call (may return a promise);
 *                                     // no key → MissingKeyError, and no call is made
 *   timeoutMs: 10_000,                // one attempt, answer body included; @default 10000
 *   totalTimeoutMs: 30_000,           // all attempts and the waits between them; @default 30000
 *   retries: 1,                       // after a network error, a 5xx, a timed-out attempt or an unreadable
 *                                     // 2xx body; never after a 4xx or an abort; @default 1
 *   retryDelayMs: 200,                // first wait, doubled each time, with full jitter; @default 200
 *   maxPages: 1000,                   // at most this many pages per pagination; @default 1000
 *   fetch: globalThis.fetch,          // injectable; @default globalThis.fetch, looked up at each call
 *   onCall: (call: CallRecord) => {}, // sees every HTTP attempt, failed ones included (the credit meter)
 *   beforeCall: (attempt) => {},      // asked before every attempt; what it throws refuses the attempt,
 *                                     // a promise it returns holds it (http.ts ASK_AGAIN)
 * });
 * ```
 * An unknown or ill-typed option is a `TypeError` naming it (options.ts).
 *
 * Methods (each checks its arguments first: a bad one rejects with a TypeError or RangeError before
 * any call; the iterators reject at their first `next()`):
 * - `getCompany(cui, opts?)` → `CompanyProfile`
 * - `getFinancialYear(cui, an?, opts?)` → `FinancialYear` (`an` left out: the latest year the service has)
 * - `getFinancialRange(cui, anDeLa, anPana, opts?)` → `FinancialRange`
 * - `batchIdentification(cuis, { include?, ...opts })` → `BatchIdentificationItem[]`: up to 100
 *   distinct CUIs in one call (duplicates are asked once; more than 100 → RangeError, no call)
 * - `batchFinancial(cuis, years?, opts?)` → `FinancialYear[]`: up to 50 distinct CUIs; `years` is
 *   `{ an }`, `{ anDeLa, anPana }` or neither (the latest year)
 * - `searchPages(params, opts?)` / `search(params, opts?)` → async iterators of pages / of `SearchItem`s
 * - `listRankings(params?, opts?)` → `RankingSummary[]`
 * - `rankingPages(slug, { limit?, page? }, opts?)` / `ranking(slug, { limit? }, opts?)` → async iterators
 * - `counties(opts?)` → `County[]`
 * - `lastQuota`: what the latest answer's headers said about plan and credits (`QuotaInfo`)
 *
 * `opts` (`RequestOptions`): `{ signal?, timeoutMs?, retries?, onAnswer? }`; a cancelled call rejects
 * with `AbortedError`.
 *
 * `CallRecord` (types.ts): `{ endpoint, path, query, status, credited, charged, retryAfterMs?,
 * firmLimit?, durationMs, attempt, errorKind?, quota?, cuiCount? }`; `query` never holds the key and
 * `status` is 0 when no answer came. `EndpointName` is one of `company`, `financial`, `batch`,
 * `batchFinancial`, `search`, `rankings`, `ranking`, `counties`.
 *
 * Errors (errors.ts) are `ApiError`s with `kind`, `status`, `serviceMessage`, `serviceCode`,
 * `endpoint`, `retryable`, `retryAfterMs` and `firmLimit`. The HTTP status decides the class:
 * 401 (or no key) `MissingKeyError`, 403 `InvalidKeyError` or, about the plan's years,
 * `PlanHistoryError`, 404 `NotFoundError`, 429 `CreditsExhaustedError`, other 4xx
 * `BadRequestError`, 5xx `ServerError`; no answer `NetworkError` or `TimeoutError`; the caller's
 * signal `AbortedError`; an unreadable body `ResponseShapeError`. `kind` is one of `missing_key`,
 * `invalid_key`, `plan_history`, `credits_exhausted`, `not_found`, `bad_request`, `server`,
 * `network`, `timeout`, `aborted`, `shape`. The key travels only in the `X-API-Key` header: it never
 * appears in a message, a URL or a log.
 */
export { FirmaClient, MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION, DEFAULT_PAGE_SIZE } from "./client";
export type { BatchOptions, PageParams } from "./client";
export type { ClientOptions, ApiKeySource } from "./options";
export { DEFAULTS } from "./options";
export {
  ApiError,
  MissingKeyError,
  InvalidKeyError,
  PlanHistoryError,
  CreditsExhaustedError,
  NotFoundError,
  BadRequestError,
  ServerError,
  NetworkError,
  TimeoutError,
  AbortedError,
  ResponseShapeError,
} from "./errors";
export { ASK_AGAIN, isCredited } from "./http";
export * from "./types";
