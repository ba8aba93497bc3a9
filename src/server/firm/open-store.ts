/**
 * Which database a `--database` names: a file path (or `sqlite:PATH`, `file:PATH`) is an embedded
 * SQLite file, `postgres://…` / `postgresql://…` is a PostgreSQL server; anything else is refused,
 * naming the scheme. With no `--database`, `DATABASE_URL`, else the default file
 * (`$XDG_DATA_HOME/firma/firm.sqlite`, else `~/.local/share/firma/firm.sqlite`). Messages name the
 * database without the password the URL may carry.
 */
import { homedir } from "os";
import { join } from "path";
import { fileURLToPath } from "url";
import { openPostgresStore, type PostgresStoreOptions } from "./postgres-store";
import { openSqliteStore, type SqliteStoreOptions } from "./sqlite-store";
import { FirmStoreError, type FirmStore } from "./firm-store";

export type OpenFirmStoreOptions = SqliteStoreOptions & PostgresStoreOptions;

/** The firm's SQLite file when neither `--database` nor `DATABASE_URL` says otherwise. */
export function defaultFirmDatabase(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "firma", "firm.sqlite");
}

/** `--database` if given, else `DATABASE_URL`, else the default file. */
export function resolveDatabaseUrl(option?: string | null, env: NodeJS.ProcessEnv = process.env): string {
  return option?.trim() || env.DATABASE_URL?.trim() || defaultFirmDatabase(env);
}

/** A database address fit for a message or a log line: no user name, password or query. */
export function describeDatabase(url: string): string {
  const scheme = schemeOf(url);
  if (scheme === null || scheme === "sqlite" || scheme === "file") return sqlitePath(url);
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return `${scheme}://…`;
  }
}

/** Opens the firm's database `url` names, migrating it to this FIRMA's schema; throws FirmStoreError when it cannot. */
export async function openFirmStore(url: string, options: OpenFirmStoreOptions = {}): Promise<FirmStore> {
  const scheme = schemeOf(url);
  if (scheme === null || scheme === "sqlite" || scheme === "file") return openSqliteStore(sqlitePath(url), options);
  if (scheme === "postgres" || scheme === "postgresql") return openPostgresStore(url, describeDatabase(url), options);
  throw new FirmStoreError(
    "unknown_scheme",
    `FIRMA does not know databases of the kind "${scheme}:": give a file path (SQLite) or a postgres:// address`,
    { scheme },
  );
}

/** The URL's scheme in lower case, or null for a plain path (a Windows drive letter is no scheme). */
function schemeOf(url: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(url.trim());
  return m ? m[1].toLowerCase() : null;
}

function sqlitePath(url: string): string {
  const s = url.trim();
  if (/^file:\/\//i.test(s)) return fileURLToPath(s);
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(s);
  return m ? m[1] : s;
}
