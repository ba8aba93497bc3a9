/**
 * The built add-in's linked entity load service (INCARCA_FIRME) in the Excel stand-in: the bundle
 * associates it, both metadata files flag it, Excel's request (a JSON string) reaches it through the
 * runtime, its work loads as a chunk of its own, and the answer is held to the page by Excel's linked
 * entity side (test/support/excel/linked-entities.ts). docs/excel.md, "Linked companies".
 */
import * as fs from "fs";
import * as path from "path";
import { DIST, ExcelStandIn, StandInError, StandInStorage } from "../support/excel-runtime";
import { LinkedEntityWorkbook } from "../support/excel/linked-entities";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

jest.setTimeout(120_000);

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

const stub = (cui: number | string, culture = "ro-RO") => ({
  type: "LinkedEntity",
  id: { entityId: String(cui), domainId: "firma-company", serviceId: 268436224, culture },
  text: String(cui),
  basicType: "Error",
  basicValue: "#VALUE!",
});

function excel(key: string, guard?: string): ExcelStandIn {
  const storage = new StandInStorage();
  if (guard !== undefined) storage.data.set("firma.guardThreshold", guard);
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", sb.url);
  storage.data.set("firma.batchWindowMs", "5");
  // The linked edition (manifest-legate.xml): its metadata carries the load service.
  return new ExcelStandIn(storage, undefined, {
    requirementSets: { CustomFunctionsRuntime: "1.5", ExcelApi: "1.19" },
    manifest: "manifest-legate.xml",
  });
}

test("the linked edition's metadata files carry the load service with linkedEntityLoadService, the default ones do not; the bundle associates it", () => {
  for (const file of ["functions.json", "functions-en.json"]) {
    const m = JSON.parse(fs.readFileSync(path.join(DIST, file), "utf8"));
    expect(m.functions.map((x: { id: string }) => x.id)).not.toContain("INCARCA_FIRME");
  }
  for (const file of ["functions-legate.json", "functions-legate-en.json"]) {
    const m = JSON.parse(fs.readFileSync(path.join(DIST, file), "utf8"));
    const f = m.functions.find((x: { id: string }) => x.id === "INCARCA_FIRME");
    expect(f.options).toEqual(expect.objectContaining({ linkedEntityLoadService: true }));
    expect(f.helpUrl).toMatch(/^https:\/\/.+#INCARCA_FIRME$/);
  }
  const xl = excel("demo-enterprise-linked-built0");
  expect(xl.associated.has("INCARCA_FIRME")).toBe(true);
  // loaded by manifest.xml (no `legate=1` in its page's address): nothing associated that its metadata lacks
  const plain = new ExcelStandIn(new StandInStorage(), undefined, { manifest: "manifest.xml" });
  expect(plain.associated.has("INCARCA_FIRME")).toBe(false);
  expect([...plain.associated.keys()].sort()).toEqual(plain.metadata.map((m) => m.id).sort());
  expect(xl.notLoaded.has("INCARCA_FIRME")).toBe(false);
  // its work is not in the startup scripts: the chunk is loaded when Excel first calls it
  expect(fs.readFileSync(path.join(DIST, "shared.js"), "utf8")).not.toContain("Valori din");
});

test("Excel's request through the runtime: the companies in order, a bad CUI only its own card, for what FISA cells cost", async () => {
  const key = "demo-enterprise-linked-built1";
  const xl = excel(key, "off");
  const load = async (request: string) => {
    const r = await xl.call("INCARCA_FIRME", [request]);
    if (r instanceof StandInError) throw r;
    return r;
  };
  const wb = new LinkedEntityWorkbook({ load });
  await wb.add({ dataProvider: "FIRMA", id: "firma-company", name: "Firmă", loadFunctionId: "INCARCA_FIRME" });
  const cuis = data.sampleCuis(120, 52000);
  await wb.insert([...cuis.map((c, i) => [`A${i + 1}`, stub(c)] as [string, any]), ["B1", stub("123")], ["B2", stub(cuis[0], "en-GB")]]);
  expect(wb.violations).toEqual([]);
  expect(xl.violations).toEqual([]);
  expect(wb.requests).toHaveLength(1);
  expect(wb.field("A1", "Notă")).toBe("#FIELD!");
  cuis.forEach((c, i) => expect(wb.field(`A${i + 1}`, "Denumire")).toBe(data.company(c)!.denumire));
  expect(wb.field("B2", "Name")).toBe(data.company(cuis[0])!.denumire);
  expect(String(wb.field("B1", "Notă"))).toMatch(/CUI/);
  expect(sb.usage(key).total).toBe(2 + 3); // 120 profiles by 100, 120 latest years by 50
  // A request it cannot read: the whole request fails, #CONNECT! (the page's one failure)
  await expect(load("{not json")).rejects.toBeInstanceOf(StandInError);
});

test("Data → Refresh All spends no credit past the credit guard: with the default threshold the companies are held, each card says why", async () => {
  const key = "demo-enterprise-linked-built2";
  const xl = excel(key);
  const wb = new LinkedEntityWorkbook({ load: async (request) => xl.call("INCARCA_FIRME", [request]) });
  await wb.add({ dataProvider: "FIRMA", id: "firma-company", name: "Firmă", loadFunctionId: "INCARCA_FIRME" });
  const cuis = data.sampleCuis(3000, 53000);
  await wb.insert(cuis.map((c, i) => [`A${i + 1}`, stub(c)] as [string, any]));
  expect(wb.violations).toEqual([]);
  expect(sb.usage(key).total).toBe(0);
  expect(String(wb.field("A1", "Notă"))).toMatch(/limita de credite/);
  expect(wb.field("A1", "Denumire")).toBe("#FIELD!");
});
