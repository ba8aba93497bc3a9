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

const PROFILE_KEY = /^p:([1-9]\d{0,11})$/;
const FINANCIAL_KEY = /^f:([1-9]\d{0,11}):(\d{4})$/;

/** The number of a key that profileKey or financialKey made (answerNumberOf); undefined for any other key. */
export function answerNumber(key: string): number | undefined {
  const c = key.charCodeAt(0);
  const m = c === 112 /* p */ ? PROFILE_KEY.exec(key) : c === 102 /* f */ ? FINANCIAL_KEY.exec(key) : null;
  if (!m) return undefined;
  return m.length === 2 ? answerNumberOf("profile", Number(m[1]), 0) : answerNumberOf("financial", Number(m[1]), Number(m[2]));
}

export const searchKey = (params: object, limit: number): string => `l:search:${JSON.stringify(params)}:${limit}`;
export const rankingsKey = (params: object): string => `l:topuri:${JSON.stringify(params)}`;
export const rankingKey = (slug: string, limit: number): string => `l:top:${slug}:${limit}`;
export const COUNTIES_KEY = "l:judete";
