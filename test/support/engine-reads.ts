/**
 * An engine read (a value at once, NOT_FOUND, or a promise: engine.ts profileField, financialField,
 * fetchedAt) as a promise, as a cell that waits sees it: NOT_FOUND and bad input (thrown at once)
 * reject. For tests that await reads.
 */
import { NOT_FOUND } from "../../src/engine/engine";

export function read<T>(run: () => T | Promise<T>): Promise<Exclude<T, typeof NOT_FOUND>> {
  return new Promise<T>((resolve) => resolve(run())).then((v) => {
    if (v === NOT_FOUND) throw v;
    return v as Exclude<T, typeof NOT_FOUND>;
  });
}
