/**
 * OfficeRuntime.storage as the pages and office.js describe it, for the custom-functions runtime stand-in
 * (excel-runtime.ts). `data` can be carried over to another stand-in to simulate reopening.
 *
 *  - Room: "The Storage object offers 10 MB of data per domain. Domains can be shared by more than one
 *    add-in." (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-runtime#store-and-access-data;
 *    the reference: "Storage limit is 10 MB per domain, which may be shared by multiple add-ins",
 *    https://learn.microsoft.com/javascript/api/office-runtime/officeruntime.storage). The page names no
 *    unit of count and no error. office.js's web implementation (node_modules/@microsoft/office-js,
 *    excel-web-16.00.debug.js, `officeruntime_storage_web`) keeps each item in the page's localStorage
 *    under "_OfficeRuntime_Storage_" + key, and a browser's localStorage counts keys and values as UTF-16
 *    text: so the stand-in counts 2 bytes per UTF-16 code unit of prefix, key and value against
 *    10 × 1024 × 1024 bytes, and `usedByOthers` plays the other add-ins of the domain.
 *  - The error: setItem rejects with what localStorage throws, a DOMException named QuotaExceededError,
 *    and nothing is written; setItems writes the items that fit, one by one, and rejects with
 *    `new Error("Unknown error.")` if any failed (office.js's performMultiAction), so a caller cannot
 *    tell a full store from another failure there.
 *  - Reads that can fail: "Retrieves an item from storage based on its key. Returns a Promise. In the
 *    event the Promise does not resolve, returns null." (the reference, getItem and getItems): a read
 *    may not settle (office-js #1058); `faults.read` makes reads "reject" or "hang" (never settle).
 */
export const STORAGE_QUOTA_BYTES = 10 * 1024 * 1024;
const PREFIX = "_OfficeRuntime_Storage_";

/** What one item weighs in the store (UTF-16: 2 bytes per code unit, the prefix included). */
const weight = (k: string, v: string) => 2 * (PREFIX.length + k.length + v.length);

export interface StorageFaults {
  /** Reads fail: "reject" (with an Error), "hang" (never settle). */
  read?: "reject" | "hang";
}

export class StandInStorage {
  /** Bytes of the domain's store other add-ins (or the pane's own localStorage) already use. */
  usedByOthers = 0;
  readonly faults: StorageFaults = {};
  /** Writes refused for want of room, for tests to see. */
  quotaErrors = 0;

  constructor(
    readonly data = new Map<string, string>(),
    readonly quotaBytes = STORAGE_QUOTA_BYTES,
  ) {}

  /** Bytes in use: this add-in's items and the others'. */
  get usedBytes(): number {
    let n = this.usedByOthers;
    for (const [k, v] of this.data) n += weight(k, v);
    return n;
  }

  private read<T>(f: () => T): Promise<T> {
    if (this.faults.read === "hang") return new Promise<T>(() => undefined);
    if (this.faults.read === "reject") return Promise.reject(new Error("stand-in: the storage read failed"));
    return Promise.resolve(f());
  }

  /** One item as localStorage.setItem takes it: all of it, or a QuotaExceededError and nothing. */
  private put(k: string, v: string): void {
    const value = String(v);
    const old = this.data.get(k);
    const after = this.usedBytes - (old === undefined ? 0 : weight(k, old)) + weight(k, value);
    if (after > this.quotaBytes) {
      this.quotaErrors++;
      throw Object.assign(new Error(`Failed to execute 'setItem' on 'Storage': Setting the value of '${PREFIX}${k}' exceeded the quota.`), {
        name: "QuotaExceededError",
      });
    }
    this.data.set(k, value);
  }

  getItem(k: string): Promise<string | null> {
    return this.read(() => (this.data.has(k) ? this.data.get(k)! : null));
  }
  getItems(keys: string[]): Promise<Record<string, string | null>> {
    return this.read(() => Object.fromEntries(keys.map((k) => [k, this.data.get(k) || null])));
  }
  getKeys(): Promise<string[]> {
    return this.read(() => [...this.data.keys()]);
  }
  async setItem(k: string, v: string): Promise<void> {
    this.put(k, v);
  }
  async setItems(items: Record<string, string>): Promise<void> {
    let failed = false;
    for (const [k, v] of Object.entries(items)) {
      try {
        this.put(k, v);
      } catch {
        failed = true;
      }
    }
    if (failed) throw new Error("Unknown error.");
  }
  async removeItem(k: string): Promise<void> {
    this.data.delete(k);
  }
  async removeItems(keys: string[]): Promise<void> {
    for (const k of keys) this.data.delete(k);
  }
}
