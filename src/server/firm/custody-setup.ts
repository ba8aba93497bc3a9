/**
 * `firma serve`'s custody options, checked before anything listens: the firm's key (`--key-file F`, or
 * FIRMA_UPSTREAM_KEY), read once and kept in memory only; the firm's database (`--database URL`, else
 * DATABASE_URL, else the default SQLite file); `--db-pool N` (PostgreSQL connections this instance opens
 * at most, 1–100, default 10); `--max-credits-per-day N`; `--rate-limit N` (requests a second per person,
 * counted over 10 s). Each problem is one line from
 * the catalogs that names the file or the variable, never the key.
 */
import { readFileSync } from "fs";
import type { MessageKey } from "../../shared/messages/node";
import { describeDatabase, openFirmStore, resolveDatabaseUrl } from "./open-store";
import { FirmStoreError, type FirmStore, type FirmStoreErrorCode } from "./firm-store";
import { parseBudget } from "./tokens";
import { RATE_LIMIT } from "./custody";

export interface CustodyFlags {
  keyFile?: string;
  database?: string;
  dbPool?: string;
  maxCreditsPerDay?: string;
  rateLimit?: string;
}

export interface CustodySettings {
  /** The firm's key: only ever sent to the service. */
  key: string;
  /** The database's URL or path (may carry a password: shown through describeDatabase only). */
  database: string;
  maxCreditsPerDay: number | null;
  /** Requests a person may make a second, counted over 10 s; 0: no limit. */
  ratePerSecond: number;
  /** PostgreSQL connections this instance opens at most (its pool; SQLite has one). */
  dbPool: number;
}

/** PostgreSQL connections an instance opens at most, by default (docs/deploy.md, "Sizing PostgreSQL"). */
export const DB_POOL = 10;

type Die = (key: MessageKey, params?: Record<string, string | number>) => Error;

/** The custody settings, or null when custody mode is off (no key file, no FIRMA_UPSTREAM_KEY). */
export function custodySettings(f: CustodyFlags, env: Record<string, string | undefined>, die: Die): CustodySettings | null {
  let raw: string | undefined;
  let source: string;
  if (f.keyFile !== undefined) {
    source = f.keyFile;
    try {
      raw = readFileSync(f.keyFile, "utf8");
    } catch (e) {
      throw die("serve.keyFileUnreadable", { file: f.keyFile, reason: (e as NodeJS.ErrnoException).code ?? "?" });
    }
  } else {
    source = "FIRMA_UPSTREAM_KEY";
    raw = env.FIRMA_UPSTREAM_KEY;
  }
  if (raw === undefined) {
    if (f.database !== undefined || f.dbPool !== undefined || f.maxCreditsPerDay !== undefined || f.rateLimit !== undefined)
      throw die("serve.custodyOnly");
    return null;
  }
  const key = raw.trim();
  if (key === "") throw die("serve.keyEmpty", { source });
  // One header value: visible ASCII on one line (fetch would otherwise throw, with the value in its message).
  if (!/^[\x21-\x7e]+$/.test(key)) throw die("serve.keyBad", { source });
  let maxCreditsPerDay: number | null = null;
  if (f.maxCreditsPerDay !== undefined) {
    maxCreditsPerDay = parseBudget(f.maxCreditsPerDay);
    if (maxCreditsPerDay === null) throw die("serve.badMaxCredits", { value: f.maxCreditsPerDay.slice(0, 20) });
  }
  let ratePerSecond = RATE_LIMIT.max / (RATE_LIMIT.windowMs / 1000);
  if (f.rateLimit !== undefined) {
    const n = parseBudget(f.rateLimit);
    if (n === null) throw die("serve.badRateLimit", { value: f.rateLimit.slice(0, 20) });
    ratePerSecond = n;
  }
  let dbPool = DB_POOL;
  if (f.dbPool !== undefined) {
    const n = parseBudget(f.dbPool);
    if (n === null || n < 1 || n > 100) throw die("serve.badDbPool", { value: f.dbPool.slice(0, 20) });
    dbPool = n;
  }
  return { key, database: resolveDatabaseUrl(f.database, env as NodeJS.ProcessEnv), maxCreditsPerDay, ratePerSecond, dbPool };
}

const STORE_FAILURES: Record<FirmStoreErrorCode, MessageKey> = {
  unknown_scheme: "serve.db.unknownScheme",
  unreachable: "serve.db.unreachable",
  read_only: "serve.db.readOnly",
  disk_full: "serve.db.diskFull",
  newer_schema: "serve.db.newerSchema",
  user_exists: "serve.db.unreachable",
  bad_name: "serve.db.unreachable",
  bad_budget: "serve.db.unreachable",
};

/** Opens (and migrates) the firm's database; a failure is the one start-up line, without the URL's password. */
export async function openCustodyStore(
  url: string,
  die: Die,
  open: ((url: string) => Promise<FirmStore>) | undefined,
  /** Says that a migration waits for older instances to stop (the line's key; the caller's language). */
  say: (key: MessageKey, params: Record<string, string>) => void = () => undefined,
  /** PostgreSQL connections at most (`--db-pool`). */
  maxConnections: number = DB_POOL,
): Promise<FirmStore> {
  open ??= (u) =>
    openFirmStore(u, {
      maxConnections,
      schema: { onWaitForOlder: () => say("serve.db.waitingForOlder", { database: describeDatabase(u) }) },
    });
  try {
    return await open(url);
  } catch (e) {
    const shown = describeDatabase(url);
    if (!(e instanceof FirmStoreError))
      throw die("serve.db.unreachable", {
        database: shown,
        reason: String((e as Error)?.message ?? e)
          .split(url)
          .join(shown),
      });
    const reason = typeof e.params.reason === "string" ? e.params.reason : e.message;
    throw die(STORE_FAILURES[e.code], { database: shown, reason: reason.split(url).join(shown) });
  }
}
