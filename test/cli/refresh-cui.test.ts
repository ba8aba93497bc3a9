/**
 * `firma refresh` of a workbook with FIRMA.CUI cells: the estimate counts their searches, the refresh
 * fetches each distinct name once and writes the CUIs where the match is sure; a second run costs nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { startSandbox, Sandbox } from "../../sandbox/server";
import { universe } from "../../sandbox/universe";
import { normalizeName } from "../../src/engine/engine";

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-refresh-cui-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

test("FIRMA.CUI cells: one search a distinct name, the CUIs of the sure ones written, nothing spent the second time", async () => {
  const count = new Map<string, number>();
  for (const c of universe().companies) count.set(normalizeName(c.denumire), (count.get(normalizeName(c.denumire)) ?? 0) + 1);
  const alone = universe()
    .companies.filter((c) => count.get(normalizeName(c.denumire)) === 1 && !/[ĂÂÎȘȚ]/.test(c.denumire))
    .slice(0, 6);
  const names = [...alone.map((c) => c.denumire), `SC ${alone[0].denumire.toLowerCase()}`, "Zzqq Nicio Firma Srl", "SRL"];
  const rows = [["Nume", "CUI"], ...names.map((nm, i) => [nm, { formula: `=FIRMA.CUI(A${i + 2})` }])];
  const file = join(dir, "names.xlsx");
  writeFileSync(file, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
  const key = "demo-enterprise-refresh-cui";
  const args = ["refresh", file, "--key", key, "--base-url", sb.url, "--cache-dir", join(dir, "cache")];
  // The first thing this process does with names (a fresh module registry per test file): nothing loaded before.
  const csv = join(dir, "out.csv");
  const r = await firma([...args, "--csv", csv]);
  expect(r.code).toBe(0);
  // 6 distinct names and the absent one: 7 searches; "SRL" is refused for free.
  expect(sb.usage(key).total).toBe(7);
  const lines = readFileSync(csv, "utf8")
    .replace(/^\ufeff/, "")
    .trimEnd()
    .split(/\r?\n/);
  const cuis = lines.slice(1).map((l) => l.split(",").at(-1));
  expect(cuis.slice(0, 7)).toEqual([...alone.map((c) => String(c.cui)), String(alone[0].cui)]);
  expect(cuis.slice(7).every((v) => !/^\d+$/.test(v ?? ""))).toBe(true);
  const dry = await firma([...args, "--dry-run"]);
  expect(dry.code).toBe(0);
  expect(dry.all).toMatch(/→ 0 credite/);
  const again = await firma([...args, "--csv", csv]);
  expect(again.code).toBe(0);
  expect(sb.usage(key).total).toBe(7);
});
