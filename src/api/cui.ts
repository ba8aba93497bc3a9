/**
 * CUI (Romanian tax id) parsing, shared by the client, the engine, the functions, the CLI and the sandbox.
 *
 * A CUI has 2 to 10 digits; the last is a control digit computed from the others with the
 * weights 7 5 3 2 1 7 5 3 2 (the base is right-aligned against the weights), ×10, mod 11, 10 → 0.
 * Accepted spellings: 14399840, "14399840", "RO14399840", " ro 1439 9840 ".
 */

const WEIGHTS = [7, 5, 3, 2, 1, 7, 5, 3, 2];

export type CuiFailure = "empty" | "format" | "length" | "control";

export type CuiParse = { ok: true; cui: number } | { ok: false; reason: CuiFailure; input: string };

/** Control digit for a base of 1 to 9 digits (the CUI without its last digit). */
export function controlDigit(base: number): number {
  // The base's digits from the right, against the weights from the right (arithmetic: this runs for
  // every cell of every recalculation).
  // A base has at most 9 digits, so it fits a 32-bit integer: integer division, not `%` and
  // Math.floor on doubles (that made the check about a fifth of a cached cell's CPU). Anything
  // larger takes the general path.
  let sum = 0;
  if (base >= 0 && base <= 0x7fffffff) {
    let rest = base | 0;
    for (let i = 8; i >= 0 && rest > 0; i--) {
      const q = (rest / 10) | 0;
      sum += (rest - 10 * q) * WEIGHTS[i];
      rest = q;
    }
  } else {
    let rest = base;
    for (let i = 8; i >= 0 && rest > 0; i--) {
      sum += (rest % 10) * WEIGHTS[i];
      rest = Math.floor(rest / 10);
    }
  }
  const c = (sum * 10) % 11;
  return c === 10 ? 0 : c;
}

/** The full CUI for a base: base followed by its control digit. */
export function withControlDigit(base: number): number {
  return base * 10 + controlDigit(base);
}

/** True when n is an integer CUI of 2 to 10 digits whose control digit is right. */
export function isValidCui(n: number): boolean {
  if (!Number.isSafeInteger(n) || n < 10 || n > 9_999_999_999) return false;
  if (n <= 0x7fffffff) {
    // Integer division where it fits 32 bits (every CUI of 9 digits or less): `%` and Math.floor on a
    // double cost about as much as the rest of the check.
    const base = (n / 10) | 0;
    return controlDigit(base) === n - 10 * base;
  }
  return controlDigit(Math.floor(n / 10)) === n % 10;
}

/** Parses what a user may type or a cell may hold; never throws. */
export function parseCui(input: unknown): CuiParse {
  if (input === null || input === undefined) return { ok: false, reason: "empty", input: "" };
  // The common case first, a whole number of 2 to 10 digits as Excel passes it: no text is made.
  if (typeof input === "number" && Number.isInteger(input) && input >= 10 && input <= 9_999_999_999) {
    return isValidCui(input) ? { ok: true, cui: input } : { ok: false, reason: "control", input: String(input) };
  }
  const shown = typeof input === "string" ? input : String(input);
  let digits: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input) || !Number.isInteger(input) || input <= 0) return { ok: false, reason: "format", input: shown };
    digits = String(input);
  } else if (typeof input === "string") {
    const compact = input.replace(/\s+/g, "");
    if (compact === "") return { ok: false, reason: "empty", input: shown };
    const m = /^(?:RO)?(\d+)$/i.exec(compact);
    if (!m) return { ok: false, reason: "format", input: shown };
    digits = m[1].replace(/^0+/, "");
    if (digits === "") return { ok: false, reason: "format", input: shown };
  } else {
    return { ok: false, reason: "format", input: shown };
  }
  if (digits.length < 2 || digits.length > 10) return { ok: false, reason: "length", input: shown };
  const cui = Number(digits);
  if (!isValidCui(cui)) return { ok: false, reason: "control", input: shown };
  return { ok: true, cui };
}
