/**
 * The space of companies: which CUIs exist and the few traits that are read in bulk (county,
 * status, size, founding year), each computed from the CUI's base (the CUI without its control
 * digit) by a hash, so nothing is stored.
 *
 * Bases run from MIN_BASE for BASE_SPAN values; a base exists unless its hash is a multiple of 16
 * (about 1.42 million companies). Bases are handed out in founding order, as real CUIs are: the
 * founding year is the slice of the base range the base falls in.
 */
import { isValidCui, withControlDigit } from "../src/api/cui";
import { hash, unit, Weighted } from "./random";
import { COUNTIES, LOCALITIES } from "./romania";

const MIN_BASE = 1_000_000;
const BASE_SPAN = 1_515_000;
/** The CUI used as the example in the project's README: always exists. */
export const EXAMPLE_CUI = 14399840;
const EXAMPLE_BASE = Math.floor(EXAMPLE_CUI / 10);

/** Salts of the independent hashes drawn from one base. */
export const SALT = {
  exists: 1,
  county: 2,
  stare: 3,
  size: 4,
  locality: 5,
  profile: 6,
  finance: 7,
  filing: 8,
  year: 9,
} as const;

/** Company statuses (O26) with a rough frequency. */
// prettier-ignore
export const STARI = ["ACTIVA", "INACTIVA", "SUSPENDATA", "IN_INSOLVENTA", "IN_LICHIDARE", "DIZOLVATA", "RADIATA"] as const;
export type Stare = (typeof STARI)[number];
// prettier-ignore
const STARE_PICK = new Weighted<Stare>([
  ["ACTIVA", 78], ["INACTIVA", 5], ["SUSPENDATA", 2], ["IN_INSOLVENTA", 2], ["IN_LICHIDARE", 3], ["DIZOLVATA", 3], ["RADIATA", 7],
]);

/** 0 micro, 1 small, 2 medium, 3 large. */
export type SizeClass = 0 | 1 | 2 | 3;
const SIZE_PICK = new Weighted<SizeClass>([
  [0, 88],
  [1, 9.5],
  [2, 2.1],
  [3, 0.4],
]);

const COUNTY_PICK = new Weighted(COUNTIES.map((c, i) => [i, c.weight] as const));

/** Relative number of companies founded each year (the base range is cut in these proportions). */
// prettier-ignore
const FOUNDINGS: ReadonlyArray<readonly [number, number]> = [
  [1991, 60], [1992, 80], [1993, 70], [1994, 55], [1995, 45], [1996, 40], [1997, 35], [1998, 30],
  [1999, 28], [2000, 30], [2001, 32], [2002, 36], [2003, 40], [2004, 45], [2005, 50], [2006, 55],
  [2007, 60], [2008, 62], [2009, 45], [2010, 40], [2011, 42], [2012, 44], [2013, 45], [2014, 46],
  [2015, 47], [2016, 48], [2017, 50], [2018, 52], [2019, 54], [2020, 50], [2021, 58], [2022, 60],
  [2023, 58], [2024, 56], [2025, 54],
];
/** First base of each founding year's slice, plus the end of the range. */
const SLICE_STARTS: number[] = (() => {
  const total = FOUNDINGS.reduce((s, [, w]) => s + w, 0);
  let acc = 0;
  const starts = FOUNDINGS.map(([, w]) => {
    const start = MIN_BASE + Math.round((acc / total) * BASE_SPAN);
    acc += w;
    return start;
  });
  return [...starts, MIN_BASE + BASE_SPAN];
})();

function inRange(base: number): boolean {
  return base >= MIN_BASE && base < MIN_BASE + BASE_SPAN;
}

export function exists(base: number): boolean {
  return inRange(base) && (base === EXAMPLE_BASE || hash(base, SALT.exists) % 16 !== 0);
}

/** The base of a CUI that exists, else null (a wrong control digit is simply unknown, O29). */
export function existingBase(cui: number): number | null {
  if (!isValidCui(cui)) return null;
  const base = Math.floor(cui / 10);
  return exists(base) ? base : null;
}

export function countyIndex(base: number): number {
  return COUNTY_PICK.pick(unit(hash(base, SALT.county)));
}

/** Locality pickers per county: the county seat three times as likely as any other (Bucharest's sectors alike). */
const LOCALITY_PICKS = COUNTIES.map((c, county) => {
  const entries: Array<readonly [number, number]> = [];
  LOCALITIES.forEach((l, i) => {
    if (l.county === county) entries.push([i, entries.length === 0 && c.code !== "B" ? 3 : 1]);
  });
  return new Weighted(entries);
});

/** Index into LOCALITIES, within the base's county. */
export function localityIndex(base: number): number {
  return LOCALITY_PICKS[countyIndex(base)].pick(unit(hash(base, SALT.locality)));
}

export function stareOf(base: number): Stare {
  return STARE_PICK.pick(unit(hash(base, SALT.stare)));
}

export function sizeClass(base: number): SizeClass {
  return SIZE_PICK.pick(unit(hash(base, SALT.size)));
}

function sliceOf(base: number): number {
  let lo = 0;
  let hi = FOUNDINGS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (SLICE_STARTS[mid] <= base) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function foundingYear(base: number): number {
  return FOUNDINGS[sliceOf(base)][0];
}

/** The number in the trade-registry code: the base's rank within its founding year. */
export function registryNumber(base: number): number {
  return base - SLICE_STARTS[sliceOf(base)] + 1;
}

/** The base registered under (year, number), if that number was handed out that year. */
export function baseOfRegistry(year: number, number: number): number | null {
  const slice = year - FOUNDINGS[0][0];
  if (slice < 0 || slice >= FOUNDINGS.length || number < 1) return null;
  const base = SLICE_STARTS[slice] + number - 1;
  return base < SLICE_STARTS[slice + 1] ? base : null;
}

/**
 * Sample order: a fixed permutation of the base range (a stride coprime with its length), so that
 * any run of samples spreads over all founding years and counties.
 */
const SAMPLE_STRIDE = 1_000_003;

/** The `count` existing bases after the first `offset` ones in sample order. */
export function sampleBases(count: number, offset = 0): number[] {
  const out: number[] = [];
  let skipped = 0;
  for (let i = 0; i < BASE_SPAN && out.length < count; i++) {
    const base = MIN_BASE + ((i * SAMPLE_STRIDE) % BASE_SPAN);
    if (!exists(base)) continue;
    if (skipped < offset) skipped++;
    else out.push(base);
  }
  return out;
}

/** Distinct existing CUIs (valid control digit), spread over the dataset. */
export function sampleCuis(count: number, offset = 0): number[] {
  return sampleBases(count, offset).map(withControlDigit);
}

/** An existing CUI picked by a fraction 0..1 of the range (the first existing base at or after that point, wrapping). */
export function cuiAt(fraction: number): number {
  let base = MIN_BASE + Math.min(BASE_SPAN - 1, Math.floor(fraction * BASE_SPAN));
  while (!exists(base)) base = base + 1 < MIN_BASE + BASE_SPAN ? base + 1 : MIN_BASE;
  return withControlDigit(base);
}

/** CUIs with a valid control digit that do not exist (gaps of the range): answered 404. */
export function missingCuis(count: number): number[] {
  const out: number[] = [];
  for (let base = MIN_BASE; inRange(base) && out.length < count; base++) {
    if (!exists(base)) out.push(withControlDigit(base));
  }
  return out;
}

/** Calls fn with every existing base, in ascending order. */
export function forEachBase(fn: (base: number) => void): void {
  for (let base = MIN_BASE; inRange(base); base++) if (exists(base)) fn(base);
}
