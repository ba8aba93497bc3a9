/**
 * A range of credits as the user reads it — "32–125 de credite", "4 credite" (the noun agrees with the
 * larger number) — for a watch list's cost, in `firma watch` and in the pane alike.
 */
import { count, formatNumber, type Lang } from "./messages";

export function creditRange(low: number, high: number, lang: Lang): string {
  return low === high ? count(high, "credit", lang) : `${formatNumber(low, lang)}–${count(high, "credit", lang)}`;
}
