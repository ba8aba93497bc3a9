/**
 * One error family for everything the client can fail with. The HTTP status decides the class
 * (never the body alone, O6); the service's own message and code ride along. An error carries its
 * `kind` and a short English message, for developers and logs: what the user reads, and what to do,
 * the surfaces say from the kind in the user's language (src/shared/cells.ts, src/cli, src/server).
 * The API key never appears in a message: `redactError` scrubs it from a thrown error in the one
 * place the client catches them.
 */
import type { ApiErrorKind, EndpointName, FirmLimit } from "./types";

export type { ApiErrorKind, FirmLimit };

/**
 * The codes a firm's server (firma serve in custody mode, src/server/firm/custody.ts) answers its 429
 * with, and whose limit each is. Read only from an answer that says it comes from such a server
 * (`X-Credits-Scope: firm-budget`): the service itself may use the same words for its own limits.
 */
export const FIRM_LIMIT_CODES: Readonly<Record<string, FirmLimit>> = { budget_exhausted: "budget", day_limit: "day" };

export interface ApiErrorInit {
  endpoint?: EndpointName | null;
  /** HTTP status; 0 when there was no answer. */
  status?: number;
  serviceMessage?: string | null;
  serviceCode?: string | null;
  /** The request, without the key (it only ever travels in a header). */
  request?: { method: "GET"; url: string } | null;
  cause?: unknown;
  /** Overrides the kind's default (network errors, 5xx and timeouts are retryable). */
  retryable?: boolean;
  /** The answer's `Retry-After` in ms (429, 503), when it sent one. */
  retryAfterMs?: number | null;
  /** A firm's server's 429: whose limit was met (FIRM_LIMIT_CODES). */
  firmLimit?: FirmLimit | null;
}

/**
 * Whether the client tries a failure of each kind again by itself: only when the service may answer
 * the same request the next time (an answer that could not be read says so at the throw).
 */
const RETRIED: Readonly<Record<ApiErrorKind, boolean>> = {
  missing_key: false,
  invalid_key: false,
  plan_history: false,
  credits_exhausted: false,
  not_found: false,
  bad_request: false,
  server: true,
  network: true,
  timeout: true,
  aborted: false,
  shape: false,
};

export class ApiError extends Error {
  override readonly name: string = "ApiError";
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly serviceMessage: string | null;
  readonly serviceCode: string | null;
  readonly endpoint: EndpointName | null;
  readonly request: { method: "GET"; url: string } | null;
  /** True when the client retries this kind of failure by itself (network errors, 5xx, timeouts, unreadable 2xx bodies). */
  readonly retryable: boolean;
  /** The answer's `Retry-After` in ms, when it sent one (a 429 then says when credits come back). */
  readonly retryAfterMs: number | null;
  /** A firm's server's 429: the person's monthly budget there, or the firm's daily cap; null otherwise. */
  readonly firmLimit: FirmLimit | null;

  constructor(kind: ApiErrorKind, message: string, init: ApiErrorInit = {}) {
    const said = init.serviceMessage ? ` [${init.serviceMessage}]` : "";
    super(message + said);
    if (init.cause !== undefined) Object.defineProperty(this, "cause", { value: init.cause, writable: true, configurable: true });
    this.kind = kind;
    this.status = init.status ?? 0;
    this.serviceMessage = init.serviceMessage ?? null;
    this.serviceCode = init.serviceCode ?? null;
    this.endpoint = init.endpoint ?? null;
    this.request = init.request ?? null;
    this.retryable = init.retryable ?? RETRIED[kind];
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.firmLimit = init.firmLimit ?? null;
  }

  toJSON(): Record<string, unknown> {
    const { name, kind, status, message, serviceMessage, serviceCode, endpoint, retryable } = this;
    return { name, kind, status, message, serviceMessage, serviceCode, endpoint, retryable };
  }
}

/** No key configured (no call was made), or the service said 401. */
export class MissingKeyError extends ApiError {
  override readonly name = "MissingKeyError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("missing_key", init.status === 401 ? "The service received no API key (401)" : "API key missing", init);
  }
}

/** 403 (or a key that cannot be sent in a header at all). */
export class InvalidKeyError extends ApiError {
  override readonly name = "InvalidKeyError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("invalid_key", "Invalid API key", init);
  }
}

/** 403 about the plan's financial history (O15). */
export class PlanHistoryError extends ApiError {
  override readonly name = "PlanHistoryError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("plan_history", "The year is beyond the plan's financial history", init);
  }
}

/** 429: the plan's credits are spent (O21: never retried). */
export class CreditsExhaustedError extends ApiError {
  override readonly name = "CreditsExhaustedError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("credits_exhausted", "The plan's credits are spent", init);
  }
}

/** 404: unknown CUI or slug, or no financial data for that year (O14, O18). */
export class NotFoundError extends ApiError {
  override readonly name = "NotFoundError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("not_found", "No data", init);
  }
}

/** 400, 422 and any other 4xx. */
export class BadRequestError extends ApiError {
  override readonly name = "BadRequestError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("bad_request", `Request refused by the service (${init.status ?? 400})`, init);
  }
}

/** 5xx (retried, then thrown). */
export class ServerError extends ApiError {
  override readonly name = "ServerError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("server", `Service error (${init.status ?? 500})`, init);
  }
}

/** No answer: connection refused or reset, DNS, CORS refusal (O28). Status 0, the cause attached. */
export class NetworkError extends ApiError {
  override readonly name = "NetworkError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("network", "The service cannot be reached", { ...init, status: 0 });
  }
}

/**
 * The attempt or the whole call took too long. Retried once inside the call's total time:
 * the attempt may have been charged, and the meter counts it so.
 */
export class TimeoutError extends ApiError {
  override readonly name = "TimeoutError" as const;
  readonly timeoutMs: number;
  constructor(timeoutMs: number, init: ApiErrorInit = {}) {
    const s = Math.round(timeoutMs / 100) / 10;
    super("timeout", `The service did not answer within ${s} s`, { ...init, status: 0 });
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's signal aborted the call. */
export class AbortedError extends ApiError {
  override readonly name = "AbortedError" as const;
  constructor(init: ApiErrorInit = {}) {
    super("aborted", "Request cancelled", { ...init, status: 0 });
  }
}

/** The answer is not something the tolerant reader can make sense of. Names the endpoint and field. */
export class ResponseShapeError extends ApiError {
  override readonly name = "ResponseShapeError" as const;
  readonly field: string | null;
  constructor(detail: string, init: ApiErrorInit & { field?: string | null } = {}) {
    const where = init.endpoint ?? "?";
    super("shape", `Unexpected answer from the service (${where}): ${detail}`, init);
    this.field = init.field ?? null;
  }
}

/** The code of a 429 that asks for fewer requests at once, not a 429 of credits spent. */
const RATE_LIMITED = "rate_limited";

/** A refusal that asks the client to slow down (a 429 `rate_limited`): nothing was charged, the credits are not spent. */
export function isRateLimit(e: unknown): boolean {
  return e instanceof ApiError && e.status === 429 && e.serviceCode === RATE_LIMITED;
}

/** The error class for an HTTP status other than 2xx (O6, O14, O15). */
export function errorForStatus(status: number, init: ApiErrorInit): ApiError {
  const i = { ...init, status };
  if (status === 401) return new MissingKeyError(i);
  if (status === 403) {
    const said = `${init.serviceCode ?? ""} ${init.serviceMessage ?? ""}`;
    // A code or message about the plan's reach in years (O15), e.g. "plan_history", "… acoperă anii financiari …".
    return /plan_history|histor|istoric|\byears?\b|\ban(ii|ul)\b/i.test(said) ? new PlanHistoryError(i) : new InvalidKeyError(i);
  }
  if (status === 404) return new NotFoundError(i);
  // A rate limit (a firm's server's per-person limit, src/server/firm/custody.ts; any service saying
  // "rate_limited"): too many requests for now, not the plan's credits spent. A refusal made before
  // charging: sent again after its Retry-After, as often as the call's time allows (http.ts).
  if (status === 429 && init.serviceCode === RATE_LIMITED) return new ServerError({ ...i, retryable: true });
  if (status === 429) return new CreditsExhaustedError(i);
  if (status >= 500) return new ServerError(i);
  if (status >= 400) return new BadRequestError(i);
  return new ResponseShapeError(`unexpected HTTP status ${status}`, i);
}

const REDACTED = "[REDACTED]";

/**
 * Scrubs `secret` from the error's message, stack and service fields, in place, and swaps a cause
 * that mentions it for a scrubbed copy. Covers a service that echoes the key back in its answer.
 */
export function redactError<E>(error: E, secret: string): E {
  if (!secret || !(error instanceof Error)) return error;
  const scrub = (s: unknown) => (typeof s === "string" && s.includes(secret) ? s.split(secret).join(REDACTED) : s);
  const target = error as unknown as Record<string, unknown>;
  for (const field of ["message", "stack", "serviceMessage", "serviceCode"]) {
    const before = target[field];
    const after = scrub(before);
    if (after !== before) Object.defineProperty(error, field, { value: after, writable: true, configurable: true });
  }
  const cause = target.cause;
  if (cause !== undefined && mentions(cause, secret)) {
    const copy = new Error(scrub(cause instanceof Error ? cause.message : String(cause)) as string);
    copy.stack = scrub(copy.stack) as string;
    Object.defineProperty(error, "cause", { value: copy, writable: true, configurable: true });
  }
  return error;
}

function mentions(value: unknown, secret: string): boolean {
  if (value instanceof Error)
    return `${value.message}\n${value.stack}\n${String((value as { cause?: unknown }).cause ?? "")}`.includes(secret);
  try {
    return String(value).includes(secret) || JSON.stringify(value)?.includes(secret) === true;
  } catch {
    return true;
  }
}
