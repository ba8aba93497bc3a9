import { chunk } from "../../src/api/chunk";
import { identificationCallCount, planFinancialBatches, planIdentification, yearsOf } from "../../src/engine/plan/planner";

const wants = (entries: [number, number[]][]) => new Map(entries.map(([c, ys]) => [c, new Set(ys)]));
const cuis = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);
const covered = (plan: ReturnType<typeof planFinancialBatches>) => {
  const got = new Set<string>();
  for (const call of plan) for (const c of call.cuis) for (const y of yearsOf(call.years)) got.add(`${c}:${y}`);
  return got;
};

describe("financial planning", () => {
  test("several years for the same CUIs become one range call per 50 CUIs", () => {
    const plan = planFinancialBatches(wants(cuis(200).map((c) => [c, [2021, 2022, 2023, 2024, 2025]])));
    expect(plan).toHaveLength(4);
    expect(plan.every((c) => "from" in c.years && c.years.from === 2021 && c.years.to === 2025)).toBe(true);
  });

  test("one year for many CUIs stays a per-year call, split at 50", () => {
    const plan = planFinancialBatches(wants(cuis(120).map((c) => [c, [2024]])));
    expect(plan.map((c) => c.cuis.length)).toEqual([50, 50, 20]);
    expect(plan.every((c) => "year" in c.years && c.years.year === 2024)).toBe(true);
  });

  test("disjoint CUIs wanting different years share one range call when that saves a credit", () => {
    // 10 CUIs want 2020, 10 others 2024: per year costs 2, one 2020–2024 range costs 1
    const plan = planFinancialBatches(
      wants([...cuis(10).map((c): [number, number[]] => [c, [2020]]), ...cuis(10, 100).map((c): [number, number[]] => [c, [2024]])]),
    );
    expect(plan.length).toBe(1);
    expect(covered(plan).has("1:2020")).toBe(true);
    expect(covered(plan).has("100:2024")).toBe(true);
  });

  test("mixed wants: multi-year CUIs in ranges, single-year ones ride along in spare places", () => {
    const w = wants([
      ...cuis(30).map((c): [number, number[]] => [c, [2023, 2024, 2025]]),
      ...cuis(20, 1000).map((c): [number, number[]] => [c, [2025]]),
    ]);
    const plan = planFinancialBatches(w);
    expect(plan).toHaveLength(1);
    const got = covered(plan);
    for (const [c, ys] of w) for (const y of ys) expect(got.has(`${c}:${y}`)).toBe(true);
  });

  test("every want is covered and no call exceeds 50 CUIs, whatever the mix", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 30; round++) {
      const w = wants(
        cuis(1 + Math.floor(rnd() * 300)).map((c) => [
          c,
          [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => 2016 + Math.floor(rnd() * 10)))],
        ]),
      );
      const plan = planFinancialBatches(w);
      const got = covered(plan);
      for (const [c, ys] of w) for (const y of ys) expect(got.has(`${c}:${y}`)).toBe(true);
      for (const call of plan) expect(call.cuis.length).toBeLessThanOrEqual(50);
      // never worse than the naive per-year plan
      const perYear = new Map<number, number>();
      for (const ys of w.values()) for (const y of ys) perYear.set(y, (perYear.get(y) ?? 0) + 1);
      const naive = [...perYear.values()].reduce((s, n) => s + Math.ceil(n / 50), 0);
      expect(plan.length).toBeLessThanOrEqual(naive);
    }
  });

  test("nothing wanted, nothing planned", () => {
    expect(planFinancialBatches(new Map())).toEqual([]);
  });
});

describe("identification planning", () => {
  test("basic fields only: batches of 100 without include", () => {
    const plan = planIdentification(cuis(250), [], true);
    expect(plan.map((c) => (c.kind === "batch" ? [c.cuis.length, c.include] : null))).toEqual([
      [100, false],
      [100, false],
      [50, false],
    ]);
  });

  test("extra fields with include working: batches with include", () => {
    const plan = planIdentification(cuis(150), cuis(10, 1000), true);
    expect(plan).toHaveLength(2);
    expect(plan.every((c) => c.kind === "batch" && c.include)).toBe(true);
  });

  test("extra fields without include: one single call per company that needs them", () => {
    const plan = planIdentification(cuis(150), cuis(3, 1000), false);
    expect(plan.filter((c) => c.kind === "batch")).toHaveLength(2);
    expect(plan.filter((c) => c.kind === "single")).toHaveLength(3);
  });

  test("the count of a plan is the plan's length, without planning it", () => {
    for (const [b, e] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [100, 0],
      [99, 1],
      [100, 1],
      [250, 37],
      [3, 400],
    ])
      for (const include of [true, false, undefined])
        expect(identificationCallCount(b, e, include)).toBe(planIdentification(cuis(b), cuis(e, 10_000), include).length);
  });

  test("chunk splits and refuses a size below 1", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});
