/**
 * An estimate that is exact after one credit (issue 22, item 5), against the sandbox over loopback:
 * on first contact the estimate is a range (the credits if the service answers every field, and the
 * upper bound); the refresh's first call goes alone (the probe, a call the plan needs anyway), after
 * which the estimate of the rest is exact, and the whole refresh stays within the range shown.
 */
import { CellRequest, Estimate, FirmaEngine } from "../../src/engine/engine";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { engineFor } from "../support/engine";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, includeMode: "fields", financialShape: "full", latencyMs: 0 }));
let n = 0;

const setup = () => engineFor(sb, `demo-enterprise-probe${++n}`);

/** A 400-row sheet: DENUMIRE, STARE, JUDET, CA, PROFIT, and a second year of CA. */
function sheet(rows: number, offset: number): CellRequest[] {
  return data.sampleCuis(rows, offset).flatMap((cui): CellRequest[] => [
    { kind: "profile", cui, field: "denumire" },
    { kind: "profile", cui, field: "stare" },
    { kind: "profile", cui, field: "judet" },
    { kind: "financial", cui, year: null, field: "cifra_afaceri" },
    { kind: "financial", cui, year: null, field: "profit_net" },
  ]);
}

/** The refresh as the surfaces run it: under a budget of the upper bound, the probe first. */
async function refresh(engine: FirmaEngine, cells: CellRequest[], go = true) {
  const seen: { rest: Estimate; sent: number; spentThen: number }[] = [];
  const first = engine.estimate(cells, { refresh: true });
  const budget = engine.credits().openBudget(first.credits);
  try {
    await engine.prefetch(cells, {
      force: true,
      onProbe: (rest, sent) => {
        seen.push({ rest, sent, spentThen: budget.spent });
        return go;
      },
    });
    await engine.idle();
  } finally {
    budget.close();
  }
  return { first, probe: seen[0], spent: budget.spent };
}

describe("first contact: a range, exact after the probe", () => {
  test.each([
    ["honours include", "fields" as const],
    ["ignores include", "ignored" as const],
  ])("a service that %s: range shown, the rest exact after the first call, the spend within the range", async (_, includeMode) => {
    sb.config.includeMode = includeMode;
    const { engine, charged } = setup();
    await engine.ready();
    const cells = sheet(400, 700_000 + n * 1000);
    const { first, probe, spent } = await refresh(engine, cells);
    // The range: the low end if the service answers every field, the upper bound the budget.
    expect(first.exact).toBe(false);
    expect(first.ifAnswered).toBeLessThan(first.credits);
    // The probe: one call, counted within the budget; the rest's estimate exact.
    expect(probe.sent).toBe(1);
    expect(probe.spentThen).toBe(1);
    expect(probe.rest.exact).toBe(true);
    expect(probe.rest.ifAnswered).toBe(probe.rest.credits);
    const rest = spent - probe.spentThen;
    expect(Math.abs(rest - probe.rest.credits)).toBeLessThanOrEqual(0.1 * probe.rest.credits);
    // The whole refresh: within the range shown, never past the upper bound; the engine's count is the sandbox's.
    expect(charged()).toBe(spent);
    expect(spent).toBeGreaterThanOrEqual(first.ifAnswered);
    expect(spent).toBeLessThanOrEqual(first.credits);
    if (includeMode === "fields") expect(spent).toBe(first.ifAnswered);
    else expect(spent).toBe(first.credits);
    // Every cell answered from the cache afterwards, and the service is known: the next estimate is exact.
    expect(engine.estimate(cells).credits).toBe(0);
    expect(engine.estimate(cells, { refresh: true }).exact).toBe(true);
  });

  test("declined after the probe: only the probe's credit is spent", async () => {
    sb.config.includeMode = "ignored";
    const { engine, charged } = setup();
    await engine.ready();
    const cells = sheet(150, 760_000);
    const { first, probe, spent } = await refresh(engine, cells, false);
    expect(first.exact).toBe(false);
    expect(probe.rest.exact).toBe(true);
    expect(spent).toBe(1);
    expect(charged()).toBe(1);
  });

  test("known service: no probe, onProbe is not called", async () => {
    const { engine } = setup();
    await engine.ready();
    await refresh(engine, sheet(120, 770_000));
    const again = await refresh(engine, sheet(120, 771_000));
    expect(again.first.exact).toBe(true);
    expect(again.probe).toBeUndefined();
    expect(again.spent).toBe(again.first.credits);
  });
});
