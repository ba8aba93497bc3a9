/**
 * The pane's credits on first contact (issue 22, item 5): the range while the service's behaviour is
 * unknown ("8 if the service answers every field, at most 232"), "at most" when the unknown does not
 * change the low end, the plain figure once exact; and what the refresh's first call showed.
 */
import type { Estimate } from "../../src/engine/engine";
import { creditsText, isRange } from "../../src/taskpane/pane/estimate-box";
import { probedText } from "../../src/taskpane/pane/refresh-flow";

const estimate = (credits: number, ifAnswered: number, exact = credits === ifAnswered): Estimate => ({
  cells: 2001,
  invalid: 100,
  cached: 0,
  distinctCuis: 200,
  calls: credits,
  credits,
  ifAnswered,
  exact,
});

describe("the pane's credits on first contact", () => {
  test("a range: the low end if the service answers every field, the upper bound (the budget)", () => {
    const e = estimate(232, 8);
    expect(isRange(e)).toBe(true);
    expect(creditsText(e, "en")).toBe("8 if the service answers every field, at most 232");
    expect(creditsText(e, "ro")).toBe("8 dacă serviciul răspunde la toate câmpurile, cel mult 232");
    expect(creditsText(estimate(2320, 80), "ro")).toBe("80 dacă serviciul răspunde la toate câmpurile, cel mult 2.320");
  });

  test("exact: the plain figure; unknown without a lower end: at most", () => {
    expect(isRange(estimate(8, 8))).toBe(false);
    expect(creditsText(estimate(8, 8), "en")).toBeUndefined();
    expect(creditsText(estimate(9, 9, false), "en")).toBe("at most 9");
  });

  test("after the first call: its credit and the exact rest", () => {
    expect(probedText("en", 1, 7)).toBe("The first call (1 credit) showed the exact cost: the rest costs 7 credits.");
    expect(probedText("ro", 1, 231)).toBe("Prima cerere (1 credit) a arătat costul exact: restul costă 231 de credite.");
  });
});
