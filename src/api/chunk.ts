/** Small helpers of the batch planning: dedupe and split. */

/** Distinct values, first occurrence first. */
export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** Consecutive slices of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
