/**
 * Cache keys, one per answer: `p:<cui>` a company's profile, `f:<cui>:<year>` one financial year,
 * `l:…` a list. The same keys name in-flight requests, so that identical cells share one fetch.
 */
export const profileKey = (cui: number): string => `p:${cui}`;
export const financialKey = (cui: number, year: number): string => `f:${cui}:${year}`;
export const searchKey = (params: object, limit: number): string => `l:search:${JSON.stringify(params)}:${limit}`;
export const rankingsKey = (params: object): string => `l:topuri:${JSON.stringify(params)}`;
export const rankingKey = (slug: string, limit: number): string => `l:top:${slug}:${limit}`;
export const COUNTIES_KEY = "l:judete";
