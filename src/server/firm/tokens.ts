/**
 * Personal tokens: what a person of the firm sends where the service's key went (`X-API-Key`). A
 * token is `firma_` and 43 base64url characters (32 random bytes), shown once when the person is
 * added; the database keeps only its SHA-256, so a copy of the database gives no one a token.
 */
import { createHash, randomBytes } from "crypto";

const TOKEN = /^firma_[A-Za-z0-9_-]{43}$/;

/** A new token (crypto-random). */
export function newToken(): string {
  return `firma_${randomBytes(32).toString("base64url")}`;
}

/** Whether a header value has a token's form at all (checked before the database is asked). */
export function isTokenFormat(value: unknown): value is string {
  return typeof value === "string" && TOKEN.test(value);
}

/** What the database keeps of a token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A person's name: 1–64 letters, digits, dots, dashes or underscores (it appears in logs and CSV). */
export function isUserName(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(value);
}

/** A budget as typed on the command line: a whole number ≥ 0, else null. */
export function parseBudget(value: unknown): number | null {
  const s = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,9}$/.test(s)) return null;
  return Number(s);
}
