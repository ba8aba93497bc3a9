/**
 * The CLI's cache on disk: one SQLite file (better-sqlite3) holding every answer it was given, one
 * row per answer, plus a small key-value table for the credit meter and what was learned about the
 * service. SQLite rather than a JSON file: a save writes only the rows that changed (one transaction),
 * a crash mid-write leaves the previous state (WAL), and 500,000 answers load in about a second.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "fs";
import { homedir } from "os";
import { dirname, join } from "path";
import type { AnswerChanges, AnswerStore, KeyValueStoreWithAnswers, StoredAnswer } from "../engine/cache/store";
import { t, type Lang, type MessageKey } from "../shared/messages/node";

/** `$XDG_CACHE_HOME/firma`, else `~/.cache/firma`. */
export function defaultCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "firma");
}

/** The CLI's cache file: `$XDG_CACHE_HOME/firma/cache.sqlite`, else `~/.cache/firma/cache.sqlite`. */
export function defaultCachePath(dir = defaultCacheDir()): string {
  return join(dir, "cache.sqlite");
}

/** The cache file cannot be opened, read or written: locked by another program, not a database, not readable. */
export class CacheStoreError extends Error {
  constructor(
    readonly path: string,
    /** What SQLite said, with the kind of problem when it is one we know (catalog key cli.db.*). */
    readonly cause: { key: MessageKey | null; detail: string },
  ) {
    super(
      `${t("ro", "cli.cacheStore", { path, reason: reasonText(cause, "ro") })} / ${t("en", "cli.cacheStore", { path, reason: reasonText(cause, "en") })}`,
    );
    this.name = "CacheStoreError";
  }

  /** The whole message in the user's language. */
  messageIn(lang: Lang): string {
    return t(lang, "cli.cacheStore", { path: this.path, reason: reasonText(this.cause, lang) });
  }
}

function reasonText(cause: { key: MessageKey | null; detail: string }, lang: Lang): string {
  return cause.key ? t(lang, cause.key, { detail: cause.detail }) : cause.detail;
}

export interface SqliteStoreOptions {
  /** How long to wait for another process's lock before giving up. @default 2000 */
  busyTimeoutMs?: number;
}

type AnswerRow = { key: string; value: string; expires: number; fetched: number; used: number };

/**
 * The SQLite file as the engine's KeyValueStore (meter, learned facts) with the cache's AnswerStore
 * beside it (`answers`), which PersistentCache picks up by itself: one file for everything.
 */
export class SqliteStore implements KeyValueStoreWithAnswers {
  readonly answers: AnswerStore;
  private readonly db: Database.Database;

  /** Opens (creating if needed) the file; throws CacheStoreError naming the path when it cannot. */
  constructor(
    readonly path: string,
    options: SqliteStoreOptions = {},
  ) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path, { timeout: options.busyTimeoutMs ?? 2000 });
    } catch (e) {
      throw new CacheStoreError(path, reason(e));
    }
    try {
      // The first statements read the header: a file that is not a database, or one locked, fails here, before any call.
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER NOT NULL, fetched INTEGER NOT NULL, used INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`);
      this.db.prepare("SELECT count(*) FROM answers").get();
    } catch (e) {
      this.db.close();
      throw new CacheStoreError(path, reason(e));
    }
    this.answers = new SqliteAnswerStore(this.db, path);
  }

  async getItem(key: string): Promise<string | null> {
    const row = this.guard(() => this.db.prepare("SELECT value FROM kv WHERE key = ?").get(key)) as { value: string } | undefined;
    return row ? row.value : null;
  }

  async setItem(key: string, value: string): Promise<void> {
    this.guard(() =>
      this.db.prepare("INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value),
    );
  }

  async removeItem(key: string): Promise<void> {
    this.guard(() => this.db.prepare("DELETE FROM kv WHERE key = ?").run(key));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw new CacheStoreError(this.path, reason(e));
    }
  }
}

class SqliteAnswerStore implements AnswerStore {
  constructor(
    private readonly db: Database.Database,
    readonly where: string,
  ) {}

  async load(): Promise<{ entries: Iterable<[string, StoredAnswer]>; staleBefore: number }> {
    try {
      const meta = this.db.prepare("SELECT value FROM kv WHERE key = 'firma.cache.staleBefore'").get() as { value: string } | undefined;
      const entries: [string, StoredAnswer][] = [];
      // Least recently used first, the order PersistentCache rebuilds its LRU from.
      for (const r of this.db
        .prepare("SELECT key, value, expires, fetched, used FROM answers ORDER BY used")
        .iterate() as Iterable<AnswerRow>) {
        entries.push([r.key, { value: JSON.parse(r.value), expires: r.expires, fetched: r.fetched, used: r.used }]);
      }
      return { entries, staleBefore: meta ? Number(meta.value) || 0 : 0 };
    } catch (e) {
      throw new CacheStoreError(this.where, reason(e));
    }
  }

  async write(changes: AnswerChanges): Promise<{ evicted: number }> {
    const put = this.db.prepare(
      "INSERT INTO answers (key, value, expires, fetched, used) VALUES (?, ?, ?, ?, ?) " +
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires, fetched = excluded.fetched, used = excluded.used",
    );
    const touch = this.db.prepare("UPDATE answers SET used = ? WHERE key = ?");
    const meta = this.db.prepare(
      "INSERT INTO kv (key, value) VALUES ('firma.cache.staleBefore', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    );
    try {
      this.db.transaction(() => {
        for (const [k, a] of changes.put) put.run(k, JSON.stringify(a.value), a.expires, a.fetched, a.used);
        for (const [k, used] of changes.touched) touch.run(used, k);
        meta.run(String(changes.staleBefore));
      })();
    } catch (e) {
      throw new CacheStoreError(this.where, reason(e));
    }
    // The file keeps every answer: nothing is ever evicted from it.
    return { evicted: 0 };
  }

  async clear(): Promise<void> {
    try {
      this.db.exec("DELETE FROM answers");
    } catch (e) {
      throw new CacheStoreError(this.where, reason(e));
    }
  }
}

function reason(e: unknown): { key: MessageKey | null; detail: string } {
  const code = (e as { code?: string })?.code;
  const detail = (e as Error)?.message ?? String(e);
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return { key: "cli.db.locked", detail };
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") return { key: "cli.db.notDatabase", detail };
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY" || code === "SQLITE_PERM") return { key: "cli.db.cannotWrite", detail };
  return { key: null, detail };
}
