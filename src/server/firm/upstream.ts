/**
 * One call to the service with the firm's key, in custody mode. The key is held in a closure, sent in
 * the `X-API-Key` header only, and never put in an error, a log line or an answer: what leaves this
 * file is a status, the parsed body, the plan the service named and its Retry-After.
 *
 * Whether a call cost a credit follows the service's rule (src/api/http.ts isCredited: refusals before
 * charging — 400, 401, 403, 429 — and 5xx are free), so that the credits the firm attributes equal the
 * service's count; a call that timed out may have been charged, one that never connected was not.
 */
import { isCredited, readErrorBody, readRetryAfter } from "../../api/http";
import { errorForStatus, PlanHistoryError } from "../../api/errors";
import { serviceDeadline } from "../../api/service-timer";
import { verdictOf, type UpstreamGovernor, type Verdict } from "../upstream-governor";
import {
  CONNECT_TIMEOUT,
  GetFailure,
  getFailureCode,
  MAX_ANSWER_BYTES,
  upstreamGet,
  type GetAnswer,
  type UpstreamGet,
} from "../upstream-get";

export interface UpstreamAnswer {
  status: number;
  /** The JSON body (undefined when it is not JSON). */
  body: unknown;
  /** X-Plan, lower case, when the service sent it. */
  plan: string | null;
  retryAfterMs: number | null;
  /** What an error body said (code and message), for refusals passed on to the person. */
  said: { code: string | null; message: string | null };
}

/** Why a call gave no answer the store can keep, and what the person is told. */
export class CallFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly params: Record<string, string | number> = {},
    /** A refusal of the service itself (400, the plan's history): its own message, passed on. */
    readonly serviceMessage: string | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(code);
  }
}

/** A call's failure as the instances pass it to each other (shared-queue.ts): what a CallFailure holds. */
export interface FailureJson {
  status: number;
  code: string;
  params: Record<string, string | number>;
  serviceMessage: string | null;
  retryAfterMs: number | null;
}

export function failureToJson(e: unknown): FailureJson {
  if (e instanceof CallFailure)
    return { status: e.status, code: e.code, params: e.params, serviceMessage: e.serviceMessage, retryAfterMs: e.retryAfterMs };
  return { status: 502, code: "upstream_failed", params: { status: 0 }, serviceMessage: null, retryAfterMs: null };
}

export function failureFromJson(f: FailureJson): CallFailure {
  return new CallFailure(f.status, f.code, f.params, f.serviceMessage, f.retryAfterMs);
}

export type Upstream = (pathAndQuery: string) => Promise<{ answer: UpstreamAnswer; charged: boolean }>;

export interface UpstreamOptions {
  base: () => string;
  key: string;
  timeoutMs: number;
  /** The GET to the service. @default upstreamGet (../upstream-get.ts), answers up to its MAX_ANSWER_BYTES */
  get?: UpstreamGet;
  /** Learns from each call how loaded the service is (../upstream-governor.ts); none: nothing learned. */
  governor?: UpstreamGovernor;
}

/** Node's codes for a connection that was never made (nothing was sent, nothing charged). */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", CONNECT_TIMEOUT]);

/** The firm's upstream: GET base + path with the firm's key; a failure to connect or answer is a CallFailure. */
export function upstream(o: UpstreamOptions): Upstream {
  const call = ask(o);
  const g = o.governor;
  return g ? (pathAndQuery) => g.observe(() => call(pathAndQuery), verdict) : call;
}

/** What a call said of the service's load: its status, or a time-out (an overload too). */
function verdict(r: { value: Awaited<ReturnType<Upstream>> } | { error: unknown }): Verdict {
  if ("value" in r) return verdictOf(r.value.answer.status);
  return r.error instanceof CallFailure && r.error.code === "upstream_timeout" ? "overload" : "neutral";
}

function ask(o: UpstreamOptions): Upstream {
  const key = o.key;
  const get = o.get ?? upstreamGet();
  return async (pathAndQuery) => {
    const base = o.base().replace(/\/+$/, "");
    if (!base) throw new CallFailure(502, "upstream_not_configured");
    let res: GetAnswer;
    // The service's time, not this thread's: a busy server must not time out (and pay again for) an
    // answer that came in time (src/api/service-timer.ts).
    const deadline = serviceDeadline(o.timeoutMs);
    try {
      res = await get(`${base}${pathAndQuery}`, { "x-api-key": key, accept: "application/json" }, deadline.signal);
    } catch (e) {
      if (deadline.timer.expired) throw Object.assign(new CallFailure(504, "upstream_timeout", { ms: o.timeoutMs }), { charged: true });
      const code = e instanceof GetFailure ? e.code : "";
      throw Object.assign(failureOfGet(e), { charged: !NOT_SENT.has(code) });
    } finally {
      deadline.timer.stop();
    }
    const text = res.body.toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const plan = res.header("x-plan")?.trim().toLowerCase() || null;
    const ok = res.status >= 200 && res.status < 300;
    const { serviceCode, serviceMessage } = ok ? { serviceCode: null, serviceMessage: null } : readErrorBody(text);
    return {
      answer: {
        status: res.status,
        body,
        plan,
        retryAfterMs: readRetryAfter(res.header("retry-after"), Date.now()),
        // A service that echoed the key in an error would not get it past here.
        said: { code: scrub(serviceCode, key), message: scrub(serviceMessage, key) },
      },
      charged: isCredited(res.status),
    };
  };
}

/** What the person is told of a call that failed (upstream-get.ts getFailureCode); the limit, for one too large. */
function failureOfGet(e: unknown): CallFailure {
  const code = getFailureCode(e);
  return new CallFailure(502, code, code === "upstream_too_large" ? { mb: MAX_ANSWER_BYTES / 2 ** 20 } : {});
}

function scrub(text: string | null, key: string): string | null {
  return text === null ? null : text.split(key).join("***");
}

/** Whether a charged-or-not failure (thrown by `upstream`) may have cost a credit. */
export function failureCharged(e: unknown): boolean {
  return Boolean((e as { charged?: boolean } | null)?.charged);
}

/**
 * The failure an answer other than 200/404 is for the person: the firm's key refused → 502 (never the
 * key); the plan's history → 403 as the service said; a bad request → 400 as the service said; the
 * service failing → 502. (A 429 is the plan's stop: loader.ts handles it.)
 */
export function failureOf(a: UpstreamAnswer): CallFailure {
  if (a.status === 401 || a.status === 403) {
    const kind = errorForStatus(a.status, { serviceMessage: a.said.message, serviceCode: a.said.code });
    if (kind instanceof PlanHistoryError) return new CallFailure(403, "plan_history", {}, a.said.message);
    return new CallFailure(502, "firm_key_refused");
  }
  if (a.status >= 400 && a.status < 500) return new CallFailure(a.status, a.said.code ?? "bad_request", {}, a.said.message);
  return new CallFailure(502, "upstream_failed", { status: a.status });
}
