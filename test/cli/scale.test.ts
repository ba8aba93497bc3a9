/**
 * `firma refresh` at scale: a 10,000-row workbook (DENUMIRE and CA for 10,000 distinct companies,
 * 20,000 formulas) against the sandbox over loopback HTTP. The report's spend must equal what the
 * sandbox charged, the run must be the API's minimum (⌈10,000/100⌉ + ⌈10,000/50⌉ = 300 calls), every
 * cell must show its own company's value, and no call may still be running when the CLI has reported.
 * The same refresh of 100,000 rows (3,000 calls) is the bench's SCALE (bench/scale.ts): at that size it
 * took 3–4 minutes of CI's 2 cores, and scale runs belong in the bench.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, BuildCell } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { expectReportedCharge, reportedCredits } from "./helpers";
import { Workbook } from "../../src/shared/xlsx/workbook";
import * as data from "../../sandbox/dataset";
import { startSandbox, Sandbox } from "../../sandbox/server";

const ROWS = 10_000;
let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-scale-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

test("10,000 rows × DENUMIRE, CA: the minimum 300 calls, the report equals the sandbox's count, every value right", async () => {
  const cuis = data.sampleCuis(ROWS, 600_000);
  const rows: BuildCell[][] = [["CUI", "Denumire", "CA"]];
  cuis.forEach((c, i) => rows.push([c, { formula: `=FIRMA.DENUMIRE(A${i + 2})` }, { formula: `=FIRMA.CA(A${i + 2})` }]));
  const file = join(dir, "scale.xlsx");
  writeFileSync(file, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
  const key = "demo-enterprise-scale";
  const started = Date.now();
  const { code, all: out } = await firma(["refresh", file, "--no-cache", "--no-progress", "--out", join(dir, "out.xlsx")], {
    key,
    baseUrl: sb.url,
  });
  const ms = Date.now() - started;
  const charged = sb.usage(key).total;
  const reported = reportedCredits(out).spent;
  console.log(
    `10,000-row refresh: ${charged} calls charged by the sandbox, ${reported} reported, ${(ms / 1000).toFixed(1)} s, exit ${code}`,
  );
  expect(code).toBe(0);
  expect(charged).toBe(300);
  expectReportedCharge(out, charged);
  // Nothing still running after the report: the counter does not move.
  await new Promise((r) => setTimeout(r, 300));
  expect(sb.usage(key).total).toBe(charged);

  const wb = Workbook.open(readFileSync(join(dir, "out.xlsx")));
  const latest = data.LATEST_YEAR;
  for (let i = 0; i < ROWS; i += 97) {
    expect([i, wb.getValue("Firme", `B${i + 2}`)]).toEqual([i, data.company(cuis[i])!.denumire]);
    const fy = data.financialYear(cuis[i], latest);
    const ca = wb.getValue("Firme", `C${i + 2}`);
    if (fy) expect([i, ca]).toEqual([i, fy.cifra_afaceri]);
  }
}, 300_000);
