/**
 * The client's options: one type, one place that applies the defaults and names a bad option
 * (TypeError), in the manner of dataloader's `getValid*` and ky's `@default`s.
 */
import type { CallRecord, RequestOptions } from "./types";

/** The key, or where to read it at each call. A missing key fails with `MissingKeyError`, without a call. */
export type ApiKeySource = string | null | undefined | (() => string | null | undefined | Promise<string | null | undefined>);

export interface ClientOptions {
  /**
   * Address of the service, with or without a trailing `/v4` or `/` (O27). Must be `https`, except on
   * loopback (127.0.0.0/8, `localhost`, `[::1]`), where `http` is allowed (the sandbox).
   * Required: no default.
   */
  baseUrl: string;
  /**
   * The API key, sent only in the `X-API-Key` header; or a function read at each call.
   * @default undefined (every call fails with `MissingKeyError`, without a call)
   */
  apiKey?: ApiKeySource;
  /** Time allowed for one HTTP attempt, answer body included, in ms. @default 10000 */
  timeoutMs?: number;
  /** Time allowed for a call across all its attempts and the waits between them, in ms. @default 30000 */
  totalTimeoutMs?: number;
  /** Retries after a transient failure: network error, 5xx, timed-out attempt, unreadable 2xx body (never 4xx or an abort). @default 1 */
  retries?: number;
  /** First wait before a retry, in ms; doubled each time, with full jitter. @default 200 */
  retryDelayMs?: number;
  /** Safety cap on the pages one pagination reads (O9). @default 1000 */
  maxPages?: number;
  /** The fetch implementation. @default globalThis.fetch (looked up at each call) */
  fetch?: typeof fetch;
  /**
   * Sees every HTTP attempt, failed ones included (the credit meter). Must not throw; whatever it
   * throws is ignored so that it cannot break a call.
   * @default undefined
   */
  onCall?: (call: CallRecord) => void;
  /**
   * Asked before every attempt, retries included; what it throws refuses the attempt, which is then
   * never sent (the engine's budget and its stop after "credits spent"). Not retried. A promise it
   * returns holds the attempt, within the call's time: rejected, it is refused; fulfilled with
   * `ASK_AGAIN`, beforeCall is asked again; fulfilled otherwise, it is sent. `id` is the attempt's, as
   * its CallRecord gives it.
   * @default undefined
   */
  beforeCall?: (attempt: { endpoint: string; path: string; attempt: number; id: number }) => void | Promise<unknown>;
}

export interface ResolvedOptions {
  /** Origin and any path prefix, without a trailing `/` or `/v4`: paths from `/v4` are appended. */
  baseUrl: string;
  apiKey: ApiKeySource;
  timeoutMs: number;
  totalTimeoutMs: number;
  retries: number;
  retryDelayMs: number;
  maxPages: number;
  fetch: typeof fetch;
  onCall: ((call: CallRecord) => void) | null;
  beforeCall: ((attempt: { endpoint: string; path: string; attempt: number; id: number }) => void | Promise<unknown>) | null;
}

export const DEFAULTS = {
  timeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  retries: 1,
  retryDelayMs: 200,
  maxPages: 1000,
} satisfies Partial<ResolvedOptions>;

const KNOWN = new Set([
  "baseUrl",
  "apiKey",
  "timeoutMs",
  "totalTimeoutMs",
  "retries",
  "retryDelayMs",
  "maxPages",
  "fetch",
  "onCall",
  "beforeCall",
]);

export function normalizeOptions(options: ClientOptions): ResolvedOptions {
  if (options === null || typeof options !== "object") throw bad("options", "an object", options);
  for (const name of Object.keys(options)) if (!KNOWN.has(name)) throw bad(name, "a known option (unknown name)", (options as never)[name]);
  const { apiKey, fetch: fetchImpl, onCall } = options;
  if (apiKey != null && typeof apiKey !== "string" && typeof apiKey !== "function") throw bad("apiKey", "a string or a function", apiKey);
  if (fetchImpl !== undefined && typeof fetchImpl !== "function") throw bad("fetch", "a function", fetchImpl);
  if (onCall !== undefined && onCall !== null && typeof onCall !== "function") throw bad("onCall", "a function", onCall);
  const { beforeCall } = options;
  if (beforeCall !== undefined && beforeCall !== null && typeof beforeCall !== "function")
    throw bad("beforeCall", "a function", beforeCall);
  return {
    baseUrl: getValidBaseUrl(options.baseUrl),
    apiKey,
    ...getValidCallTimes(options),
    maxPages: getValidInteger("maxPages", options.maxPages, DEFAULTS.maxPages, 1),
    // Looked up at each call and called as a plain function (browsers refuse an unbound window.fetch).
    fetch: fetchImpl ?? ((input, init) => globalThis.fetch(input, init)),
    onCall: onCall ?? null,
    beforeCall: beforeCall ?? null,
  };
}

/** Per-call options, checked the same way; the client's values fill what is left out. */
export function normalizeRequestOptions(o: ResolvedOptions, r: RequestOptions = {}) {
  if (r === null || typeof r !== "object") throw bad("options", "an object", r);
  const { signal } = r;
  if (
    signal != null &&
    (typeof signal !== "object" || typeof signal.addEventListener !== "function" || typeof signal.aborted !== "boolean")
  ) {
    throw bad("signal", "an AbortSignal (or a CancelSignal)", signal);
  }
  if (r.onAnswer !== undefined && typeof r.onAnswer !== "function") throw bad("onAnswer", "a function", r.onAnswer);
  const { timeoutMs, retries } = getValidCallTimes({ timeoutMs: r.timeoutMs, retries: r.retries }, o);
  return { signal: signal ?? null, onAnswer: r.onAnswer ?? null, timeoutMs, retries };
}

/** The options that time a call and its retries. */
export type CallTimes = Pick<ResolvedOptions, "timeoutMs" | "totalTimeoutMs" | "retries" | "retryDelayMs">;

/**
 * The one check of a call's times and retries, for the client, each call's own options and the engine
 * (which passes its own on to its client): what is left out takes `fallback`'s value.
 */
export function getValidCallTimes(o: Partial<Record<keyof CallTimes, unknown>>, fallback: CallTimes = DEFAULTS): CallTimes {
  return {
    timeoutMs: getValidNumber("timeoutMs", o.timeoutMs, fallback.timeoutMs, 1),
    totalTimeoutMs: getValidNumber("totalTimeoutMs", o.totalTimeoutMs, fallback.totalTimeoutMs, 1),
    retries: getValidInteger("retries", o.retries, fallback.retries, 0),
    retryDelayMs: getValidNumber("retryDelayMs", o.retryDelayMs, fallback.retryDelayMs, 0),
  };
}

export function getValidNumber(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= min) || !Number.isFinite(value)) throw bad(name, `a finite number ≥ ${min}`, value);
  return value;
}

export function getValidInteger(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) throw bad(name, `an integer ≥ ${min}`, value);
  return value;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * Whether a host name is this computer (127.0.0.0/8, `localhost`, `::1` with or without brackets), where
 * plain `http` is allowed: the client's base URL, `firma serve`'s --host and public address.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host);
}

/** `https://host[/prefix]`, or `http://` on loopback; strips a trailing `/`, `/v4` or `/v4/` (O27). */
export function getValidBaseUrl(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw bad("baseUrl", "the service's address, e.g. https://host", value);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw bad("baseUrl", "an absolute URL, e.g. https://host", withoutSecrets(value));
  }
  if (url.username || url.password || url.search || url.hash)
    throw bad("baseUrl", "an address without credentials, query or fragment", withoutSecrets(value));
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw bad("baseUrl", "an https address (http only on loopback: 127.0.0.0/8, localhost, [::1])", withoutSecrets(value));
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/v4$/i, "");
  return url.origin + path;
}

/**
 * A refused address as its error message may show it: credentials, query and fragment left out, since
 * a user may have pasted a password or the API key there (the key never appears in a message).
 */
export function withoutSecrets(value: string): string {
  const cut = value
    .trim()
    .replace(/[?#].*$/s, "")
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/]*@/i, "$1");
  return cut === value.trim() ? cut : `${cut} (rest hidden)`;
}

/**
 * A refused option: a developer's message in English naming the option, what it must be and what it
 * got (never a secret: see show()), so that a surface that
 * lets a user type the option (the CLI's --base-url) says it in the user's words.
 */
export class OptionError extends TypeError {
  override readonly name = "OptionError";
  constructor(
    readonly option: string,
    readonly expected: string,
    got: unknown,
  ) {
    super(`FIRMA: invalid option "${option}": expected ${expected}, got ${show(got)}`);
  }
}

export function bad(name: string, expected: string, got: unknown): OptionError {
  return new OptionError(name, expected, got);
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? value.slice(0, 60) + "…" : value);
  if (typeof value === "function") return "a function";
  if (value !== null && typeof value === "object") return Array.isArray(value) ? "an array" : "an object";
  return String(value);
}
