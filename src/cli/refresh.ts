/**
 * Refreshes the FIRMA formulas of a workbook without Excel, on the add-in's own engine and
 * functions: finds the formulas (both saved forms), evaluates each whole formula as Excel would
 * (excel-formulas.ts: FIRMA calls wrapped in Excel functions and operators, arguments from other
 * cells), and writes only their cached values. Everything else in the package stays byte for byte.
 */
import type { Change, FirmaEngine, Estimate } from "../engine/engine";
import { kindHas, type FailureKind } from "../engine/failures";
import { Cell, isCard, isCellError, Lang, Matrix, PlainCell } from "../shared/cells";
import { cellRequests, evaluate } from "../shared/evaluate";
import { csvDocument, type CsvValue } from "../shared/csv";
import { patchWorkbook } from "./patch";
import { sheetCsv, stripFormulas } from "./values";
import { openWritable } from "./writable-package";
import { FormulaEvaluator, Outcome } from "./excel-formulas";

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
  /** Write the FIRMA cells' values without their formulas (a copy for programs without FIRMA). */
  valuesOnly?: boolean;
  /** Also give the sheets holding FIRMA cells as CSV text (report.csv). */
  csv?: boolean;
  /** Watch what changed (engine.changes()): report.changes lists this run's changes of status, VAT, name, address. */
  changes?: boolean;
  /** Fetch again what is cached too (the estimate then counts it). */
  force?: boolean;
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
  /**
   * Not evaluated, with why (a function or construct excel-formulas.ts cannot compute as Excel
   * would): reported, never guessed; they make the run partial.
   */
  skipped: SkippedFormula[];
  estimate: Estimate;
  /** Result cells written with a value, and with an error (by error and message). */
  values: number;
  errors: Record<string, number>;
  /** Spills that could not be written (#SPILL!): where and what was in the way. */
  spillConflicts: { sheet: string; address: string; blockedBy: string }[];
  /** Credits this run may have been charged: every call sent except refusals before charging (401, 403, 429). */
  credits: number;
  /**
   * Of `credits`, the calls that got no answer saying whether they were charged (a broken connection,
   * a timeout, a 5xx): the service charged between `credits - creditsUncertain` and `credits`.
   */
  creditsUncertain: number;
  /** Cells that could not get an answer (service down, budget reached, credits spent…) and kept their previous value, by cause. */
  kept: Partial<Record<FailureKind, number>>;
  /** Where those cells are. */
  keptCells: { sheet: string; address: string; cause: FailureKind }[];
  /** Formulas replaced by their values (--values-only). */
  valuesOnly?: number;
  /** What changed in the companies' status, VAT, name or address as this run's answers arrived (--changes). */
  changes?: Change[];
  /** The sheets holding FIRMA cells, as CSV (--csv). */
  csv: { sheet: string; text: string }[];
  /**
   * On first contact (the estimate a range): the run's first call went alone and showed what the
   * service does; `credits` it cost, `rest` the exact estimate of what was left then. Within the budget.
   */
  probe?: { credits: number; rest: number; exact: boolean };
  /** The budget this run ran under: min(--max-credits, estimate). */
  budget: number;
  cacheHits: number;
  /** The refreshed workbook; null on a dry run or when refused. */
  output: Uint8Array | null;
  /** Why nothing was done, when the run was refused. */
  refused: string | null;
  /** Distinct FIRMA calls the formulas made (phase 1: those the estimate covers; after the run: all). */
  calls: number;
  /** Further rounds of fetching for calls whose arguments came from other FIRMA calls (0 usually). */
  rounds: number;
  /**
   * Array results of ordinary (non-array) formulas, as LibreOffice or a library writes them: the
   * file holds one value, so only the top-left one was written; `size` is the whole result's, e.g. "1×9".
   */
  arraysInOneCell: { sheet: string; address: string; size: string }[];
}

export async function refreshWorkbook(input: Uint8Array, options: RefreshOptions): Promise<RefreshReport> {
  const { engine } = options;
  const lang = options.lang ?? "ro";
  const wb = openWritable(input);
  const found = wb.findFormulas("FIRMA");

  // ---- Formulas as people write them, not only bare FIRMA calls: excel-formulas.ts computes each whole
  // formula as Excel would. Phase 1 lists the FIRMA calls whose arguments are known (one plan:
  // estimate, budget, prefetch); phase 2 evaluates from the cache, a call whose arguments came
  // from another FIRMA call being fetched in a further round under what is left of the budget.
  const evaluator = new FormulaEvaluator(wb, "FIRMA", lang);
  const jobs = found; // each found formula is its own job (a copy of each was 12 MB at 100,000 rows)
  const phase1 = evaluator.collect(jobs);
  // Ready first: in Node the engine loads name matching with its cache, so FIRMA.CUI's searches are listed exactly.
  await engine.ready();
  const requests = phase1.calls.flatMap((c) => cellRequests(c.name, c.args));
  const unevaluable = (outcomes: Outcome[]) =>
    outcomes.flatMap((o, i) =>
      o.kind === "unevaluable" ? [{ sheet: jobs[i].sheet, address: jobs[i].address, formula: jobs[i].formula, reason: o.reason }] : [],
    );

  const estimate = engine.estimate(requests, { refresh: options.force });
  const report: RefreshReport = {
    formulas: found.length,
    evaluated: found.length - unevaluable(phase1.outcomes).length,
    skipped: unevaluable(phase1.outcomes),
    estimate,
    values: 0,
    errors: {},
    spillConflicts: [],
    credits: 0,
    creditsUncertain: 0,
    kept: {},
    keptCells: [],
    budget: 0,
    csv: [],
    cacheHits: 0,
    output: null,
    refused: null,
    calls: phase1.calls.length,
    rounds: 0,
    arraysInOneCell: [],
  };
  report.budget = Math.min(estimate.credits, options.maxCredits ?? Infinity);
  if (options.dryRun) return report;

  // One planned fetch under a hard budget (the estimate, or --max-credits if lower), then every cell
  // from the cache: nothing is asked twice, and nothing past the budget is ever sent.
  const hitsBefore = engine.cacheStats().hits;
  // The watch: this run's changes are those recorded from here on (the answers of both fetch rounds).
  const mark = engine.markChanges();
  const fetchUnder = async (reqs: typeof requests, limit: number, first = false) => {
    const budget = engine.credits().openBudget(limit);
    // The first fetch, where the estimate is a range: its first call alone (the probe), then the rest,
    // whose estimate is then exact, within the same budget.
    const onProbe = (rest: Estimate) => {
      report.probe = { credits: budget.spent, rest: rest.credits, exact: rest.exact };
      return true;
    };
    try {
      await engine.prefetch(reqs, { signal: options.signal, force: options.force, onProbe: first ? onProbe : undefined });
      await engine.idle();
    } finally {
      budget.close();
    }
    report.credits += budget.spent;
    report.creditsUncertain += budget.uncertain;
  };
  await fetchUnder(requests, report.budget, !estimate.exact);
  engine.configure({ cacheOnly: true });
  const evaluatedAll = await evaluator.evaluateAll(jobs, async (calls, round) => {
    if (round > 0) {
      // calls whose arguments came from other FIRMA calls: their own plan, within what is left of the
      // budget the user was shown (the estimate could not know them: never spend past it)
      const more = calls.flatMap((c) => cellRequests(c.name, c.args));
      const left = Math.max(0, report.budget - report.credits);
      await fetchUnder(more, Math.min(engine.estimate(more).credits, left));
    }
    return Promise.all(calls.map(async (c) => simplify(await evaluate(c.name, c.args, { engine, lang }))));
  });
  report.rounds = Math.max(0, evaluatedAll.rounds - 1);
  report.calls = evaluatedAll.calls;
  report.skipped = unevaluable(evaluatedAll.outcomes);
  report.evaluated = found.length - report.skipped.length;
  let done = 0;
  const results: { sheet: string; address: string; value: PlainCell | PlainCell[][]; cause: FailureKind | null }[] = [];
  evaluatedAll.outcomes.forEach((o, i) => {
    if (o.kind !== "value") return;
    options.onProgress?.(++done, report.evaluated);
    // A wrapped formula whose FIRMA call got no answer (budget, service down…) keeps its value even
    // when IFERROR would have hidden the failure.
    const lost = Array.isArray(o.value) ? null : o.firmaErrors.find((e) => kindHas(e.cause, "keepsOldValue"));
    results.push({ sheet: jobs[i].sheet, address: jobs[i].address, value: plain(o.value), cause: lost?.cause ?? null });
    if (Array.isArray(o.value) && (o.value.length > 1 || o.value[0].length > 1) && found[i].formulaType !== "array")
      report.arraysInOneCell.push({ sheet: jobs[i].sheet, address: jobs[i].address, size: `${o.value.length}×${o.value[0].length}` });
  });
  // ---- end of the formula evaluation
  report.cacheHits = engine.cacheStats().hits - hitsBefore;
  if (options.changes) report.changes = engine.changes(mark);
  await engine.persist();

  // A cell that could not get an answer keeps what it had: only answers replace values.
  const written = results.filter((r) => {
    const cause = r.cause ?? unanswered(r.value);
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
  // Plain copies, for people without FIRMA: FIRMA formulas replaced by their values; CSV of the sheets that hold them.
  if (options.valuesOnly) report.valuesOnly = stripFormulas(wb, found);
  if (options.csv) for (const sheet of new Set(found.map((f) => f.sheet))) report.csv.push({ sheet, text: sheetCsv(wb, sheet) });
  report.output = wb.pkg.toBytes();
  return report;
}

/**
 * The changes as a CSV file (src/shared/csv.ts), a header row in both languages; the date is when the
 * new value was fetched (ISO 8601, UTC).
 */
export function changesCsv(changes: readonly Change[]): string {
  const rows: CsvValue[][] = [["CUI", "câmp/field", "înainte/before", "după/after", "date"]];
  for (const c of changes) rows.push([c.cui, c.field, csvValue(c.before), csvValue(c.after), new Date(c.afterFetchedAt).toISOString()]);
  return csvDocument(rows, { bom: true });
}

/** A watched value as a field: what a CSV holds as it is, anything else as its text. */
const csvValue = (v: unknown): CsvValue =>
  v === null || v === undefined || typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : String(v);

/**
 * The cause, when a result is not an answer: every cell of it failed for a reason that says nothing
 * about the company (service down, budget, credits spent…). Null when the result is an answer.
 */
function unanswered(v: Cell | Matrix): FailureKind | null {
  const all = cells(v);
  const first = all[0];
  if (!isCellError(first) || !first.cause || !kindHas(first.cause, "keepsOldValue")) return null;
  const cause = first.cause;
  return all.every((c) => isCellError(c) && c.cause === cause) ? cause : null;
}

/**
 * A 1×1 result as its one cell, as the single-call path always wrote it. A card (none comes without
 * EvalContext.cards, which the CLI leaves off) would be written as its text: a file holds no entity.
 */
function simplify(m: Matrix): PlainCell | PlainCell[][] {
  const plain = m.map((row) => row.map(plainCell));
  return plain.length === 1 && plain[0].length === 1 ? plain[0][0] : plain;
}

const plainCell = (v: Cell): PlainCell => (isCard(v) ? v.text : v);

/** A result as the file can hold it (simplify() already made it so; excel-formulas.ts types it as any Cell). */
function plain(v: Cell | Matrix): PlainCell | PlainCell[][] {
  return Array.isArray(v) ? v.map((row) => row.map(plainCell)) : plainCell(v);
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
