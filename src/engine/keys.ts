/**
 * Cache keys, one per answer: `p:<cui>` a company's profile, `f:<cui>:<year>` one financial year,
 * `l:…` a list. The same keys name in-flight requests, so that identical cells share one fetch.
 */
export const profileKey = (cui: number): string => `p:${cui}`;
export const financialKey = (cui: number, year: number): string => `f:${cui}:${year}`;

/**
 * A company's answer as a number, beside its key (entry-map.ts): a profile is its CUI, a financial year
 * -(CUI × 4096 + year − 1900), for CUIs of 1 to 12 digits and the years 1900–5995 (any other key is
 * found by its text). Same answer, same number; no two answers share one.
 */
const MAX_CUI = 1e12;
const YEARS = 4096;

/** The number of profileKey(cui) or financialKey(cui, year); undefined where that key has none. */
export function answerNumberOf(kind: "profile" | "financial", cui: number, year: number): number | undefined {
  if (!(cui >= 1 && cui < MAX_CUI && Number.isInteger(cui))) return undefined;
  if (kind === "profile") return cui;
  const y = year - 1900;
  return y >= 0 && y < YEARS && Number.isInteger(y) ? -(cui * YEARS + y) : undefined;
}

/**
 * The number of a key that profileKey or financialKey made (answerNumberOf); undefined for any other
 * key. Read digit by digit, no regular expression: the cache's reads and writes by key pass here.
 */
export function answerNumber(key: string): number | undefined {
  const kind = key.charCodeAt(0); // 112 "p", 102 "f"; 58 ":"
  if ((kind !== 112 && kind !== 102) || key.charCodeAt(1) !== 58) return undefined;
  const first = key.charCodeAt(2) - 48;
  if (!(first >= 1 && first <= 9)) return undefined; // no leading zero: not a key profileKey makes
  let cui = 0;
  let i = 2;
  for (; i < key.length && i < 15; i++) {
    const d = key.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) break;
    cui = cui * 10 + d;
  }
  if (kind === 112) return i === key.length ? answerNumberOf("profile", cui, 0) : undefined;
  if (key.length - i !== 5 || key.charCodeAt(i) !== 58) return undefined; // ":" and four digits
  let year = 0;
  for (let j = i + 1; j < key.length; j++) {
    const d = key.charCodeAt(j) - 48;
    if (!(d >= 0 && d <= 9)) return undefined;
    year = year * 10 + d;
  }
  return answerNumberOf("financial", cui, year);
}

export const searchKey = (params: object, limit: number): string => `l:search:${JSON.stringify(params)}:${limit}`;
export const rankingsKey = (params: object): string => `l:topuri:${JSON.stringify(params)}`;
export const rankingKey = (slug: string, limit: number): string => `l:top:${slug}:${limit}`;
export const COUNTIES_KEY = "l:judete";
