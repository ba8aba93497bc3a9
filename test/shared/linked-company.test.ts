/**
 * Linked companies (the "Firmă" / "Company" data type) through the one engine, against the sandbox over
 * real HTTP, with Excel's side played as the page describes it (test/support/excel/linked-entities.ts):
 * the request as a JSON string, one batch, the answer in the request's order, an error per entity,
 * cultures, refresh modes, the credits, and what the workbook keeps without the add-in.
 */
import { EngineOptions, FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { TieredAnswerStore } from "../../src/office/tiered-answers";
import { evaluate } from "../../src/shared/evaluate";
import { COMPANY_DOMAIN_ID, cultureLang, LOAD_FUNCTION_ID, linkedStub, loadCompanies } from "../../src/shared/linked-company";
import { headers } from "../../src/shared/headers";
import { isCard } from "../../src/shared/cells";
import { LinkedEntityWorkbook } from "../support/excel/linked-entities";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { engineFor } from "../support/engine";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, includeMode: "fields", financialShape: "full" }));
let n = 0;

function setup(over: Partial<EngineOptions> = {}) {
  return engineFor(sb, `demo-enterprise-linked${++n}`, { retryDelayMs: 5, ...over });
}

/** Excel's workbook with FIRMA's domain registered and its load service answering through `engine`. */
async function workbook(
  engine: FirmaEngine,
  options: { supportedRefreshModes?: string[] } = {},
  saved?: ReturnType<LinkedEntityWorkbook["save"]>,
) {
  const wb = new LinkedEntityWorkbook({ load: (request) => loadCompanies(request, engine) }, saved);
  await wb.add({ dataProvider: "FIRMA", id: COMPANY_DOMAIN_ID, name: "Firmă", loadFunctionId: LOAD_FUNCTION_ID, ...options });
  return wb;
}

const cells = (cuis: (number | string)[], lang: "ro" | "en" = "ro") =>
  cuis.map((c, i) => [`A${i + 1}`, linkedStub(c, String(c), lang)] as [string, ReturnType<typeof linkedStub>]);

const RO = headers("PROFIL", "ro");
const EN = headers("PROFIL", "en");

describe("the load service through the one engine", () => {
  test("250 companies: one request as a JSON string, answered in its order, for what 250 FIRMA.FISA cells cost", async () => {
    const cuis = data.sampleCuis(250, 31000);
    const a = setup();
    const wb = await workbook(a.engine);
    await wb.insert(cells(cuis));
    expect(wb.requests).toHaveLength(1);
    expect(typeof wb.requests[0]).toBe("string");
    expect(JSON.parse(wb.requests[0]).entities.map((e: { entityId: string }) => e.entityId)).toEqual(cuis.map(String));
    expect(wb.violations).toEqual([]);
    cuis.forEach((c, i) => expect(wb.field(`A${i + 1}`, RO[1])).toBe(data.company(c)!.denumire));

    const b = setup();
    const fisa = await Promise.all(cuis.map((c) => evaluate("FISA", [c], { engine: b.engine, lang: "ro", cards: true })));
    expect(fisa.every((m) => isCard(m[0][0]))).toBe(true);
    expect(a.charged()).toBe(b.charged());
    expect(a.charged()).toBe(3 + 5); // profiles by 100, latest years by 50
  });

  test("ids that are not CUIs and a company the service does not know answer their own entities; the others load", async () => {
    const { engine, charged } = setup();
    const good = data.sampleCuis(3, 32000);
    const missing = data.missingCuis(1)[0];
    const wb = await workbook(engine);
    await wb.insert(cells([good[0], "abc", good[1], "14399841", missing, "", good[2]]));
    expect(wb.violations).toEqual([]);
    expect(wb.field("A1", RO[1])).toBe(data.company(good[0])!.denumire);
    expect(wb.field("A7", RO[1])).toBe(data.company(good[2])!.denumire);
    for (const bad of ["A2", "A4", "A5", "A6"]) {
      expect(wb.field(bad, RO[1])).toBe("#FIELD!");
      expect(String(wb.field(bad, "Notă"))).not.toBe("#FIELD!");
    }
    expect(String(wb.field("A2", "Notă"))).toMatch(/CUI/);
    expect(String(wb.field("A4", "Notă"))).toMatch(/control/);
    expect(charged()).toBeLessThanOrEqual(2); // the bad ids cost nothing: one profile call, one financial call
  });

  test("property names follow the entity's culture, which Excel hands back: =A1.Denumire keeps working in an English Excel", async () => {
    const [c] = data.sampleCuis(1, 33000);
    const { engine } = setup();
    const wb = await workbook(engine);
    await wb.insert([
      ["A1", linkedStub(c, "x", "ro")],
      ["A2", linkedStub(c, "x", "en")],
      ["A3", { ...linkedStub(c, "x", "en"), id: { ...linkedStub(c, "x", "en").id, culture: "de-DE" } }],
    ]);
    expect(wb.field("A1", "Denumire")).toBe(data.company(c)!.denumire);
    expect(wb.field("A2", "Name")).toBe(data.company(c)!.denumire);
    expect(wb.field("A3", "Name")).toBe(data.company(c)!.denumire); // a culture FIRMA does not speak: English
    // the workbook opened in an English Excel: the cells keep culture ro-RO, so the request asks Romanian names again
    const english = await workbook(engine, {}, wb.save());
    await english.refresh();
    expect(JSON.parse(english.requests[0]).entities.map((e: { culture: string }) => e.culture)).toEqual(["ro-RO", "en-US", "de-DE"]);
    expect(english.field("A1", "Denumire")).toBe(data.company(c)!.denumire);
    expect(english.field("A1", "Name")).toBe("#FIELD!");
    expect([cultureLang("ro-MD"), cultureLang("en-GB"), cultureLang("fr-FR"), cultureLang(undefined)]).toEqual(["ro", "en", "en", "en"]);
  });

  test("numbers are numbers with a format, CAEN and the CUI text, the fetch date shown", async () => {
    const [c] = data.sampleCuis(1, 34000);
    const { engine } = setup();
    const wb = await workbook(engine);
    await wb.insert(cells([c], "en"));
    const v = wb.cells.get("A1")!;
    expect(v.properties[EN[6]]).toEqual({ type: "String", basicValue: expect.any(String) });
    expect(v.properties.CUI).toEqual({ type: "String", basicValue: String(c) });
    expect(v.properties.Revenue).toEqual({ type: "FormattedNumber", basicValue: expect.any(Number), numberFormat: "#,##0" });
    expect(v.properties["Financial year"]).toEqual({ type: "FormattedNumber", basicValue: expect.any(Number), numberFormat: "0" });
    expect(v.properties.Updated).toEqual({ type: "FormattedNumber", basicValue: expect.any(Number), numberFormat: "yyyy-mm-dd hh:mm" });
    expect(Math.abs(v.properties.Updated.basicValue - (Date.now() / 86_400_000 + 25_569))).toBeLessThan(0.01);
    expect(v.basicType).toBe("Error"); // what an Excel without linked entities shows: #VALUE!
    expect(wb.shown("A1", false)).toBe("#VALUE!");
  });

  test("a request FIRMA cannot read fails as a whole (#CONNECT!), as the page has it; another domain's too", async () => {
    const { engine } = setup();
    await expect(loadCompanies("{not json", engine)).rejects.toThrow(/not JSON/);
    await expect(loadCompanies(JSON.stringify({ domainId: "other", entities: [] }), engine)).rejects.toThrow(/unknown domain/);
  });
});

describe("bad input", () => {
  test("10,000 companies at once: the guard holds them (nothing spent, each entity says why); let through, paid once; asked again, free", async () => {
    const cuis = data.sampleCuis(10_000, 40000);
    const { engine, charged } = setup({ guardThreshold: 50 });
    const wb = await workbook(engine);
    await wb.insert(cells(cuis));
    expect(charged()).toBe(0);
    expect(String(wb.field("A1", "Notă"))).toMatch(/prag|credit/i);
    engine.configure({ guardThreshold: null });
    await wb.refresh();
    const paid = charged();
    expect(paid).toBe(100 + 200);
    await wb.refresh();
    expect(charged()).toBe(paid);
    expect(wb.field("A10000", RO[1])).toBe(data.company(cuis[9999])!.denumire);
  }, 120_000);

  test("the service down during a refresh: the cards keep their last values and say so; nothing is charged", async () => {
    const cuis = data.sampleCuis(20, 41000);
    const { engine, charged } = setup();
    const wb = await workbook(engine);
    await wb.insert(cells(cuis));
    const paid = charged();
    engine.markStale("all"); // Data → Refresh All after the answers' lifetime
    sb.config.faults = { errorRate: 1 };
    await wb.refresh();
    expect(charged()).toBe(paid);
    expect(wb.violations).toEqual([]);
    expect(wb.field("A1", RO[1])).toBe(data.company(cuis[0])!.denumire);
    expect(String(wb.field("A1", "Notă"))).toMatch(/Valori din \d{4}-\d\d-\d\d/);
  });

  test("a workbook of more linked companies than OfficeRuntime.storage's shards hold, reopened: 0 credits while the answers are fresh (the add-in's store of a browser page)", async () => {
    // The add-in's store where the runtime is a browser page: OfficeRuntime.storage's shards and the
    // IndexedDB tier (src/office/tiered-answers.ts; docs/cache.md: the add-in's 8 MB keep ~19,000
    // companies, the tier all). The shards are capped at 1 MB here, which ~2,400 companies fill: 4,000
    // overflow them as 25,000 overflow the 8 MB, at a sixth of the calls (bench W7 reopens 100,000).
    const shardBytes = 1024 * 1024;
    const cuis = data.sampleCuis(4_000, 100000);
    const kv = new MemoryStore();
    const idb = new MemoryStore();
    const pageStore = () =>
      Object.assign(kv, {
        answers: new TieredAnswerStore(
          kv,
          { open: async () => idb, estimate: async () => ({ quota: 2e9, usage: 0 }), idbEveryMs: 0 },
          { maxBytes: shardBytes },
        ),
      });
    const store = pageStore();
    const first = setup({ store });
    const wb = await workbook(first.engine);
    await wb.insert(cells(cuis));
    await first.engine.persist();
    // Every card loaded, each of the 120 calls answered 200 (if not: how many cards did not load, the
    // first ones with their notes, and what the sandbox answered)
    const unloaded = cuis
      .map((c, i) => [`A${i + 1}`, c] as const)
      .filter(([cell, c]) => wb.field(cell, RO[1]) !== data.company(c)!.denumire)
      .map(([cell]) => `${cell}: ${String(wb.field(cell, RO[1]))}, ${String(wb.field(cell, "Notă"))}`);
    const statuses: Record<string, number> = {};
    for (const r of first.requests()) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    expect({ unloaded: unloaded.length, first: unloaded.slice(0, 3), statuses }).toEqual({
      unloaded: 0,
      first: [],
      statuses: { 200: 120 },
    });
    const paid = first.charged();
    expect(paid).toBe(40 + 80);
    // the shards kept only part of the answers: without the IndexedDB tier the reopened workbook would pay
    const held = async (open: () => Promise<MemoryStore | null>) =>
      [...(await new TieredAnswerStore(kv, { open }, { maxBytes: shardBytes }).load()).entries].length;
    const [inShards, inBoth] = [await held(async () => null), await held(async () => idb)];
    expect(inShards).toBeLessThan(inBoth * 0.75);
    expect(inBoth).toBeGreaterThanOrEqual(2 * cuis.length); // a profile and a financial year each
    const reopened = new FirmaEngine({ baseUrl: sb.url, apiKey: () => first.key, store: pageStore(), windowMs: 5, retryDelayMs: 5 });
    const again = await workbook(reopened, {}, wb.save());
    await again.refresh();
    expect(first.charged()).toBe(paid);
    expect(again.field("A4000", RO[1])).toBe(data.company(cuis[3_999])!.denumire);
  }, 120_000);

  test("the add-in removed and the workbook reopened: the cards keep their values; a refresh then shows #CONNECT!", async () => {
    const cuis = data.sampleCuis(3, 42000);
    const { engine } = setup();
    const wb = await workbook(engine);
    await wb.insert(cells(cuis));
    const without = new LinkedEntityWorkbook({ load: null }, wb.save());
    expect(without.field("A2", RO[1])).toBe(data.company(cuis[1])!.denumire);
    expect(without.shown("A2")).toBe(data.company(cuis[1])!.denumire);
    await without.refresh();
    expect(without.shown("A2")).toBe("#CONNECT!");
  });
});

describe("refresh modes", () => {
  test("manual (the default) lists no other mode: a workbook saved with OnLoad does not refresh at registration", async () => {
    const { engine, charged } = setup();
    const wb = await workbook(engine, { supportedRefreshModes: ["Manual"] });
    await wb.insert(cells(data.sampleCuis(2, 43000)));
    const saved = wb.save();
    saved.modes = [[COMPANY_DOMAIN_ID, "OnLoad"]];
    const paid = charged();
    const reopened = await workbook(engine, { supportedRefreshModes: ["Manual"] }, saved);
    expect(reopened.domains.get(COMPANY_DOMAIN_ID)!.refreshMode).toBe("Manual");
    expect(reopened.requests).toHaveLength(0);
    expect(charged()).toBe(paid);
  });

  test("on load: the registration (the add-in's load) refreshes, through the cache", async () => {
    const { engine } = setup();
    const wb = await workbook(engine);
    await wb.insert(cells(data.sampleCuis(2, 44000)));
    const saved = { ...wb.save(), modes: [] }; // no mode saved yet: "the first value in the array" is the mode
    const reopened = await workbook(engine, { supportedRefreshModes: ["OnLoad", "Manual"] }, saved);
    expect(reopened.domains.get(COMPANY_DOMAIN_ID)!.refreshMode).toBe("OnLoad");
    expect(reopened.requests).toHaveLength(1);
  });
});
