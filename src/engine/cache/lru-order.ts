/**
 * The cache's least-recently-used order as a list threaded through its entries: a read moves its entry
 * to the end with six pointer writes. Before, the order was the Map's insertion order, and every read
 * (every cached cell of every recalculation) paid a Map delete and a Map set to move its entry.
 */

import { jsonBytes } from "./json-length";

/** What the Map's slot, the entry's array and its three timestamps (heap numbers) take beside the JSON: measured ~160 bytes. */
const ENTRY_OVERHEAD = 160;

/** What an entry takes in memory, estimated (cache.ts: the cache's byte cap): its key, its value's JSON bytes, the overhead. */
export function entrySize(key: string, value: unknown): number {
  return key.length + jsonBytes(value) + ENTRY_OVERHEAD;
}

/** [value, expiresAt, fetchedAt, used, bytes, key, previous, next] — a tuple: 500,000 of them must stay cheap. */
export type Entry = [unknown, number, number, number, number, string, Entry | null, Entry | null];

export function entry(key: string, value: unknown, expires: number, fetched: number, used: number, bytes: number): Entry {
  return [value, expires, fetched, used, bytes, key, null, null];
}

/** Least recently used first. */
export class LruOrder {
  head: Entry | null = null;
  tail: Entry | null = null;

  /** At the end: the most recently used. */
  append(e: Entry): void {
    e[6] = this.tail;
    e[7] = null;
    if (this.tail) this.tail[7] = e;
    else this.head = e;
    this.tail = e;
  }

  remove(e: Entry): void {
    const prev = e[6];
    const next = e[7];
    if (prev) prev[7] = next;
    else if (this.head === e) this.head = next;
    if (next) next[6] = prev;
    else if (this.tail === e) this.tail = prev;
    e[6] = e[7] = null;
  }

  /** Used now: to the end. */
  touch(e: Entry): void {
    if (this.tail === e) return;
    this.remove(e);
    this.append(e);
  }

  clear(): void {
    this.head = this.tail = null;
  }
}
