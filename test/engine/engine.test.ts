/**
 * The engine against the sandbox over real HTTP on loopback, counting the calls the sandbox received.
 */
import { EngineOptions, NOT_FOUND } from "../../src/engine/engine";
import { NotFoundError } from "../../src/api/errors";
import { LocalInputError } from "../../src/engine/local-errors";
import { MemoryStore } from "../../src/engine/cache/store";
import { latestCompleteYear } from "../../src/engine/years";
import { read } from "../support/engine-reads";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { engineFor } from "../support/engine";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, includeMode: "fields", financialShape: "full" }));
let n = 0;
const LATEST = latestCompleteYear();

/** A fresh key with its own counter, and an engine on it. */
function setup(over: Partial<EngineOptions> & { plan?: EngineOptions["plan"]; key?: string } = {}) {
  return engineFor(sb, over.key ?? `demo-enterprise-engine${++n}`, { retryDelayMs: 10, ...over });
}

const names = (cuis: number[]) => cuis.map((c) => data.company(c)!.denumire);

describe("coalescing and batching", () => {
  test("1,000 distinct CUIs for DENUMIRE cost exactly 10 calls, each cell its own company's name", async () => {
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(1000, 5000);
    const got = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(got).toEqual(names(cuis));
    expect(charged()).toBe(10);
  });

  test("a fill of 10 batches writes what it learned of the service once, not after every batch (each write is a storage call to Excel)", async () => {
    const store = new MemoryStore();
    const writes: string[] = [];
    const setItem = store.setItem.bind(store);
    store.setItem = (k: string, v: string) => (writes.push(k), setItem(k, v));
    const { engine, charged } = setup({ store });
    const cuis = data.sampleCuis(1000, 7000);
    await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(charged()).toBe(10);
    expect(writes.filter((k) => k === "firma.caps.v2")).toHaveLength(1);
    expect(JSON.parse((await store.getItem("firma.caps.v2"))!)).toEqual({ [sb.url]: expect.objectContaining({ include: true }) });
  });

  test("the same 1,000 CUIs with 30 % duplicates still cost 10 calls", async () => {
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(1000, 9000);
    const cells = [...cuis, ...cuis.slice(0, 300)].sort((a, b) => ((a * 7919) % 1000) - ((b * 7919) % 1000));
    const got = await Promise.all(cells.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(got).toEqual(names(cells));
    expect(charged()).toBe(10);
  });

  test("200 CUIs × CA for 5 years cost 4 calls (one range call per 50 CUIs)", async () => {
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(200, 20000);
    const years = [LATEST - 4, LATEST - 3, LATEST - 2, LATEST - 1, LATEST];
    const cells = years.flatMap((y) => cuis.map((c) => ({ c, y })));
    const got = await Promise.all(cells.map(({ c, y }) => read(() => engine.financialField(c, y, "cifra_afaceri")).catch((e) => e.kind)));
    const want = cells.map(({ c, y }) => data.financials(c).find((f) => f.an === y)?.cifra_afaceri ?? "not_found");
    expect(got).toEqual(want);
    expect(charged()).toBe(4);
  });

  test("recalculating spends nothing, in the same runtime and after a reload of the add-in's storage", async () => {
    const first = setup();
    const cuis = data.sampleCuis(300, 30000);
    await Promise.all(cuis.map((c) => read(() => first.engine.profileField(c, "denumire"))));
    await Promise.all(cuis.map((c) => read(() => first.engine.financialField(c, LATEST, "profit_net")).catch(() => null)));
    const spent = first.charged();
    expect(spent).toBe(3 + 6);
    await Promise.all(cuis.map((c) => read(() => first.engine.profileField(c, "denumire"))));
    expect(first.charged()).toBe(spent);

    await first.engine.persist();
    const reloaded = setup({ key: first.key, store: first.store });
    const again = await Promise.all(cuis.map((c) => read(() => reloaded.engine.profileField(c, "denumire"))));
    await Promise.all(cuis.map((c) => read(() => reloaded.engine.financialField(c, LATEST, "profit_net")).catch(() => null)));
    expect(again).toEqual(names(cuis));
    expect(reloaded.charged()).toBe(spent);
  });

  test("invalid CUIs are refused locally and cost nothing", async () => {
    const { engine, charged } = setup();
    const bad = [14399841, "RO123", "abc", 0, -5, 1.5, "", null, true, "12345678901"];
    const got = await Promise.all(
      bad.map((c) =>
        read(() => engine.profileField(c, "denumire")).then(
          () => "value",
          (e) => e,
        ),
      ),
    );
    for (const e of got) {
      expect(e).toBeInstanceOf(LocalInputError);
      expect((e as LocalInputError).kind).toBe("invalid_cui");
    }
    expect(charged()).toBe(0);
  });

  test("a CUI the service does not know settles as not found, and the answer is cached", async () => {
    const { engine, charged } = setup();
    const [missing] = data.missingCuis(1);
    const [known] = data.sampleCuis(1, 40000);
    const [a, b] = await Promise.allSettled([
      read(() => engine.profileField(missing, "denumire")),
      read(() => engine.profileField(known, "denumire")),
    ]);
    expect(a.status === "rejected" && (a.reason as { kind: string }).kind).toBe("not_found");
    expect(b.status === "fulfilled" && b.value).toBe(data.company(known)!.denumire);
    expect(charged()).toBe(1);
    await expect(read(() => engine.profileField(missing, "denumire"))).rejects.toMatchObject({ kind: "not_found" });
    expect(charged()).toBe(1);
  });

  test("a cancelled cell still waiting is not fetched", async () => {
    const { engine, requests } = setup({ windowMs: 30 });
    const [keep, drop] = data.sampleCuis(2, 41000);
    const ac = new AbortController();
    const kept = read(() => engine.profileField(keep, "denumire"));
    const dropped = read(() => engine.profileField(drop, "denumire", { signal: ac.signal }));
    ac.abort();
    await expect(dropped).rejects.toMatchObject({ kind: "aborted" });
    expect(await kept).toBe(data.company(keep)!.denumire);
    const asked = requests()
      .map((r) => r.query)
      .join(" ");
    expect(asked).toContain(String(keep));
    expect(asked).not.toContain(String(drop));
  });

  test("a cancelled cell that another cell also wants is still fetched for that other cell", async () => {
    const { engine, charged } = setup({ windowMs: 30 });
    const [cui] = data.sampleCuis(1, 42000);
    const ac = new AbortController();
    const a = read(() => engine.profileField(cui, "denumire", { signal: ac.signal }));
    const b = read(() => engine.profileField(cui, "denumire"));
    ac.abort();
    await expect(a).rejects.toMatchObject({ kind: "aborted" });
    expect(await b).toBe(data.company(cui)!.denumire);
    expect(charged()).toBe(1);
  });
});

describe("a company or year cached as not found", () => {
  test("a cell's read answers NOT_FOUND at once, one error made once; the promise-returning reads still reject with the CUI", async () => {
    const { engine, charged } = setup();
    const [missing] = data.missingCuis(1);
    const [known] = data.sampleCuis(1, 64000);
    await expect(read(() => engine.profileField(missing, "denumire"))).rejects.toBeInstanceOf(NotFoundError); // fetched, cached as not found
    const year = [1995, 1996, 1997].find((y) => !data.financials(known).some((f) => f.an === y))!; // a year without figures
    await expect(read(() => engine.financialField(known, year, "cifra_afaceri"))).rejects.toMatchObject({ kind: "not_found" });
    const before = charged();
    expect(engine.profileField(missing, "stare")).toBe(NOT_FOUND);
    expect(engine.profileField(missing, "denumire")).toBe(NOT_FOUND); // the same object: nothing made per cell
    expect(engine.financialField(known, year, "profit_net")).toBe(NOT_FOUND);
    expect(Object.isFrozen(NOT_FOUND)).toBe(true);
    await expect(engine.profile(missing)).rejects.toMatchObject({ kind: "not_found", cui: missing });
    await expect(engine.financialRecord(known, year)).rejects.toMatchObject({ kind: "not_found", cui: known, year });
    expect(charged()).toBe(before);
  });
});

describe("faults", () => {
  test("a batch that fails with 5xx and then succeeds: every cell settles with its own value", async () => {
    const { engine, charged, requests } = setup();
    sb.config.faults = { failNext: 1 };
    const cuis = data.sampleCuis(150, 43000);
    const got = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(got).toEqual(names(cuis));
    expect(requests().filter((r) => r.status >= 500)).toHaveLength(1);
    expect(charged()).toBe(2);
  });

  test("when the service keeps failing, every cell settles with a clear error, none hangs", async () => {
    const { engine } = setup({ retries: 1 });
    sb.config.faults = { errorRate: 1 };
    const cuis = data.sampleCuis(120, 44000);
    const got = await Promise.allSettled(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(got.every((r) => r.status === "rejected" && (r.reason as { kind: string }).kind === "server")).toBe(true);
  });

  test("a refresh that fails keeps the cached values", async () => {
    const { engine } = setup();
    const cuis = data.sampleCuis(20, 45000);
    await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    engine.markStale("all");
    sb.config.faults = { errorRate: 1 };
    const got = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(got).toEqual(names(cuis));
  });

  test("batch answers in another order, with duplicates and strangers, are matched by CUI", async () => {
    const { engine } = setup();
    sb.config.faults = { batchShuffle: true, batchDuplicate: 0.3 };
    const cuis = data.sampleCuis(100, 46000);
    const got = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    expect(got).toEqual(names(cuis));
  });

  test("items dropped from a batch answer settle as not found, the others keep their values", async () => {
    const { engine } = setup();
    sb.config.faults = { batchDrop: 0.2 };
    const cuis = data.sampleCuis(100, 47000);
    const got = await Promise.allSettled(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    const ok = got.filter((r) => r.status === "fulfilled");
    expect(ok.length).toBeGreaterThan(50);
    expect(ok.length).toBeLessThan(100);
    got.forEach((r, i) => {
      if (r.status === "fulfilled") expect(r.value).toBe(data.company(cuis[i])!.denumire);
      else expect((r.reason as { kind: string }).kind).toBe("not_found");
    });
  });
});

describe("fields the batch items lack", () => {
  test("profile fields come with include when the service honours it: one call for 100 companies", async () => {
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(100, 48000);
    const got = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "adresa"))));
    expect(got).toEqual(cuis.map((c) => data.company(c)!.adresa));
    expect(charged()).toBe(1);
  });

  test("when include is ignored, the engine learns it once and uses the single-company endpoint", async () => {
    sb.config.includeMode = "ignored";
    const { engine, charged, store } = setup();
    const cuis = data.sampleCuis(5, 49000);
    const got = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "judet"))));
    expect(got).toEqual(cuis.map((c) => data.company(c)!.judet));
    expect(charged()).toBe(1 + 5); // the probe, then one per company
    await engine.persist();
    const later = setup({ store });
    const more = data.sampleCuis(3, 49100);
    await Promise.all(more.map((c) => read(() => later.engine.profileField(c, "judet"))));
    expect(later.charged()).toBe(3); // no second probe
  });

  test("when batch financial items carry only the documented fields, assets come from the single-company endpoint", async () => {
    sb.config.financialShape = "minimal";
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(3, 50000);
    const ca = await Promise.all(cuis.map((c) => read(() => engine.financialField(c, LATEST, "cifra_afaceri")).catch((e) => e.kind)));
    expect(charged()).toBe(1);
    const act = await Promise.all(cuis.map((c) => read(() => engine.financialField(c, LATEST, "active_totale")).catch((e) => e.kind)));
    const want = (f: "cifra_afaceri" | "active_totale") =>
      cuis.map((c) => data.financials(c).find((r) => r.an === LATEST)?.[f] ?? "not_found");
    expect(ca).toEqual(want("cifra_afaceri"));
    expect(act).toEqual(want("active_totale"));
    const withData = cuis.filter((c) => data.financials(c).some((r) => r.an === LATEST)).length;
    expect(charged()).toBe(1 + withData); // the batch that taught it, then one per company that has the year
  });
});

describe("years and plans", () => {
  test("a year beyond the plan's history is refused locally, at no cost", async () => {
    const { engine, charged } = setup({ plan: () => "free", key: `demo-free-engine${++n}` });
    const [cui] = data.sampleCuis(1, 51000);
    await expect(read(() => engine.financialField(cui, LATEST - 1, "cifra_afaceri"))).rejects.toMatchObject({ kind: "year_outside_plan" });
    await expect(read(() => engine.financialField(cui, LATEST + 1, "cifra_afaceri"))).rejects.toMatchObject({ kind: "year_unavailable" });
    await expect(read(() => engine.financialField(cui, "2024x", "cifra_afaceri"))).rejects.toMatchObject({ kind: "invalid_year" });
    await expect(read(() => engine.financialField(cui, 1800, "cifra_afaceri"))).rejects.toMatchObject({ kind: "invalid_year" });
    expect(charged()).toBe(0);
  });

  test("a year left out means the latest year", async () => {
    const { engine } = setup();
    const cui = data.sampleCuis(50, 52000).find((c) => data.financials(c)[0]?.an === LATEST)!;
    const r = await engine.financialRecord(cui, null);
    expect(r.an).toBe(LATEST);
  });

  test("history lists years latest first, as the service does", async () => {
    const { engine, charged } = setup();
    const cui = data.sampleCuis(50, 53000).find((c) => data.financials(c).filter((f) => f.an >= LATEST - 4).length === 5)!;
    const h = await engine.history(cui, LATEST - 4, LATEST, ["profit_net"]);
    const want = data.financials(cui).filter((f) => f.an >= LATEST - 4);
    expect(h.map((r) => [r.an, r.profit_net])).toEqual(want.map((r) => [r.an, r.profit_net]));
    expect(charged()).toBe(1);
  });
});

describe("plan not known yet", () => {
  test("a range call the service refuses for the plan's history is planned again with the plan it reported", async () => {
    const key = `demo-pro-engine${++n}`; // Pro: the latest 5 years
    const { engine, charged, requests } = setup({ key });
    const cuis = data
      .sampleCuis(200, 56000)
      .filter((c) => data.financials(c).length >= 7)
      .slice(0, 40);
    const old = LATEST - 6;
    const cells = cuis.flatMap((c) => [LATEST, LATEST - 1, old].map((y) => ({ c, y })));
    const got = await Promise.all(
      cells.map(({ c, y }) =>
        read(() => engine.financialField(c, y, "cifra_afaceri")).then(
          (v) => v,
          (e) => e.kind,
        ),
      ),
    );
    cells.forEach(({ c, y }, i) => {
      if (y === old) expect(got[i]).toBe("year_outside_plan");
      else expect(got[i]).toBe(data.financials(c).find((f) => f.an === y)?.cifra_afaceri ?? "not_found");
    });
    expect(requests().filter((r) => r.status === 403)).toHaveLength(1); // refused, free
    expect(charged()).toBe(1); // then one range call for the years the plan covers
    expect(engine.credits().plan()).toBe("pro");
  });

  test("a history keeps the years the plan covers and leaves out the others", async () => {
    const { engine } = setup({ plan: () => "pro", key: `demo-pro-engine${++n}` });
    const cui = data.sampleCuis(100, 57000).find((c) => data.financials(c).filter((f) => f.an >= LATEST - 8).length === 9)!;
    const h = await engine.history(cui, LATEST - 8, LATEST, ["cifra_afaceri"]);
    expect(h.map((r) => r.an)).toEqual([LATEST, LATEST - 1, LATEST - 2, LATEST - 3, LATEST - 4]);
    await expect(engine.history(cui, LATEST - 9, LATEST - 7, ["cifra_afaceri"])).rejects.toMatchObject({ kind: "year_outside_plan" });
  });
});

describe("credit meter", () => {
  test("the meter's count for a key agrees with the sandbox's own counter", async () => {
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(250, 54000);
    await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
    await read(() => engine.financialField(cuis[0], LATEST, "cifra_afaceri")).catch(() => null);
    const u = engine.credits().usage();
    expect(u.today).toBe(charged());
    expect(u.month).toBe(charged());
    expect(u.savedByBatching).toBeGreaterThan(0);
  });

  test("the estimate for a set of cells equals the calls a fill then makes, and is 0 once cached", async () => {
    const { engine, charged } = setup();
    const cuis = data.sampleCuis(230, 55000);
    const reqs = [
      ...cuis.map((cui) => ({ kind: "profile" as const, cui, field: "denumire" as const })),
      ...cuis.slice(0, 120).map((cui) => ({ kind: "financial" as const, cui, year: LATEST, field: "profit_net" as const })),
      { kind: "profile" as const, cui: "RO1", field: "denumire" as const },
    ];
    const est = engine.estimate(reqs);
    expect(est.invalid).toBe(1);
    await Promise.all([
      ...cuis.map((c) => read(() => engine.profileField(c, "denumire"))),
      ...cuis.slice(0, 120).map((c) => read(() => engine.financialField(c, LATEST, "profit_net")).catch(() => null)),
    ]);
    expect(est.calls).toBe(charged());
    expect(engine.estimate(reqs).calls).toBe(0);
    expect(engine.estimate(reqs, { refresh: true }).calls).toBe(est.calls);
  });
});
