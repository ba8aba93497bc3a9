/** Calendar facts in Europe/Bucharest, where the service counts days, months and financial years. */

const BUCHAREST_DATE = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Bucharest",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** "YYYY-MM-DD" of the given instant in Bucharest. */
export function bucharestDay(ms: number): string {
  return BUCHAREST_DATE.format(ms);
}

/** "YYYY-MM" of the given instant in Bucharest. */
export function bucharestMonth(ms: number): string {
  return bucharestDay(ms).slice(0, 7);
}

/**
 * The latest complete financial year at an instant (O19): the previous calendar year from July on,
 * the one before that until the end of June.
 */
export function latestYearAt(ms: number): number {
  const [year, month] = bucharestDay(ms).split("-").map(Number);
  return month >= 7 ? year - 1 : year - 2;
}
