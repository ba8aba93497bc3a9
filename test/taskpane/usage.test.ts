/** What the Plan and usage part shows, from the meter's snapshot and the plan's limits. */
import type { UsageSnapshot } from "../../src/engine/credits/meter";
import { daysInMonth, needsConfirmation, usageView } from "../../src/taskpane/usage";

function snap(over: Partial<UsageSnapshot> = {}): UsageSnapshot {
  return {
    keyId: "k00000000",
    day: "2026-03-14",
    today: 0,
    month: 0,
    daily: [],
    refused: 0,
    detectedPlan: null,
    remaining: null,
    cacheHits: 0,
    savedByBatching: 0,
    ...over,
  };
}

describe("limits by plan", () => {
  test("Free counts against its daily limit only", () => {
    const v = usageView(snap({ today: 3, month: 40 }), "free");
    expect(v.today).toEqual({ used: 3, limit: 10, pct: 30 });
    expect(v.month).toEqual({ used: 40, limit: null, pct: null });
    expect(v.left).toBe(7);
    expect(v.warning).toBeNull();
  });

  test("Pro and Business count against their monthly credits", () => {
    expect(usageView(snap({ today: 50, month: 1000 }), "pro")).toMatchObject({
      today: { limit: null },
      month: { used: 1000, limit: 4000, pct: 25 },
      left: 3000,
    });
    expect(usageView(snap({ month: 19_999 }), "business")).toMatchObject({ month: { limit: 20_000, pct: 99 }, left: 1 });
  });

  test("Enterprise has no limit", () => {
    const v = usageView(snap({ today: 500, month: 90_000 }), "enterprise");
    expect(v.left).toBe(Infinity);
    expect(v.warning).toBeNull();
  });

  test("the user's choice wins over the plan the service reported", () => {
    expect(usageView(snap({ detectedPlan: "pro" }), "business")).toMatchObject({
      plan: "business",
      planSource: "user",
      detectedPlan: "pro",
    });
    expect(usageView(snap({ detectedPlan: "pro" }), null)).toMatchObject({ plan: "pro", planSource: "service" });
    expect(usageView(snap(), null)).toMatchObject({ plan: null, planSource: null });
  });

  test("without a plan, what is left is what the service said, if anything", () => {
    expect(usageView(snap({ remaining: 12 }), null).left).toBe(12);
    expect(usageView(snap(), null).left).toBeNull();
  });

  test("never less than nothing left", () => {
    expect(usageView(snap({ today: 14 }), "free").left).toBe(0);
  });
});

describe("warnings", () => {
  test.each([
    ["free", { today: 7 }, null],
    ["free", { today: 8 }, { level: 80, period: "day", pct: 80 }],
    ["free", { today: 10 }, { level: 100, period: "day", pct: 100 }],
    ["pro", { month: 3199 }, null],
    ["pro", { month: 3200 }, { level: 80, period: "month", pct: 80 }],
    ["pro", { month: 4000 }, { level: 100, period: "month", pct: 100 }],
    ["business", { month: 25_000 }, { level: 100, period: "month", pct: 125 }],
  ] as const)("%s after %j → %j", (plan, over, expected) => {
    expect(usageView(snap(over), plan).warning).toEqual(expected);
  });

  test("a service that says nothing is left warns even without a plan", () => {
    expect(usageView(snap({ remaining: 0 }), null).warning).toMatchObject({ level: 100 });
  });
});

describe("the daily chart", () => {
  test("every day of the month, with the days that had use", () => {
    const v = usageView(
      snap({
        daily: [
          { day: "2026-03-02", credits: 5 },
          { day: "2026-03-14", credits: 2 },
        ],
        today: 2,
        month: 7,
      }),
      "pro",
    );
    expect(v.daysInMonth).toBe(31);
    expect(v.dayOfMonth).toBe(14);
    expect(v.daily).toHaveLength(31);
    expect(v.daily.filter((d) => d.credits > 0)).toEqual([
      { day: 2, credits: 5 },
      { day: 14, credits: 2 },
    ]);
  });

  test("months have their own lengths", () => {
    expect(daysInMonth("2028-02-10")).toBe(29);
    expect(daysInMonth("2026-02-10")).toBe(28);
    expect(daysInMonth("2026-04-30")).toBe(30);
  });
});

test("confirmation is asked only when the cost passes a known balance", () => {
  expect(needsConfirmation(11, 10)).toBe(true);
  expect(needsConfirmation(10, 10)).toBe(false);
  expect(needsConfirmation(10_000, Infinity)).toBe(false);
  expect(needsConfirmation(10_000, null)).toBe(false);
});
