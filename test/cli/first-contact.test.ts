/**
 * `firma refresh` on first contact with a service (issue 22, item 5): the estimate is printed as a
 * range (at most the upper bound, the low figure if the service answers every field); the run's
 * first call goes alone, and the exact estimate of the rest is printed after it; the spend stays
 * within the range. A 400-row sheet × DENUMIRE, STARE, JUDET, CA, PROFIT (+ one ISTORIC spill).
 */
import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, demoSpec } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { expectReportedCharge } from "./helpers";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dir: string;
let n = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-first-contact-"));
});
afterAll(async () => {
  sb.config.includeMode = "fields";
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const number = (s: string | undefined) => Number(s?.replace(/\./g, ""));
const LATEST = 2024;
const workbook = buildWorkbook(
  demoSpec({
    rows: 400,
    cuis: data.sampleCuis(250, 600_000),
    columns: [
      { header: "Denumire", formula: "=FIRMA.DENUMIRE({cui})" },
      { header: "Stare", formula: "=FIRMA.STARE({cui})" },
      { header: "Județ", formula: "=FIRMA.JUDET({cui})" },
      { header: "CA", formula: `=FIRMA.CA({cui},${LATEST})` },
      { header: "Profit", formula: `=FIRMA.PROFIT({cui},${LATEST})` },
    ],
    history: { formula: `=FIRMA.ISTORIC({cui},${LATEST - 4},${LATEST})`, cached: [["An", "Cifra de afaceri", "Profit net"]] },
  }),
);

describe("firma refresh on first contact", () => {
  test.each([
    ["honours include", "fields" as const],
    ["ignores include", "ignored" as const],
  ])("a service that %s: the range printed, the exact rest after the first call, the spend within the range", async (_, mode) => {
    sb.config.includeMode = mode;
    const key = `demo-enterprise-first${++n}`;
    const file = join(dir, `sheet${n}.xlsx`);
    writeFileSync(file, workbook);
    const r = await firma(["refresh", file, "--key", key, "--base-url", sb.url, "--cache-dir", join(dir, `cache${n}`)]);
    expect(r.code).toBe(0);
    const range = /→ cel mult ([\d.]+) de credite \(([\d.]+) credite? dacă serviciul răspunde la toate câmpurile/.exec(r.all);
    expect(range).not.toBeNull();
    const [high, low] = [number(range![1]), number(range![2])];
    expect(low).toBeLessThan(high);
    const probed = /prima cerere \(([\d.]+) credit\) a arătat ce face serviciul: restul, estimat exact, ([\d.]+) (?:de )?credit/.exec(
      r.all,
    );
    expect(probed).not.toBeNull();
    const [probe, rest] = [number(probed![1]), number(probed![2])];
    expect(probe).toBe(1);
    // a call without an answer (a kept-alive connection the sandbox had closed) is reported, and counted, as perhaps charged
    expectReportedCharge(r.all, sb.usage(key).total);
    const spent = sb.usage(key).total;
    expect(Math.abs(spent - probe - rest)).toBeLessThanOrEqual(0.1 * rest);
    expect(spent).toBeGreaterThanOrEqual(low);
    expect(spent).toBeLessThanOrEqual(high);
    if (mode === "fields") expect(spent).toBe(low);
    else expect(spent).toBe(high);
    console.log(`first contact, service that ${mode}: range ${low}–${high} shown, probe ${probe}, rest estimated ${rest}, spent ${spent}`);
  });

  test("a key the service refuses: the first call is not said to have shown what the service does; nothing spent", async () => {
    const file = join(dir, `refused${++n}.xlsx`);
    writeFileSync(file, workbook);
    const r = await firma(["refresh", file, "--key", "not-a-valid-key", "--base-url", sb.url, "--no-cache"]);
    expect(r.code).not.toBe(0);
    expect(sb.usage("not-a-valid-key").total).toBe(0);
    expect(r.all).not.toMatch(/a arătat ce face serviciul/);
    expect(r.all).toMatch(/prima cerere \(0 credite\) nu a arătat tot ce face serviciul/);
  });

  test("--json carries the range and the probe", async () => {
    sb.config.includeMode = "fields";
    const key = `demo-enterprise-first${++n}`;
    const file = join(dir, `sheet${n}.xlsx`);
    writeFileSync(file, workbook);
    const r = await firma(["refresh", file, "--key", key, "--base-url", sb.url, "--no-cache", "--json"]);
    const json = JSON.parse(r.all.trim().split("\n").pop()!);
    expect(json.estimate.exact).toBe(false);
    expect(json.estimate.ifAnswered).toBeLessThan(json.estimate.credits);
    expect(json.estimate.probe).toEqual({ credits: 1, rest: json.creditsSpent - 1, exact: true });
  });
});
