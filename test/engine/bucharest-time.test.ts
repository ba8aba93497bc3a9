/**
 * The Bucharest calendar (bucharest-time.ts), around the nights the clocks change (the last Sundays
 * of March and October, when a day lasts 23 or 25 hours): each answer is checked against Intl's date
 * just before and at the instant returned, for every quarter of an hour of the weeks around them.
 */
import {
  bucharestDay,
  bucharestMidnight,
  bucharestMonth,
  bucharestTime,
  nextBucharestMidnight,
  nextBucharestMonth,
} from "../../src/engine/credits/bucharest-time";

const intl = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Bucharest", year: "numeric", month: "2-digit", day: "2-digit" });
const day = (t: number) => intl.format(t);
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** Every quarter of an hour (plus 7 min 13.5 s, off the hour) from `from` for `days` days. */
function times(from: string, days: number): number[] {
  const start = Date.parse(from) + 433_500;
  return Array.from({ length: days * 96 }, (_, i) => start + i * 900_000);
}

/** The weeks around the changes of 2026 and 2027, and a turn of the year. */
const AROUND = [
  ...times("2026-03-25T00:00:00Z", 10),
  ...times("2026-10-21T00:00:00Z", 12),
  ...times("2027-03-24T00:00:00Z", 10),
  ...times("2027-10-28T00:00:00Z", 8),
  ...times("2026-12-29T00:00:00Z", 5),
];

test("the days a clock change lasts 23 and 25 hours begin and end at Bucharest's midnight", () => {
  expect(iso(bucharestMidnight("2026-03-29"))).toBe("2026-03-28T22:00:00.000Z"); // winter time, +02:00
  expect(iso(bucharestMidnight("2026-03-30"))).toBe("2026-03-29T21:00:00.000Z"); // summer time, +03:00: 23 hours later
  expect(iso(bucharestMidnight("2026-10-25"))).toBe("2026-10-24T21:00:00.000Z");
  expect(iso(bucharestMidnight("2026-10-26"))).toBe("2026-10-25T22:00:00.000Z"); // 25 hours later
  expect(iso(bucharestMidnight("2027-03-28"))).toBe("2027-03-27T22:00:00.000Z");
  expect(iso(bucharestMidnight("2027-10-31"))).toBe("2027-10-30T21:00:00.000Z");
  expect(iso(nextBucharestMidnight(Date.parse("2026-03-29T00:30:00Z")))).toBe("2026-03-29T21:00:00.000Z"); // before the change
  expect(iso(nextBucharestMidnight(Date.parse("2026-03-29T01:30:00Z")))).toBe("2026-03-29T21:00:00.000Z"); // after it
  expect(iso(nextBucharestMidnight(Date.parse("2026-10-25T00:30:00Z")))).toBe("2026-10-25T22:00:00.000Z");
  expect(iso(nextBucharestMidnight(Date.parse("2026-10-25T01:30:00Z")))).toBe("2026-10-25T22:00:00.000Z");
});

test("a month after a clock change begins at its own midnight (April in summer time, November in winter time)", () => {
  expect(iso(nextBucharestMonth(Date.parse("2026-03-15T12:00:00Z")))).toBe("2026-03-31T21:00:00.000Z");
  expect(iso(nextBucharestMonth(Date.parse("2026-03-31T20:59:59.999Z")))).toBe("2026-03-31T21:00:00.000Z");
  expect(iso(nextBucharestMonth(Date.parse("2026-03-31T21:00:00Z")))).toBe("2026-04-30T21:00:00.000Z");
  expect(iso(nextBucharestMonth(Date.parse("2026-10-25T12:00:00Z")))).toBe("2026-10-31T22:00:00.000Z");
  expect(iso(nextBucharestMonth(Date.parse("2026-12-31T21:59:59.999Z")))).toBe("2026-12-31T22:00:00.000Z");
  expect(iso(nextBucharestMonth(Date.parse("2026-12-31T22:00:00Z")))).toBe("2027-01-31T22:00:00.000Z");
});

test("the next midnight is the first instant of another day, to the millisecond, at every moment around the changes", () => {
  for (const t of AROUND) {
    const next = nextBucharestMidnight(t);
    expect({ t: iso(t), before: day(next - 1), at: day(next) !== day(t) }).toEqual({ t: iso(t), before: day(t), at: true });
  }
});

test("the next month is the first instant of the 1st of the next month, at every moment around the changes", () => {
  for (const t of AROUND) {
    const next = nextBucharestMonth(t);
    expect({ t: iso(t), before: day(next - 1).slice(0, 7), at: day(next).slice(8) }).toEqual({
      t: iso(t),
      before: day(t).slice(0, 7),
      at: "01",
    });
  }
});

test("the day, month and clock are Intl's", () => {
  for (const t of AROUND) expect(bucharestDay(t)).toBe(day(t));
  expect(bucharestMonth(Date.parse("2026-10-31T21:59:59Z"))).toBe("2026-10");
  expect(bucharestMonth(Date.parse("2026-10-31T22:00:00Z"))).toBe("2026-11");
  expect(bucharestTime(Date.parse("2026-10-25T00:30:00Z"))).toBe("2026-10-25 03:30:00"); // summer time, the first 03:30
  expect(bucharestTime(Date.parse("2026-10-25T01:30:00Z"))).toBe("2026-10-25 03:30:00"); // winter time, the second
});

test("a date that is no day has no midnight", () => {
  for (const d of ["2026-02-30", "2026-13-01", "2026-1-01", "yesterday", ""]) expect(bucharestMidnight(d)).toBeNull();
  expect(iso(bucharestMidnight("2028-02-29"))).toBe("2028-02-28T22:00:00.000Z");
});
