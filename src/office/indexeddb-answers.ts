/**
 * The add-in's large answer store: the browser's IndexedDB, where the runtime has it. Microsoft's
 * pages document OfficeRuntime.storage (10 MB per domain) for add-in data and say nothing of
 * IndexedDB, so this tier is best-effort (docs/cache.md): feature-detected, opened with a timeout,
 * sized from navigator.storage.estimate() where the browser has it, and compressed (the browser's CompressionStream). It is a
 * KeyValueStore, so the engine's KvAnswerStore shards answers over it with the same LRU, byte cap,
 * read and write timeouts as over OfficeRuntime.storage (src/office/tiered-answers.ts joins the two).
 */
import { withTimeout } from "../engine/cache/answer-store";
import type { KeyValueStore } from "../engine/cache/store";

export const IDB_NAME = "firma-answers";
const OBJECTS = "shards";
/** What a shard that did not decompress reads as: not JSON, so KvAnswerStore drops it and rewrites the shard. */
const UNREADABLE = "\u0000unreadable";

/** The browser's IndexedDB, or null where this runtime has none (or refuses access to it). */
export function browserIndexedDb(): IDBFactory | null {
  try {
    return typeof indexedDB !== "undefined" && indexedDB ? indexedDB : null;
  } catch {
    return null; // a page whose storage is blocked throws on access
  }
}

/** The browser's storage estimate, or null where it has none (or it fails). */
export async function browserEstimate(): Promise<{ quota?: number; usage?: number } | null> {
  try {
    if (typeof navigator === "undefined" || !navigator.storage?.estimate) return null;
    return await navigator.storage.estimate();
  } catch {
    return null;
  }
}

/**
 * Uncompressed bytes of answers the tier may keep: `max`, or less where the browser says it has less
 * room. Shards compress to about a quarter; half of that ratio is assumed. 0: no room at all.
 */
export function capFromEstimate(estimate: { quota?: number; usage?: number } | null, max: number): number {
  if (!estimate || typeof estimate.quota !== "number") return max;
  const free = Math.max(0, estimate.quota - (estimate.usage ?? 0));
  return free < 64 * 1024 ? 0 : Math.min(max, free * 2);
}

/** Opens (creating when new) the answers' database; an open that does not settle in time fails. */
export function openAnswerDb(factory: IDBFactory, timeoutMs: number, name = IDB_NAME): Promise<IDBDatabase> {
  let late = false;
  const opening = new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name, 1);
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(OBJECTS)) req.result.createObjectStore(OBJECTS);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB open failed"));
  });
  // An open that settles after the timeout leaves no connection behind.
  opening.then(
    (db) => {
      if (late) db.close();
    },
    () => undefined,
  );
  return withTimeout(opening, timeoutMs, "read").catch((e) => {
    late = true;
    throw e;
  });
}

/**
 * The browser's own compression (CompressionStream, "deflate"): no library in the pane's startup
 * scripts. Where a runtime lacks it, shards are stored as plain strings (and read either way).
 */
const COMPRESSES = typeof CompressionStream === "function" && typeof DecompressionStream === "function";

async function deflate(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function inflate(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).text();
}

/** One IndexedDB database as a KeyValueStore of compressed strings. */
export class IdbKeyValueStore implements KeyValueStore {
  /** Shards that were found but did not decompress since the store was made. */
  corrupt = 0;
  /** Compressed bytes written by the last setItem of each key (what the browser's quota counts, roughly). */
  readonly stored = new Map<string, number>();

  constructor(private readonly db: IDBDatabase) {}

  async getItem(key: string): Promise<string | null> {
    const raw = await this.request<unknown>("readonly", (s) => s.get(key));
    if (raw === undefined || raw === null) return null;
    try {
      if (typeof raw === "string") {
        this.stored.set(key, raw.length * 2);
        return raw;
      }
      const bytes = raw instanceof Uint8Array ? raw : new Uint8Array(raw as ArrayBuffer);
      const text = await inflate(bytes);
      this.stored.set(key, bytes.byteLength);
      return text;
    } catch {
      this.corrupt++;
      return UNREADABLE;
    }
  }

  async setItem(key: string, value: string): Promise<void> {
    const stored = COMPRESSES ? await deflate(value) : value;
    await this.request("readwrite", (s) => s.put(stored, key));
    this.stored.set(key, typeof stored === "string" ? stored.length * 2 : stored.byteLength);
  }

  async removeItem(key: string): Promise<void> {
    await this.request("readwrite", (s) => s.delete(key));
    this.stored.delete(key);
  }

  /** One request in its own transaction; settles when the transaction does (a write is durable only then). */
  private request<T>(mode: IDBTransactionMode, make: (s: IDBObjectStore) => IDBRequest): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const tx = this.db.transaction(OBJECTS, mode);
      const req = make(tx.objectStore(OBJECTS));
      tx.oncomplete = () => resolve(req.result as T);
      tx.onabort = () => reject(tx.error ?? req.error ?? new Error("IndexedDB transaction aborted"));
      tx.onerror = (ev) => {
        ev.preventDefault(); // reported through onabort's rejection, not as an uncaught error
        reject(tx.error ?? req.error ?? new Error("IndexedDB request failed"));
      };
    });
  }
}
