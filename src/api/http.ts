/**
 * Transport: one GET with the key in the `X-API-Key` header, a timeout per attempt and in total
 * (AbortController; every timer cleared), retries with exponential backoff (the `exponential-backoff`
 * package) for network errors and 5xx only, and a `CallRecord` for every attempt. Knows nothing of
 * the endpoints' bodies beyond "JSON on 2xx"; `reader.ts` reads them.
 *
 * Retry policy, in order: caller aborted → no; not a transient failure (4xx, 429, a field of the wrong
 * kind, an unknown error) → no; attempts used up → no; the wait would overrun the total timeout → no.
 * Transient: a 5xx, a reset or refused connection, an attempt that timed out, and a 2xx whose body is
 * empty or not JSON (a passing fault: one retry usually fixes it). A 503's `Retry-After` sets the wait when it fits.
 * A rate limit (a 429 `rate_limited`, such as a firm's server's per-person limit) is not a failure:
 * the attempt is sent again after its `Retry-After`, as often as the total time allows, without
 * using a retry (nothing was charged).
 *
 * Credits: each attempt that reached the service may have been charged, whatever its answer, except
 * the refusals the service makes before charging (401, 403, 429); `CallRecord.charged` says so, and
 * `beforeCall` may refuse an attempt before it is sent (the engine's budget and credits-spent stop).
 */
import { backOff } from "exponential-backoff";
import {
  AbortedError,
  ApiError,
  CreditsExhaustedError,
  errorForStatus,
  FIRM_LIMIT_CODES,
  isRateLimit,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  type ApiErrorInit,
} from "./errors";
import type { ResolvedOptions } from "./options";
import { serviceTimer } from "./service-timer";
import {
  isPlanName,
  type ApiErrorKind,
  type CallRecord,
  type CancelSignal,
  type EndpointName,
  type FirmLimit,
  type QuotaInfo,
} from "./types";

/** The wait after a rate limit that gave no Retry-After. */
const RATE_PAUSE_MS = 1_000;

export interface Call {
  endpoint: EndpointName;
  /** From `/v4`. */
  path: string;
  /** Encoded query without `?`. */
  query: string;
  cuiCount?: number;
}

export interface Attempting {
  signal: CancelSignal | null;
  /** RequestOptions.onAnswer: told once, when an attempt's answer is final and usable. */
  onAnswer?: (() => void) | null;
  timeoutMs: number;
  retries: number;
}

export interface Answer {
  status: number;
  body: unknown;
  quota: QuotaInfo | null;
}

/** GETs `call` (retrying as above) and returns the parsed JSON of a 2xx answer; anything else throws an `ApiError`. */
export async function send(o: ResolvedOptions, key: string, call: Call, at: Attempting): Promise<Answer> {
  const url = o.baseUrl + call.path + (call.query ? `?${call.query}` : "");
  const info: ApiErrorInit = { endpoint: call.endpoint, request: { method: "GET", url } };
  const { signal } = at;
  if (signal?.aborted) throw new AbortedError(info);
  const deadline = Date.now() + o.totalTimeoutMs;
  let attempt = 0;
  let lastError: unknown = null;
  /** What the latest attempt met, a rate limit included (lastError: the failures retried). */
  let lastMet: unknown = null;

  /**
   * The engine's policies (budget, credits spent) may refuse an attempt: it is then never sent. A
   * refused retry ends the call with what the last attempt met (the service's failure says more than
   * "budget reached"), unless the credits are spent: then that is what the user must know (a refresh
   * will not help before the period turns over), not the timeout before it.
   */
  const refusal = (refused: unknown) => (lastError !== null && !(refused instanceof CreditsExhaustedError) ? lastError : refused);
  const once = async () => {
    for (;;) {
      // A retry that starts after the caller gave up, or after the total time ran out, makes no call;
      // one whose wait ended past the total time (a busy machine's late timer) ends the call with what
      // the last attempt met (the service answered: "unavailable", not "did not answer in time").
      if (signal?.aborted) throw new AbortedError(info);
      const left = deadline - Date.now();
      if (left <= 0) throw lastMet ?? new TimeoutError(o.totalTimeoutMs, info);
      const id = ++attemptIds;
      let held: unknown;
      try {
        held = o.beforeCall?.({ endpoint: call.endpoint, path: call.path, attempt: attempt + 1, id });
      } catch (refused) {
        throw refusal(refused);
      }
      // Nothing is awaited before fetch() unless the policies hold the attempt (the breaker's probe
      // is out). A hold that fails refuses it; one fulfilled with ASK_AGAIN asks again (after a turn of
      // the event loop), and otherwise sends it, with the call's time then left; the call's time running
      // out or its caller giving up ends the wait, and the call, above.
      let ms = left;
      if (isThenable(held)) {
        const outcome = await until(held, left, signal);
        if (outcome.refused !== undefined) throw refusal(outcome.refused.reason);
        ms = deadline - Date.now();
        if (!outcome.go || signal?.aborted || ms <= 0) continue;
      }
      return attemptOnce(o, key, call, url, info, ++attempt, id, Math.min(at.timeoutMs, ms), signal, at.onAnswer ?? null);
    }
  };
  /**
   * An attempt, sent again after each rate limit's Retry-After (a 429 `rate_limited`, refused before
   * charging: not one of the call's retries) while the call's time allows it and its caller waits.
   */
  const paced = async (): Promise<Answer> => {
    for (;;) {
      try {
        return await once();
      } catch (e) {
        if (!isRateLimit(e)) throw e;
        lastMet = e; // a pause whose timer fires past the total time ends the call with this 429 (once)
        const pause = Math.max((e as ApiError).retryAfterMs ?? RATE_PAUSE_MS, o.retryDelayMs);
        if (signal?.aborted || deadline - Date.now() <= pause) throw e;
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  };
  /** Whether a failed attempt (the `done`th) is tried again, after any longer wait a 503 asks for. */
  const retry = async (e: unknown, done: number): Promise<boolean> => {
    lastError = lastMet = e;
    // A rate limit was waited out as long as the call's time allows (paced).
    if (signal?.aborted || !(e instanceof ApiError) || !e.retryable || isRateLimit(e)) return false;
    const wait = o.retryDelayMs * 2 ** (done - 1);
    if (deadline - Date.now() <= wait) return false;
    // A Retry-After (503) longer than the backoff is honoured when the call's time allows it.
    const extra = (e.retryAfterMs ?? 0) - wait;
    if (extra > 0) {
      if (deadline - Date.now() <= extra + wait) return false;
      await new Promise((r) => setTimeout(r, extra));
    }
    return !signal?.aborted;
  };
  // The first attempt is made here, in this call: nothing is awaited before fetch() (the backoff
  // library's first, undelayed attempt still goes through several awaits, which queue behind every
  // cell the previous answer settles). Only a failed first attempt hands the rest to the backoff:
  // its waits are retryDelayMs · 2^0, 2^1… with full jitter, as they were when it made the first attempt too.
  const retrying = paced().catch(async (e: unknown) => {
    if (at.retries < 1 || !(await retry(e, 1))) throw e;
    return backOff(paced, {
      numOfAttempts: at.retries,
      delayFirstAttempt: true,
      startingDelay: o.retryDelayMs,
      timeMultiple: 2,
      maxDelay: o.totalTimeoutMs,
      jitter: "full",
      retry: (e2: unknown, done: number) => retry(e2, done + 1),
    });
  });
  // The backoff's wait (at most retryDelayMs · 2^(retries-1): 400 ms by default) cannot be cancelled,
  // so the caller's abort wins a race instead; the attempt after the wait sees the aborted signal and
  // makes no call.
  return signal ? raceAbort(retrying, signal, info) : retrying;
}

/** Each attempt's number (CallRecord.id), as beforeCall was told it. */
let attemptIds = 0;

/** What a hold of beforeCall is fulfilled with to have the attempt asked about again. */
export const ASK_AGAIN = "ask-again";

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as { then?: unknown } | null)?.then === "function";

/**
 * What came first: `held` settled (refused: it failed; go: fulfilled with anything but ASK_AGAIN), `ms`
 * passed, or `signal` aborted. A hold fulfilled with ASK_AGAIN settles after a turn of the event loop,
 * so that policies holding with promises already settled cannot keep the thread.
 */
function until(held: PromiseLike<unknown>, ms: number, signal: CancelSignal | null): Promise<{ refused?: { reason: unknown }; go?: true }> {
  return new Promise((resolve) => {
    let over = false;
    const end = (v: { refused?: { reason: unknown }; go?: true }) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", quit);
      resolve(v);
    };
    const quit = () => end({});
    const timer = setTimeout(quit, ms);
    signal?.addEventListener("abort", quit, { once: true });
    held.then(
      (v) => (v === ASK_AGAIN ? setTimeout(quit, 0) : end({ go: true })),
      (reason: unknown) => end({ refused: { reason } }),
    );
  });
}

async function attemptOnce(
  o: ResolvedOptions,
  key: string,
  call: Call,
  url: string,
  info: ApiErrorInit,
  attempt: number,
  id: number,
  ms: number,
  signal: CancelSignal | null,
  onAnswer: (() => void) | null,
): Promise<Answer> {
  const controller = new AbortController();
  // The timer measures the service, not this thread (service-timer.ts).
  const timer = serviceTimer(ms, () => controller.abort());
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const started = Date.now();
  let status = 0;
  let quota: QuotaInfo | null = null;
  let sent = true;
  let retryAfterMs: number | null = null;
  try {
    let text: string;
    try {
      const res = await o.fetch(url, {
        method: "GET",
        headers: { "X-API-Key": key, Accept: "application/json" },
        signal: controller.signal,
      });
      status = res.status;
      quota = readQuota(res.headers);
      retryAfterMs = readRetryAfter(res.headers.get("retry-after"), Date.now());
      text = await res.text(); // still under the timer: a stalled body times out too
    } catch (cause) {
      if (signal?.aborted) throw new AbortedError(info);
      if (timer.expired) throw new TimeoutError(ms, info);
      if (status >= 500) throw errorForStatus(status, { ...info, retryAfterMs }); // the 5xx body broke off: still a 5xx
      // A connection that was never made cannot have been charged (Node names the cause; a browser
      // does not, and its "Failed to fetch" counts as possibly charged).
      sent = !NOT_SENT.has(String((cause as { cause?: { code?: unknown } } | null)?.cause?.code ?? ""));
      // Only what fetch rejects with for a failed connection (TypeError) is retried; never unknown errors.
      // (checked by name: fetch may come from another realm, e.g. a test VM, with its own TypeError).
      throw new NetworkError({ ...info, cause, retryable: (cause as Error | null)?.name === "TypeError" });
    }
    const body = interpret(status, text, { ...info, retryAfterMs }, quota?.scope === "firm-budget");
    record(o, call, attempt, id, started, status, quota, sent);
    // A usable answer, recorded (the meter and the gate know its credit): no retry can follow, so the
    // caller may let the next call go before reading it.
    if (onAnswer !== null) {
      try {
        onAnswer();
      } catch {
        // A hook's failure must not break the call (documented on the option).
      }
    }
    return { status, body, quota };
  } catch (e) {
    record(
      o,
      call,
      attempt,
      id,
      started,
      status,
      quota,
      sent,
      e instanceof ApiError ? e.kind : "network",
      retryAfterMs,
      e instanceof ApiError ? e.firmLimit : null,
      isRateLimit(e),
    );
    throw e;
  } finally {
    timer.stop();
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * JSON of a 2xx answer; otherwise the error its status calls for, with what the body said (O6). A 429
 * of a firm's server (`firmScope`: its credit headers said so) names whose limit it is by its code.
 */
function interpret(status: number, text: string, info: ApiErrorInit, firmScope: boolean): unknown {
  if (status >= 200 && status < 300) {
    // An unreadable 2xx body is a transmission fault, not the service's choice of shape: retried once.
    if (text.trim() === "") throw new ResponseShapeError("empty body", { ...info, retryable: true });
    try {
      return JSON.parse(text);
    } catch {
      throw new ResponseShapeError(`malformed JSON (${JSON.stringify(text.slice(0, 40))}…)`, { ...info, retryable: true });
    }
  }
  const said = readErrorBody(text);
  const firmLimit = firmScope && status === 429 && said.serviceCode !== null ? (FIRM_LIMIT_CODES[said.serviceCode] ?? null) : null;
  throw errorForStatus(status, { ...info, ...said, firmLimit });
}

/** Message and code from any of the error bodies O6 lists; a text or HTML body is kept, cut to 200 characters. */
export function readErrorBody(text: string): { serviceMessage: string | null; serviceCode: string | null } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const plain = text
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return { serviceMessage: plain ? cut(plain) : null, serviceCode: null };
  }
  if (typeof body === "string") return { serviceMessage: body.trim() ? cut(body.trim()) : null, serviceCode: null };
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { serviceMessage: null, serviceCode: null };
  const b = body as Record<string, unknown>;
  const inner = [b.error, b.eroare].filter((v): v is Record<string, unknown> => v !== null && typeof v === "object");
  const first = (sources: unknown[]) => {
    for (const v of sources) if ((typeof v === "string" && v.trim()) || typeof v === "number") return cut(String(v).trim());
    return null;
  };
  return {
    serviceMessage: first([...inner.flatMap((e) => [e.message, e.mesaj]), b.error, b.message, b.mesaj, b.eroare, b.detail, b.title]),
    serviceCode: first([...inner.flatMap((e) => [e.code, e.cod]), b.code, b.cod]),
  };
}

const cut = (s: string) => (s.length > 200 ? s.slice(0, 199) + "…" : s);

/** `X-Plan`, `X-Credits-Remaining` and, if sent, `X-Credits-Limit` (O23); null when none is there. */
export function readQuota(headers: Headers): QuotaInfo | null {
  const plan = headers.get("x-plan")?.trim().toLowerCase() ?? null;
  const count = (name: string) => {
    const v = headers.get(name)?.trim();
    return v && /^\d+$/.test(v) ? Number(v) : null;
  };
  const quota: QuotaInfo = {
    plan: isPlanName(plan) ? plan : null,
    remaining: count("x-credits-remaining"),
    limit: count("x-credits-limit"),
  };
  if (quota.plan === null && quota.remaining === null && quota.limit === null) return null;
  if (headers.get("x-credits-scope")?.trim().toLowerCase() === "firm-budget") quota.scope = "firm-budget";
  return quota;
}

/** O20: every answer costs a credit except 400, 401, 403, 429 and 5xx; no answer costs nothing. */
export const isCredited = (status: number) => status > 0 && status < 500 && ![400, 401, 403, 429].includes(status);

/** Refusals the service makes before charging (Authentication, Limits): the only answers FIRMA counts as free. */
const REFUSED_BEFORE_CHARGING = new Set([401, 403, 429]);

/**
 * Whether an attempt may have cost a credit: every call that reached the service, answered or not
 * (a 5xx, a timeout, a reset after sending), except a refusal before charging. The upper bound the
 * engine's meter, budget and reports count, so that no spend goes unseen; `isCredited` is the sandbox's narrower rule.
 */
export const mayHaveCharged = (status: number, sent: boolean) => sent && !REFUSED_BEFORE_CHARGING.has(status);

/** Node's codes for a connection that was never made. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ERR_INVALID_URL"]);

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function readRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === "") return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - now) : null;
}

function record(
  o: ResolvedOptions,
  call: Call,
  attempt: number,
  id: number,
  started: number,
  status: number,
  quota: QuotaInfo | null,
  sent: boolean,
  errorKind?: ApiErrorKind,
  retryAfterMs?: number | null,
  firmLimit?: FirmLimit | null,
  rateLimited = false,
) {
  if (!o.onCall) return;
  const r: CallRecord = {
    endpoint: call.endpoint,
    path: call.path,
    query: call.query,
    status,
    credited: isCredited(status),
    charged: mayHaveCharged(status, sent),
    durationMs: Date.now() - started,
    attempt,
    id,
  };
  if (errorKind) r.errorKind = errorKind;
  if (retryAfterMs != null) r.retryAfterMs = retryAfterMs;
  if (firmLimit) r.firmLimit = firmLimit;
  if (rateLimited) r.rateLimited = true;
  if (quota) r.quota = quota;
  if (call.cuiCount !== undefined) r.cuiCount = call.cuiCount;
  try {
    o.onCall(r);
  } catch {
    // A hook's failure must not break the call (documented on the option).
  }
}

function raceAbort<T>(work: Promise<T>, signal: CancelSignal, info: ApiErrorInit): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortedError(info));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A query string from defined values; commas stay readable (`cui=1,2,3`). */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v)).replace(/%2C/gi, ",")}`)
    .join("&");
}
