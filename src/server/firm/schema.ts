/**
 * The firm's database schema, versioned: migration N turns version N-1 into N, and the version a
 * database is at lives in `firm_schema_migrations`. The migrations run when a store opens, in one
 * transaction (on PostgreSQL under an advisory lock, so two instances starting together migrate
 * once); a database at a version newer than this FIRMA knows is refused rather than misread. The
 * same SQL serves both engines but for the few types that differ (`Dialect`).
 *
 * An upgrade while an older instance runs: on PostgreSQL each running instance holds a shared
 * session lock (SCHEMA_LOCK, postgres-store.ts) and a migration takes it exclusively, so a newer FIRMA
 * waits for the older instances to stop before it changes anything (and says so); on SQLite each write
 * checks, under the write lock, that the schema is still the one it knows (sqlite-store.ts), so an
 * older instance stops writing the moment a newer one has migrated. Never both write.
 */
import { FirmStoreError } from "./firm-store";
import { alertsMigration } from "./watch-outbox";
import { watchFinancialMigration, watchMigration } from "./watch-schema";
import { watchChecksMigration } from "./watch-checks";

export type Engine = "sqlite" | "postgres";

/** A place to run SQL with `?` placeholders: a connection, or a transaction on one. */
export interface SqlRunner {
  /** The rows a statement returns (a SELECT, or anything with RETURNING). */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface Dialect {
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
export type Migrations = ReadonlyArray<(d: Dialect) => string[]>;

export const MIGRATIONS: Migrations = [
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
  // 3: leases (one holder at a time of a named job, lease.ts), and the wants an instance hands to the
  // leader of their batch kind (shared-queue.ts), with what became of them.
  (d) => [
    `CREATE TABLE firm_leases (name TEXT NOT NULL PRIMARY KEY, holder TEXT NOT NULL, until ${d.big} NOT NULL)`,
    `CREATE TABLE firm_wants (
      key TEXT NOT NULL,
      origin TEXT NOT NULL,
      grp TEXT NOT NULL,
      want TEXT NOT NULL,
      users TEXT NOT NULL,
      since ${d.big} NOT NULL,
      taken_by TEXT,
      outcome TEXT,
      paid_request ${d.big},
      PRIMARY KEY (key, origin))`,
    `CREATE INDEX firm_wants_grp ON firm_wants (grp, outcome)`,
    `CREATE INDEX firm_wants_origin ON firm_wants (origin, outcome)`,
  ],
  // 4: the watch lists, their companies, what each list last saw, their log (watch-schema.ts).
  watchMigration,
  // 5: the watch's alerts, their deliveries (an outbox) and the lists' webhooks (watch-outbox.ts).
  alertsMigration,
  // 6: the record of each check of a watch list, so that a check cut short is finished once (watch-checks.ts).
  watchChecksMigration,
  // 7: each list's schedule of its financial-year check (watch-schema.ts).
  watchFinancialMigration,
];

/** The schema version this FIRMA writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Any number: the advisory lock the PostgreSQL migrations hold (one per database). */
const MIGRATION_LOCK = 72_1815_0421;
/** Held shared by every running PostgreSQL instance, exclusively by a migration (postgres-store.ts). */
export const SCHEMA_LOCK = 72_1815_0422;

export interface MigrateOptions {
  /** The migrations this FIRMA knows (a newer FIRMA has more; the tests stand one in). @default MIGRATIONS */
  migrations?: Migrations;
  /** Called when a migration must wait for older instances still running on the database to stop. */
  onWaitForOlder?: () => void;
  now?: number;
}

/** The version the database is at (0: none yet). */
export async function schemaVersionOf(tx: SqlRunner): Promise<number> {
  const [row] = await tx.all<{ v: number | string | null }>("SELECT MAX(version) AS v FROM firm_schema_migrations");
  return Number(row?.v ?? 0);
}

/** A newer FIRMA migrated the database while this one ran: it must not write any more. */
export function migratedWhileRunning(where: string, found: number, known: number): FirmStoreError {
  return new FirmStoreError(
    "newer_schema",
    `The firm's database ${where} was migrated to schema version ${found} by a newer FIRMA while this one (version ${known}) ran: this instance no longer writes to it; update FIRMA and restart it.`,
    { database: where, found, known },
  );
}

/**
 * Brings the database to SCHEMA_VERSION inside the caller's transaction, and writes to it even when
 * there is nothing to migrate, so that a read-only database is found at open, not at the first
 * request. `where` names the database in messages (without any password).
 */
export async function migrate(tx: SqlRunner, engine: Engine, where: string, o: MigrateOptions = {}): Promise<number> {
  const migrations = o.migrations ?? MIGRATIONS;
  const known = migrations.length;
  const now = o.now ?? Date.now();
  if (engine === "postgres") await tx.all("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK]);
  const d = DIALECTS[engine];
  await tx.run(`CREATE TABLE IF NOT EXISTS firm_schema_migrations (version INTEGER NOT NULL PRIMARY KEY, applied_at ${d.big} NOT NULL)`);
  const found = await schemaVersionOf(tx);
  if (found > known) {
    throw new FirmStoreError(
      "newer_schema",
      `The firm's database ${where} is at schema version ${found}; this FIRMA knows up to ${known}: update FIRMA.`,
      { database: where, found, known },
    );
  }
  if (engine === "postgres" && found > 0 && found < known) {
    // Older instances still running hold SCHEMA_LOCK shared: the migration waits for them to stop.
    const [got] = await tx.all<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock(?) AS ok", [SCHEMA_LOCK]);
    if (!got?.ok) {
      o.onWaitForOlder?.();
      await tx.all("SELECT pg_advisory_xact_lock(?)", [SCHEMA_LOCK]);
    }
  }
  for (let version = found + 1; version <= known; version++) {
    for (const statement of migrations[version - 1](d)) await tx.run(statement);
    await tx.run("INSERT INTO firm_schema_migrations (version, applied_at) VALUES (?, ?)", [version, now]);
  }
  // The write that proves the database writable (it changes nothing).
  await tx.run("UPDATE firm_schema_migrations SET applied_at = applied_at WHERE version = ?", [known]);
  return found;
}
