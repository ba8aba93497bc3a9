/**
 * `firma refresh` end to end: workbooks in Excel's own form, refreshed against the sandbox over
 * loopback HTTP through the same engine and functions as the add-in.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, demoSpec } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { demoOracle, expectDemoValues } from "../support/demo-values";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { parseCui } from "../../src/api/cui";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import {
  FIXTURE,
  fixtureBytes,
  hasSoffice,
  toCsv,
  unzipBytes,
  unzipText,
  sameBytes,
  reportedCredits,
  expectReportedCharge,
} from "./helpers";

let sb: Sandbox;
let dir: string;
let n = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-refresh-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const creditsIn = (out: string) => reportedCredits(out).spent;
const uncertainIn = (out: string) => reportedCredits(out).uncertain;
const estimateIn = (out: string) => Number(/→ (?:cel mult )?([\d.]+) (?:de )?credit/.exec(out)?.[1].replace(/\./g, ""));

/** A company with accounts for every year 2020–2024: the spilled ISTORIC keeps its size. */
const FULL = data.sampleCuis(200, 70000).find((c) => [2020, 2021, 2022, 2023, 2024].every((y) => data.financialYear(c, y)))!;

function portfolio(rows: number, form?: "xldudf" | "plain") {
  const cuis = [FULL, ...data.sampleCuis(Math.ceil(rows / 2), 71000), ...data.missingCuis(3)];
  return buildWorkbook(
    demoSpec({
      rows,
      cuis,
      form,
      history:
        form === "plain"
          ? false
          : { formula: "=FIRMA.ISTORIC({cui},2020,2024)", cached: Array.from({ length: 5 }, () => [{ error: "#N/A" }, { error: "#N/A" }]) },
    }),
  );
}

describe("firma refresh", () => {
  test("the real Excel-saved fixture (another add-in's functions, no FIRMA formula): one clear line, nothing done, nothing written", async () => {
    if (!existsSync(FIXTURE)) return console.warn(`skipped: ${FIXTURE} is absent`);
    const out = join(dir, "fixture.out.xlsx");
    const r = await firma(["refresh", FIXTURE, "--key", "demo-pro-fixture", "--base-url", sb.url, "--out", out, "--no-cache"]);
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toEqual([expect.stringMatching(/nu conține nicio formulă FIRMA/)]);
    expect(existsSync(out)).toBe(false);
    expect(sameBytes(readFileSync(FIXTURE), fixtureBytes())).toBe(true);
    expect(sb.usage("demo-pro-fixture").total).toBe(0);
  });

  describe("a 500-row portfolio in Excel's form", () => {
    const input = portfolio(500);
    const key = `demo-enterprise-cli${++n}`;
    const file = () => join(dir, "portfolio.xlsx");
    const out = () => join(dir, "portfolio.refreshed.xlsx");
    const cache = () => join(dir, "cache");
    let dry: { code: number; out: string };
    let run: { code: number; out: string; err: string };

    beforeAll(async () => {
      writeFileSync(file(), input);
      dry = await firma(["refresh", file(), "--key", key, "--base-url", sb.url, "--cache-dir", cache(), "--dry-run"]);
      run = await firma(["refresh", file(), "--key", key, "--base-url", sb.url, "--cache-dir", cache()]);
    });

    test("a dry run spends nothing, writes nothing, and its estimate (first contact: an upper bound) is not below what the run spends", () => {
      expect(dry.code).toBe(0);
      expect(run.code).toBe(0);
      expect(creditsIn(run.out)).toBeLessThanOrEqual(estimateIn(dry.out));
      expectReportedCharge(run.out, sb.usage(key).total);
    });

    test("every value is the sandbox's, errors are Excel errors with the same meaning", () => {
      const wb = Workbook.open(readFileSync(out()));
      const src = Workbook.open(input);
      expectDemoValues(wb, src, 501);
      const years = [2024, 2023, 2022, 2021, 2020];
      years.forEach((y, i) => {
        expect(wb.getValue("Firme", `H${2 + i}`)).toBe(y);
        expect(wb.getValue("Firme", `I${2 + i}`)).toBe(data.financialYear(FULL, y)!.cifra_afaceri);
      });
    });

    test("credits equal the minimum the API allows: ⌈distinct/100⌉ + ⌈distinct/50⌉", () => {
      const src = Workbook.open(input);
      const distinct = new Set<number>();
      for (let r = 2; r <= 501; r++) {
        const p = parseCui(src.getValue("Firme", `A${r}`));
        if (p.ok) distinct.add(p.cui);
      }
      const minimum = Math.ceil(distinct.size / 100) + Math.ceil(distinct.size / 50);
      expect(sb.usage(key).total).toBe(minimum);
      expectReportedCharge(run.out, minimum);
    });

    test("every zip entry but the refreshed sheet is byte-identical; in that sheet only <v> values and cell types changed", () => {
      const before = unzipBytes(input);
      const after = unzipBytes(readFileSync(out()));
      expect([...after.keys()]).toEqual([...before.keys()]);
      const changed = [...before.keys()].filter((k) => !sameBytes(before.get(k)!, after.get(k)!));
      expect(changed).toEqual(["xl/worksheets/sheet1.xml"]);
      const strip = (xml: string) => xml.replace(/<v>[^<]*<\/v>/g, "<v/>").replace(/ t="[^"]*"/g, "");
      const a = unzipText(input).get("xl/worksheets/sheet1.xml")!;
      const b = unzipText(readFileSync(out())).get("xl/worksheets/sheet1.xml")!;
      expect(strip(b)).toBe(strip(a));
      expect(b).not.toBe(a);
    });

    test("a second run with the cache spends 0 credits and writes the same values", async () => {
      const again = join(dir, "again.xlsx");
      const spent = sb.usage(key).total;
      const r = await firma(["refresh", file(), "--key", key, "--base-url", sb.url, "--cache-dir", cache(), "--out", again]);
      expect(r.code).toBe(0);
      expect(creditsIn(r.out)).toBe(0);
      expect(sb.usage(key).total).toBe(spent);
      expect(sameBytes(readFileSync(again), readFileSync(out()))).toBe(true);
    });

    test("the input is never overwritten unless --in-place", () => {
      expect(sameBytes(readFileSync(file()), input)).toBe(true);
    });
  });

  test("--max-credits is a hard budget: no call past it, unfilled cells keep their values, exit code 3 (partial)", async () => {
    const key = `demo-enterprise-cli${++n}`;
    const f = join(dir, "max.xlsx");
    writeFileSync(f, portfolio(300));
    const r = await firma([
      "refresh",
      f,
      "--key",
      key,
      "--base-url",
      sb.url,
      "--no-cache",
      "--max-credits",
      "3",
      "--out",
      join(dir, "max.out.xlsx"),
    ]);
    expect(r.code).toBe(2); // partial
    expect(r.out).toMatch(/--max-credits 3/);
    expect(sb.usage(key).total).toBeLessThanOrEqual(3);
    expect(sb.requests.filter((q) => q.key === key).length).toBeLessThanOrEqual(3);
    expectReportedCharge(r.out, sb.usage(key).total);
    // cells past the budget keep the workbook's previous values
    const before = Workbook.open(readFileSync(f));
    const after = Workbook.open(readFileSync(join(dir, "max.out.xlsx")));
    const reported = Number(/(\d+) × bugetul de credite/.exec(r.out)?.[1]);
    expect(reported).toBeGreaterThan(0);
    const same = [...Array(300).keys()].flatMap((i) =>
      ["B", "C", "D", "E", "F"].filter(
        (c) => JSON.stringify(after.getValue("Firme", `${c}${i + 2}`)) === JSON.stringify(before.getValue("Firme", `${c}${i + 2}`)),
      ),
    );
    expect(same.length).toBeGreaterThanOrEqual(reported);
  });

  test("a call that got no answer saying so counts as spent, and the report says it may not have been charged", async () => {
    const key = `demo-enterprise-cli${++n}`;
    const f = join(dir, "unanswered.xlsx");
    writeFileSync(f, portfolio(20));
    sb.config.faults = { failNext: 1 }; // the first call: a 500, which the sandbox does not charge; its retry is answered
    try {
      const r = await firma(["refresh", f, "--key", key, "--base-url", sb.url, "--no-cache", "--out", join(dir, "unanswered.out.xlsx")]);
      const json = await firma([
        "refresh",
        f,
        "--key",
        `${key}-json`,
        "--base-url",
        sb.url,
        "--no-cache",
        "--json",
        "--out",
        join(dir, "u2.xlsx"),
      ]);
      expect(r.code).toBe(0);
      const charged = sb.usage(key).total;
      // every cell answered: one call more than the sandbox charged, and said so
      expect(r.out).toMatch(/credite cheltuite: cel mult \d+ .*serviciul poate să nu fi taxat 1 apel fără răspuns/);
      expect(creditsIn(r.out)).toBe(charged + 1);
      expect(uncertainIn(r.out)).toBe(1);
      // the second run met no fault: its summary's uncertain credits are 0
      expect(JSON.parse(json.out)).toMatchObject({ creditsSpent: sb.usage(`${key}-json`).total, creditsUncertain: 0 });
    } finally {
      sb.config.faults = {};
    }
  });

  test.each([
    ["a text file", Buffer.from("CUI,Denumire\n14399840,x\n")],
    ["a truncated workbook", Buffer.from(portfolio(20)).subarray(0, 900)],
    ["an empty file", Buffer.alloc(0)],
  ])("%s gets a clear error and no output file", async (_what, bytes) => {
    const f = join(dir, `bad${++n}.xlsx`);
    writeFileSync(f, bytes);
    const o = join(dir, `bad${n}.out.xlsx`);
    const r = await firma(["refresh", f, "--key", "demo-pro", "--base-url", sb.url, "--no-cache", "--out", o]);
    expect(r.code).toBe(1); // nothing done
    expect(r.err).toMatch(/xlsx/i);
    expect(existsSync(o)).toBe(false);
  });

  test("without a key or an address it says how to get one", async () => {
    const f = join(dir, "nokey.xlsx");
    writeFileSync(f, portfolio(5));
    const noKey = await firma(["refresh", f, "--base-url", sb.url, "--no-cache"]);
    expect(noKey.code).toBe(1);
    expect(noKey.err).toMatch(/FIRMA_API_KEY/);
    expect(noKey.err).toMatch(/demo-pro/);
    const noUrl = await firma(["refresh", f, "--key", "demo-pro", "--no-cache"]);
    expect(noUrl.code).toBe(1);
    expect(noUrl.err).toMatch(/FIRMA_BASE_URL/);
  });

  test("a plain http address off this machine is refused before anything is sent", async () => {
    const f = join(dir, "http.xlsx");
    writeFileSync(f, portfolio(5));
    const r = await firma(["refresh", f, "--key", "demo-pro", "--base-url", "http://api.example.com", "--no-cache"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Adresa serviciului http:\/\/api\.example\.com\/? nu este validă: folosiți https/);
    expect(r.err).not.toMatch(/invalid option/);
  });

  const soffice = hasSoffice();
  (soffice ? describe : describe.skip)(
    `the refreshed file opens in LibreOffice${soffice ? "" : " — SKIPPED: soffice is not installed"}`,
    () => {
      test("an Excel-form workbook converts to CSV without error", async () => {
        const f = join(dir, "lo.xlsx");
        writeFileSync(f, portfolio(30));
        const r = await firma(["refresh", f, "--key", `demo-enterprise-cli${++n}`, "--base-url", sb.url, "--no-cache"]);
        expect(r.code).toBe(0);
        const csv = toCsv(mkdtempSync(join(dir, "lo-")), "lo.xlsx", readFileSync(join(dir, "lo.refreshed.xlsx")));
        expect(csv.get("Firme")?.length).toBeGreaterThan(30);
      });

      test("with plain FIRMA.X formulas, the CSV shows the refreshed values", async () => {
        const f = join(dir, "plain.xlsx");
        const input = portfolio(20, "plain");
        writeFileSync(f, input);
        const r = await firma(["refresh", f, "--key", `demo-enterprise-cli${++n}`, "--base-url", sb.url, "--no-cache"]);
        expect(r.code).toBe(0);
        const csv = toCsv(mkdtempSync(join(dir, "plain-")), "plain.xlsx", readFileSync(join(dir, "plain.refreshed.xlsx")));
        const rows = csv.get("Firme")!;
        const src = Workbook.open(input);
        let named = 0;
        for (let r2 = 2; r2 <= 21; r2++) {
          const want = demoOracle("DENUMIRE", src.getValue("Firme", `A${r2}`));
          if (typeof want === "string") {
            expect(rows[r2 - 1][1].replace(/^"|"$/g, "")).toBe(want);
            named++;
          }
        }
        expect(named).toBeGreaterThan(10);
      });
    },
  );
});
