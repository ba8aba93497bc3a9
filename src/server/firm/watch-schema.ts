/**
 * The watch's tables (schema.ts runs them as one migration): the lists (a person's or the firm's),
 * the companies each holds, the last value the list saw for each company and field (its own
 * baseline, never an older answer in the store), the changes a check found (committed with the
 * baseline they moved, each with the id a receiver de-duplicates by), and the list's log (what was added, removed,
 * stopped, checked). `owner` null is the firm's list; a person's list names them. A person gains
 * an e-mail address, where their lists' alerts go.
 */
export function watchMigration(d: { big: string; serial: string }): string[] {
  return [
    `ALTER TABLE firm_users ADD COLUMN email TEXT`,
    `CREATE TABLE firm_watch_lists (
      name TEXT NOT NULL PRIMARY KEY,
      owner TEXT REFERENCES firm_users (name),
      schedule TEXT,
      notify TEXT NOT NULL,
      created_at ${d.big} NOT NULL,
      updated_at ${d.big} NOT NULL,
      stopped_at ${d.big},
      stopped_reason TEXT)`,
    `CREATE TABLE firm_watch_members (
      list TEXT NOT NULL REFERENCES firm_watch_lists (name) ON DELETE CASCADE,
      cui ${d.big} NOT NULL,
      added_at ${d.big} NOT NULL,
      PRIMARY KEY (list, cui))`,
    `CREATE TABLE firm_watch_seen (
      list TEXT NOT NULL REFERENCES firm_watch_lists (name) ON DELETE CASCADE,
      cui ${d.big} NOT NULL,
      field TEXT NOT NULL,
      value TEXT NOT NULL,
      seen_at ${d.big} NOT NULL,
      PRIMARY KEY (list, cui, field))`,
    `CREATE TABLE firm_watch_changes (
      id ${d.serial},
      list TEXT NOT NULL,
      cui ${d.big} NOT NULL,
      field TEXT NOT NULL,
      before_value TEXT NOT NULL,
      after_value TEXT NOT NULL,
      name TEXT,
      seen_at ${d.big} NOT NULL)`,
    `CREATE INDEX firm_watch_changes_list ON firm_watch_changes (list, id)`,
    `CREATE TABLE firm_watch_log (
      id ${d.serial},
      at ${d.big} NOT NULL,
      list TEXT NOT NULL,
      kind TEXT NOT NULL,
      detail TEXT NOT NULL)`,
    `CREATE INDEX firm_watch_log_list_at ON firm_watch_log (list, at)`,
  ];
}

/** The financial-year check's schedule of each list (null: monthly, the default of watch-cost.ts). */
export function watchFinancialMigration(): string[] {
  return [`ALTER TABLE firm_watch_lists ADD COLUMN financial_schedule TEXT`];
}
