/** Digits of a safe integer, and its sign: compared with powers of ten, not divided (every CUI of every answer). */
function digits(n: number): number {
  const a = n < 0 ? -n : n;
  let d = 1;
  while (d < POWERS_OF_TEN.length && a >= POWERS_OF_TEN[d]) d++;
  return n < 0 ? d + 1 : d;
}
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i); // 1 … 1e15: a safe integer has at most 16 digits

/**
 * Exactly the UTF-8 bytes of JSON.stringify(v) for a JSON value, without making the string: what a
 * shard's row takes in the store (answer-store.ts), and the cache's estimate of what an answer takes
 * in memory (lru-order.ts entrySize). The store measured every answer it was given by stringifying it,
 * ~200 bytes of garbage per answer at each save and load (bench W7: 200,000 answers). A value with a
 * toJSON of its own is stringified.
 */
export function jsonBytes(v: unknown): number {
  if (v === null) return 4;
  switch (typeof v) {
    case "string":
      return stringBytes(v);
    case "boolean":
      return v ? 4 : 5;
    case "number":
      return !Number.isFinite(v) ? 4 : Number.isSafeInteger(v) ? digits(v) : String(v).length;
    case "object": {
      if (typeof (v as { toJSON?: unknown }).toJSON === "function") return utf8Length(JSON.stringify(v) ?? "");
      if (Array.isArray(v)) {
        if (v.length === 0) return 2;
        let n = 1; // "[" and a comma after each element but the last, then "]"
        for (let i = 0; i < v.length; i++) {
          const x: unknown = v[i];
          n += (x === undefined || typeof x === "function" || typeof x === "symbol" ? 4 : jsonBytes(x)) + 1;
        }
        return n;
      }
      let n = 1;
      let members = 0;
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
        n += stringBytes(k) + 2 + jsonBytes(x); // "k":x and a comma (or the closing brace)
        members++;
      }
      return members === 0 ? 2 : n;
    }
    default:
      return 0;
  }
}

/** UTF-8 bytes of a string as JSON writes it: quotes, escapes (\" \\ \n …, \u00XX, a lone surrogate's \uXXXX). */
function stringBytes(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += c === 0x22 || c === 0x5c ? 2 : c >= 0x20 ? 1 : c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a surrogate pair: one code point of four bytes
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) n += 6;
    else n += 3;
  }
  return n;
}

/** UTF-8 length without an encoder (Romanian letters are 2 bytes; quotas count bytes, not characters). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) n += c > 0x7ff && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}
