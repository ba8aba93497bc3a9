/**
 * The FirmStore both engines share: the same SQL (placeholders `?`, upserts with ON CONFLICT and
 * RETURNING, which SQLite ≥ 3.35 and PostgreSQL both speak) over a driver that knows how to run a
 * statement and a transaction on its engine (sqlite-store.ts, postgres-store.ts). Every change of a
 * counter is all or nothing in the database (sql-credits.ts); nothing is counted in process memory.
 */
import type { Engine, SqlRunner } from "./schema";
import { isUserName } from "./tokens";
import { HotAnswers } from "./hot-answers";
import { PersonLookup } from "./person-lookup";
import type {
  AuditEntry,
  FirmStore,
  FirmUser,
  FirmUserUsage,
  ReserveRefusal,
  ReserveRequest,
  StoredAnswer,
  AnswerSource,
  HandedWant,
  QueueNews,
  WantOutcome,
} from "./firm-store";
import { QUEUE_CHANNEL, SqlQueue } from "./sql-queue";
import { FirmStoreError } from "./firm-store";
import { SqlWatchStore, type WatchStore } from "./watch-store";
import { FIRM_ACCOUNT, SqlWatchChecks, type WatchChecks } from "./watch-checks";
import { SqlWatchOutbox } from "./watch-outbox";
import { releaseCredit, reserveCredit } from "./sql-credits";

/** What an engine gives the shared store. */
export interface SqlDriver extends SqlRunner {
  readonly engine: Engine;
  /**
   * Runs `fn` in one transaction that holds the write lock from its start (SQLite: BEGIN IMMEDIATE);
   * commits when it resolves, rolls back when it throws.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** Throws when this instance may not write (a newer FIRMA migrated the database, or its schema lock is not held). */
  writable(): Promise<void>;
  /** The notifications of `channel` (PostgreSQL's LISTEN); returns the unsubscription. Absent: none (SQLite, one process). */
  listen?(channel: string, fn: (payload: string) => void): () => void;
  close(): Promise<void>;
}

type UserRow = { name: string; budget: number; created_at: number; revoked_at: number | null; last_seen_at: number | null };
type AuditRow = { at: number; user_name: string; endpoint: string; cuis: string; source: string; credits: number; status: number };

/** The store's errors of a database that answers but takes no writes. */
const CANNOT_WRITE = new Set<string>(["read_only", "disk_full", "newer_schema"]);
/** Keys per `IN (…)` query: far below both engines' limits on parameters. */
const CHUNK = 500;
/** The most bytes of keys a notice of claims let go names (the rest of its 8,000 for the owner and the prefix). */
const NOTICE_KEYS_BYTES = 7_000;
/**
 * PostgreSQL: the owner's claims on `n` keys let go as a WITH's `gone` (parameters: the owner, the keys),
 * and the notice of it with the commit, only when one went (TELL_GONE, parameters `told(owner)`), naming them: the
 * instances waiting on them look at once (claim-watch.ts), not at their next poll.
 */
const GONE = (n: number) => `gone AS (DELETE FROM firm_claims WHERE key = ANY(${MINE_IN_ORDER(n)}) RETURNING key)`;
/**
 * PostgreSQL: the owner's claims among `n` keys (parameters: the owner, the keys), locked one by one in
 * the keys' byte order before they are deleted. claimAnswers takes the rows it meets in that order too
 * (its VALUES sorted; ON CONFLICT locks a row another instance holds even when it leaves it as it is),
 * whereas a DELETE … WHERE key IN (…) locks in the order it finds the rows on disk. Two instances, one
 * letting go of claims the other is claiming, then each waited for a row the other held, until
 * PostgreSQL broke the cycle after its deadlock_timeout (a second each time, the people waiting meanwhile).
 */
const MINE_IN_ORDER = (n: number) =>
  `ARRAY(SELECT key FROM firm_claims WHERE owner = ? AND key IN (${Array(n).fill("?").join(", ")}) ORDER BY key COLLATE "C" FOR UPDATE)`;
/** The notice names the keys let go when they fit in it (PostgreSQL's payloads stop at 8,000 bytes): the others look at those only. */
const TELL_GONE = `SELECT pg_notify(?, ? || CASE WHEN sum(octet_length(key) + 1) <= ${NOTICE_KEYS_BYTES} THEN ' ' || string_agg(key, ' ' ORDER BY key) ELSE '' END)
  FROM gone HAVING count(*) > 0`;
const told = (owner: string) => [QUEUE_CHANNEL, `c ${owner}`];
/** Audit lines per INSERT (7 parameters each). */
const AUDIT_ROWS = 100;
/** A person's last_seen_at is written when it is older than this: a request reads the person, it does not write. */
const SEEN_EVERY_MS = 60_000;
/** Answers kept in memory (hot-answers.ts): a W10 firm's 5,000 companies, identification and a year, twice over. */
export const HOT_ANSWERS = 20_000;

export interface SqlStoreOptions {
  /** Answers kept in this process's memory. @default HOT_ANSWERS */
  hotAnswers?: number;
}

type AuditWaiter = { entry: AuditEntry; done: () => void; fail: (e: unknown) => void };

export class SqlFirmStore implements FirmStore {
  readonly engine: Engine;
  private readonly queue: SqlQueue;
  readonly watch: WatchStore;
  readonly watchChecks: WatchChecks;
  readonly outbox: SqlWatchOutbox;

  private readonly hot: HotAnswers;
  private readonly people: PersonLookup;
  private readonly auditQueue: AuditWaiter[] = [];
  private auditWriting = false;

  constructor(
    private readonly db: SqlDriver,
    options: SqlStoreOptions = {},
  ) {
    this.engine = db.engine;
    this.hot = new HotAnswers(options.hotAnswers ?? HOT_ANSWERS);
    this.people = new PersonLookup(db, db.engine);
    this.queue = new SqlQueue(db);
    this.watch = new SqlWatchStore(db);
    this.watchChecks = new SqlWatchChecks(db);
    this.outbox = new SqlWatchOutbox(db);
  }

  // ---- leases and the shared queue (sql-queue.ts) ----------------------------------------------

  takeLease(name: string, holder: string, now: number, until: number): Promise<{ holder: string; until: number }> {
    return this.queue.takeLease(name, holder, now, until);
  }
  releaseLease(name: string, holder: string, until?: number): Promise<void> {
    return this.queue.releaseLease(name, holder, until);
  }
  handWants(wants: readonly HandedWant[]): Promise<void> {
    return this.queue.handWants(wants);
  }
  takeWants(groups: readonly string[], taker: string): Promise<HandedWant[]> {
    return this.queue.takeWants(groups, taker);
  }
  settleWants(outcomes: ReadonlyArray<WantOutcome & { origin: string }>): Promise<void> {
    return this.queue.settleWants(outcomes);
  }
  collectWants(origin: string): Promise<WantOutcome[]> {
    return this.queue.collectWants(origin);
  }
  get notifies(): boolean {
    return this.queue.notifies;
  }

  tellCalling(owner: string, on: boolean): Promise<void> {
    return this.queue.tellCalling(owner, on);
  }

  tellComing(owner: string, kind: string, on: boolean): Promise<void> {
    return this.queue.tellComing(owner, kind, on);
  }

  othersCalling(owner: string, now: number): Promise<Set<string>> {
    return this.queue.othersCalling(owner, now);
  }

  onQueueNews(fn: (news: QueueNews) => void): () => void {
    return this.queue.onQueueNews(fn);
  }

  // ---- people ----------------------------------------------------------------------------------

  async addUser(name: string, budget: number, tokenHash: string, now: number): Promise<void> {
    if (!isUserName(name)) throw new FirmStoreError("bad_name", `Not a user name: ${JSON.stringify(String(name).slice(0, 80))}`, { name });
    if (!Number.isSafeInteger(budget) || budget < 0) {
      throw new FirmStoreError("bad_budget", `A budget is a whole number of credits ≥ 0, not ${String(budget)}`, {
        budget: String(budget),
      });
    }
    const added = await this.db.run(
      "INSERT INTO firm_users (name, budget, token_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
      [name, budget, tokenHash, now],
    );
    if (added === 0) throw new FirmStoreError("user_exists", `There is already a user named ${name}`, { name });
  }

  async listUsers(month: string): Promise<FirmUserUsage[]> {
    const rows = await this.db.all<UserRow & { spent: number | null }>(
      `SELECT u.name, u.budget, u.created_at, u.revoked_at, u.last_seen_at, m.spent
         FROM firm_users u LEFT JOIN firm_usage_month m ON m.user_name = u.name AND m.month = ?`,
      [month],
    );
    // The firm's lists' account (watch-checks.ts) is no person.
    return rows
      .filter((r) => r.name !== FIRM_ACCOUNT)
      .map((r) => ({ ...toUser(r), month, spent: Number(r.spent ?? 0) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async revokeUser(name: string, now: number): Promise<boolean> {
    return (await this.db.run("UPDATE firm_users SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", [now, name])) > 0;
  }

  async userByTokenHash(tokenHash: string, now: number, month?: string): Promise<(FirmUser & { spent?: number }) | null> {
    // A read (one statement for the requests that came in together: person-lookup.ts), with the month's
    // spend when asked; the "last seen" write only once a minute per person.
    const row = await this.people.load(tokenHash, month ?? "");
    if (!row) return null;
    const user: FirmUser & { spent?: number } = toUser(row);
    if (user.lastSeenAt === null || now - user.lastSeenAt >= SEEN_EVERY_MS) {
      try {
        await this.db.run("UPDATE firm_users SET last_seen_at = ? WHERE name = ? AND (last_seen_at IS NULL OR last_seen_at < ?)", [
          now,
          user.name,
          now,
        ]);
        user.lastSeenAt = now;
      } catch (e) {
        // A database that takes no writes (read-only, full, upgraded under this instance) still says who
        // a token is, so that what the store holds is still given; "last seen" waits.
        if (!(e instanceof FirmStoreError && CANNOT_WRITE.has(e.code))) throw e;
      }
    }
    if (month !== undefined) user.spent = Number(row.spent ?? 0);
    return user;
  }

  async usageOf(name: string, month: string): Promise<{ budget: number; spent: number } | null> {
    const [row] = await this.db.all<{ budget: number; spent: number | null }>(
      `SELECT u.budget, m.spent FROM firm_users u
         LEFT JOIN firm_usage_month m ON m.user_name = u.name AND m.month = ? WHERE u.name = ?`,
      [month, name],
    );
    return row ? { budget: Number(row.budget), spent: Number(row.spent ?? 0) } : null;
  }

  // ---- credits ---------------------------------------------------------------------------------

  reserveCredit(r: ReserveRequest): Promise<"ok" | ReserveRefusal> {
    return reserveCredit(this.db, r);
  }

  releaseCredit(user: string, month: string, day: string): Promise<void> {
    return releaseCredit(this.db, user, month, day);
  }

  async stopPlan(until: number): Promise<void> {
    // A stop only ever grows: an instance that saw an older 429 does not shorten a newer one.
    await this.db.run(
      `INSERT INTO firm_plan_stop (id, stopped_until) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET stopped_until = CASE WHEN excluded.stopped_until > firm_plan_stop.stopped_until
         THEN excluded.stopped_until ELSE firm_plan_stop.stopped_until END`,
      [until],
    );
  }

  async planStoppedUntil(now: number): Promise<number | null> {
    const [row] = await this.db.all<{ stopped_until: number }>("SELECT stopped_until FROM firm_plan_stop WHERE id = 1");
    const until = row ? Number(row.stopped_until) : null;
    return until !== null && until > now ? until : null;
  }

  async creditsSpent(month: string): Promise<number> {
    const [row] = await this.db.all<{ total: number | string | null }>("SELECT SUM(spent) AS total FROM firm_usage_month WHERE month = ?", [
      month,
    ]);
    return Number(row?.total ?? 0);
  }

  // ---- answers ---------------------------------------------------------------------------------

  async getAnswers(keys: readonly string[], now: number): Promise<Map<string, StoredAnswer>> {
    const found = new Map<string, StoredAnswer>();
    for (const a of await this.answersInOrder(keys, now)) if (a !== undefined) found.set(a.key, a);
    return found;
  }

  async answersInOrder(keys: readonly string[], now: number): Promise<(StoredAnswer | undefined)[]> {
    // From memory first (hot-answers.ts); the database is asked only for what memory misses, once per key.
    const out: (StoredAnswer | undefined)[] = new Array(keys.length);
    let missed: Set<string> | null = null;
    for (let i = 0; i < keys.length; i++) {
      const a = this.hot.get(keys[i], now);
      if (a !== undefined) out[i] = a;
      else (missed ??= new Set()).add(keys[i]);
    }
    if (missed === null) return out;
    const read = new Map<string, StoredAnswer>();
    const unique = [...missed];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      const rows = await this.db.all<{ key: string; body: string; fetched_at: number; expires_at: number }>(
        `SELECT key, body, fetched_at, expires_at FROM firm_answers WHERE expires_at > ? AND key IN (${part.map(() => "?").join(", ")})`,
        [now, ...part],
      );
      const answers = rows.map((r) => ({
        key: r.key,
        body: JSON.parse(r.body),
        fetchedAt: Number(r.fetched_at),
        expiresAt: Number(r.expires_at),
      }));
      for (const a of answers) read.set(a.key, a);
      this.hot.put(answers);
    }
    for (let i = 0; i < keys.length; i++) if (out[i] === undefined) out[i] = read.get(keys[i]);
    return out;
  }

  async putAnswers(answers: readonly StoredAnswer[], release?: { keys: readonly string[]; owner: string }): Promise<void> {
    // One row per key (the last one given wins): a statement may not touch a row twice.
    const unique = new Map(answers.map((a) => [a.key, a]));
    // In one order everywhere (claimAnswers): two writers of overlapping rows never wait on each other in a cycle.
    const rows = [...unique.values()]
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map((a) => [a.key, JSON.stringify(a.body ?? null), a.fetchedAt, a.expiresAt]);
    const upsert = (part: unknown[][]) =>
      `INSERT INTO firm_answers (key, body, fetched_at, expires_at) VALUES ${part.map(() => "(?, ?, ?, ?)").join(", ")}
       ON CONFLICT (key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`;
    const keys = release ? [...new Set(release.keys)].sort() : [];
    // A call's answers (100 at most) and its claims let go in one statement, atomic, with the notice:
    // the instances waiting on the claims find the answers stored when they look.
    const together =
      this.db.engine === "postgres" && rows.length > 0 && rows.length <= CHUNK / 4 && keys.length > 0 && keys.length <= CHUNK;
    if (together && release)
      await this.db.all(`WITH stored AS (${upsert(rows)} RETURNING 1), ${GONE(keys.length)} ${TELL_GONE}`, [
        ...rows.flat(),
        release.owner,
        ...keys,
        ...told(release.owner),
      ]);
    else if (rows.length > CHUNK / 4)
      await this.db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += CHUNK / 4)
          await tx.run(upsert(rows.slice(i, i + CHUNK / 4)), rows.slice(i, i + CHUNK / 4).flat());
      });
    else if (rows.length > 0) await this.db.run(upsert(rows), rows.flat()); // one statement: all or none
    this.hot.put(unique.values());
    if (release && !together) await this.releaseClaims(keys, release.owner);
  }

  // ---- claims ----------------------------------------------------------------------------------

  async claimAnswers(keys: readonly string[], owner: string, now: number, until: number): Promise<Set<string>> {
    const held = new Set<string>();
    // In one order everywhere: two instances claiming overlapping sets lock their rows in the same
    // order, so neither waits on the other in a cycle (PostgreSQL would break it after a second).
    const unique = [...new Set(keys)].sort();
    for (let i = 0; i < unique.length; i += CHUNK / 4) {
      const part = unique.slice(i, i + CHUNK / 4);
      // One statement, atomic per row on both engines: a new key is inserted, an expired claim (or the
      // owner's own, not yet let go) taken over; RETURNING names exactly the rows this statement wrote.
      const rows = await this.db.all<{ key: string }>(
        `INSERT INTO firm_claims (key, owner, until) VALUES ${part.map(() => "(?, ?, ?)").join(", ")}
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, until = excluded.until WHERE firm_claims.until <= ? OR firm_claims.owner = excluded.owner
         RETURNING key`,
        [...part.flatMap((k) => [k, owner, until]), now],
      );
      for (const r of rows) held.add(r.key);
    }
    return held;
  }

  /** `tell` false: no notice (a hand-off to a queue's leader, which claims them at once: not given up). */
  async releaseClaims(keys: readonly string[], owner: string, tell = true): Promise<void> {
    const unique = [...new Set(keys)].sort();
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      if (this.db.engine === "postgres" && tell)
        await this.db.all(`WITH ${GONE(part.length)} ${TELL_GONE}`, [owner, ...part, ...told(owner)]);
      else if (this.db.engine === "postgres")
        await this.db.run(`DELETE FROM firm_claims WHERE key = ANY(${MINE_IN_ORDER(part.length)})`, [owner, ...part]);
      else await this.db.run(`DELETE FROM firm_claims WHERE owner = ? AND key IN (${part.map(() => "?").join(", ")})`, [owner, ...part]);
    }
  }

  async claimedKeys(keys: readonly string[], now: number): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const part = unique.slice(i, i + CHUNK);
      const rows = await this.db.all<{ key: string; owner: string }>(
        `SELECT key, owner FROM firm_claims WHERE until > ? AND key IN (${part.map(() => "?").join(", ")})`,
        [now, ...part],
      );
      for (const r of rows) found.set(r.key, r.owner);
    }
    return found;
  }

  // ---- audit -----------------------------------------------------------------------------------

  /**
   * Resolves once the line is written. Lines of requests that end together are written together, in
   * one INSERT (group commit): those that come in the same turn of the event loop, or while the
   * previous INSERT is being written, go in the next one.
   */
  audit(entry: AuditEntry): Promise<void> {
    return new Promise((done, fail) => {
      this.auditQueue.push({ entry, done, fail });
      if (!this.auditWriting) {
        this.auditWriting = true;
        setImmediate(() => void this.writeAudit());
      }
    });
  }

  private async writeAudit(): Promise<void> {
    while (this.auditQueue.length > 0) {
      const batch = this.auditQueue.splice(0, AUDIT_ROWS);
      try {
        await this.db.run(
          `INSERT INTO firm_audit (at, user_name, endpoint, cuis, source, credits, status) VALUES ${batch.map(() => "(?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
          batch.flatMap(({ entry: e }) => [e.at, e.user, e.endpoint, JSON.stringify(e.cuis), e.source, e.credits, e.status]),
        );
        for (const w of batch) w.done();
      } catch (e) {
        for (const w of batch) w.fail(e);
      }
    }
    this.auditWriting = false;
  }

  async auditSince(since: number, user?: string): Promise<AuditEntry[]> {
    const rows = await this.db.all<AuditRow>(
      `SELECT at, user_name, endpoint, cuis, source, credits, status FROM firm_audit
        WHERE at >= ? ${user === undefined ? "" : "AND user_name = ?"} ORDER BY at, id`,
      user === undefined ? [since] : [since, user],
    );
    return rows.map((r) => ({
      at: Number(r.at),
      user: r.user_name,
      endpoint: r.endpoint,
      cuis: JSON.parse(r.cuis) as number[],
      source: r.source as AnswerSource,
      credits: Number(r.credits),
      status: Number(r.status),
    }));
  }

  // ---- operations ------------------------------------------------------------------------------

  async health(): Promise<void> {
    await this.db.all("SELECT 1 AS one");
    await this.db.writable();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function toUser(r: UserRow): FirmUser {
  const n = (v: number | null) => (v === null || v === undefined ? null : Number(v));
  return {
    name: r.name,
    budget: Number(r.budget),
    createdAt: Number(r.created_at),
    revokedAt: n(r.revoked_at),
    lastSeenAt: n(r.last_seen_at),
  };
}
