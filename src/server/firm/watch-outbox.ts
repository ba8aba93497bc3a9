/**
 * The watch's outbox, in the firm's database (both engines, the same SQL as watch-store.ts): what a
 * check committed (firm_watch_changes) becomes an alert, one per list and check, and each alert one
 * delivery per target (`email`, `webhook`) with its state (pending, sent, failed), its attempts, when
 * it is next due and the last error. The changes are the source of truth: a change no alert holds yet
 * (`alert` null) is planned at the next pass, whoever committed it and whenever the process that did
 * died, so nothing committed is lost between a check and its delivery.
 *
 * Several server instances on one database: planning is one transaction that takes only the changes
 * still unplanned, and a delivery is claimed by one instance at a time (a row claim with an end, like
 * the answers' claims in loader.ts: an instance killed while sending leaves a claim that lapses, and
 * the delivery is sent again by whoever comes next). An outcome is recorded only by the claim's holder.
 *
 * The webhooks, one per list, are the administrator's (`firma watch hook`): the address and the shared
 * secret, kept as it is (the signature needs it: it is not a password that could be hashed).
 */
import type { Dialect, SqlRunner } from "./schema";
import { CHANGE_COLUMNS, toChange, writeLog, type ChangeRow, type StoredChange, type WatchSql } from "./watch-store";

/** Migration 5: the alerts, their deliveries, the lists' webhooks; each change gains the alert it went out in. */
export function alertsMigration(d: Dialect): string[] {
  return [
    `ALTER TABLE firm_watch_changes ADD COLUMN alert ${d.big}`,
    // Only the unplanned changes are ever looked for: the index holds them and nothing else.
    `CREATE INDEX firm_watch_changes_unplanned ON firm_watch_changes (list, seen_at) WHERE alert IS NULL`,
    `CREATE INDEX firm_watch_changes_alert ON firm_watch_changes (alert)`,
    `CREATE TABLE firm_watch_alerts (
      id ${d.serial},
      list TEXT NOT NULL,
      seen_at ${d.big} NOT NULL,
      changes INTEGER NOT NULL,
      created_at ${d.big} NOT NULL)`,
    `CREATE TABLE firm_watch_deliveries (
      id ${d.serial},
      alert ${d.big} NOT NULL REFERENCES firm_watch_alerts (id),
      target TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_at ${d.big} NOT NULL,
      last_error TEXT,
      claimed_by TEXT,
      claimed_until ${d.big},
      done_at ${d.big},
      UNIQUE (alert, target))`,
    `CREATE INDEX firm_watch_deliveries_due ON firm_watch_deliveries (state, next_at)`,
    `CREATE TABLE firm_watch_hooks (
      list TEXT NOT NULL PRIMARY KEY,
      url TEXT NOT NULL,
      secret TEXT NOT NULL,
      updated_at ${d.big} NOT NULL)`,
  ];
}

export type AlertTarget = "email" | "webhook";
export const ALERT_TARGETS: readonly AlertTarget[] = ["email", "webhook"];
export type DeliveryState = "pending" | "sent" | "failed";

/** A delivery this instance claimed: send it, then settle it. */
export interface ClaimedDelivery {
  id: number;
  alert: number;
  list: string;
  /** When the check saw its changes. */
  seenAt: number;
  target: AlertTarget;
  /** Attempts made before this one. */
  attempts: number;
}

/** What became of one attempt. */
export type Settlement = { state: "sent" } | { state: "pending"; nextAt: number; error: string } | { state: "failed"; error: string };

export interface Delivery {
  alert: number;
  list: string;
  seenAt: number;
  changes: number;
  target: AlertTarget;
  state: DeliveryState;
  attempts: number;
  nextAt: number;
  lastError: string | null;
  doneAt: number | null;
}

export interface Webhook {
  list: string;
  url: string;
  /** The shared secret the body is signed with (kept as it is: signing needs it). */
  secret: string;
  updatedAt: number;
}

export class SqlWatchOutbox {
  constructor(private readonly db: WatchSql) {}

  /**
   * Turns the changes no alert holds yet into alerts (one per list and check), each with a pending
   * delivery per target (none when nobody is to be told: a line in the list's log says so). Resolves
   * to the alerts made. Another instance planning at the same moment takes none of the same changes.
   */
  async plan(now: number): Promise<number> {
    const checks = await this.db.all<{ list: string; seen_at: number | string }>(
      "SELECT DISTINCT list, seen_at FROM firm_watch_changes WHERE alert IS NULL ORDER BY seen_at, list",
    );
    let made = 0;
    for (const c of checks) {
      const seenAt = Number(c.seen_at);
      const planned = await this.db.transaction(async (tx) => {
        const [alert] = await tx.all<{ id: number | string }>(
          "INSERT INTO firm_watch_alerts (list, seen_at, changes, created_at) VALUES (?, ?, 0, ?) RETURNING id",
          [c.list, seenAt, now],
        );
        const id = Number(alert.id);
        const n = await tx.run("UPDATE firm_watch_changes SET alert = ? WHERE list = ? AND seen_at = ? AND alert IS NULL", [
          id,
          c.list,
          seenAt,
        ]);
        if (n === 0) {
          // Planned meanwhile by another instance.
          await tx.run("DELETE FROM firm_watch_alerts WHERE id = ?", [id]);
          return false;
        }
        await tx.run("UPDATE firm_watch_alerts SET changes = ? WHERE id = ?", [n, id]);
        const targets = await targetsOf(tx, c.list);
        for (const target of targets)
          await tx.run("INSERT INTO firm_watch_deliveries (alert, target, state, attempts, next_at) VALUES (?, ?, 'pending', 0, ?)", [
            id,
            target,
            now,
          ]);
        if (targets.length === 0)
          await writeLog(tx, { at: now, list: c.list, kind: "not_delivered", detail: { alert: id, changes: n, reason: "no_recipients" } });
        return true;
      });
      if (planned) made++;
    }
    return made;
  }

  /**
   * Claims, for `holder`, up to `limit` pending deliveries of these targets due at `now` and not
   * claimed by anyone live, until `until`.
   */
  async claim(holder: string, targets: readonly AlertTarget[], now: number, until: number, limit: number): Promise<ClaimedDelivery[]> {
    if (targets.length === 0) return [];
    const marks = targets.map(() => "?").join(", ");
    const claimed = await this.db.transaction((tx) =>
      tx.all<{ id: number | string; alert: number | string; target: AlertTarget; attempts: number | string }>(
        `UPDATE firm_watch_deliveries SET claimed_by = ?, claimed_until = ?
          WHERE state = 'pending' AND next_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
            AND id IN (SELECT id FROM firm_watch_deliveries
                        WHERE state = 'pending' AND next_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) AND target IN (${marks})
                        ORDER BY next_at, id LIMIT ?)
          RETURNING id, alert, target, attempts`,
        [holder, until, now, now, now, now, ...targets, limit],
      ),
    );
    if (claimed.length === 0) return [];
    const alerts = await this.db.all<{ id: number | string; list: string; seen_at: number | string }>(
      `SELECT id, list, seen_at FROM firm_watch_alerts WHERE id IN (${claimed.map(() => "?").join(", ")})`,
      claimed.map((c) => c.alert),
    );
    const byId = new Map(alerts.map((a) => [Number(a.id), a]));
    return claimed
      .map((c) => {
        const a = byId.get(Number(c.alert))!;
        return {
          id: Number(c.id),
          alert: Number(c.alert),
          list: a.list,
          seenAt: Number(a.seen_at),
          target: c.target,
          attempts: Number(c.attempts),
        };
      })
      .sort((x, y) => x.id - y.id);
  }

  /** The changes an alert carries, oldest first. */
  async changesOf(alert: number): Promise<StoredChange[]> {
    const rows = await this.db.all<ChangeRow>(`SELECT ${CHANGE_COLUMNS} FROM firm_watch_changes WHERE alert = ? ORDER BY id`, [alert]);
    return rows.map(toChange);
  }

  /**
   * Records an attempt's outcome, with `log` in the list's log in the same transaction; false (nothing
   * written) when the claim was no longer `holder`'s (it lapsed and another instance took it).
   */
  async settle(
    d: ClaimedDelivery,
    holder: string,
    s: Settlement,
    now: number,
    log: { kind: string; detail: Record<string, unknown> } | null,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const n = await tx.run(
        `UPDATE firm_watch_deliveries
            SET state = ?, attempts = attempts + 1, next_at = ?, last_error = ?, done_at = ?, claimed_by = NULL, claimed_until = NULL
          WHERE id = ? AND claimed_by = ? AND state = 'pending'`,
        [
          s.state,
          s.state === "pending" ? s.nextAt : now,
          s.state === "sent" ? null : s.error,
          s.state === "pending" ? null : now,
          d.id,
          holder,
        ],
      );
      if (n > 0 && log) await writeLog(tx, { at: now, list: d.list, kind: log.kind, detail: log.detail });
      return n > 0;
    });
  }

  /** Lets go of claims without an attempt (the instance is stopping): due again at once. */
  async release(ids: readonly number[], holder: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.run(
      `UPDATE firm_watch_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ? AND id IN (${ids.map(() => "?").join(", ")})`,
      [holder, ...ids],
    );
  }

  /** The deliveries, newest alert first; one list's only when `list` is given. */
  async deliveries(list?: string): Promise<Delivery[]> {
    const rows = await this.db.all<{
      alert: number | string;
      list: string;
      seen_at: number | string;
      changes: number | string;
      target: AlertTarget;
      state: DeliveryState;
      attempts: number | string;
      next_at: number | string;
      last_error: string | null;
      done_at: number | string | null;
    }>(
      `SELECT d.alert, a.list, a.seen_at, a.changes, d.target, d.state, d.attempts, d.next_at, d.last_error, d.done_at
         FROM firm_watch_deliveries d JOIN firm_watch_alerts a ON a.id = d.alert
        ${list === undefined ? "" : "WHERE a.list = ?"} ORDER BY d.alert DESC, d.target`,
      list === undefined ? [] : [list],
    );
    return rows.map((r) => ({
      alert: Number(r.alert),
      list: r.list,
      seenAt: Number(r.seen_at),
      changes: Number(r.changes),
      target: r.target,
      state: r.state,
      attempts: Number(r.attempts),
      nextAt: Number(r.next_at),
      lastError: r.last_error,
      doneAt: r.done_at === null ? null : Number(r.done_at),
    }));
  }

  /**
   * Who a list's e-mail goes to now: its owner's address (unless the owner was revoked: someone who left
   * the firm gets none of its alerts) and its `--notify` addresses; null when the list is gone.
   */
  async recipients(list: string): Promise<{ owner: string | null; to: string[] } | null> {
    const [l] = await this.db.all<{ owner: string | null; notify: string; email: string | null }>(
      `SELECT l.owner, l.notify, u.email FROM firm_watch_lists l
         LEFT JOIN firm_users u ON u.name = l.owner AND u.revoked_at IS NULL WHERE l.name = ?`,
      [list],
    );
    if (!l) return null;
    const own = l.email ?? "";
    return { owner: l.owner, to: [...new Set([...(own === "" ? [] : [own]), ...(JSON.parse(l.notify) as string[])])] };
  }

  /** How many of a list's deliveries wait and how many failed, by target. */
  async tally(list: string): Promise<Array<{ target: AlertTarget; state: DeliveryState; n: number }>> {
    const rows = await this.db.all<{ target: AlertTarget; state: DeliveryState; n: number | string }>(
      `SELECT d.target, d.state, COUNT(*) AS n FROM firm_watch_deliveries d JOIN firm_watch_alerts a ON a.id = d.alert
        WHERE a.list = ? AND d.state <> 'sent' GROUP BY d.target, d.state ORDER BY d.target, d.state`,
      [list],
    );
    return rows.map((r) => ({ target: r.target, state: r.state, n: Number(r.n) }));
  }

  /** Sets a list's webhook (replacing one it had), with a line in its log (never the secret). */
  async setHook(list: string, url: string, secret: string, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO firm_watch_hooks (list, url, secret, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (list) DO UPDATE SET url = excluded.url, secret = excluded.secret, updated_at = excluded.updated_at`,
        [list, url, secret, now],
      );
      await writeLog(tx, { at: now, list, kind: "webhook_set", detail: { url } });
    });
  }

  /** Removes a list's webhook; false when it had none. Deliveries still pending to it then fail as they come due. */
  async removeHook(list: string, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const n = await tx.run("DELETE FROM firm_watch_hooks WHERE list = ?", [list]);
      if (n > 0) await writeLog(tx, { at: now, list, kind: "webhook_removed", detail: {} });
      return n > 0;
    });
  }

  async hookOf(list: string): Promise<Webhook | null> {
    const [r] = await this.db.all<{ list: string; url: string; secret: string; updated_at: number | string }>(
      "SELECT list, url, secret, updated_at FROM firm_watch_hooks WHERE list = ?",
      [list],
    );
    return r ? { list: r.list, url: r.url, secret: r.secret, updatedAt: Number(r.updated_at) } : null;
  }
}

/**
 * Where a list's alert goes, as the database says at planning: an e-mail when its owner (not revoked)
 * has an address or it has `--notify` addresses, a webhook when it has one. A list removed meanwhile: nowhere.
 */
async function targetsOf(tx: SqlRunner, list: string): Promise<AlertTarget[]> {
  const [l] = await tx.all<{ notify: string; email: string | null }>(
    `SELECT l.notify, u.email FROM firm_watch_lists l
       LEFT JOIN firm_users u ON u.name = l.owner AND u.revoked_at IS NULL WHERE l.name = ?`,
    [list],
  );
  const targets: AlertTarget[] = [];
  if (l && ((JSON.parse(l.notify) as string[]).length > 0 || (l.email ?? "") !== "")) targets.push("email");
  const [hook] = await tx.all("SELECT list FROM firm_watch_hooks WHERE list = ?", [list]);
  if (hook) targets.push("webhook");
  return targets;
}
