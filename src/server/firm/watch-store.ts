/**
 * The watch lists in the firm's database (both engines, the same SQL as sql-store.ts): a list is a
 * person's (`owner`) or the firm's (`owner` null), holds CUIs, has an optional schedule (a cron
 * expression in Bucharest time; null: the server's default) and the addresses its alerts also go
 * to. Each change of a list is one transaction, with its line in the list's log.
 */
import type { SqlRunner } from "./schema";
import type { Diff, Seen, WatchChange } from "./watch-diff";

export interface WatchList {
  name: string;
  /** The person the list belongs to; null: the firm's. */
  owner: string | null;
  /** A cron expression (Europe/Bucharest); null: the server's default (`--watch-schedule`). */
  schedule: string | null;
  /** The financial-year check's cron expression (Europe/Bucharest); null: DEFAULT_FINANCIAL_SCHEDULE (watch-cost.ts). */
  financialSchedule: string | null;
  /** Addresses the list's alerts go to besides the owner's. */
  notify: string[];
  createdAt: number;
  updatedAt: number;
  /** When the list stopped being checked (its owner revoked…), and why; null while it runs. */
  stoppedAt: number | null;
  stoppedReason: string | null;
  /** How many companies it holds. */
  companies: number;
}

export interface WatchLogEntry {
  at: number;
  list: string;
  /** `added`, `changed`, `removed`, `members_removed`, `stopped`, … */
  kind: string;
  detail: Record<string, unknown>;
}

/** A change as committed: with its id (a receiver de-duplicates by it) and when it was seen. */
export interface StoredChange extends WatchChange {
  id: number;
  list: string;
  seenAt: number;
}

export interface NewWatchList {
  name: string;
  owner: string | null;
  schedule: string | null;
  /** null or absent: the default (monthly). */
  financialSchedule?: string | null;
  notify: readonly string[];
  cuis: readonly number[];
}

/** What `firma watch set` changes; an absent field stays as it is. */
export interface WatchListPatch {
  owner?: string | null;
  schedule?: string | null;
  financialSchedule?: string | null;
  notify?: readonly string[];
  /** The list's companies, replaced whole. */
  cuis?: readonly number[];
}

export interface WatchStore {
  /** Adds a list with its companies; false when the name is taken (nothing is written then). */
  addList(list: NewWatchList, now: number): Promise<boolean>;
  /** Changes a list; false when there is no such list. */
  updateList(name: string, patch: WatchListPatch, now: number): Promise<boolean>;
  /** Every list, by name. */
  lists(): Promise<WatchList[]>;
  list(name: string): Promise<WatchList | null>;
  /** A list's companies, in ascending order. */
  members(name: string): Promise<number[]>;
  /** Deletes a list, its companies and what it saw (its log stays); false when there is none. */
  removeList(name: string, now: number): Promise<boolean>;
  /** Takes companies off a list; resolves to the CUIs that were on it. */
  removeMembers(name: string, cuis: readonly number[], now: number): Promise<number[]>;
  /** Marks a list stopped (its owner revoked…), with a line in its log; false when it already was. */
  stopList(name: string, reason: string, now: number): Promise<boolean>;
  appendLog(entry: WatchLogEntry): Promise<void>;
  /** What the list last saw of each company and field (its baseline). */
  seen(list: string): Promise<Seen>;
  /**
   * Commits what a check found, all or nothing: the baseline's new values, the changes (numbered),
   * and a line in the log (`checked` with its counts, unless `line` gives another: a check that
   * could not look at every company says so); resolves to the changes as stored.
   */
  commitCheck(list: string, found: Diff, now: number, line?: { kind: string; detail: Record<string, unknown> }): Promise<StoredChange[]>;
  /** The changes of a list (all lists when omitted) with an id above `afterId`, oldest first. */
  changes(list?: string, afterId?: number): Promise<StoredChange[]>;
  /** The first `limit` changes of these lists with an id above `afterId`, oldest first (the pane's "since your last visit"). */
  changesOf(lists: readonly string[], afterId: number, limit: number): Promise<StoredChange[]>;
  /** Each list's last check as its log says it (`checked` or `incomplete`, with its counts), by list. */
  lastChecks(): Promise<Map<string, WatchLogEntry>>;
  /** Sets (or with null clears) a person's e-mail address; false when there is no such person. */
  setEmail(user: string, email: string | null): Promise<boolean>;
  /** A person's e-mail address (null: none, or no such person). */
  emailOf(user: string): Promise<string | null>;
  /** The log, oldest first; one list's only when `list` is given. */
  log(list?: string): Promise<WatchLogEntry[]>;
}

/** What the store needs of its engine: statements and transactions (sql-store.ts's SqlDriver). */
export interface WatchSql extends SqlRunner {
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

type ListRow = {
  name: string;
  owner: string | null;
  schedule: string | null;
  financial_schedule: string | null;
  notify: string;
  created_at: number;
  updated_at: number;
  stopped_at: number | null;
  stopped_reason: string | null;
  companies: number | string;
};

const ROWS_PER_INSERT = 200;

export class SqlWatchStore implements WatchStore {
  constructor(private readonly db: WatchSql) {}

  async addList(l: NewWatchList, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const added = await tx.run(
        `INSERT INTO firm_watch_lists (name, owner, schedule, financial_schedule, notify, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING`,
        [l.name, l.owner, l.schedule, l.financialSchedule ?? null, JSON.stringify(l.notify), now, now],
      );
      if (added === 0) return false;
      await insertMembers(tx, l.name, l.cuis, now);
      await writeLog(tx, {
        at: now,
        list: l.name,
        kind: "added",
        detail: { owner: l.owner, schedule: l.schedule, financialSchedule: l.financialSchedule ?? null, companies: l.cuis.length },
      });
      return true;
    });
  }

  async updateList(name: string, p: WatchListPatch, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.all<{ name: string }>("SELECT name FROM firm_watch_lists WHERE name = ?", [name]);
      if (!row) return false;
      const sets: string[] = ["updated_at = ?"];
      const params: unknown[] = [now];
      if (p.owner !== undefined) sets.push("owner = ?") && params.push(p.owner);
      if (p.schedule !== undefined) sets.push("schedule = ?") && params.push(p.schedule);
      if (p.financialSchedule !== undefined) sets.push("financial_schedule = ?") && params.push(p.financialSchedule);
      if (p.notify !== undefined) sets.push("notify = ?") && params.push(JSON.stringify(p.notify));
      // A new owner restarts a list stopped for the old one.
      if (p.owner !== undefined) sets.push("stopped_at = NULL, stopped_reason = NULL");
      await tx.run(`UPDATE firm_watch_lists SET ${sets.join(", ")} WHERE name = ?`, [...params, name]);
      if (p.cuis !== undefined) {
        const keep = new Set(p.cuis);
        const old = (await tx.all<{ cui: number | string }>("SELECT cui FROM firm_watch_members WHERE list = ?", [name])).map((r) =>
          Number(r.cui),
        );
        const gone = old.filter((c) => !keep.has(c));
        await deleteMembers(tx, name, gone);
        const had = new Set(old);
        await insertMembers(
          tx,
          name,
          p.cuis.filter((c) => !had.has(c)),
          now,
        );
      }
      const detail: Record<string, unknown> = {};
      if (p.owner !== undefined) detail.owner = p.owner;
      if (p.schedule !== undefined) detail.schedule = p.schedule;
      if (p.financialSchedule !== undefined) detail.financialSchedule = p.financialSchedule;
      if (p.notify !== undefined) detail.notify = p.notify.length;
      if (p.cuis !== undefined) detail.companies = p.cuis.length;
      await writeLog(tx, { at: now, list: name, kind: "changed", detail });
      return true;
    });
  }

  async lists(): Promise<WatchList[]> {
    const rows = await this.db.all<ListRow>(
      `SELECT l.name, l.owner, l.schedule, l.financial_schedule, l.notify, l.created_at, l.updated_at, l.stopped_at, l.stopped_reason,
              (SELECT COUNT(*) FROM firm_watch_members m WHERE m.list = l.name) AS companies
         FROM firm_watch_lists l`,
    );
    return rows.map(toList).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async list(name: string): Promise<WatchList | null> {
    return (await this.lists()).find((l) => l.name === name) ?? null;
  }

  async members(name: string): Promise<number[]> {
    const rows = await this.db.all<{ cui: number | string }>("SELECT cui FROM firm_watch_members WHERE list = ? ORDER BY cui", [name]);
    return rows.map((r) => Number(r.cui));
  }

  async removeList(name: string, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // The children first: no reliance on the engine's cascade being switched on.
      await tx.run("DELETE FROM firm_watch_seen WHERE list = ?", [name]);
      await tx.run("DELETE FROM firm_watch_members WHERE list = ?", [name]);
      const removed = await tx.run("DELETE FROM firm_watch_lists WHERE name = ?", [name]);
      if (removed > 0) await writeLog(tx, { at: now, list: name, kind: "removed", detail: {} });
      return removed > 0;
    });
  }

  async removeMembers(name: string, cuis: readonly number[], now: number): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      const present = new Set(
        (await tx.all<{ cui: number | string }>("SELECT cui FROM firm_watch_members WHERE list = ?", [name])).map((r) => Number(r.cui)),
      );
      const gone = [...new Set(cuis)].filter((c) => present.has(c)).sort((a, b) => a - b);
      await deleteMembers(tx, name, gone);
      if (gone.length > 0) {
        await tx.run("UPDATE firm_watch_lists SET updated_at = ? WHERE name = ?", [now, name]);
        await writeLog(tx, { at: now, list: name, kind: "members_removed", detail: { cuis: gone } });
      }
      return gone;
    });
  }

  async stopList(name: string, reason: string, now: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const n = await tx.run("UPDATE firm_watch_lists SET stopped_at = ?, stopped_reason = ? WHERE name = ? AND stopped_at IS NULL", [
        now,
        reason,
        name,
      ]);
      if (n > 0) await writeLog(tx, { at: now, list: name, kind: "stopped", detail: { reason } });
      return n > 0;
    });
  }

  appendLog(entry: WatchLogEntry): Promise<void> {
    return writeLog(this.db, entry);
  }

  async seen(list: string): Promise<Seen> {
    const rows = await this.db.all<{ cui: number | string; field: string; value: string }>(
      "SELECT cui, field, value FROM firm_watch_seen WHERE list = ?",
      [list],
    );
    const out: Seen = new Map();
    for (const r of rows) {
      const cui = Number(r.cui);
      const fields = out.get(cui) ?? new Map<string, unknown>();
      fields.set(r.field, JSON.parse(r.value));
      out.set(cui, fields);
    }
    return out;
  }

  async commitCheck(
    list: string,
    found: Diff,
    now: number,
    line?: { kind: string; detail: Record<string, unknown> },
  ): Promise<StoredChange[]> {
    return this.db.transaction(async (tx) => {
      for (let i = 0; i < found.updates.length; i += ROWS_PER_INSERT) {
        const part = found.updates.slice(i, i + ROWS_PER_INSERT);
        await tx.run(
          `INSERT INTO firm_watch_seen (list, cui, field, value, seen_at) VALUES ${part.map(() => "(?, ?, ?, ?, ?)").join(", ")}
           ON CONFLICT (list, cui, field) DO UPDATE SET value = excluded.value, seen_at = excluded.seen_at`,
          part.flatMap((u) => [list, u.cui, u.field, JSON.stringify(u.value ?? null), now]),
        );
      }
      const stored: StoredChange[] = [];
      for (const c of found.changes) {
        const [row] = await tx.all<{ id: number | string }>(
          `INSERT INTO firm_watch_changes (list, cui, field, before_value, after_value, name, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          [list, c.cui, c.field, JSON.stringify(c.before ?? null), JSON.stringify(c.after ?? null), c.name, now],
        );
        stored.push({ ...c, id: Number(row.id), list, seenAt: now });
      }
      const counts = {
        changes: found.changes.length,
        firstSeen: found.updates.length - found.changes.length,
        unknown: found.unknown.length,
      };
      await writeLog(tx, { at: now, list, kind: line?.kind ?? "checked", detail: { ...counts, ...line?.detail } });
      return stored;
    });
  }

  async changes(list?: string, afterId = 0): Promise<StoredChange[]> {
    const rows = await this.db.all<ChangeRow>(
      `SELECT ${CHANGE_COLUMNS} FROM firm_watch_changes
        WHERE id > ? ${list === undefined ? "" : "AND list = ?"} ORDER BY id`,
      list === undefined ? [afterId] : [afterId, list],
    );
    return rows.map(toChange);
  }

  async changesOf(lists: readonly string[], afterId: number, limit: number): Promise<StoredChange[]> {
    if (lists.length === 0) return [];
    const rows = await this.db.all<ChangeRow>(
      `SELECT ${CHANGE_COLUMNS} FROM firm_watch_changes
        WHERE id > ? AND list IN (${lists.map(() => "?").join(", ")}) ORDER BY id LIMIT ?`,
      [afterId, ...lists, limit],
    );
    return rows.map(toChange);
  }

  async lastChecks(): Promise<Map<string, WatchLogEntry>> {
    const rows = await this.db.all<{ at: number | string; list: string; kind: string; detail: string }>(
      `SELECT at, list, kind, detail FROM firm_watch_log
        WHERE id IN (SELECT MAX(id) FROM firm_watch_log WHERE kind IN ('checked', 'incomplete') GROUP BY list)`,
    );
    return new Map(
      rows.map((r) => [r.list, { at: Number(r.at), list: r.list, kind: r.kind, detail: JSON.parse(r.detail) as Record<string, unknown> }]),
    );
  }

  async setEmail(user: string, email: string | null): Promise<boolean> {
    return (await this.db.run("UPDATE firm_users SET email = ? WHERE name = ?", [email, user])) > 0;
  }

  async emailOf(user: string): Promise<string | null> {
    const [row] = await this.db.all<{ email: string | null }>("SELECT email FROM firm_users WHERE name = ?", [user]);
    return row?.email ?? null;
  }

  async log(list?: string): Promise<WatchLogEntry[]> {
    const rows = await this.db.all<{ at: number; list: string; kind: string; detail: string }>(
      `SELECT at, list, kind, detail FROM firm_watch_log ${list === undefined ? "" : "WHERE list = ?"} ORDER BY at, id`,
      list === undefined ? [] : [list],
    );
    return rows.map((r) => ({ at: Number(r.at), list: r.list, kind: r.kind, detail: JSON.parse(r.detail) as Record<string, unknown> }));
  }
}

/** A change's row as read (the outbox reads them too, watch-outbox.ts). */
export const CHANGE_COLUMNS = "id, list, cui, field, before_value, after_value, name, seen_at";
export type ChangeRow = {
  id: number | string;
  list: string;
  cui: number | string;
  field: string;
  before_value: string;
  after_value: string;
  name: string | null;
  seen_at: number | string;
};

export function toChange(r: ChangeRow): StoredChange {
  return {
    id: Number(r.id),
    list: r.list,
    cui: Number(r.cui),
    field: r.field,
    before: JSON.parse(r.before_value) as unknown,
    after: JSON.parse(r.after_value) as unknown,
    name: r.name,
    seenAt: Number(r.seen_at),
  };
}

/** One line of a list's log, in the caller's transaction (the outbox's too, watch-outbox.ts). */
export async function writeLog(db: SqlRunner, e: WatchLogEntry): Promise<void> {
  await db.run("INSERT INTO firm_watch_log (at, list, kind, detail) VALUES (?, ?, ?, ?)", [e.at, e.list, e.kind, JSON.stringify(e.detail)]);
}

async function insertMembers(tx: SqlRunner, list: string, cuis: readonly number[], now: number): Promise<void> {
  const unique = [...new Set(cuis)];
  for (let i = 0; i < unique.length; i += ROWS_PER_INSERT) {
    const part = unique.slice(i, i + ROWS_PER_INSERT);
    await tx.run(
      `INSERT INTO firm_watch_members (list, cui, added_at) VALUES ${part.map(() => "(?, ?, ?)").join(", ")} ON CONFLICT (list, cui) DO NOTHING`,
      part.flatMap((c) => [list, c, now]),
    );
  }
}

async function deleteMembers(tx: SqlRunner, list: string, cuis: readonly number[]): Promise<void> {
  for (let i = 0; i < cuis.length; i += ROWS_PER_INSERT) {
    const part = cuis.slice(i, i + ROWS_PER_INSERT);
    const marks = part.map(() => "?").join(", ");
    await tx.run(`DELETE FROM firm_watch_seen WHERE list = ? AND cui IN (${marks})`, [list, ...part]);
    await tx.run(`DELETE FROM firm_watch_members WHERE list = ? AND cui IN (${marks})`, [list, ...part]);
  }
}

function toList(r: ListRow): WatchList {
  return {
    name: r.name,
    owner: r.owner,
    schedule: r.schedule,
    financialSchedule: r.financial_schedule ?? null,
    notify: JSON.parse(r.notify) as string[],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    stoppedAt: r.stopped_at === null || r.stopped_at === undefined ? null : Number(r.stopped_at),
    stoppedReason: r.stopped_reason,
    companies: Number(r.companies),
  };
}
