/**
 * What the client returns, after the tolerant reader has normalized the service's answer.
 * Field names follow the service's own (Romanian) names where the spec gives them.
 * See docs/spec-open-points.md for every shape the spec leaves open.
 */

/** A company's identification data (`GET /v4/firme/{cui}`). */
export interface CompanyProfile {
  cui: number;
  denumire: string;
  j_cod: string | null;
  stare: string;
  judet: string | null;
  localitate: string | null;
  adresa: string | null;
  caen_principal: string | null;
  platitor_tva: boolean | null;
}

/** Profile fields other than `cui`, in the order the functions show them. */
export const PROFILE_FIELDS = ["denumire", "stare", "judet", "localitate", "adresa", "caen_principal", "platitor_tva", "j_cod"] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/** Batch identification item: `cui`, `denumire`, `stare` always; more when `include` worked. */
export type BatchIdentificationItem = Pick<CompanyProfile, "cui" | "denumire" | "stare"> &
  Partial<Omit<CompanyProfile, "cui" | "denumire" | "stare">>;

/** Financial figures of one company for one year. Integers; `null` where the service gave none. */
export interface FinancialYear {
  cui: number;
  an: number;
  cifra_afaceri: number | null;
  profit_net: number | null;
  /** Absent (undefined) when the answer did not carry the field at all (batch and range items may lack it). */
  active_totale?: number | null;
  datorii_totale?: number | null;
  numar_angajati?: number | null;
}

export const FINANCIAL_FIELDS = ["cifra_afaceri", "profit_net", "active_totale", "datorii_totale", "numar_angajati"] as const;
export type FinancialField = (typeof FINANCIAL_FIELDS)[number];

/** `GET /v4/firme/{cui}/financiar?an_de_la=..&an_pana=..`: years latest first, as the service lists them. */
export interface FinancialRange {
  cui: number;
  data: FinancialYear[];
}

/** Search result item. Only `cui` and `denumire` are required; the rest when the service gives them. */
export interface SearchItem {
  cui: number;
  denumire: string;
  judet?: string | null;
  localitate?: string | null;
  stare?: string | null;
  caen_principal?: string | null;
  j_cod?: string | null;
}

/** One page of a paginated list, with what the service said about the whole list (when it said it). */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number | null;
  pages: number | null;
}

export interface SearchParams {
  q?: string;
  judet?: string;
  caen?: string;
  stare?: string;
  /** Page size asked for. @default 100 (the sandbox's maximum) */
  limit?: number;
  /** First page to read. @default 1 */
  page?: number;
}

/** An entry of `GET /v4/topuri`. */
export interface RankingSummary {
  slug: string;
  titlu: string;
  an: number | null;
  categorie: string | null;
  scop: string | null;
  judet?: string | null;
  localitate?: string | null;
}

export interface RankingListParams {
  an?: number;
  categorie?: string;
  scop?: string;
}

/** An entry of a full ranking (`GET /v4/topuri/{slug}`). */
export interface RankingEntry {
  pozitie: number;
  cui: number;
  denumire: string;
  valoare: number | null;
  /** Annual variation in percent, when the service gives one. */
  variatie: number | null;
}

/** A county of `GET /v4/nomenclatoare/judete`. */
export interface County {
  cod: string;
  denumire: string;
  firme_active: number | null;
}

/** The plans the service sells, as `X-Plan` names them. */
export const PLAN_NAMES = ["free", "pro", "business", "enterprise"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(v: unknown): v is PlanName {
  return typeof v === "string" && (PLAN_NAMES as readonly string[]).includes(v);
}

/** What the service's answer headers said about the key's plan and credits, where it said anything. */
export interface QuotaInfo {
  plan: PlanName | null;
  remaining: number | null;
  limit: number | null;
  /**
   * "firm-budget" when the counts are the person's monthly budget on a firm's server (firma serve in
   * custody mode sends `X-Credits-Scope: firm-budget`), not the plan's credits; absent otherwise.
   */
  scope?: "firm-budget";
}

/** Whose limit a firm's server's 429 names: the person's monthly budget there, or the firm's daily cap. */
export type FirmLimit = "budget" | "day";

/** The endpoints, as named in call records and errors. */
export type EndpointName = "company" | "financial" | "batch" | "batchFinancial" | "search" | "rankings" | "ranking" | "counties";

/** What went wrong, as a literal (see `src/api/errors.ts`). */
export type ApiErrorKind =
  | "missing_key"
  | "invalid_key"
  | "plan_history"
  | "credits_exhausted"
  | "not_found"
  | "bad_request"
  | "server"
  | "network"
  | "timeout"
  | "aborted"
  | "shape";

/** One HTTP attempt, as the `onCall` hook sees it (the credit meter counts these). Never holds the key. */
export interface CallRecord {
  endpoint: EndpointName;
  /** Path from `/v4`, e.g. `/v4/firme/14399840`. */
  path: string;
  /** Query string without `?` (empty when none); never the key. */
  query: string;
  /** HTTP status; 0 when no answer came (network error, timeout, abort). */
  status: number;
  /** Whether the service presumably charged a credit (O20): answered, and not 400/401/403/429/5xx. */
  credited: boolean;
  /**
   * Whether the attempt may have cost a credit: it reached the service and was not refused before
   * charging (401, 403, 429). What the meter, the budget and the reports count: an upper bound.
   */
  charged: boolean;
  /** The answer's `Retry-After`, in ms, when it sent one. */
  retryAfterMs?: number;
  /** A firm's server's 429: whose limit was met (errors.ts FIRM_LIMIT_CODES). */
  firmLimit?: FirmLimit;
  /** A 429 that asks for fewer requests at once (`rate_limited`), not one of credits spent (errors.ts isRateLimit). */
  rateLimited?: true;
  durationMs: number;
  /** 1 for the first attempt, 2 for the first retry … */
  attempt: number;
  /** This attempt's number among all the client's attempts, as `beforeCall` was told it. */
  id?: number;
  errorKind?: ApiErrorKind;
  /** What the answer's headers said about plan and credits (O23), when they said anything. */
  quota?: QuotaInfo;
  /** Number of CUIs in a batch call. */
  cuiCount?: number;
}

/**
 * What the client and the engine need of a cancellation signal: an AbortSignal has it, and so has
 * the functions' lighter per-cell object (a real AbortSignal per waiting cell costs µs and a kilobyte).
 * The client never hands it to fetch: each attempt has its own AbortController, aborted from here.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: AbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: AbortListener): void;
}

/** A function, or an object with handleEvent() (DOM's EventListener object: a waiting cell listens without a closure). */
export type AbortListener = (() => void) | { handleEvent(): void };

/** Per-call options of every client method. */
export interface RequestOptions {
  /** Cancels the call (and its retries); the promise then rejects with `AbortedError`. */
  signal?: CancelSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Overrides the client's `retries` for this call. */
  retries?: number;
  /**
   * Called once, the moment the call's answer is final and usable (a 2xx whose JSON parsed): the
   * call needs the network no more and no retry can follow, though the answer is still to be read.
   * The engine frees the call's place among those in flight here, so that the next call leaves
   * before this answer's companies are read, stored and shown. A hook that throws is ignored.
   */
  onAnswer?: () => void;
}

/** Years of a financial request: one year, a range, or neither (the latest year the service has, O12/O19). */
export type FinancialYears = { an?: number } | { anDeLa: number; anPana: number };
