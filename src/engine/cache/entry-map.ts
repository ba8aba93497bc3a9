/**
 * The cache's entries by key. A company's answers (`p:<cui>` and `f:<cui>:<year>`, keys.ts) are found
 * by a number made of the CUI and the year (keys.ts `answerNumberOf`), the other keys by their text:
 * a cell's read (answers.ts `field()`) then makes no key string. Making one, flattening it and hashing
 * it cost more than the rest of a cached financial cell's read (a 15-character key, for every cell of
 * every recalculation).
 */
import { answerNumber } from "../keys";
import type { Entry } from "./lru-order";

export class EntryMap {
  private readonly byNumber = new Map<number, Entry>();
  private readonly byKey = new Map<string, Entry>();

  get size(): number {
    return this.byNumber.size + this.byKey.size;
  }

  /** A company's answer by its number (keys.ts `answerNumberOf`): the per-cell read. */
  at(n: number): Entry | undefined {
    return this.byNumber.get(n);
  }

  get(key: string): Entry | undefined {
    const n = answerNumber(key);
    return n === undefined ? this.byKey.get(key) : this.byNumber.get(n);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** `e` is the entry of `key` (lru-order.ts: e[5] is its key). */
  set(key: string, e: Entry): void {
    const n = answerNumber(key);
    if (n === undefined) this.byKey.set(key, e);
    else this.byNumber.set(n, e);
  }

  delete(key: string): boolean {
    const n = answerNumber(key);
    return n === undefined ? this.byKey.delete(key) : this.byNumber.delete(n);
  }

  clear(): void {
    this.byNumber.clear();
    this.byKey.clear();
  }

  *values(): IterableIterator<Entry> {
    yield* this.byNumber.values();
    yield* this.byKey.values();
  }

  /** [key, entry] pairs, as a Map's. */
  *[Symbol.iterator](): IterableIterator<[string, Entry]> {
    for (const e of this.values()) yield [e[5], e];
  }
}
