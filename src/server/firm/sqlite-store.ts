/**
 * The firm's database as one embedded SQLite file (better-sqlite3): one server, nothing to install.
 * WAL mode (readers never wait for the writer; a process killed mid-write leaves the last committed
 * state), a busy timeout for the other processes on the same file (`firma users` beside a running
 * `firma serve`), and write transactions begun IMMEDIATE, so that two processes never both read a
 * counter before either writes it. Inside the process every statement goes through one queue: a
 * transaction's `await`s cannot let another statement slip into it.
 *
 * Every write runs in such a transaction and first checks, under the write lock, that no newer FIRMA
 * has migrated the file since this one opened it (`PRAGMA schema_version` moves with any change of
 * the schema): if one has, this instance writes nothing more (schema.ts). A full disk or a read-only
 * file at run time is the store's `disk_full` / `read_only`; SQLite's transactions leave no half-written row.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "fs";
import { dirname } from "path";
import { migrate, migratedWhileRunning, SCHEMA_VERSION, type MigrateOptions, type SqlRunner } from "./schema";
import { SqlFirmStore, type SqlDriver } from "./sql-store";
import { FirmStoreError, type FirmStore } from "./firm-store";

export interface SqliteStoreOptions {
  /** How long to wait for another process's write lock before giving up. @default 5000 */
  busyTimeoutMs?: number;
  /** The migrations and the callbacks of schema.ts's migrate (a newer FIRMA is this one with more migrations). */
  schema?: MigrateOptions;
}

/** Opens (creating it and its folder if needed) and migrates the file; throws FirmStoreError when it cannot. */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<FirmStore> {
  let db: Database.Database;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
  } catch (e) {
    throw sqliteError(e, path);
  }
  const driver = new SqliteDriver(db, path);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    await driver.transaction((tx) => migrate(tx, "sqlite", path, options.schema));
    driver.guard(options.schema?.migrations?.length ?? SCHEMA_VERSION);
  } catch (e) {
    db.close();
    throw e instanceof FirmStoreError ? e : sqliteError(e, path);
  }
  return new SqlFirmStore(driver);
}

class SqliteDriver implements SqlDriver {
  readonly engine = "sqlite" as const;
  private readonly statements = new Map<string, Database.Statement>();
  private tail: Promise<unknown> = Promise.resolve();
  /** The schema this instance writes (after its migration), and PRAGMA schema_version then; null: not yet checked. */
  private known: { version: number; cookie: number } | null = null;
  /** Set once a newer FIRMA migrated the file: every write is refused with it. */
  private stopped: Error | null = null;
  /** Runs directly on the connection: for use inside the queue only. */
  private readonly direct: SqlRunner = {
    all: async <T>(sql: string, params: readonly unknown[] = []) => this.statement(sql).all(...params) as T[],
    run: async (sql: string, params: readonly unknown[] = []) => {
      const s = this.statement(sql);
      return s.reader ? s.all(...params).length : s.run(...params).changes;
    },
  };

  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {}

  all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (WRITE.test(sql)) return this.queued(async () => this.written(() => this.statement(sql).all(...params) as T[]));
    return this.queued(() => this.direct.all<T>(sql, params));
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    if (WRITE.test(sql)) {
      return this.queued(async () =>
        this.written(() => {
          const s = this.statement(sql);
          return s.reader ? s.all(...params).length : s.run(...params).changes;
        }),
      );
    }
    return this.queued(() => this.direct.run(sql, params));
  }

  /**
   * One statement in a write transaction that checks the schema first, all at once (no `await` inside:
   * the busy wait for another process's lock must not hold up this one's own transaction).
   */
  private written<T>(fn: () => T): T {
    if (this.stopped) throw this.stopped;
    this.db.exec("BEGIN IMMEDIATE");
    try {
      this.checkSchema();
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw e;
    }
  }

  /** From now on every write checks that the schema is still `version` (the one this instance migrated to). */
  guard(version: number): void {
    this.known = { version, cookie: Number(this.db.pragma("schema_version", { simple: true })) };
  }

  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    return this.queued(async () => {
      if (this.stopped) throw this.stopped;
      this.db.exec("BEGIN IMMEDIATE");
      try {
        this.checkSchema();
        const result = await fn(this.direct);
        this.db.exec("COMMIT");
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw e;
      }
    });
  }

  writable(): Promise<void> {
    return this.queued(async () => this.checkSchema());
  }

  /** Inside the write lock (or for /healthz): a schema changed since this instance opened the file is a newer FIRMA's, or harmless. */
  private checkSchema(): void {
    if (this.stopped) throw this.stopped;
    if (!this.known) return;
    const cookie = Number(this.db.pragma("schema_version", { simple: true }));
    if (cookie === this.known.cookie) return;
    const found = Number((this.statement("SELECT MAX(version) AS v FROM firm_schema_migrations").get() as { v: number | null }).v ?? 0);
    if (found > this.known.version) {
      this.stopped = migratedWhileRunning(this.path, found, this.known.version);
      throw this.stopped;
    }
    this.known = { ...this.known, cookie };
  }

  async close(): Promise<void> {
    await this.tail;
    if (this.db.open) this.db.close();
  }

  /** One statement or transaction at a time, in order; SQLite's own errors become FirmStoreErrors where they say what is wrong. */
  private queued<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job).catch((e: unknown) => {
      throw e instanceof FirmStoreError ? e : sqliteError(e, this.path, false);
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}

/** A statement that changes the file: run in a write transaction that checks the schema first. */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;

/** SQLite's error as the store's: read-only, or cannot be opened (any other error passes through when `all` is false). */
function sqliteError(e: unknown, path: string, all = true): unknown {
  const code = String((e as { code?: unknown })?.code ?? "");
  const detail = e instanceof Error ? e.message : String(e);
  if (code.startsWith("SQLITE_READONLY") || code === "EROFS") {
    return new FirmStoreError("read_only", `The firm's database ${path} is read-only: ${detail}`, { database: path, detail });
  }
  if (code === "SQLITE_FULL" || code === "ENOSPC" || (/^SQLITE_IOERR/.test(code) && /disk is full|ENOSPC/i.test(detail))) {
    return new FirmStoreError("disk_full", `The disk under the firm's database ${path} is full: ${detail}`, { database: path, detail });
  }
  if (all || /^SQLITE_(CANTOPEN|NOTADB|BUSY|LOCKED|IOERR|PERM|AUTH|CORRUPT)/.test(code)) {
    return new FirmStoreError("unreachable", `The firm's database ${path} cannot be opened: ${detail}`, { database: path, detail });
  }
  return e;
}
