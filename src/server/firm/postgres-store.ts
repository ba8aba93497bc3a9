/**
 * The firm's database on PostgreSQL (`pg`), for several `firma serve` instances behind one load
 * balancer: they share the answers, the people, the counters and the plan's stop through the
 * database alone. Counters change in transactions whose upserts lock the rows they touch (a person's
 * month, then the firm's day: always in that order, so two transactions never wait on each other in
 * a circle); the migrations run under an advisory lock, so instances starting together migrate once.
 * Each instance holds the schema it writes (schema-hold.ts): a newer FIRMA's migration waits for it,
 * and after a restart of the database its writes wait until the hold is taken again. The pool
 * replaces the connections a restart dropped by itself; what fails meanwhile is "unreachable".
 */
import { Pool, types, type PoolClient, type PoolConfig, type QueryResult } from "pg";
import { migrate, SCHEMA_VERSION, type MigrateOptions, type SqlRunner } from "./schema";
import { SchemaHold } from "./schema-hold";
import { SqlFirmStore, type SqlDriver } from "./sql-store";
import { FirmStoreError, type FirmStore } from "./firm-store";

export interface PostgresStoreOptions {
  /** Connections per instance. @default 10 */
  maxConnections?: number;
  /** How long to wait for a connection before saying the database is unreachable. @default 5000 */
  connectTimeoutMs?: number;
  /** The migrations and the callbacks of schema.ts's migrate (a newer FIRMA is this one with more migrations). */
  schema?: MigrateOptions;
}

/** int8 (BIGINT, COUNT) as a JS number: every figure here (milliseconds, credits) is far below 2^53. */
const INT8 = 20;
const typeParsers = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 ? (v: string) => Number(v) : types.getTypeParser(oid, format as "text")) as typeof types.getTypeParser,
};

/**
 * Connects, migrates and returns the store; throws FirmStoreError ("unreachable", "read_only",
 * "newer_schema") when it cannot. `where` names the database in messages (the URL without its password).
 */
export async function openPostgresStore(url: string, where: string, options: PostgresStoreOptions = {}): Promise<FirmStore> {
  const config: PoolConfig = {
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    types: typeParsers,
  };
  const pool = new Pool(config);
  // An idle connection the server dropped: the pool replaces it at the next query; nothing to crash for.
  pool.on("error", ignore);
  const secret = passwordOf(url);
  const hold = new SchemaHold({
    config: { connectionString: url, connectionTimeoutMillis: config.connectionTimeoutMillis },
    where,
    version: options.schema?.migrations?.length ?? SCHEMA_VERSION,
  });
  const driver = new PostgresDriver(pool, where, secret, hold);
  try {
    await driver.transaction((tx) => migrate(tx, "postgres", where, options.schema), false);
    await hold.take().catch((e: unknown) => {
      throw postgresError(e, where, secret);
    });
  } catch (e) {
    await hold.close();
    await pool.end().catch(() => undefined);
    throw e;
  }
  return new SqlFirmStore(driver);
}

class PostgresDriver implements SqlDriver {
  readonly engine = "postgres" as const;

  constructor(
    private readonly pool: Pool,
    private readonly where: string,
    private readonly secret: string,
    private readonly hold: SchemaHold,
  ) {}

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }

  /** One statement, its own transaction: a deadlock or serialization failure is asked again, as a transaction's is. */
  private async query(sql: string, params: readonly unknown[]): Promise<QueryResult> {
    if (WRITE.test(sql)) this.hold.check();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query(prepared(sql, params));
      } catch (e) {
        const code = (e as { code?: unknown })?.code;
        if ((code === "40P01" || code === "40001") && attempt < 5) continue;
        throw postgresError(e, this.where, this.secret);
      }
    }
  }

  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>, guarded = true): Promise<T> {
    if (guarded) this.hold.check();
    // A deadlock or serialization failure is PostgreSQL asking for the transaction again.
    for (let attempt = 1; ; attempt++) {
      let client: PoolClient;
      try {
        client = await this.pool.connect();
      } catch (e) {
        throw postgresError(e, this.where, this.secret);
      }
      // The server dropping the connection between two statements: the next one fails, and the transaction with it.
      client.on("error", ignore);
      try {
        await client.query("BEGIN");
        const result = await fn(runnerOn(client));
        await client.query("COMMIT");
        return result;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        const code = (e as { code?: unknown })?.code;
        if ((code === "40P01" || code === "40001") && attempt < 5) continue;
        throw e instanceof FirmStoreError ? e : postgresError(e, this.where, this.secret, e);
      } finally {
        client.off("error", ignore);
        client.release();
      }
    }
  }

  async writable(): Promise<void> {
    this.hold.check();
  }

  listen(channel: string, fn: (payload: string) => void): () => void {
    return this.hold.listen(channel, fn);
  }

  async close(): Promise<void> {
    await this.hold.close();
    await this.pool.end();
  }
}

function ignore(): void {}

/** A statement that changes the database: refused while this instance does not hold its schema. */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|WITH\s+\w+\s+AS\s*\(\s*(INSERT|UPDATE|DELETE))\b/i;

function runnerOn(client: PoolClient): SqlRunner {
  return {
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await client.query(prepared(sql, params))).rows as T[],
    run: async (sql: string, params: readonly unknown[] = []) => (await client.query(prepared(sql, params))).rowCount ?? 0,
  };
}

/**
 * A statement as a named prepared statement: each connection parses and plans it once (pg prepares a
 * name on a connection the first time it is used there, and again on a new connection after a restart),
 * instead of at every call (a statement with parameters only). The names are kept for the first STATEMENTS texts seen; texts beyond them
 * (statements whose placeholders vary in number, past the common sizes) go unnamed, so that no
 * connection holds an unbounded number of prepared statements.
 */
const STATEMENTS = 256;
const names = new Map<string, { name: string; text: string }>();

export function prepared(sql: string, params: readonly unknown[]): { name?: string; text: string; values: unknown[] } {
  // Without parameters pg uses the simple protocol, which takes several statements in one text (the migrations).
  if (params.length === 0) return { text: sql, values: [] };
  let known = names.get(sql);
  if (!known) {
    known = { name: `firma_${names.size}`, text: numbered(sql) };
    if (names.size >= STATEMENTS) return { text: known.text, values: [...params] };
    names.set(sql, known);
  }
  return { name: known.name, text: known.text, values: [...params] };
}

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the SQL here has no `?` inside a string). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return "";
  }
}

/** Connection-class SQLSTATEs, and Node's network errors: the database cannot be reached. */
const UNREACHABLE = /^(08|57P0[123]|3D000|28|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE)/;

/** pg's error as the store's, its text cleaned of the password; `passThrough` is returned for any other error. */
function postgresError(e: unknown, where: string, secret: string, passThrough: unknown = e): unknown {
  const code = String((e as { code?: unknown })?.code ?? "");
  let detail = e instanceof Error ? e.message : String(e);
  if (secret) detail = detail.split(secret).join("***");
  if (code === "25006" || code === "42501") {
    return new FirmStoreError("read_only", `The firm's database ${where} is read-only: ${detail}`, { database: where, detail });
  }
  const unreachable =
    UNREACHABLE.test(code) ||
    /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/i.test(
      detail,
    );
  if (unreachable) {
    return new FirmStoreError("unreachable", `The firm's database ${where} cannot be reached: ${detail}`, { database: where, detail });
  }
  return passThrough;
}
