/**
 * The SQL of the leases and of the queue the instances share (firm-store.ts SharedQueueStore), on
 * both engines: a lease is one row that its holder renews and anyone may take once it has lapsed; a
 * handed want is one row per want and asking instance, taken by the leader of its batch kind and
 * settled with its answer (or its failure), which the asking instance collects. On PostgreSQL each
 * hand and each settling also notifies (`firma_queue`, with the commit): the leader takes the wants,
 * and the asking instance collects the outcomes, at once instead of at their next poll.
 */
import type { SqlDriver } from "./sql-store";
import type { SqlRunner } from "./schema";
import type { HandedWant, QueueNews, SharedQueueStore, WantOutcome } from "./firm-store";

/**
 * The channel of the instances' notifications: "w <kind>" (wants handed), "s <origin>" (wants settled),
 * "c <owner> [<key> …]" (claims let go, and which when they fit: sql-store.ts releaseClaims), "b <owner>" / "i <owner>" (its calls begin,
 * or end: shared-queue.ts calling), "k <owner> <kind>" / "n <owner> <kind>" (wants of a kind it will hand, or none any more:
 * shared-queue.ts announce).
 */
export const QUEUE_CHANNEL = "firma_queue";
/** A VALUES list of `n` one-column rows (the notices' payloads). */
const NOTICES = (n: number) => Array(n).fill("(?)").join(", ");

type WantRow = { key: string; origin: string; grp: string; want: string; users: string; since: number; taken_by: string | null };

export class SqlQueue implements SharedQueueStore {
  constructor(private readonly db: SqlDriver) {}

  async takeLease(name: string, holder: string, now: number, until: number): Promise<{ holder: string; until: number }> {
    const [taken] = await this.db.all<{ holder: string; until: number }>(
      `INSERT INTO firm_leases (name, holder, until) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE firm_leases.until <= ? OR firm_leases.holder = excluded.holder
       RETURNING holder, until`,
      [name, holder, until, now],
    );
    if (taken) return { holder: taken.holder, until: Number(taken.until) };
    const [row] = await this.db.all<{ holder: string; until: number }>("SELECT holder, until FROM firm_leases WHERE name = ?", [name]);
    return row ? { holder: row.holder, until: Number(row.until) } : { holder: "", until: 0 };
  }

  async releaseLease(name: string, holder: string, until?: number): Promise<void> {
    if (until === undefined) await this.db.run("DELETE FROM firm_leases WHERE name = ? AND holder = ?", [name, holder]);
    else await this.db.run("DELETE FROM firm_leases WHERE name = ? AND holder = ? AND until = ?", [name, holder, until]);
  }

  async handWants(wants: readonly HandedWant[]): Promise<void> {
    if (wants.length === 0) return;
    const insert = (part: readonly HandedWant[]) =>
      `INSERT INTO firm_wants (key, origin, grp, want, users, since) VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}
           ON CONFLICT (key, origin) DO NOTHING`;
    const values = (part: readonly HandedWant[]) => part.flatMap((w) => [w.key, w.origin, w.grp, w.want, JSON.stringify(w.users), w.since]);
    const kinds = [...new Set(wants.map((w) => w.grp))];
    // PostgreSQL, a window's partial batch (100 wants at most): one statement with its notices, not a
    // transaction's round trips (each a moment more for the people waiting on the leader).
    if (this.db.engine === "postgres" && wants.length <= 100) {
      await this.db.all(
        `WITH handed AS (${insert(wants)} RETURNING 1) SELECT pg_notify(?, k.column1) FROM (VALUES ${NOTICES(kinds.length)}) AS k`,
        [...values(wants), QUEUE_CHANNEL, ...kinds.map((k) => `w ${k}`)],
      );
      return;
    }
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < wants.length; i += 100) await tx.run(insert(wants.slice(i, i + 100)), values(wants.slice(i, i + 100)));
      for (const kind of kinds) await this.notify(tx, `w ${kind}`);
    });
  }

  async takeWants(groups: readonly string[], taker: string): Promise<HandedWant[]> {
    if (groups.length === 0) return [];
    const marks = groups.map(() => "?").join(", ");
    const handed = (r: WantRow): HandedWant => ({
      key: r.key,
      origin: r.origin,
      grp: r.grp,
      want: r.want,
      users: JSON.parse(r.users) as Array<[number, string]>,
      since: Number(r.since),
      takenBefore: r.taken_by,
    });
    if (this.db.engine === "postgres") {
      // One statement (the rows locked, marked, and returned with who had them before), not a transaction's round trips.
      const rows = await this.db.all<WantRow>(
        `UPDATE firm_wants AS w SET taken_by = ?
           FROM (SELECT key, origin, taken_by FROM firm_wants
                  WHERE outcome IS NULL AND grp IN (${marks}) AND (taken_by IS NULL OR taken_by <> ?) ORDER BY since LIMIT 5000 FOR UPDATE) AS old
          WHERE w.key = old.key AND w.origin = old.origin
          RETURNING w.key, w.origin, w.grp, w.want, w.users, w.since, old.taken_by`,
        [taker, ...groups, taker],
      );
      return rows.map(handed).sort((a, b) => a.since - b.since);
    }
    return this.db.transaction(async (tx) => {
      const rows = await tx.all<WantRow>(
        `SELECT key, origin, grp, want, users, since, taken_by FROM firm_wants
          WHERE outcome IS NULL AND grp IN (${marks}) AND (taken_by IS NULL OR taken_by <> ?) ORDER BY since LIMIT 5000`,
        [...groups, taker],
      );
      for (let i = 0; i < rows.length; i += 500) {
        const part = rows.slice(i, i + 500);
        await tx.run(
          `UPDATE firm_wants SET taken_by = ? WHERE outcome IS NULL AND (key, origin) IN (VALUES ${part.map(() => "(?, ?)").join(", ")})`,
          [taker, ...part.flatMap((r) => [r.key, r.origin])],
        );
      }
      return rows.map(handed);
    });
  }

  async settleWants(outcomes: ReadonlyArray<WantOutcome & { origin: string }>): Promise<void> {
    if (outcomes.length === 0) return;
    // One statement for many rows: a leader settles thousands at once at the start of a large fill
    // (a statement a row held the asking instance's people for seconds). VALUES' columns are
    // column1… on both engines.
    const update = (part: typeof outcomes) =>
      `UPDATE firm_wants SET outcome = v.column3, paid_request = CAST(v.column4 AS BIGINT)
             FROM (VALUES ${part.map(() => "(?, ?, ?, ?)").join(", ")}) AS v
            WHERE firm_wants.key = v.column1 AND firm_wants.origin = v.column2 AND firm_wants.outcome IS NULL`;
    const values = (part: typeof outcomes) => part.flatMap((o) => [o.key, o.origin, o.outcome, o.paidRequest]);
    // PostgreSQL, up to 500 outcomes (a call's, most often): the update and its notices in one statement.
    if (this.db.engine === "postgres" && outcomes.length <= 500) {
      await this.db.all(
        `WITH settled AS (${update(outcomes)} RETURNING firm_wants.origin)
         SELECT pg_notify(?, 's ' || o.origin) FROM (SELECT DISTINCT origin FROM settled) AS o`,
        [...values(outcomes), QUEUE_CHANNEL],
      );
      return;
    }
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < outcomes.length; i += 500) await tx.run(update(outcomes.slice(i, i + 500)), values(outcomes.slice(i, i + 500)));
      for (const origin of new Set(outcomes.map((o) => o.origin))) await this.notify(tx, `s ${origin}`);
    });
  }

  onQueueNews(fn: (news: QueueNews) => void): () => void {
    if (!this.db.listen) return () => undefined;
    return this.db.listen(QUEUE_CHANNEL, (payload) => {
      if (payload.startsWith("w ")) fn({ kind: payload.slice(2) });
      else if (payload.startsWith("s ")) fn({ origin: payload.slice(2) });
      else if (payload.startsWith("c ")) {
        const [released, ...keys] = payload.slice(2).split(" ");
        fn(keys.length > 0 ? { released, keys } : { released });
      } else if (payload.startsWith("b ") || payload.startsWith("i ")) fn({ calling: payload.slice(2), on: payload[0] === "b" });
      else if (payload.startsWith("k ") || payload.startsWith("n ")) {
        const at = payload.indexOf(" ", 2);
        fn({ coming: payload.slice(2, at), grp: payload.slice(at + 1), on: payload[0] === "k" });
      }
    });
  }

  /** Sent when `tx` commits, or at once outside a transaction (PostgreSQL; nothing on SQLite, where the instances are one). */
  private async notify(tx: SqlRunner, payload: string): Promise<void> {
    if (this.db.engine === "postgres") await tx.all("SELECT pg_notify(?, ?)", [QUEUE_CHANNEL, payload]);
  }

  async othersCalling(owner: string, now: number): Promise<Set<string>> {
    const rows = await this.db.all<{ holder: string }>(
      "SELECT holder FROM firm_leases WHERE name LIKE 'calls:%' AND holder <> ? AND until > ?",
      [owner, now],
    );
    return new Set(rows.map((r) => r.holder));
  }

  async tellCalling(owner: string, on: boolean): Promise<void> {
    await this.notify(this.db, `${on ? "b" : "i"} ${owner}`);
  }

  async tellComing(owner: string, kind: string, on: boolean): Promise<void> {
    await this.notify(this.db, `${on ? "k" : "n"} ${owner} ${kind}`);
  }

  get notifies(): boolean {
    return this.db.listen !== undefined;
  }

  async collectWants(origin: string): Promise<WantOutcome[]> {
    const rows = await this.db.all<{ key: string; outcome: string; paid_request: number | null }>(
      "DELETE FROM firm_wants WHERE origin = ? AND outcome IS NOT NULL RETURNING key, outcome, paid_request",
      [origin],
    );
    return rows.map((r) => ({ key: r.key, outcome: r.outcome, paidRequest: r.paid_request === null ? null : Number(r.paid_request) }));
  }
}
