/**
 * Deterministic hashing and pseudo-random streams: every generated value of the sandbox comes from
 * here, so the same CUI gives the same company on every machine and every run.
 *
 * Hot code here and in the generators reads Math's functions through module constants: under
 * Jest (a vm context) every global lookup is slow, and these run millions of times.
 */

const { imul, floor } = Math;

/** A 32-bit integer avalanche mix (xor-shift / multiply rounds). */
export function mix32(x: number): number {
  x = imul(x ^ (x >>> 16), 0x7feb352d);
  x = imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** A hash of n under a salt: independent-looking values for different salts. */
export function hash(n: number, salt: number): number {
  return mix32(mix32(n) ^ imul(salt + 1, 0x9e3779b1));
}

/** A hash mapped to [0, 1). */
export function unit(h: number): number {
  return h / 4294967296;
}

/** A stream of numbers in [0, 1), fully determined by its seed. */
export type Rng = () => number;

export function rng(seed: number): Rng {
  let state = seed | 0;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    return unit(mix32(state));
  };
}

/** Picks from weighted entries with a number in [0, 1). */
export class Weighted<T> {
  private readonly values: T[];
  private readonly cumulative: number[];

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.values = entries.map(([v]) => v);
    let sum = 0;
    const running = entries.map(([, w]) => (sum += w));
    this.cumulative = running.map((c) => c / sum);
  }

  /** The value chosen by u ∈ [0, 1). */
  pick(u: number): T {
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (u < this.cumulative[mid]) hi = mid;
      else lo = mid + 1;
    }
    return this.values[lo];
  }
}

/** A uniform choice from a list with a number in [0, 1). */
export function choose<T>(list: readonly T[], u: number): T {
  return list[floor(u * list.length)];
}
