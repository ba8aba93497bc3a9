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
  /**
   * A hard budget: no call past this many credits is sent; cells it leaves unfilled keep their
   * previous values and are reported. The estimate (an upper bound) is a budget of its own.
   */
  maxCredits?: number | null;
  /** Stops the run: calls not yet sent are dropped (Ctrl-C). */
  signal?: AbortSignal;
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
  /** Credits this run may have been charged: every call sent except refusals before charging (401, 403, 429). */
  credits: number;
  /** Cells that could not get an answer (service down, budget reached, credits spent…) and kept their previous value, by cause. */
  kept: Record<string, number>;
  /** Where those cells are. */
  keptCells: { sheet: string; address: string; cause: string }[];
  /** The budget this run ran under: min(--max-credits, estimate). */
  budget: number;
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
  const requests = jobs.flatMap((j) => cellRequests(j.name, j.args));
  const estimate = engine.estimate(requests);
  const report: RefreshReport = {
    formulas: found.length,
    evaluated: jobs.length,
    skipped,
    estimate,
    values: 0,
    errors: {},
    spillConflicts: [],
    credits: 0,
    kept: {},
    keptCells: [],
    budget: 0,
    cacheHits: 0,
    output: null,
    refused: null,
  };
  report.budget = Math.min(estimate.credits, options.maxCredits ?? Infinity);
  if (options.dryRun) return report;

  // One planned fetch under a hard budget (the estimate, or --max-credits if lower), then every cell
  // from the cache: nothing is asked twice, and nothing past the budget is ever sent (issue 10).
  const hitsBefore = engine.cache.hits;
  const budget = engine.openBudget(report.budget);
  try {
    await engine.prefetch(requests, { signal: options.signal });
    await engine.idle();
  } finally {
    budget.close();
  }
  report.credits = budget.spent;
  engine.cacheOnly = true;
  let done = 0;
  const results = await Promise.all(
    jobs.map(async (j) => {
      const m = await evaluate(j.name, j.args, { engine, lang });
      options.onProgress?.(++done, jobs.length);
      return { sheet: j.sheet, address: j.address, value: m.length === 1 && m[0].length === 1 ? m[0][0] : m };
    }),
  );
  report.cacheHits = engine.cache.hits - hitsBefore;
  await engine.persist();

  // A cell that could not get an answer keeps what it had: only answers replace values.
  const written = results.filter((r) => {
    const cause = unanswered(r.value);
    if (cause === null) return true;
    report.kept[cause] = (report.kept[cause] ?? 0) + 1;
    report.keptCells.push({ sheet: r.sheet, address: r.address, cause });
    return false;
  });
  for (const r of written) for (const v of cells(r.value)) count(report, v);
  const patch = patchWorkbook(wb, written);
  for (const o of patch.outcomes) {
    if (o.status === "spill") report.spillConflicts.push({ sheet: o.sheet, address: o.address, blockedBy: (o.blockedBy ?? []).join(", ") });
  }
  report.output = wb.pkg.toBytes();
  return report;
}

/**
 * The cause, when a result is not an answer: every cell of it failed for a reason that says nothing
 * about the company (service down, budget, credits spent…). Null when the result is an answer.
 */
function unanswered(v: Cell | Matrix): string | null {
  const all = cells(v);
  const first = all[0];
  if (!isCellError(first) || !first.cause || !KEEP_CAUSES.has(first.cause)) return null;
  return all.every((c) => isCellError(c) && c.cause === first.cause) ? first.cause : null;
}

const KEEP_CAUSES = new Set([
  "network",
  "server",
  "timeout",
  "credits_exhausted",
  "shape",
  "budget_reached",
  "not_cached",
  "aborted",
  "missing_key",
  "invalid_key",
]);

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
