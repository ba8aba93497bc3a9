/**
 * Transport: one GET with the key in the `X-API-Key` header, a timeout per attempt and in total
 * (AbortController; every timer cleared), retries with exponential backoff (the `exponential-backoff`
 * package) for network errors and 5xx only, and a `CallRecord` for every attempt. Knows nothing of
 * the endpoints' bodies beyond "JSON on 2xx"; `normalize.ts` reads them.
 *
 * Retry policy, in order: caller aborted → no; not a network error or 5xx (4xx, 429, timeout, shape,
 * unknown error) → no; attempts used up → no; the wait would overrun the total timeout → no.
 */
import { backOff } from "exponential-backoff";
import { AbortedError, ApiError, errorForStatus, NetworkError, ResponseShapeError, TimeoutError, type ApiErrorInit } from "./errors";
import type { ResolvedOptions } from "./options";
import type { ApiErrorKind, CallRecord, CancelSignal, EndpointName, PlanName, QuotaInfo } from "./types";

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

  const once = async () => {
    // A retry that starts after the caller gave up, or after the total time ran out, makes no call.
    if (signal?.aborted) throw new AbortedError(info);
    const left = deadline - Date.now();
    if (left <= 0) throw new TimeoutError(o.totalTimeoutMs, info);
    return attemptOnce(o, key, call, url, info, ++attempt, Math.min(at.timeoutMs, left), signal);
  };
  const retrying = backOff(once, {
    numOfAttempts: at.retries + 1,
    startingDelay: o.retryDelayMs,
    timeMultiple: 2,
    maxDelay: o.totalTimeoutMs,
    jitter: "full",
    retry: (e: unknown, done: number) =>
      !signal?.aborted && e instanceof ApiError && e.retryable && deadline - Date.now() > o.retryDelayMs * 2 ** (done - 1),
  });
  // The backoff's wait (at most retryDelayMs · 2^(retries-1): 400 ms by default) cannot be cancelled,
  // so the caller's abort wins a race instead; the attempt after the wait sees the aborted signal and
  // makes no call.
  return signal ? raceAbort(retrying, signal, info) : retrying;
}

async function attemptOnce(
  o: ResolvedOptions,
  key: string,
  call: Call,
  url: string,
  info: ApiErrorInit,
  attempt: number,
  ms: number,
  signal: CancelSignal | null,
): Promise<Answer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const started = Date.now();
  let status = 0;
  let quota: QuotaInfo | null = null;
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
      text = await res.text(); // still under the timer: a stalled body times out too
    } catch (cause) {
      if (signal?.aborted) throw new AbortedError(info);
      if (timedOut) throw new TimeoutError(ms, info);
      if (status >= 500) throw errorForStatus(status, info); // the 5xx body broke off: still a 5xx
      // Only what fetch rejects with for a failed connection (TypeError) is retried; never unknown errors.
      // (checked by name: fetch may come from another realm, e.g. a test VM, with its own TypeError).
      throw new NetworkError({ ...info, cause, retryable: (cause as Error | null)?.name === "TypeError" });
    }
    const body = interpret(status, text, info);
    record(o, call, attempt, started, status, quota);
    return { status, body, quota };
  } catch (e) {
    record(o, call, attempt, started, status, quota, e instanceof ApiError ? e.kind : "network");
    throw e;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** JSON of a 2xx answer; otherwise the error its status calls for, with what the body said (O6). */
function interpret(status: number, text: string, info: ApiErrorInit): unknown {
  if (status >= 200 && status < 300) {
    if (text.trim() === "") throw new ResponseShapeError("empty body", info);
    try {
      return JSON.parse(text);
    } catch {
      throw new ResponseShapeError(`malformed JSON (${JSON.stringify(text.slice(0, 40))}…)`, info);
    }
  }
  throw errorForStatus(status, { ...info, ...readErrorBody(text) });
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

const PLANS: readonly string[] = ["free", "pro", "business", "enterprise"];

/** `X-Plan`, `X-Credits-Remaining` and, if sent, `X-Credits-Limit` (O23); null when none is there. */
export function readQuota(headers: Headers): QuotaInfo | null {
  const plan = headers.get("x-plan")?.trim().toLowerCase() ?? null;
  const count = (name: string) => {
    const v = headers.get(name)?.trim();
    return v && /^\d+$/.test(v) ? Number(v) : null;
  };
  const quota: QuotaInfo = {
    plan: plan !== null && PLANS.includes(plan) ? (plan as PlanName) : null,
    remaining: count("x-credits-remaining"),
    limit: count("x-credits-limit"),
  };
  return quota.plan === null && quota.remaining === null && quota.limit === null ? null : quota;
}

/** O20: every answer costs a credit except 400, 401, 403, 429 and 5xx; no answer costs nothing. */
export const isCredited = (status: number) => status > 0 && status < 500 && ![400, 401, 403, 429].includes(status);

function record(
  o: ResolvedOptions,
  call: Call,
  attempt: number,
  started: number,
  status: number,
  quota: QuotaInfo | null,
  errorKind?: ApiErrorKind,
) {
  if (!o.onCall) return;
  const r: CallRecord = {
    endpoint: call.endpoint,
    path: call.path,
    query: call.query,
    status,
    credited: isCredited(status),
    durationMs: Date.now() - started,
    attempt,
  };
  if (errorKind) r.errorKind = errorKind;
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
