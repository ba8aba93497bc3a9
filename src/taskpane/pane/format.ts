/**
 * How the pane writes a moment, a size and a workbook failure for the user to read.
 */
import type { Lang } from "../i18n";

/** A moment as the user reads it, in Romanian time (where the service's days turn over). */
export function formatWhen(ms: number, l: Lang): string {
  return new Intl.DateTimeFormat(l === "ro" ? "ro-RO" : "en-GB", {
    timeZone: "Europe/Bucharest",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(ms));
}

/** "2,1 MB" / "2.1 MB", or kB below a megabyte. */
export function formatBytes(bytes: number, l: Lang): string {
  const mb = bytes >= 1e6;
  const n = new Intl.NumberFormat(l === "ro" ? "ro-RO" : "en-US", { maximumFractionDigits: 1 }).format(mb ? bytes / 1e6 : bytes / 1e3);
  return `${n} ${mb ? "MB" : "kB"}`;
}

/** A short code for a workbook failure (OfficeExtension.Error has one); never a message that could carry data. */
export function failureCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[A-Za-z]{1,60}$/.test(code) ? code : "Error";
}
