/**
 * Field names as people write them in FIRMA.CAMP (diacritics, English aliases), an
 * unknown one listing the valid names at no cost, and TOP's annual change as a fraction for Excel's
 * % format.
 */
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { evaluate } from "../../src/shared/evaluate";
import * as data from "../../sandbox/dataset";
import { startSandbox, Sandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});
const engine = (key: string) => new FirmaEngine({ baseUrl: sb.url, apiKey: () => key, store: new MemoryStore(), windowMs: 1 });

test.each([
  ["județ", "judet"],
  ["Județ", "judet"],
  ["Localitate", "localitate"],
  ["county", "judet"],
  ["VAT payer", "platitor_tva"],
])("CAMP(cui, %p) reads %s", async (name, field) => {
  const cui = data.EXAMPLE_CUI;
  const m = await evaluate("CAMP", [cui, name], { engine: engine("demo-enterprise-names1"), lang: "ro" });
  expect(m).toEqual([[(data.company(cui) as unknown as Record<string, unknown>)[field]]]);
});

test.each([
  ["angajați", "numar_angajati"],
  ["net profit", "profit_net"],
])("CAMP(cui, %p, year) reads %s", async (name, field) => {
  const cui = data.EXAMPLE_CUI;
  const m = await evaluate("CAMP", [cui, name, data.LATEST_YEAR], { engine: engine("demo-enterprise-names2"), lang: "ro" });
  expect(m).toEqual([[(data.financialYear(cui, data.LATEST_YEAR) as unknown as Record<string, unknown>)[field]]]);
});

test("an unknown field: #VALUE! listing the valid names, no call", async () => {
  const key = "demo-enterprise-names3";
  const m = await evaluate("CAMP", [data.EXAMPLE_CUI, "telefon"], { engine: engine(key), lang: "en" });
  expect(m).toEqual([[{ error: "#VALUE!", message: expect.stringMatching(/use a valid name: .*judet.*numar_angajati/) }]]);
  expect(sb.usage(key).total).toBe(0);
});

test("TOP's annual change is a fraction (0.268 for 26.8 %)", async () => {
  const slug = `top-cifra-afaceri-${data.LATEST_YEAR}-national`;
  const m = (await evaluate("TOP", [slug, 5], { engine: engine("demo-enterprise-names4"), lang: "ro" })) as unknown[][];
  const rows = m.slice(1).filter((r) => typeof r[4] === "number") as number[][];
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) {
    const before = r[3] / (1 + r[4]);
    expect(Math.abs(r[4])).toBeLessThan(50); // a fraction, not a percentage of thousands
    expect(Number.isFinite(before)).toBe(true);
  }
  const res = await fetch(`${sb.url}/v4/topuri/${slug}?limit=5`, { headers: { "X-API-Key": "demo-enterprise-names5" } });
  const body = (await res.json()) as { data: { variatie: number | null }[] };
  body.data.forEach((e, i) => {
    if (e.variatie !== null) expect(m[i + 1][4]).toBeCloseTo(e.variatie / 100, 6);
  });
});
