/**
 * The Bucharest calendar, where the service's days and months turn over (O21): the day and month an
 * instant falls in, and the instant a day or month begins. The one home of these facts for the
 * engine (the meter, the gate's stop after "credits spent") and the firm's server (its plan stop, its
 * people's months, `firma audit --since`).
 *
 * A day begins at its first instant whose Bucharest date is that day, found by bisection on the
 * date Intl gives: no assumption about the offset or the hour the clocks change (the last Sundays
 * of March and October, when a day lasts 23 or 25 hours).
 */

/** Calendar day and month in Bucharest, where the service's counters turn over (O21). */
const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Bucharest", year: "numeric", month: "2-digit", day: "2-digit" });
/**
 * The day in Bucharest at `t`, as YYYY-MM-DD. Asked at every call (the meter, the gate): Bucharest's
 * offset from UTC is a whole number of hours (+02:00, +03:00 in summer), so its days begin on a UTC
 * hour, and the day is read from Intl once per hour, not per call.
 */
export function bucharestDay(t: number): string {
  const hour = Math.floor(t / 3_600_000);
  let day = dayByHour.get(hour);
  if (day === undefined) {
    if (dayByHour.size >= 64) dayByHour.clear(); // the hours asked lately: now, and the meter's cut-off two months back
    day = dayFormat.format(new Date(t));
    dayByHour.set(hour, day);
  }
  return day;
}
const dayByHour = new Map<number, string>();

/** The Bucharest month ("2026-11") a moment falls in. */
export function bucharestMonth(t: number): string {
  return bucharestDay(t).slice(0, 7);
}

/** Midnight in Bucharest at the start of a day "YYYY-MM-DD", in ms since the epoch; null when it is no such day. */
export function bucharestMidnight(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(utc).toISOString().slice(0, 10) !== date) return null; // 2026-02-30, 2026-13-01
  return dayStart(utc);
}

/** The next midnight in Bucharest after `t` (the first instant of the next day), in ms. */
export function nextBucharestMidnight(t: number): number {
  const [y, m, d] = bucharestDay(t).split("-").map(Number);
  return dayStart(Date.UTC(y, m - 1, d + 1));
}

/** The first midnight of the next month in Bucharest after `t`, in ms. */
export function nextBucharestMonth(t: number): number {
  const [y, m] = bucharestDay(t).split("-").map(Number);
  return dayStart(Date.UTC(y, m, 1));
}

/**
 * The first instant whose Bucharest date is the date of `utcMidnight` (UTC midnight of that date).
 * Every time zone's day begins within 14 hours of UTC midnight, so it is bisected in that span.
 */
function dayStart(utcMidnight: number): number {
  const date = new Date(utcMidnight).toISOString().slice(0, 10);
  // bucharestDay(lo) < date <= bucharestDay(hi); YYYY-MM-DD strings compare as dates.
  let [lo, hi] = [utcMidnight - 14 * 3_600_000, utcMidnight + 14 * 3_600_000];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (bucharestDay(mid) < date) lo = mid;
    else hi = mid;
  }
  return hi;
}

const clockFormat = new Intl.DateTimeFormat("sv-SE", {
  timeZone: "Europe/Bucharest",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** A moment as Bucharest's clock shows it: "2026-11-25 14:03:05". */
export function bucharestTime(at: number): string {
  return clockFormat.format(new Date(at));
}
