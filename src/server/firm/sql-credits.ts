/**
 * The credits' counters (sql-store.ts): a credit reserved for one person before each upstream call,
 * and given back when the service did not charge it. Each is all or nothing: the person's month and
 * the firm's day move together or not at all.
 *
 * On PostgreSQL a reservation is ONE statement (a WITH whose parts commit together), not a transaction
 * of several: every call of every instance moves the firm's one row of the day, and a transaction holds
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

/** The person may spend one more this month (parameters: the name, the month). */
const BUDGET_LEFT = `SELECT 1 FROM firm_users u WHERE u.name = ? AND u.revoked_at IS NULL
    AND u.budget >= 1 + COALESCE((SELECT spent FROM firm_usage_month WHERE user_name = u.name AND month = ?), 0)`;
/** The firm's day is at its cap already (parameters: the day, the cap). */
const DAY_FULL = "SELECT 1 FROM firm_usage_day WHERE day = ? AND spent + 1 > ?";

/**
 * PostgreSQL, in one statement: the month (nothing while the plan is stopped, or the day is at its cap
 * as the statement found it), then the day from the month's row (nothing when the month refused). Should
 * the day reach its cap while the statement waited for its row (another instance's reservation), the
 * day refuses after the month took its credit: then the last column divides by zero, the statement
 * fails, and with it the month's +1, so the refusal leaves both as they were (rare: the cap's check
 * before it keeps a day at its cap from logging an error in PostgreSQL's log at every call). Locks: the
 * month's row, then the day's (the day is inserted from the month's row), as everywhere. The plan's
 * stop is read as the statement began: a stop committed while it waited for a row lets this one call
 * go (the service's 429 stops the next).
 */
const reserveOnce = (capped: boolean) => `WITH spent_month AS (
    ${MONTH} AND NOT EXISTS (${STOPPED}) ${capped ? `AND NOT EXISTS (${DAY_FULL})` : ""}
    ${MONTH_CONFLICT}),
  spent_day AS (INSERT INTO firm_usage_day (day, spent) SELECT CAST(? AS TEXT), 1 FROM spent_month ${DAY_CONFLICT(capped)})
  SELECT (SELECT count(*) FROM spent_month) AS month, EXISTS (${STOPPED}) AS stopped,
    ${capped ? `EXISTS (${DAY_FULL})` : "false"} AS full_day, EXISTS (${BUDGET_LEFT}) AS budget_left,
    CASE WHEN (SELECT count(*) FROM spent_month) = 0 THEN 0 ELSE 1 / (SELECT count(*) FROM spent_day) END AS whole`;

export async function reserveCredit(db: SqlDriver, r: ReserveRequest): Promise<"ok" | ReserveRefusal> {
  if (r.maxPerDay !== null && r.maxPerDay < 1) return "day_limit";
  const capped = r.maxPerDay !== null;
  if (db.engine === "postgres") {
    const cap = capped ? [r.day, r.maxPerDay] : [];
    type Row = { month: number | string; stopped: boolean; full_day: boolean; budget_left: boolean };
    let row: Row | undefined;
    try {
      [row] = await db.all<Row>(reserveOnce(capped), [
        ...[r.month, r.user, r.now, ...cap],
        ...[r.day, ...(capped ? [r.maxPerDay] : [])],
        ...[r.now, ...cap, r.user, r.month],
      ]);
    } catch (e) {
      if ((e as { code?: unknown })?.code === DIVISION_BY_ZERO) return "day_limit";
      throw e;
    }
    if (!row) throw new Error("reservation: no row");
    if (Number(row.month) === 1) return "ok";
    // The refusals in the order a transaction meets them (SQLite's, below): the budget, the day, the stop.
    if (!row.budget_left) return "budget";
    if (row.full_day) return "day_limit";
    return row.stopped ? "plan_stopped" : "budget"; // neither: her budget spent by another call meanwhile
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

/**
 * A transaction on both engines (a call the service did not charge: rare, off the calls' way), the
 * month's row first, then the day's, as a reservation locks them.
 */
export async function releaseCredit(db: SqlDriver, user: string, month: string, day: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run("UPDATE firm_usage_month SET spent = spent - 1 WHERE user_name = ? AND month = ? AND spent > 0", [user, month]);
    await tx.run("UPDATE firm_usage_day SET spent = spent - 1 WHERE day = ? AND spent > 0", [day]);
  });
}
