/**
 * One planner: a flush's wants are planned once (estimate.ts, planWants), the credit guard counts that
 * plan and the dispatcher sends it; the identification probe's outcome updates it in one place
 * (afterIdentificationProbe). Spies count the planner's batch planning (planner.ts) per flush. The
 * client takes the engine's CUIs as checked (client.ts, UNCHECKED); its own methods check them.
 */
import * as chunk from "../../src/api/chunk";
import * as cui from "../../src/api/cui";
import { CellRequest, FirmaEngine } from "../../src/engine/engine";
import * as estimate from "../../src/engine/plan/estimate";
import * as flush from "../../src/engine/plan/flush";
import * as planner from "../../src/engine/plan/planner";
import { MemoryStore } from "../../src/engine/cache/store";
import type { Want } from "../../src/engine/cells/wants";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { read } from "../support/engine-reads";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, includeMode: "fields", financialShape: "full", latencyMs: 0 }));
let n = 0;

function setup(guardThreshold: number | null) {
  const key = `demo-enterprise-one-plan${++n}`;
  const engine = new FirmaEngine({
    baseUrl: sb.url,
    apiKey: () => key,
    store: new MemoryStore(),
    windowMs: 5,
    retryDelayMs: 5,
    guardThreshold,
  });
  return { engine, charged: () => sb.usage(key).total };
}

/** Spies on the flushes and on the planning of identification and financial batches. */
function spies() {
  const sent = jest.spyOn(flush, "sendFlush");
  const flushes = (): Want[][] => sent.mock.calls.map(([wants]) => wants);
  const identification = jest.spyOn(planner, "planIdentification");
  const financial = jest.spyOn(planner, "planFinancialBatches");
  const afterProbe = jest.spyOn(estimate, "afterIdentificationProbe");
  const plans = jest.spyOn(estimate, "planWants");
  return {
    withProfiles: () => flushes().filter((ws) => ws.some((w) => w.kind === "profile")).length,
    withFinancial: () => flushes().filter((ws) => ws.some((w) => w.kind === "financial")).length,
    flushes,
    identification,
    financial,
    afterProbe,
    plans,
  };
}

const stackTraceLimit = Error.stackTraceLimit;
afterEach(() => {
  jest.restoreAllMocks();
  Error.stackTraceLimit = stackTraceLimit;
});

/** A fill as Excel calculates it: 250 companies' name and county, 60 companies' CA for two years. */
async function fill(engine: FirmaEngine, offset: number): Promise<void> {
  const cuis = data.sampleCuis(250, offset);
  const cells: Promise<unknown>[] = [];
  for (const c of cuis)
    cells.push(
      read(() => engine.profileField(c, "denumire")),
      read(() => engine.profileField(c, "judet")),
    );
  for (const c of cuis.slice(0, 60))
    for (const y of [data.LATEST_YEAR - 1, data.LATEST_YEAR]) cells.push(read(() => engine.financialField(c, y, "cifra_afaceri")));
  await Promise.allSettled(cells);
  await engine.idle();
}

describe("a flush is planned once", () => {
  test.each([
    ["first contact, the guard counting", 100_000, false],
    ["first contact, the guard off", null, false],
    ["a known service, the guard counting", 100_000, true],
    ["a known service, the guard off", null, true],
  ])("%s: one identification plan per flush, one financial plan per flush", async (_, threshold, known) => {
    const { engine } = setup(threshold);
    await engine.ready();
    if (known) await fill(engine, 820_000);
    const s = spies();
    await fill(engine, 830_000 + n * 1000);
    expect(s.flushes().length).toBeGreaterThan(1);
    expect(s.plans).toHaveBeenCalledTimes(s.flushes().length);
    // No flush of cells holds more than one batch of profiles: no probe batch goes alone, no update.
    expect(s.afterProbe).not.toHaveBeenCalled();
    expect(s.identification).toHaveBeenCalledTimes(s.withProfiles());
    expect(s.financial).toHaveBeenCalledTimes(s.withFinancial());
  });
});

describe("the identification probe updates the plan", () => {
  /** 250 companies' county: more than one batch, so the first goes alone where include is not known. */
  const cells = (offset: number): CellRequest[] => data.sampleCuis(250, offset).map((cui) => ({ kind: "profile", cui, field: "judet" }));

  test.each([
    ["honours include: the rest stays in batches", "fields" as const, 1 + 2],
    ["ignores include: the probe's companies and the rest are asked one by one", "ignored" as const, 1 + 100 + 150],
  ])("a service that %s", async (_, includeMode, calls) => {
    sb.config.includeMode = includeMode;
    const { engine, charged } = setup(null);
    await engine.ready();
    const s = spies();
    await engine.prefetch(cells(850_000 + n * 1000));
    await engine.idle();
    // Planned once (the bound counted from the same plan), then updated once by the probe's outcome.
    expect(s.plans).toHaveBeenCalledTimes(1);
    const plan = s.plans.mock.results[0].value as estimate.WantsPlan;
    expect(s.afterProbe).toHaveBeenCalledTimes(1);
    expect(s.identification).toHaveBeenCalledTimes(2);
    const rest = s.afterProbe.mock.results[0].value as planner.IdentificationCall[];
    // The update is the plan's: the dispatcher sent what it holds now.
    expect(plan.identification).toBe(rest);
    if (includeMode === "fields") expect(rest.map((c) => c.kind === "batch" && c.cuis.length)).toEqual([100, 50]);
    else {
      expect(rest).toHaveLength(150);
      expect(rest.every((c) => c.kind === "single")).toBe(true);
    }
    expect(charged()).toBe(calls);
    expect(charged()).toBeLessThanOrEqual(plan.calls);
    expect(engine["caps"]().include).toBe(includeMode === "fields");
  });
});

describe("the client trusts what the engine checked", () => {
  test("a CUI is checked once, where the cell gives it, and a batch is not de-duplicated again; the client's own methods still check", async () => {
    const { engine, charged } = setup(null);
    await engine.ready();
    const cuis = data.sampleCuis(150, 870_000);
    // The CUI checks the client makes (the sandbox answering in this process checks CUIs too).
    const isValidCui = cui.isValidCui;
    let checked = 0;
    Error.stackTraceLimit = 50; // restored after each test
    jest.spyOn(cui, "isValidCui").mockImplementation((n) => {
      if (/[\\/]src[\\/]api[\\/]client\.ts/.test(new Error().stack ?? "")) checked++;
      return isValidCui(n);
    });
    const deduped = jest.spyOn(chunk, "unique");
    const names = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(names).toEqual(cuis.map((c) => data.company(c)!.denumire));
    expect(charged()).toBe(2);
    expect(checked).toBe(0);
    expect(deduped).not.toHaveBeenCalled();
    // A user of src/api calling the client directly: checked and de-duplicated at the method's edge.
    const items = await engine["connection"].client.batchIdentification([cuis[0], cuis[0], cuis[1]]);
    expect(items.map((it) => it.cui)).toEqual([cuis[0], cuis[1]]);
    expect(deduped).toHaveBeenCalledTimes(1);
    expect(checked).toBe(2);
    await expect(engine["connection"].client.batchIdentification([cuis[0] + 1])).rejects.toThrow(TypeError);
    await expect(engine["connection"].client.getCompany(cuis[0] + 1)).rejects.toThrow(TypeError);
    expect(charged()).toBe(3);
  });
});

describe("a refused financial history updates the plan in one place (afterHistoryRefusal)", () => {
  const call = { cuis: [18, 26], years: { from: 2016, to: 2024 } } as unknown as Parameters<typeof estimate.afterHistoryRefusal>[0];
  const wants = [18, 26].flatMap((cui) => [2016, 2019, 2023, 2024].map((year) => ({ cui, year })));

  test("with the plan's oldest year known: older years are refused, the rest planned again in as few calls", () => {
    const { outside, calls } = estimate.afterHistoryRefusal(call, wants, 2020);
    expect(outside.map((w) => w.year).sort()).toEqual([2016, 2016, 2019, 2019]);
    const asked = calls.flatMap((c) => c.cuis.flatMap((cui) => planner.yearsOf(c.years).map((y) => `${cui}:${y}`)));
    expect(asked.sort()).toEqual(["18:2023", "18:2024", "26:2023", "26:2024"]);
    expect(calls).toHaveLength(1); // both companies, one range: one credit
  });

  test("with the plan still unknown: year by year, so that only the refused years fail", () => {
    const years = { from: 2022, to: 2024 } as unknown as typeof call.years;
    const { outside, calls } = estimate.afterHistoryRefusal({ ...call, years }, wants, null);
    expect(outside).toEqual([]);
    expect(calls.map((c) => planner.yearsOf(c.years))).toEqual([[2024], [2023], [2022]]); // latest first, as the range was
  });
});
