/**
 * SCALE: an analyst's refresh of a whole workbook without Excel, at scale. `firma refresh` (a child
 * process, as at a terminal, with its disk cache in a fresh folder) of a 100,000-row workbook
 * (DENUMIRE and CA for 100,000 distinct companies: 200,000 formulas) against the sandbox at the
 * bench's latency, then the same refresh again (its 200,000 answers from the cache's SQLite file).
 * Measured for each: the credits the sandbox charged (the first against the API minimum,
 * ⌈100,000 / 100⌉ + ⌈100,000 / 50⌉ = 3,000; the second against 0), the credits the report says it
 * spent, the time, the process's peak resident memory, the exit code, whether the counter still
 * moves after the report (a call left running), and every cell of the written workbook against the
 * dataset. `npm test` runs the refresh on 10,000 rows (test/cli/scale.test.ts) and the cache's file
 * with 100,000 answers (test/cli/sqlite-store.test.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { buildWorkbook, type BuildCell } from "../test/fixtures/build-workbook";
import { reportedCredits } from "../test/cli/helpers";
import { Workbook } from "../src/shared/xlsx/workbook";
import * as data from "../sandbox/dataset";
import type { Svc } from "./hardening";
import { firmaProcess } from "./measure";

const ROWS = 100_000;
/** SCALE's memory target: the first refresh's peak resident set, in MB (an analyst's laptop runs other things too). */
const PEAK_RSS_MB = 1_600;
const say = (s: string) => process.stderr.write(s + "\n");

export interface ScaleResult extends ScaleRun {
  latencyMs: number;
  rows: number;
  /** The API minimum: ⌈rows / 100⌉ identification calls + ⌈rows / 50⌉ financial ones. */
  minimum: number;
  /** The same refresh again, from the cache the first left (absent in results kept from before). */
  again?: ScaleRun;
}

/** One `firma refresh` of the workbook. */
export interface ScaleRun {
  /** What the sandbox charged during the refresh. */
  credits: number;
  /** What the report said it spent (NaN when it said nothing). */
  reported: number;
  /** Credits charged in the second after the report (a call still running would show here). */
  after: number;
  seconds: number;
  peakRssMb: number | null;
  exitCode: number | null;
  /** Cells of the written workbook checked against the dataset, and how many of them were wrong. */
  checked: number;
  wrong: number;
  /** The report's last line. */
  line: string;
}

export async function scale(svc: Svc, latencyMs: number, rows = ROWS): Promise<ScaleResult> {
  say(`SCALE: firma refresh of ${rows.toLocaleString("en")} rows × DENUMIRE, CA, then again from its cache`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "firma-scale-"));
  try {
    const cuis = data.sampleCuis(rows, 600_000);
    const cells: BuildCell[][] = [["CUI", "Denumire", "CA"]];
    cuis.forEach((c, i) => cells.push([c, { formula: `=FIRMA.DENUMIRE(A${i + 2})` }, { formula: `=FIRMA.CA(A${i + 2})` }]));
    const file = path.join(work, "scale.xlsx");
    fs.writeFileSync(file, buildWorkbook({ sheets: [{ name: "Firme", rows: cells }] }));
    const key = `demo-enterprise-bench-scale-${Date.now()}`;
    const first = await refresh(svc, key, work, file, cuis);
    const again = await refresh(svc, key, work, file, cuis);
    return { latencyMs, rows, minimum: Math.ceil(rows / 100) + Math.ceil(rows / 50), ...first, again };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** `firma refresh` of `file` with the disk cache under `work`; the written workbook checked cell by cell. */
async function refresh(svc: Svc, key: string, work: string, file: string, cuis: readonly number[]): Promise<ScaleRun> {
  const out = path.join(work, "out.xlsx");
  fs.rmSync(out, { force: true });
  const before = (await svc.usage(key)).total;
  const run = await firmaProcess(
    ["refresh", file, "--cache-dir", path.join(work, "cache"), "--no-progress", "--out", out, "--lang", "ro"],
    {
      FIRMA_API_KEY: key,
      FIRMA_BASE_URL: svc.url,
    },
  );
  const credits = (await svc.usage(key)).total - before;
  await new Promise((r) => setTimeout(r, 1000));
  const after = (await svc.usage(key)).total - before - credits;
  let [checked, wrong] = [0, 0];
  if (fs.existsSync(out)) {
    const wb = Workbook.open(fs.readFileSync(out));
    cuis.forEach((cui, i) => {
      const fy = data.financialYear(cui, data.LATEST_YEAR);
      const want: Array<[string, unknown]> = [[`B${i + 2}`, data.company(cui)?.denumire]];
      if (fy) want.push([`C${i + 2}`, fy.cifra_afaceri]);
      for (const [ref, value] of want) {
        checked++;
        if (wb.getValue("Firme", ref) !== value) wrong++;
      }
    });
  }
  return {
    credits,
    reported: reportedCredits(run.out).spent,
    after,
    seconds: run.seconds,
    peakRssMb: run.peakRssMb,
    exitCode: run.exitCode,
    checked,
    wrong,
    line: run.out.split("\n").filter(Boolean).pop() ?? "",
  };
}

export function scaleTargets(r: ScaleResult | undefined): { target: string; measured: string; met: boolean }[] {
  if (!r) return [];
  const again = r.again;
  return [
    {
      target: `SCALE: firma refresh of ${r.rows.toLocaleString("en")} rows costs the API minimum (${r.minimum.toLocaleString("en")} credits), the report says what was charged, every cell right`,
      measured:
        `${r.credits.toLocaleString("en")} credits charged, ${r.reported.toLocaleString("en")} reported, ${r.after} after the report; ` +
        `${r.wrong} of ${r.checked.toLocaleString("en")} cells wrong; exit ${r.exitCode}`,
      met: r.credits === r.minimum && r.reported === r.credits && r.after === 0 && r.checked > 0 && r.wrong === 0 && r.exitCode === 0,
    },
    {
      // 1,977 MB before the workbook's cells and the refresh's wants were made leaner (about 1,420 MB after).
      target: `SCALE: firma refresh of ${r.rows.toLocaleString("en")} rows peaks under ${PEAK_RSS_MB.toLocaleString("en")} MB of resident memory`,
      measured: `${r.peakRssMb ?? "?"} MB`,
      met: r.peakRssMb !== null && r.peakRssMb < PEAK_RSS_MB,
    },
    ...(again
      ? [
          {
            target: `SCALE: the same refresh again, from the cache the first left: 0 credits, every cell right`,
            measured: `${again.credits} credits charged, ${again.reported} reported; ${again.wrong} of ${again.checked.toLocaleString("en")} cells wrong; exit ${again.exitCode}`,
            met: again.credits === 0 && again.reported === 0 && again.checked > 0 && again.wrong === 0 && again.exitCode === 0,
          },
        ]
      : []),
  ];
}

export function scaleMarkdown(r: ScaleResult): string[] {
  const row = (name: string, x: ScaleRun) =>
    `| ${name} | ${x.credits.toLocaleString("en")} | ${x.reported.toLocaleString("en")} | ${x.after} | ${x.seconds} s | ` +
    `${x.peakRssMb ?? "?"} MB | ${x.wrong} of ${x.checked.toLocaleString("en")} | ${x.exitCode} | ${x.line.replace(/\|/g, "\\|")} |`;
  return [
    `## SCALE: firma refresh of ${r.rows.toLocaleString("en")} rows`,
    "",
    `\`firma refresh\` (a child process, its disk cache in a fresh folder) of a workbook of ${r.rows.toLocaleString("en")} distinct companies × DENUMIRE and CA ` +
      `against the sandbox at ${r.latencyMs} ms; the API minimum is ${r.minimum.toLocaleString("en")} credits; ` +
      "then the same refresh again, from that cache. Memory: the process's peak resident set (VmHWM). " +
      "Every cell of the written workbook is checked against the dataset.",
    "",
    "| Refresh | Credits charged | Reported | After the report | Time | Peak memory | Cells wrong | Exit | What it said last |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    row("first (the cache empty)", r),
    ...(r.again ? [row("again, from the cache", r.again)] : []),
    "",
  ];
}
