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
 * "c <owner>" (claims let go, sql-store.ts releaseClaims), "b <owner>" / "i <owner>" (its calls begin,
 * or end: shared-queue.ts calling).
 */
export const QUEUE_CHANNEL = "firma_queue";

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
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < wants.length; i += 100) {
        const part = wants.slice(i, i + 100);
        await tx.run(
          `INSERT INTO firm_wants (key, origin, grp, want, users, since) VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}
           ON CONFLICT (key, origin) DO NOTHING`,
          part.flatMap((w) => [w.key, w.origin, w.grp, w.want, JSON.stringify(w.users), w.since]),
        );
      }
      for (const kind of new Set(wants.map((w) => w.grp))) await this.notify(tx, `w ${kind}`);
    });
  }

  async takeWants(groups: readonly string[], taker: string): Promise<HandedWant[]> {
    if (groups.length === 0) return [];
    const marks = groups.map(() => "?").join(", ");
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
      return rows.map((r) => ({
        key: r.key,
        origin: r.origin,
        grp: r.grp,
        want: r.want,
        users: JSON.parse(r.users) as Array<[number, string]>,
        since: Number(r.since),
        takenBefore: r.taken_by,
      }));
    });
  }

  async settleWants(outcomes: ReadonlyArray<WantOutcome & { origin: string }>): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db.transaction(async (tx) => {
      // One statement for many rows: a leader settles thousands at once at the start of a large fill
      // (a statement a row held the asking instance's people for seconds). VALUES' columns are
      // column1… on both engines.
      for (let i = 0; i < outcomes.length; i += 500) {
        const part = outcomes.slice(i, i + 500);
        await tx.run(
          `UPDATE firm_wants SET outcome = v.column3, paid_request = CAST(v.column4 AS BIGINT)
             FROM (VALUES ${part.map(() => "(?, ?, ?, ?)").join(", ")}) AS v
            WHERE firm_wants.key = v.column1 AND firm_wants.origin = v.column2 AND firm_wants.outcome IS NULL`,
          part.flatMap((o) => [o.key, o.origin, o.outcome, o.paidRequest]),
        );
      }
      for (const origin of new Set(outcomes.map((o) => o.origin))) await this.notify(tx, `s ${origin}`);
    });
  }

  onQueueNews(fn: (news: QueueNews) => void): () => void {
    if (!this.db.listen) return () => undefined;
    return this.db.listen(QUEUE_CHANNEL, (payload) => {
      if (payload.startsWith("w ")) fn({ kind: payload.slice(2) });
      else if (payload.startsWith("s ")) fn({ origin: payload.slice(2) });
      else if (payload.startsWith("c ")) fn({ released: payload.slice(2) });
      else if (payload.startsWith("b ") || payload.startsWith("i ")) fn({ calling: payload.slice(2), on: payload[0] === "b" });
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
