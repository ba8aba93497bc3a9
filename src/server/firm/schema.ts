/**
 * The firm's database schema, versioned: migration N turns version N-1 into N, and the version a
 * database is at lives in `firm_schema_migrations`. The migrations run when a store opens, in one
 * transaction (on PostgreSQL under an advisory lock, so two instances starting together migrate
 * once); a database at a version newer than this FIRMA knows is refused rather than misread. The
 * same SQL serves both engines but for the few types that differ (`Dialect`).
 */
import { FirmStoreError } from "./firm-store";
import { watchMigration } from "./watch-schema";

export type Engine = "sqlite" | "postgres";

/** A place to run SQL with `?` placeholders: a connection, or a transaction on one. */
export interface SqlRunner {
  /** The rows a statement returns (a SELECT, or anything with RETURNING). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

interface Dialect {
  /** A 64-bit integer (milliseconds since the epoch). */
  big: string;
  /** An auto-numbered primary key. */
  serial: string;
}

const DIALECTS: Record<Engine, Dialect> = {
  sqlite: { big: "INTEGER", serial: "INTEGER PRIMARY KEY AUTOINCREMENT" },
  postgres: { big: "BIGINT", serial: "BIGSERIAL PRIMARY KEY" },
};

/** Migration N (index N-1): the statements that make version N of version N-1. */
const MIGRATIONS: ReadonlyArray<(d: Dialect) => string[]> = [
  (d) => [
    `CREATE TABLE firm_users (
      name TEXT NOT NULL PRIMARY KEY,
      budget INTEGER NOT NULL CHECK (budget >= 0),
      token_hash TEXT NOT NULL UNIQUE,
      created_at ${d.big} NOT NULL,
      revoked_at ${d.big},
      last_seen_at ${d.big})`,
    `CREATE TABLE firm_usage_month (
      user_name TEXT NOT NULL REFERENCES firm_users (name),
      month TEXT NOT NULL,
      spent INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0),
      PRIMARY KEY (user_name, month))`,
    `CREATE TABLE firm_usage_day (day TEXT NOT NULL PRIMARY KEY, spent INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0))`,
    `CREATE TABLE firm_plan_stop (id INTEGER NOT NULL PRIMARY KEY, stopped_until ${d.big} NOT NULL)`,
    `CREATE TABLE firm_answers (
      key TEXT NOT NULL PRIMARY KEY,
      body TEXT NOT NULL,
      fetched_at ${d.big} NOT NULL,
      expires_at ${d.big} NOT NULL)`,
    `CREATE TABLE firm_audit (
      id ${d.serial},
      at ${d.big} NOT NULL,
      user_name TEXT NOT NULL,
      endpoint TEXT NOT NULL,
      cuis TEXT NOT NULL,
      source TEXT NOT NULL,
      credits INTEGER NOT NULL,
      status INTEGER NOT NULL)`,
    `CREATE INDEX firm_audit_at ON firm_audit (at)`,
    `CREATE INDEX firm_audit_user_at ON firm_audit (user_name, at)`,
  ],
  // 2: answers an instance is fetching, so that another instance on the same database waits for them
  // instead of paying for them again (loader.ts); a claim past `until` is anyone's to take over.
  (d) => [`CREATE TABLE firm_claims (key TEXT NOT NULL PRIMARY KEY, owner TEXT NOT NULL, until ${d.big} NOT NULL)`],
  // 3: the watch lists, their companies, what each list last saw, their log (watch-schema.ts).
  watchMigration,
];

/** The schema version this FIRMA writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Any number: the advisory lock the PostgreSQL migrations hold (one per database). */
const MIGRATION_LOCK = 72_1815_0421;

/**
 * Brings the database to SCHEMA_VERSION inside the caller's transaction, and writes to it even when
 * there is nothing to migrate, so that a read-only database is found at open, not at the first
 * request. `where` names the database in messages (without any password).
 */
export async function migrate(tx: SqlRunner, engine: Engine, where: string, now = Date.now()): Promise<number> {
  if (engine === "postgres") await tx.all("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK]);
  const d = DIALECTS[engine];
  await tx.run(`CREATE TABLE IF NOT EXISTS firm_schema_migrations (version INTEGER NOT NULL PRIMARY KEY, applied_at ${d.big} NOT NULL)`);
  const [row] = await tx.all<{ v: number | string | null }>("SELECT MAX(version) AS v FROM firm_schema_migrations");
  const found = Number(row?.v ?? 0);
  if (found > SCHEMA_VERSION) {
    throw new FirmStoreError(
      "newer_schema",
      `The firm's database ${where} is at schema version ${found}; this FIRMA knows up to ${SCHEMA_VERSION}: update FIRMA.`,
      { database: where, found, known: SCHEMA_VERSION },
    );
  }
  for (let version = found + 1; version <= SCHEMA_VERSION; version++) {
    for (const statement of MIGRATIONS[version - 1](d)) await tx.run(statement);
    await tx.run("INSERT INTO firm_schema_migrations (version, applied_at) VALUES (?, ?)", [version, now]);
  }
  // The write that proves the database writable (it changes nothing).
  await tx.run("UPDATE firm_schema_migrations SET applied_at = applied_at WHERE version = ?", [SCHEMA_VERSION]);
  return found;
}
