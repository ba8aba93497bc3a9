/**
 * The answers a server read or stored lately, kept in its memory so that the next request for them
 * costs no database read and no JSON parse: a bounded map, the answers stored longest ago dropped
 * first (a read does not reorder it: that costs more than it saves when most requests are hits). An answer in
 * the firm's store is only ever replaced by a newer one and never removed before it expires, so one
 * kept here until its own `expiresAt` is as fresh as the store's; what is not kept here (an answer
 * missing, or fetched by another instance) is read from the database as before.
 */
import type { StoredAnswer } from "./firm-store";

export class HotAnswers {
  private readonly map = new Map<string, StoredAnswer>();

  /** @param max answers kept at most (0: none). */
  constructor(readonly max: number) {}

  get size(): number {
    return this.map.size;
  }

  /** The answer under `key` still fresh at `now`; else undefined (an expired one is dropped). */
  get(key: string, now: number): StoredAnswer | undefined {
    const a = this.map.get(key);
    if (a === undefined || a.expiresAt > now) return a;
    this.map.delete(key);
    return undefined;
  }

  /** Keeps answers (a newer one replaces the one kept), dropping those kept longest past `max`. */
  put(answers: Iterable<StoredAnswer>): void {
    if (this.max <= 0) return;
    for (const a of answers) {
      const old = this.map.get(a.key);
      if (old !== undefined && old.fetchedAt > a.fetchedAt) continue;
      this.map.delete(a.key);
      this.map.set(a.key, a);
    }
    for (const key of this.map.keys()) {
      if (this.map.size <= this.max) break;
      this.map.delete(key);
    }
  }
}
