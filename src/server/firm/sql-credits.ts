/**
 * The credits' counters (sql-store.ts): a credit reserved for one person before each upstream call,
 * and given back when the service did not charge it. Each is all or nothing: the person's month and
 * the firm's day move together or not at all.
 *
 * On PostgreSQL each is ONE statement (a WITH whose parts commit together), not a transaction of
 * several: every call of every instance moves the firm's one row of the day, and a transaction holds
 * that row's lock across its round trips to the database (begin, the month, the day, the plan's stop,
 * commit), so the calls at the start of a large fill waited on each other in turn, hundreds of
 * milliseconds each, before going out. One statement holds it for the statement only. SQLite runs in
 * this process and takes its write lock for the whole transaction anyway: the transaction stays.
 */
import type { ReserveRefusal, ReserveRequest } from "./firm-store";
import type { SqlDriver } from "./sql-store";

/** Thrown inside a transaction to roll it back with a refusal. */
class Refused {
  constructor(readonly why: ReserveRefusal) {}
}

/** The person's month, +1 when her budget allows it and she is not revoked (parameters: the month, the name). */
const MONTH = `INSERT INTO firm_usage_month (user_name, month, spent)
    SELECT name, CAST(? AS TEXT), 1 FROM firm_users WHERE name = ? AND revoked_at IS NULL AND budget >= 1`;
const MONTH_CONFLICT = `ON CONFLICT (user_name, month) DO UPDATE SET spent = firm_usage_month.spent + 1
    WHERE firm_usage_month.spent + 1 <= (SELECT budget FROM firm_users WHERE name = firm_usage_month.user_name AND revoked_at IS NULL)
  RETURNING spent`;
/** The firm's day, +1 (within the cap when there is one: its parameter follows the day's). */
const DAY_CONFLICT = (capped: boolean) =>
  `ON CONFLICT (day) DO UPDATE SET spent = firm_usage_day.spent + 1 ${capped ? "WHERE firm_usage_day.spent + 1 <= ?" : ""} RETURNING spent`;
const STOPPED = "SELECT 1 FROM firm_plan_stop WHERE id = 1 AND stopped_until > ?";
/** PostgreSQL's division by zero: how the statement below refuses as a whole. */
const DIVISION_BY_ZERO = "22012";

/**
 * PostgreSQL, in one statement: the month (nothing while the plan is stopped), then the day from the
 * month's row (nothing when the month refused). When the day's cap refuses after the month took its
 * credit, the last column divides by zero: the statement fails, and with it the month's +1, so the
 * refusal leaves both as they were. Locks: the month's row, then the day's, as everywhere.
 */
const reserveOnce = (capped: boolean) => `WITH spent_month AS (
    ${MONTH} AND NOT EXISTS (${STOPPED})
    ${MONTH_CONFLICT}),
  spent_day AS (INSERT INTO firm_usage_day (day, spent) SELECT CAST(? AS TEXT), 1 FROM spent_month ${DAY_CONFLICT(capped)})
  SELECT (SELECT count(*) FROM spent_month) AS month, EXISTS (${STOPPED}) AS stopped,
    CASE WHEN (SELECT count(*) FROM spent_month) = 0 THEN 0 ELSE 1 / (SELECT count(*) FROM spent_day) END AS whole`;

export async function reserveCredit(db: SqlDriver, r: ReserveRequest): Promise<"ok" | ReserveRefusal> {
  if (r.maxPerDay !== null && r.maxPerDay < 1) return "day_limit";
  const capped = r.maxPerDay !== null;
  if (db.engine === "postgres") {
    let row: { month: number | string; stopped: boolean } | undefined;
    try {
      [row] = await db.all<{ month: number | string; stopped: boolean }>(reserveOnce(capped), [
        r.month,
        r.user,
        r.now,
        r.day,
        ...(capped ? [r.maxPerDay] : []),
        r.now,
      ]);
    } catch (e) {
      if ((e as { code?: unknown })?.code === DIVISION_BY_ZERO) return "day_limit";
      throw e;
    }
    if (row?.stopped) return "plan_stopped";
    return Number(row?.month ?? 0) === 1 ? "ok" : "budget";
  }
  try {
    return await db.transaction(async (tx) => {
      // The person's month first (its row stays locked), then the firm's day: always this order.
      const month = await tx.all(`${MONTH} ${MONTH_CONFLICT}`, [r.month, r.user]);
      if (month.length === 0) throw new Refused("budget");
      const day = await tx.all(
        `INSERT INTO firm_usage_day (day, spent) VALUES (?, 1) ${DAY_CONFLICT(capped)}`,
        capped ? [r.day, r.maxPerDay] : [r.day],
      );
      if (day.length === 0) throw new Refused("day_limit");
      if ((await tx.all(STOPPED, [r.now])).length > 0) throw new Refused("plan_stopped");
      return "ok" as const;
    });
  } catch (e) {
    if (e instanceof Refused) return e.why;
    throw e;
  }
}

export async function releaseCredit(db: SqlDriver, user: string, month: string, day: string): Promise<void> {
  const MONTH_BACK = "UPDATE firm_usage_month SET spent = spent - 1 WHERE user_name = ? AND month = ? AND spent > 0";
  const DAY_BACK = "UPDATE firm_usage_day SET spent = spent - 1 WHERE day = ? AND spent > 0";
  if (db.engine === "postgres") await db.run(`WITH back AS (${MONTH_BACK} RETURNING 1) ${DAY_BACK}`, [user, month, day]);
  else
    await db.transaction(async (tx) => {
      await tx.run(MONTH_BACK, [user, month]);
      await tx.run(DAY_BACK, [day]);
    });
}
