/**
 * The firm's database, as the custody mode of `firma serve`, `firma users` and `firma audit` use it:
 * the people and their hashed tokens, their monthly budgets and what they spent, the answers the
 * firm has paid for (shared by every person and every server instance), the stop after the plan's
 * 429, and the audit trail. One interface, two engines: an embedded SQLite file by default
 * (better-sqlite3), PostgreSQL when several instances share one database (`pg`). Every method that
 * changes counters is atomic in the database itself (a transaction or a row lock), never in process
 * memory, so two instances behind a load balancer behave as one.
 *
 * Times are milliseconds since the epoch; a period (`month`, `day`) is the Bucharest calendar's
 * ("2026-11", "2026-11-25"), where the service's counters turn over (src/engine/credits/bucharest-time.ts).
 */
import type { SqlWatchOutbox } from "./watch-outbox";
import type { WatchStore } from "./watch-store";
import type { WatchChecks } from "./watch-checks";

/** A person of the firm. The token itself is never stored: only its SHA-256 (tokens.ts). */
export interface FirmUser {
  name: string;
  /** Credits a month this person may spend upstream; a whole number ≥ 0. */
  budget: number;
  createdAt: number;
  revokedAt: number | null;
  lastSeenAt: number | null;
}

/** A person with what they spent upstream in one month. */
export interface FirmUserUsage extends FirmUser {
  month: string;
  spent: number;
}

/** An answer the firm paid for: the service's JSON for one company (or one company-year, or one list). */
export interface StoredAnswer {
  /** e.g. `ident:<cui>:<include>`, `profile:<cui>`, `fin:<cui>:<year>`, `list:<path?query>` (request-wants.ts). */
  key: string;
  /** The JSON body part as the service gave it; `null` records "the service has nothing" (a 404, an absent item). */
  body: unknown;
  fetchedAt: number;
  expiresAt: number;
}

/** Where a request's answer came from. */
export type AnswerSource = "store" | "upstream" | "refused";

/** One line of the audit trail: one request of one person. */
export interface AuditEntry {
  at: number;
  user: string;
  /** The API path asked (`/v4/firme/batch`), never its query's key or token. */
  endpoint: string;
  /** The companies the request named (empty for lists). */
  cuis: number[];
  source: AnswerSource;
  /** Upstream credits this request's person was charged (0 when the store answered). */
  credits: number;
  /** The HTTP status the person got. */
  status: number;
}

/** Why a credit could not be reserved. */
export type ReserveRefusal = "budget" | "day_limit" | "plan_stopped";

export interface ReserveRequest {
  user: string;
  month: string;
  day: string;
  /** The firm's own cap on upstream credits a day (`--max-credits-per-day`); null: none. */
  maxPerDay: number | null;
  now: number;
}

/** A want one instance handed to the leader of its batch kind (shared-queue.ts). */
export interface HandedWant {
  key: string;
  /** The instance that asked (and waits for the outcome). */
  origin: string;
  /** The batch kind (`i:<include>`, `f:<year>`): the lease its leader holds. */
  grp: string;
  /** The want, as JSON. */
  want: string;
  /** The requests waiting for it on the asking instance: [request id, person]. */
  users: Array<[number, string]>;
  since: number;
  /** The instance that took it before this one (a leader that stopped), if any. */
  takenBefore?: string | null;
}

/** What became of a handed want: its answer, or the failure, and the request of its instance that paid the call. */
export interface WantOutcome {
  key: string;
  outcome: string;
  paidRequest: number | null;
}

/** Leases and the queue the instances share (lease.ts, shared-queue.ts). */
export interface SharedQueueStore {
  /**
   * Takes (or renews) the lease `name` for `holder` until `until`, when no one else holds it live at
   * `now`: the holder now, and the one whose lapsed lease was taken over.
   */
  takeLease(name: string, holder: string, now: number, until: number): Promise<{ holder: string; until: number }>;
  /** `until`: only the row of that renewal (a late one's), not one taken again since. */
  releaseLease(name: string, holder: string, until?: number): Promise<void>;
  /** Hands wants to their leaders (a want already handed by the same instance is left as it is). */
  handWants(wants: readonly HandedWant[]): Promise<void>;
  /** The unsettled wants of these kinds not yet taken by `taker`, now taken by it. */
  takeWants(groups: readonly string[], taker: string): Promise<HandedWant[]>;
  /** Records what became of handed wants. */
  settleWants(outcomes: ReadonlyArray<WantOutcome & { origin: string }>): Promise<void>;
  /** The settled wants `origin` handed, forgotten as they are read. */
  collectWants(origin: string): Promise<WantOutcome[]>;
  /**
   * The instances other than `owner` with calls on their way at `now` (their `calls:<owner>` leases,
   * shared-queue.ts): their answers set their people going, whose next wants may fill a partial batch.
   */
  othersCalling(owner: string, now: number): Promise<Set<string>>;
  /** Tells the other instances that `owner` has calls on their way (`on`) or none any more (PostgreSQL; nothing on SQLite). */
  tellCalling(owner: string, on: boolean): Promise<void>;
  /** Tells the other instances that `owner` has wants of `kind` it will hand to the kind's leader (`on`), or none any more (PostgreSQL; nothing on SQLite). */
  tellComing(owner: string, kind: string, on: boolean): Promise<void>;
  /** Whether the other instances hear this store's notices (onQueueNews): PostgreSQL. Without, they only poll. */
  readonly notifies: boolean;
  /**
   * Calls `fn` at once when another instance hands wants of a kind (`{ kind }`), settles wants an
   * instance handed (`{ origin }`), lets go of claims (`{ released }`: its answers are stored, or its
   * call failed), begins or ends its calls (`{ calling, on }`) or has wants of a kind to hand, or none any
   * more (`{ coming, grp, on }`); returns the unsubscription. PostgreSQL: LISTEN/NOTIFY, sent with the transaction's
   * commit. A notice missed (the database restarting) is made up by the polling it hastens.
   */
  onQueueNews(fn: (news: QueueNews) => void): () => void;
}

/** What the instances on one database tell each other (firm-store.ts onQueueNews). */
export type QueueNews =
  | { kind: string }
  | { origin: string }
  | { released: string; keys?: string[] } // keys: the claims let go, when the notice could name them all
  | { calling: string; on: boolean }
  | { coming: string; grp: string; on: boolean };

export interface FirmStore extends SharedQueueStore {
  readonly engine: "sqlite" | "postgres";
  /** The watch lists, their companies, what they saw and their log (watch-store.ts). */
  readonly watch: WatchStore;
  /** The record of each check of a watch list, and the firm's lists' account (watch-checks.ts). */
  readonly watchChecks: WatchChecks;
  /** The watch's alerts and their deliveries, the lists' webhooks (watch-outbox.ts). */
  readonly outbox: SqlWatchOutbox;

  // ---- people ----------------------------------------------------------------------------------
  /** Adds a person; throws FirmStoreError("user_exists") when the name is taken (revoked or not). */
  addUser(name: string, budget: number, tokenHash: string, now: number): Promise<void>;
  /** Everyone, with what they spent in `month`, by name. */
  listUsers(month: string): Promise<FirmUserUsage[]>;
  /** Revokes a person's token at once; false when there is no such person (or already revoked). */
  revokeUser(name: string, now: number): Promise<boolean>;
  /**
   * The live person a token hash belongs to, with what they spent in `month` when it is given, else
   * null; records that they were seen (at most once a minute: a request reads, it does not write).
   */
  userByTokenHash(tokenHash: string, now: number, month?: string): Promise<(FirmUser & { spent?: number }) | null>;
  /** One person's budget and spend in `month` (null: no such person). */
  usageOf(name: string, month: string): Promise<{ budget: number; spent: number } | null>;

  // ---- credits ---------------------------------------------------------------------------------
  /**
   * Reserves one upstream credit for `user`, atomically: refused when their spend in the month would
   * pass their budget, when the firm's day would pass `maxPerDay`, or while the plan's stop holds.
   */
  reserveCredit(r: ReserveRequest): Promise<"ok" | ReserveRefusal>;
  /** Gives back a reserved credit the call did not cost (the service refused it before charging). */
  releaseCredit(user: string, month: string, day: string): Promise<void>;
  /** After the plan's 429: nobody is sent upstream until `until`. */
  stopPlan(until: number): Promise<void>;
  /** When the plan's stop ends, if it holds at `now`; else null. */
  planStoppedUntil(now: number): Promise<number | null>;
  /** Upstream credits charged in a month, all people together (equals the sum of their spends). */
  creditsSpent(month: string): Promise<number>;

  // ---- answers ---------------------------------------------------------------------------------
  /** The answers under these keys still fresh at `now`. */
  getAnswers(keys: readonly string[], now: number): Promise<Map<string, StoredAnswer>>;
  /** The same, in the keys' order (undefined where none): a request's answers with no map between. */
  answersInOrder(keys: readonly string[], now: number): Promise<(StoredAnswer | undefined)[]>;
  /**
   * Stores answers (a key already there is replaced), all or none; with `release`, then lets go of the
   * owner's claims on those keys (releaseClaims), never before the answers are in the store (PostgreSQL:
   * one statement for both, and the notice).
   */
  putAnswers(answers: readonly StoredAnswer[], release?: { keys: readonly string[]; owner: string }): Promise<void>;

  // ---- claims: answers on their way ------------------------------------------------------------
  /**
   * Claims, for `owner` (one server instance), the answers it is about to fetch, until `until`: the
   * keys it now holds. A key another owner holds with a claim still live at `now` is not taken; an
   * expired one is (its owner stopped or failed without letting go).
   */
  claimAnswers(keys: readonly string[], owner: string, now: number, until: number): Promise<Set<string>>;
  /** Lets go of `owner`'s claims on these keys (their answers are stored, or the call failed); PostgreSQL tells the other instances (onQueueNews). */
  releaseClaims(keys: readonly string[], owner: string, tell?: boolean): Promise<void>;
  /** Which of these keys someone holds a claim on that is live at `now`, each with its owner. */
  claimedKeys(keys: readonly string[], now: number): Promise<Map<string, string>>;

  // ---- audit -----------------------------------------------------------------------------------
  audit(entry: AuditEntry): Promise<void>;
  /** The audit trail since `since`, oldest first; one person's only when `user` is given. */
  auditSince(since: number, user?: string): Promise<AuditEntry[]>;

  // ---- operations ------------------------------------------------------------------------------
  /** Resolves when the database answers a trivial query; rejects otherwise (/healthz). */
  health(): Promise<void>;
  close(): Promise<void>;
}

export type FirmStoreErrorCode =
  /** The URL's scheme is neither a file path/`sqlite:` nor `postgres:`/`postgresql:`. */
  | "unknown_scheme"
  /** The database refused the connection, or the file cannot be opened. */
  | "unreachable"
  /** The database (or file) is read-only. */
  | "read_only"
  /** The disk under the database (SQLite's file) is full. */
  | "disk_full"
  /** The database holds a newer schema than this FIRMA knows (at open, or migrated by a newer FIRMA while this one ran). */
  | "newer_schema"
  | "user_exists"
  | "bad_name"
  | "bad_budget";

/** A problem with the firm's database or what is asked of it; `code` picks the message in the catalogs. */
export class FirmStoreError extends Error {
  override readonly name = "FirmStoreError";
  constructor(
    readonly code: FirmStoreErrorCode,
    message: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(message);
  }
}
