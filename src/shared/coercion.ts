/**
 * How the functions read their arguments as a host hands them: one value or a range as a matrix, a
 * blank, a text, a whole number. A value that cannot be read throws LocalInputError with the kind
 * the cell's message names.
 */
import { LocalErrorKind, LocalInputError } from "../engine/local-errors";

/** One value or a range, as a matrix. */
export function asMatrix(v: unknown): unknown[][] {
  if (!Array.isArray(v)) return [[v]];
  // A loop, not every(Array.isArray): every cell of every recalculation passes here.
  for (let i = 0; i < v.length; i++) if (!Array.isArray(v[i])) return v.map((row) => (Array.isArray(row) ? row : [row]));
  return v as unknown[][];
}

/** Omitted, empty, or only spaces. */
export function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

/** A text argument, trimmed (a number as its text); undefined when blank. */
export function text(v: unknown, what: string, kind: LocalErrorKind = "invalid_argument"): string | undefined {
  if (isBlank(v)) return undefined;
  if (typeof v === "string" || typeof v === "number") return String(v).trim();
  throw new LocalInputError(kind, `${what}: text expected`);
}

/** A whole-number argument (a number, or a text of digits); `fallback` when blank. */
export function whole(v: unknown, fallback: number, what: string, kind: LocalErrorKind): number {
  if (isBlank(v)) return fallback;
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) throw new LocalInputError(kind, `${what}: whole number expected`);
  return n;
}
