/**
 * Refreshes the FIRMA formulas of a workbook without Excel, on the add-in's own engine and
 * functions: finds the formulas (both saved forms), evaluates those whose arguments are constants,
 * and writes only their cached values. Everything else in the package stays byte for byte.
 */
import type { FirmaEngine, Estimate } from "../engine/engine";
import { Cell, isCellError, Lang, Matrix } from "../functions/cells";
import { cellRequests, evaluate } from "../functions/evaluate";
import { patchWorkbook } from "./patch";
import { Workbook } from "./workbook";

export interface RefreshOptions {
  engine: FirmaEngine;
  /** Language of the messages written into error cells' notes and the report. @default "ro" */
  lang?: Lang;
  /** Estimate only: nothing is fetched or written. */
  dryRun?: boolean;
  /** Refuse to start when the estimate is above this many credits. */
  maxCredits?: number | null;
  /** Called as formulas settle. */
  onProgress?: (done: number, total: number) => void;
}

export interface SkippedFormula {
  sheet: string;
  address: string;
  formula: string;
  reason: string;
}

export interface RefreshReport {
  /** FIRMA formula cells found. */
  formulas: number;
  /** Of those, evaluated (or, on a dry run, that would be). */
  evaluated: number;
  /** Not evaluated, with why: arguments that are not constants are reported, never guessed. */
  skipped: SkippedFormula[];
  estimate: Estimate;
  /** Result cells written with a value, and with an error (by error and message). */
  values: number;
  errors: Record<string, number>;
  /** Spills that could not be written (#SPILL!): where and what was in the way. */
  spillConflicts: { sheet: string; address: string; blockedBy: string }[];
  /** Credits the service counted for this run (calls other than refused ones, O20). */
  credits: number;
  cacheHits: number;
  /** The refreshed workbook; null on a dry run or when refused. */
  output: Uint8Array | null;
  /** Why nothing was done, when the run was refused. */
  refused: string | null;
}

export async function refreshWorkbook(input: Uint8Array, options: RefreshOptions): Promise<RefreshReport> {
  const { engine } = options;
  const lang = options.lang ?? "ro";
  const wb = Workbook.open(input);
  const found = wb.findFormulas("FIRMA");
  const skipped: SkippedFormula[] = [];
  const jobs: { sheet: string; address: string; name: string; args: unknown[] }[] = [];
  for (const fc of found) {
    const where = { sheet: fc.sheet, address: fc.address, formula: fc.formula };
    const resolved = wb.resolveArguments(fc);
    if (!fc.call || !resolved.ok) {
      const problems = resolved.ok ? [] : resolved.problems;
      skipped.push({ ...where, reason: problems.map((p) => p.message).join("; ") || "formula FIRMA neevaluabilă / not evaluable" });
    } else if (resolved.dependsOn.length > 0) {
      const on = resolved.dependsOn.map((d) => `${d.sheet}!${d.address}`).join(", ");
      skipped.push({
        ...where,
        reason: `argumentele depind de formule (${on}), nu de constante / arguments depend on formulas (${on}), not constants`,
      });
    } else {
      jobs.push({ sheet: fc.sheet, address: fc.address, name: fc.call.name, args: resolved.args });
    }
  }

  await engine.ready();
  const estimate = engine.estimate(jobs.flatMap((j) => cellRequests(j.name, j.args)));
  const report: RefreshReport = {
    formulas: found.length,
    evaluated: jobs.length,
    skipped,
    estimate,
    values: 0,
    errors: {},
    spillConflicts: [],
    credits: 0,
    cacheHits: 0,
    output: null,
    refused: null,
  };
  if (options.dryRun) return report;
  if (options.maxCredits != null && estimate.credits > options.maxCredits) {
    report.refused =
      lang === "en"
        ? `The refresh would cost about ${estimate.credits} credits, more than --max-credits ${options.maxCredits}; nothing was done.`
        : `Actualizarea ar costa circa ${estimate.credits} credite, peste --max-credits ${options.maxCredits}; nu s-a făcut nimic.`;
    return report;
  }

  const before = engine.usage();
  const hitsBefore = engine.cache.hits;
  let done = 0;
  const results = await Promise.all(
    jobs.map(async (j) => {
      const m = await evaluate(j.name, j.args, { engine, lang });
      options.onProgress?.(++done, jobs.length);
      return { sheet: j.sheet, address: j.address, value: m.length === 1 && m[0].length === 1 ? m[0][0] : m };
    }),
  );
  const after = engine.usage();
  report.credits = after.month - (after.day.slice(0, 7) === before.day.slice(0, 7) ? before.month : 0);
  report.cacheHits = engine.cache.hits - hitsBefore;
  await engine.persist();

  for (const r of results) for (const v of cells(r.value)) count(report, v);
  const patch = patchWorkbook(wb, results);
  for (const o of patch.outcomes) {
    if (o.status === "spill") report.spillConflicts.push({ sheet: o.sheet, address: o.address, blockedBy: (o.blockedBy ?? []).join(", ") });
  }
  report.output = wb.pkg.toBytes();
  return report;
}

function cells(v: Cell | Matrix): Cell[] {
  return Array.isArray(v) ? v.flat() : [v];
}

function count(report: RefreshReport, v: Cell): void {
  if (isCellError(v)) {
    const k = `${v.error} ${v.message}`;
    report.errors[k] = (report.errors[k] ?? 0) + 1;
  } else {
    report.values++;
  }
}
