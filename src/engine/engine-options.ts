/**
 * The engine's options: one type, the defaults beside it (`@default`), and one function that applies
 * them and names each bad option in a TypeError — the client's way (src/api/options.ts), which it
 * reuses. The settings the user edits (the batch window, the credit guard) take their bounds from here.
 */
import { bad, DEFAULTS as CLIENT_DEFAULTS, getValidCallTimes, getValidInteger, getValidNumber } from "../api/options";
import type { PlanName } from "../api/types";
import type { KeyValueStore } from "./cache/store";
import { HTTP1_LANES, MULTIPLEXED_LANES, pageProtocol, type PageProtocol } from "./credits/lanes";

export interface EngineOptions {
  /** The service's base address; a function is read again at each call (the pane may change it). */
  baseUrl: string | (() => string);
  /** The user's key, read at each call; null → the cell says a key is missing, no call is made. */
  apiKey: () => string | null | undefined;
  /** Where cache, meter and learned facts persist (OfficeRuntime.storage in the add-in). */
  store: KeyValueStore;
  /** The user's plan, if they chose one; otherwise the plan the service reports (O23), if any. */
  plan?: () => PlanName | null | undefined;
  /** Quiet time after the last request before a flush, from 0 to 5000 ms. @default 40 */
  windowMs?: number;
  /** Longest a request waits for its flush. @default 1000 */
  maxWaitMs?: number;
  /** Calls in flight at once (a browser's connections per host over HTTP/1.1). @default 6 */
  concurrency?: number;
  /**
   * Calls in flight at once when the service is the page's own origin and answers over HTTP/2 or 3
   * (credits/lanes.ts). @default 120
   */
  multiplexedConcurrency?: number;
  /** What the page knows of its own origin's protocol (credits/lanes.ts). @default the browser's; none in Node */
  page?: PageProtocol | null;
  /** Per-attempt timeout of a call, from when it is sent. @default 10000 */
  timeoutMs?: number;
  /** A call's time across its attempts and the wait between them, from when it is sent. @default 30000 */
  totalTimeoutMs?: number;
  /** Retries of transient failures (5xx, reset, timeout, unreadable 2xx body). @default 1 */
  retries?: number;
  /** First wait before a retry. @default 200 */
  retryDelayMs?: number;
  /** The latest financial year the service has. @default the rule of O19 (years.ts) */
  latestYear?: number;
  /** Answers the cache keeps in memory at most (the cache's own default too). @default 500000 */
  maxCacheEntries?: number;
  /**
   * The credit guard: credits one burst of recalculated cells may cost before FIRMA holds it for the
   * user's confirmation; null = off. @default null (the add-in sets the user's threshold)
   */
  guardThreshold?: number | null;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** The clock (tests move it). @default Date.now */
  now?: () => number;
}

/** The batch window's bounds: the engine refuses others, the pane's settings form offers these. */
export const BATCH_WINDOW = { min: 0, max: 5000, default: 40 } as const;

/** The credit guard's threshold a fresh install uses; the engine's own default is off (null). */
export const DEFAULT_GUARD_THRESHOLD = 100;

export const ENGINE_DEFAULTS = {
  windowMs: BATCH_WINDOW.default,
  maxWaitMs: 1000,
  concurrency: HTTP1_LANES,
  multiplexedConcurrency: MULTIPLEXED_LANES,
  maxCacheEntries: 500_000,
  ...CLIENT_DEFAULTS,
} as const;

export interface ResolvedEngineOptions {
  baseUrl: () => string;
  apiKey: () => string | null | undefined;
  store: KeyValueStore;
  plan: () => PlanName | null | undefined;
  windowMs: number;
  maxWaitMs: number;
  concurrency: number;
  multiplexedConcurrency: number;
  page: PageProtocol | null;
  timeoutMs: number;
  totalTimeoutMs: number;
  retries: number;
  retryDelayMs: number;
  /** null: the rule of O19. */
  latestYear: number | null;
  maxCacheEntries: number;
  guardThreshold: number | null;
  fetch: typeof fetch | undefined;
  now: () => number;
}

export function getValidEngineOptions(o: EngineOptions): ResolvedEngineOptions {
  if (o === null || typeof o !== "object") throw bad("options", "an object", o);
  const { baseUrl, apiKey, store, plan, fetch: fetchImpl, now } = o;
  if (typeof baseUrl !== "string" && typeof baseUrl !== "function") throw bad("baseUrl", "an address or a function that reads it", baseUrl);
  // A key passed as a string is not shown: it is a secret.
  if (typeof apiKey !== "function") throw bad("apiKey", "a function that reads the key", typeof apiKey === "string" ? "a string" : apiKey);
  if (store === null || typeof store !== "object" || typeof store.getItem !== "function" || typeof store.setItem !== "function")
    throw bad("store", "a key-value store (getItem, setItem, removeItem)", store);
  if (plan !== undefined && typeof plan !== "function") throw bad("plan", "a function", plan);
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") throw bad("fetch", "a function", fetchImpl);
  if (now !== undefined && typeof now !== "function") throw bad("now", "a function", now);
  return {
    baseUrl: typeof baseUrl === "function" ? baseUrl : () => baseUrl,
    apiKey,
    store,
    plan: plan ?? (() => null),
    windowMs: getValidBatchWindow(o.windowMs),
    maxWaitMs: getValidNumber("maxWaitMs", o.maxWaitMs, ENGINE_DEFAULTS.maxWaitMs, 0),
    concurrency: getValidInteger("concurrency", o.concurrency, ENGINE_DEFAULTS.concurrency, 1),
    multiplexedConcurrency: getValidInteger("multiplexedConcurrency", o.multiplexedConcurrency, ENGINE_DEFAULTS.multiplexedConcurrency, 1),
    page: o.page === undefined ? pageProtocol() : o.page,
    ...getValidCallTimes(o), // the client's own check: the engine passes them on to it
    latestYear: o.latestYear === undefined ? null : getValidInteger("latestYear", o.latestYear, 0, 1),
    maxCacheEntries: getValidInteger("maxCacheEntries", o.maxCacheEntries, ENGINE_DEFAULTS.maxCacheEntries, 1),
    guardThreshold: getValidGuardThreshold(o.guardThreshold),
    fetch: fetchImpl,
    now: now ?? Date.now,
  };
}

/**
 * Whether `ms` is a batch window: a number of ms from BATCH_WINDOW.min to .max. The one rule the
 * engine, the saved settings (src/shared/settings.ts) and the pane's form (which also wants a whole number) apply.
 */
export function isBatchWindow(ms: unknown): ms is number {
  return typeof ms === "number" && Number.isFinite(ms) && ms >= BATCH_WINDOW.min && ms <= BATCH_WINDOW.max;
}

/** The batch window in ms (isBatchWindow); undefined → the default. */
export function getValidBatchWindow(ms: unknown): number {
  if (ms === undefined) return BATCH_WINDOW.default;
  if (!isBatchWindow(ms)) throw bad("windowMs", `a number of ms from ${BATCH_WINDOW.min} to ${BATCH_WINDOW.max}`, ms);
  return ms;
}

/** Whether `n` is a credit guard threshold: a whole number of credits ≥ 0 (the engine, the saved settings, the pane's form). */
export function isGuardThreshold(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
}

/** The credit guard's threshold (isGuardThreshold), or null (off); undefined → off. */
export function getValidGuardThreshold(threshold: unknown): number | null {
  if (threshold === undefined || threshold === null) return null;
  if (!isGuardThreshold(threshold)) throw bad("guardThreshold", "an integer ≥ 0", threshold);
  return threshold;
}
