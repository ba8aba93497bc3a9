/** What the pane says when a refresh ends: its outcome, tone and words, from what the refresh got back. */
import { summarizeRefresh, type RefreshResults } from "../../src/taskpane/pane/refresh-summary";

function results(over: Partial<RefreshResults> = {}): RefreshResults {
  return { wanted: 10, failed: {}, formulas: 12, errors: 0, busy: 0, spent: 10, credits: 10, dependents: 3, ...over };
}

describe("a refresh's outcome", () => {
  test("everything fetched and calculated: done, in the ok tone, with the formulas and credits", () => {
    const s = summarizeRefresh(results({ spent: 8 }));
    expect(s.outcome).toBe("ok");
    expect(s.tone).toBe("ok");
    expect(s.refreshed).toBe(true);
    expect(s.cut).toBe(0);
    expect(s.text("en")).toBe("Done. Formulas refreshed: 12. Credits spent: 8 (estimated: 10).");
    expect(s.text("ro")).toBe("Gata. Formule actualizate: 12. Credite cheltuite: 8 (estimat: 10).");
  });

  test("credits spent on calls without an answer saying so are named: the service may not have charged them", () => {
    const s = summarizeRefresh(results({ spent: 10, uncertain: 1 }));
    expect(s.outcome).toBe("ok");
    expect(s.text("en")).toBe(
      "Done. Formulas refreshed: 12. Credits spent: 10 (estimated: 10). The figure includes 1 call without an answer (a broken connection, a timeout or a service error): the service may not have charged that much.",
    );
    expect(s.text("ro")).toContain("În cifra de mai sus intră și 1 apel fără răspuns");
    const failed = summarizeRefresh(results({ wanted: 4, failed: { network: 4 }, spent: 2, uncertain: 2 }));
    expect(failed.text("ro")).toContain("intră și 2 apeluri fără răspuns");
    expect(summarizeRefresh(results({ uncertain: 0 })).text("en")).not.toMatch(/may not have charged/);
  });

  test("nothing refreshed (every answer failed) is never a success: failed, in the error tone, with the cause", () => {
    const s = summarizeRefresh(results({ wanted: 4, failed: { network: 4 }, spent: 0 }));
    expect(s.outcome).toBe("failed");
    expect(s.tone).toBe("error");
    expect(s.refreshed).toBe(false);
    expect(s.text("en")).toMatch(/^The refresh FAILED: the service cannot be reached\./);
    expect(s.text("en")).not.toMatch(/Done/);
  });

  test("credits spent: the plan's, or, when a firm's server named it, her budget there or the firm's daily cap", () => {
    const plan = summarizeRefresh(results({ wanted: 4, failed: { credits_exhausted: 4 }, spent: 0 }));
    expect(plan.text("en")).toMatch(/^The refresh FAILED: the plan's credits are spent\./);
    const budget = summarizeRefresh(results({ wanted: 4, failed: { credits_exhausted: 4 }, spent: 0, firmLimit: "budget" }));
    expect(budget.text("en")).toMatch(/^The refresh FAILED: your monthly budget on the firm's server is spent\./);
    expect(budget.text("ro")).toContain("bugetul dvs. lunar pe serverul firmei s-a epuizat");
    const day = summarizeRefresh(results({ wanted: 4, failed: { credits_exhausted: 2, network: 1 }, spent: 1, firmLimit: "day" }));
    expect(day.text("en")).toContain("the firm's server reached its daily credit cap");
    expect(day.text("en")).toContain("the service cannot be reached");
  });

  test("all failed on the budget alone: the attempts that got no answer are named, and Continue is offered", () => {
    const s = summarizeRefresh(results({ wanted: 3, failed: { budget_reached: 3 }, spent: 5, credits: 5 }));
    expect(s.outcome).toBe("failed");
    expect(s.cut).toBe(3);
    expect(s.text("en")).toContain("the attempts the confirmed budget allowed got no good answer");
    expect(s.text("en")).toContain("3 answers did not fit in the confirmed budget of 5 credits");
  });

  test("some answers failed: partial, in the warn tone, the commonest cause first, changes still listed", () => {
    const s = summarizeRefresh(results({ wanted: 10, failed: { timeout: 1, server: 3 } }));
    expect(s.outcome).toBe("partial");
    expect(s.tone).toBe("warn");
    expect(s.refreshed).toBe(true);
    expect(s.cut).toBe(0);
    const text = s.text("en");
    expect(text).toContain("Partly refreshed: 6 of 10 answers fetched again; 4 not (");
    expect(text.indexOf("server error")).toBeLessThan(text.indexOf("did not answer in time"));
  });

  test("the budget cut it short: budget outcome, what is left is said, and Continue is offered", () => {
    const s = summarizeRefresh(results({ wanted: 10, failed: { budget_reached: 2 }, spent: 8, credits: 8 }));
    expect(s.outcome).toBe("budget");
    expect(s.cut).toBe(2);
    expect(s.text("en")).toContain("Press “Continue the refresh”");
  });

  test("cells with errors or still calculating: a warning, not a plain done", () => {
    const errors = summarizeRefresh(results({ errors: 2 }));
    expect(errors.outcome).toBe("errors");
    expect(errors.tone).toBe("warn");
    expect(errors.text("en")).toContain("2 cells show errors");
    const busy = summarizeRefresh(results({ busy: 5 }));
    expect(busy.outcome).toBe("errors");
    expect(busy.text("en")).toContain("Formulas refreshed: 7.");
    expect(busy.text("en")).toContain("Excel is still recalculating 5 cells");
  });

  test("an Excel that cannot recalculate the dependents says so, and what to press", () => {
    expect(summarizeRefresh(results({ dependents: null })).text("en")).toContain("Ctrl+Alt+F9");
    expect(summarizeRefresh(results({ dependents: 0 })).text("en")).not.toContain("Ctrl+Alt+F9");
  });

  test("nothing wanted from the service (all cached): done", () => {
    const s = summarizeRefresh(results({ wanted: 0, spent: 0, credits: 0 }));
    expect(s.outcome).toBe("ok");
    expect(s.refreshed).toBe(true);
  });
});
