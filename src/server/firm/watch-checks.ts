/**
 * The record of each check of a watch list (one row per list and tick, `firm_watch_checks`): begun by
 * the instance that runs it, its credits counted as they are charged, finished with its outcome. A
 * row still unfinished is a check cut short (its instance killed): the next instance to hold the list's
 * lease finishes it under the same tick, so a tick is checked once; what it had already paid for is in
 * the firm's store as answers fetched today, reused at no credit (watch-check.ts).
 *
 * The firm's lists are paid from an account of their own among the people (`FIRM_ACCOUNT`, a name no
 * person can have, with a token hash no token has): its budget is `--watch-budget`, so that the firm's
 * lists are charged by the same meter as everyone (the month, the firm's day, the plan's stop).
 */
import type { SqlRunner } from "./schema";

/** The two kinds of check: the watched profile fields, and whether a new financial year was published. */
export type CheckKind = "identity" | "financial";

/** A financial-year check's tick begins with this (the scheduler's, `firma watch run --financial`'s). */
export const FINANCIAL_TICK = "fin:";

export const kindOf = (tick: string): CheckKind => (tick.startsWith(FINANCIAL_TICK) ? "financial" : "identity");

/** SQL true (1) for a financial-year check's row: the two kinds of a list have records of their own. */
const FINANCIAL_ROW = `CASE WHEN tick LIKE '${FINANCIAL_TICK}%' THEN 1 ELSE 0 END`;

/** The account the firm's lists are charged to: not a user name (tokens.ts isUserName), never a token's hash. */
export const FIRM_ACCOUNT = "(firma)";
/** No `--watch-budget`: the firm's lists are limited by `--max-credits-per-day` only (the column's largest value). */
export const NO_BUDGET = 2_147_483_647;

/** The table (schema.ts runs it as one migration). */
export function watchChecksMigration(d: { big: string; serial: string }): string[] {
  return [
    `CREATE TABLE firm_watch_checks (
      id ${d.serial},
      list TEXT NOT NULL,
      tick TEXT NOT NULL,
      holder TEXT NOT NULL,
      started_at ${d.big} NOT NULL,
      credits INTEGER NOT NULL DEFAULT 0,
      finished_at ${d.big},
      outcome TEXT,
      UNIQUE (list, tick))`,
    `CREATE INDEX firm_watch_checks_open ON firm_watch_checks (finished_at)`,
  ];
}

export interface CheckRecord {
  id: number;
  list: string;
  tick: string;
  /** Credits charged for it so far (by this instance and any before it that was cut short). */
  credits: number;
  /** True when it was begun before, by an instance that did not finish it. */
  resumed: boolean;
}

export interface WatchChecks {
  /**
   * Begins the check of `list` for `tick`, or resumes the one of the same kind (kindOf) an instance left
   * unfinished (whatever its tick); null when this tick's check is already finished.
   */
  begin(list: string, tick: string, holder: string, now: number): Promise<CheckRecord | null>;
  /** A credit reserved for a check's call (`n` = -1: given back, the service did not charge it). */
  credit(id: number, n?: number): Promise<void>;
  finish(id: number, outcome: string, now: number): Promise<void>;
  /** Closes the open checks of a list that is gone or stopped (nothing left to finish them for). */
  abandon(list: string, outcome: string, now: number): Promise<void>;
  /** The checks begun and not finished: the lists and ticks to finish. */
  unfinished(): Promise<Array<{ list: string; tick: string; holder: string }>>;
  /** Whether `list`'s check of `tick` is finished. */
  finished(list: string, tick: string): Promise<boolean>;
  /**
   * The firm's lists' account (FIRM_ACCOUNT), created when missing; its monthly budget set to `budget`
   * when one is given (a missing account with none: NO_BUDGET).
   */
  firmAccount(budget: number | null, now: number): Promise<void>;
}

export interface WatchChecksSql extends SqlRunner {
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

type Row = { id: number | string; list: string; tick: string; credits: number | string; finished_at: number | string | null };

export class SqlWatchChecks implements WatchChecks {
  constructor(private readonly db: WatchChecksSql) {}

  begin(list: string, tick: string, holder: string, now: number): Promise<CheckRecord | null> {
    return this.db.transaction(async (tx) => {
      const [open] = await tx.all<Row>(
        `SELECT id, list, tick, credits, finished_at FROM firm_watch_checks WHERE list = ? AND finished_at IS NULL AND ${FINANCIAL_ROW} = ?`,
        [list, kindOf(tick) === "financial" ? 1 : 0],
      );
      if (open) {
        await tx.run("UPDATE firm_watch_checks SET holder = ? WHERE id = ?", [holder, open.id]);
        return { id: Number(open.id), list, tick: open.tick, credits: Number(open.credits), resumed: true };
      }
      const [row] = await tx.all<{ id: number | string }>(
        `INSERT INTO firm_watch_checks (list, tick, holder, started_at) VALUES (?, ?, ?, ?) ON CONFLICT (list, tick) DO NOTHING RETURNING id`,
        [list, tick, holder, now],
      );
      return row ? { id: Number(row.id), list, tick, credits: 0, resumed: false } : null;
    });
  }

  async credit(id: number, n = 1): Promise<void> {
    await this.db.run("UPDATE firm_watch_checks SET credits = credits + ? WHERE id = ?", [n, id]);
  }

  async finish(id: number, outcome: string, now: number): Promise<void> {
    await this.db.run("UPDATE firm_watch_checks SET finished_at = ?, outcome = ? WHERE id = ?", [now, outcome, id]);
  }

  async abandon(list: string, outcome: string, now: number): Promise<void> {
    await this.db.run("UPDATE firm_watch_checks SET finished_at = ?, outcome = ? WHERE list = ? AND finished_at IS NULL", [
      now,
      outcome,
      list,
    ]);
  }

  async unfinished(): Promise<Array<{ list: string; tick: string; holder: string }>> {
    return this.db.all<{ list: string; tick: string; holder: string }>(
      "SELECT list, tick, holder FROM firm_watch_checks WHERE finished_at IS NULL ORDER BY id",
    );
  }

  async finished(list: string, tick: string): Promise<boolean> {
    const [row] = await this.db.all<Row>("SELECT finished_at FROM firm_watch_checks WHERE list = ? AND tick = ?", [list, tick]);
    return row !== undefined && row.finished_at !== null;
  }

  async firmAccount(budget: number | null, now: number): Promise<void> {
    await this.db.run(
      `INSERT INTO firm_users (name, budget, token_hash, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO ${budget === null ? "NOTHING" : "UPDATE SET budget = excluded.budget, revoked_at = NULL"}`,
      [FIRM_ACCOUNT, budget ?? NO_BUDGET, `watch:${FIRM_ACCOUNT}`, now],
    );
  }
}
