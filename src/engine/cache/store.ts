/**
 * Where the engine keeps what must outlive a reload: the cache, the credit meter, what it learned
 * about the service. The shape is OfficeRuntime.storage's, so the add-in passes that in as it is;
 * Node uses MemoryStore (tests, --no-cache) or the CLI's SQLite file (src/cli/sqlite-cache.ts).
 */
export interface KeyValueStore {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export class MemoryStore implements KeyValueStore {
  readonly data = new Map<string, string>();
  async getItem(key: string): Promise<string | null> {
    return this.data.has(key) ? (this.data.get(key) as string) : null;
  }
  async setItem(key: string, value: string): Promise<void> {
    this.data.set(key, value);
  }
  async removeItem(key: string): Promise<void> {
    this.data.delete(key);
  }
}

/** Reads a JSON value from a store; a missing or unreadable value gives `fallback`. */
export async function readJson<T>(store: KeyValueStore, key: string, fallback: T): Promise<T> {
  try {
    const raw = await store.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

/** One cached answer as a backend keeps it. `used` orders answers for LRU eviction (larger = more recent). */
export interface StoredAnswer {
  value: unknown;
  expires: number;
  fetched: number;
  used: number;
}

/** What one save() hands a backend: only what changed since the last save. */
export interface AnswerChanges {
  /** Answers set (or marked stale) since the last save. */
  put: [string, StoredAnswer][];
  /** Answers read since the last save and not otherwise changed: their `used` moved on. */
  touched: [string, number][];
  /** Everything fetched before this instant counts as stale (markAllStale). */
  staleBefore: number;
}

/**
 * Something a backend tells the user without failing a load or a save: a tier of its storage it could
 * not read, write or fit in (the add-in's IndexedDB, src/office/tiered-answers.ts) while another keeps
 * the answers. PersistentCache reports it as a problem of the same kind; `detail` names the catalog's
 * message that says it exactly (src/shared/messages, `cache.idb.*`).
 */
export interface StoreNotice {
  kind: "read_timeout" | "read_failed" | "write_failed";
  message: string;
  detail?: { key: string; params: Record<string, string | number> };
}

/**
 * Where PersistentCache keeps its answers, one entry per answer, written incrementally. A backend
 * may drop answers to stay within its own limits: it then says how many went (least recently used first).
 */
export interface AnswerStore {
  /** For messages: the file, or the storage the answers are kept in. */
  readonly where: string;
  /** The saved answers, least recently used first, and the saved staleBefore; `pending`: the next save has work of its own (a migration). */
  load(): Promise<{ entries: Iterable<[string, StoredAnswer]>; staleBefore: number; pending?: boolean; notices?: StoreNotice[] }>;
  write(changes: AnswerChanges): Promise<{ evicted: number; notices?: StoreNotice[] }>;
  clear(): Promise<void>;
  /** The saved answers of these keys (those it has), for answers the cache let go of memory (PersistentCache.recall). */
  read?(keys: readonly string[]): Promise<Map<string, StoredAnswer>>;
}

/** A KeyValueStore that keeps the cache's answers its own way (the CLI's SQLite file): PersistentCache then uses that. */
export interface KeyValueStoreWithAnswers extends KeyValueStore {
  readonly answers: AnswerStore;
}

export function hasAnswerStore(store: KeyValueStore): store is KeyValueStoreWithAnswers {
  const a = (store as Partial<KeyValueStoreWithAnswers>).answers;
  return typeof a === "object" && a !== null && typeof a.load === "function" && typeof a.write === "function";
}
