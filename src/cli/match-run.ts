/**
 * One `firma match` run: the table read and its names taken (match-input.ts), every check that costs
 * nothing done first (the column, the outputs' places, the target cells), the estimate (a range), then
 * the engine's match under the budget, and the outcomes written: the workbook whole or not at all, the
 * CSV, the JSON, a summary on stderr.
 */
import { resolve } from "path";
import { count, t, type Lang, type MessageKey, type Params } from "../shared/messages/node";
import { colToLetters, lettersToCol, MAX_COLS } from "../shared/sheet/a1";
import {
  defaultOutput,
  missingAccess,
  openEngine,
  plainFsError,
  progressBar,
  readInput,
  untilInterrupted,
  unwritable,
  writeWhole,
  type Io,
  type ServiceFlags,
} from "./cli-setup";
import { EXIT, langFromEnv, M } from "./messages";
import { findColumn, headerList, readTable, TableError, type Table } from "./match-input";
import {
  candidateText,
  confidenceText,
  matchedCsv,
  matchedWorkbook,
  outcomeJson,
  occupiedTargets,
  targetRange,
  whyNotSearched,
  type MatchedRow,
  type Targets,
} from "./match-output";
import type { Confidence, MatchEngine, MatchEstimate, MatchOutcome, NameInput } from "./match-types";
import { XlsxError } from "../shared/xlsx/xlsx-package";

export interface MatchFlags extends ServiceFlags {
  column?: string;
  header: boolean;
  sheet?: string;
  countyColumn?: string;
  into?: string;
  force?: boolean;
  out?: string;
  csv?: string;
  json?: boolean;
}

/** Rows of --json and of the summary's review: likely and ambiguous rows listed at most. */
const REVIEW_ROWS = 20;

/** Opens the engine for a run (a test hands in a stand-in). */
export type OpenMatchEngine = (flags: MatchFlags, io: Io, lang: Lang) => MatchEngine | string;

export async function runMatch(input: string, flags: MatchFlags, io: Io, open: OpenMatchEngine = openEngine): Promise<number> {
  const lang: Lang = flags.lang ?? langFromEnv(io.env);
  const say = (key: MessageKey, params?: Params) => io.stderr.write(t(lang, key, params) + "\n");
  const json = !!flags.json;
  const fail = (text: string, code: number = EXIT.nothing) => {
    io.stderr.write(text + "\n");
    if (json) io.stdout.write(JSON.stringify({ input, outcome: "nothing", exitCode: code, error: text }) + "\n");
    return code;
  };
  const failKey = (key: MessageKey, params: Params = {}) => fail(t(lang, key, { path: input, ...params }));

  // ---- Free checks: arguments, the key's presence, the input, the columns, the outputs' places.
  if (!flags.column) return failKey("cli.match.input.needsColumn");
  const access = missingAccess(flags, io.env, lang);
  if (access) return fail(access);
  const bytes = readInput(input, lang);
  if (!(bytes instanceof Uint8Array)) return fail(M[lang].unreadable(input, bytes.why));
  let table: Table;
  try {
    table = readTable(input, bytes, flags.sheet);
  } catch (e) {
    if (e instanceof XlsxError) return fail(`${input}: ${t(lang, e.key, e.params)}${e.detail ? ` (${e.detail})` : ""}`);
    if (e instanceof TableError)
      return failKey(`cli.match.input.${e.kind}`, { sheet: e.detail, detail: e.detail, sheets: sheetNames(input, bytes) });
    throw e;
  }
  const header = flags.header && table.top > 0;
  const nameCol = findColumn(table, flags.column, header);
  if (nameCol === null) return noColumn(flags.column);
  let countyCol: number | null = null;
  if (flags.countyColumn !== undefined) {
    countyCol = findColumn(table, flags.countyColumn, header);
    if (countyCol === null) return noColumn(flags.countyColumn);
  }
  function noColumn(column: string) {
    const list = header ? headerList(table) : "";
    return failKey("cli.match.input.noColumn", { column, headers: list ? t(lang, "cli.match.input.headers", { list }) : "" });
  }
  const rows: number[] = [];
  const inputs: NameInput[] = [];
  for (let r = header ? table.top + 1 : table.top; r > 0 && r <= table.bottom; r++) {
    if (!rowHasValue(table, r)) continue; // a blank line between blocks is no name
    rows.push(r);
    inputs.push(
      countyCol === null ? { name: table.value(r, nameCol) } : { name: table.value(r, nameCol), county: table.value(r, countyCol) },
    );
  }
  if (inputs.length === 0) return failKey("cli.match.input.empty");
  // A column with no name at all is the wrong column, not a list of empty names.
  if (inputs.every((i) => i.name === null)) return failKey("cli.match.input.emptyColumn", { column: colToLetters(nameCol) });

  const xlsx = table.kind === "xlsx";
  if (!xlsx && (flags.into !== undefined || flags.force))
    return failKey("cli.match.input.xlsxOnly", { option: flags.into !== undefined ? "--into" : "--force" });
  const out = xlsx ? resolve(flags.out ?? defaultOutput(input, "matched")) : null;
  const csvOut = flags.csv ? resolve(flags.csv) : xlsx ? null : resolve(flags.out ?? defaultOutput(input, "matched", ".csv"));
  if (out === input || csvOut === input) return failKey("cli.match.input.sameFile");
  let targets: Targets | null = null;
  if (xlsx) {
    const col =
      flags.into === undefined ? table.right + 1 : /^[A-Za-z]{1,3}$/.test(flags.into) ? lettersToCol(flags.into.toUpperCase()) : 0;
    if (col < 1 || col + 2 > MAX_COLS) return failKey("cli.match.input.badInto", { into: flags.into ?? colToLetters(col) });
    targets = { col, top: header ? table.top : rows[0], bottom: rows[rows.length - 1] };
  }
  if (!flags.dryRun) {
    for (const [target, option] of [
      [out, "--out"],
      [csvOut, flags.csv ? "--csv" : "--out"],
    ] as const) {
      const why = target === null ? null : unwritable(target, lang);
      if (why) return fail(M[lang].unwritable(target!, why, option));
    }
  }
  const engine = open(flags, io, lang);
  if (typeof engine === "string") return fail(engine);

  // ---- The estimate, then the target cells: a non-empty one stops the run before any credit.
  const where =
    (table.sheet ? t(lang, "cli.match.readSheet", { sheet: table.sheet }) : "") +
    (table.csv
      ? t(lang, "cli.match.readCsv", {
          encoding: table.csv.encoding,
          delimiter: table.csv.delimiter === "\t" ? "TAB" : table.csv.delimiter,
        })
      : "");
  const countyWords = countyCol === null ? "" : t(lang, "cli.match.readCounty", { column: colToLetters(countyCol) });
  say("cli.match.read", { path: input, where, rows: inputs.length, column: colToLetters(nameCol), county: countyWords });
  await engine.ready();
  const estimate = engine.matchEstimate(inputs);
  const repeats = Math.max(0, inputs.length - estimate.invalid - estimate.distinct);
  const est = {
    distinct: estimate.distinct,
    repeats,
    invalid: estimate.invalid,
    cached: estimate.cached,
    min: estimate.min,
    max: estimate.max,
  };
  say(estimate.min === estimate.max ? "cli.match.estimateExact" : "cli.match.estimate", est);
  if (flags.maxCredits !== undefined && flags.maxCredits < estimate.max) say("cli.match.budget", { max: flags.maxCredits });
  if (targets) {
    const busy = occupiedTargets(table, targets);
    const range = targetRange(targets);
    if (busy.formulas.length > 0 && !flags.dryRun)
      return failKey("cli.match.targetsFormula", { n: busy.formulas.length, range, sheet: table.sheet!, first: busy.formulas[0] });
    if (busy.values.length > 0 && !flags.force) {
      if (!flags.dryRun) return failKey("cli.match.targets", { n: busy.values.length, range, sheet: table.sheet!, first: busy.values[0] });
      const all = [...busy.formulas, ...busy.values];
      say("cli.match.targetsDry", { n: all.length, range, first: all[0] });
    }
  }
  if (flags.dryRun) {
    say("cli.match.dry");
    if (json)
      io.stdout.write(JSON.stringify({ input, output: null, outcome: "ok", exitCode: EXIT.ok, estimate: estimateJson(estimate) }) + "\n");
    return EXIT.ok;
  }

  // ---- The run: every name through the engine's search, under the budget.
  const started = Date.now();
  const bar = progressBar(flags, io, json);
  const report = await untilInterrupted((signal) => engine.match(inputs, { signal, maxCredits: flags.maxCredits, onProgress: bar }));
  bar.stop();
  await engine.persist();
  const matched: MatchedRow[] = rows.map((row, i) => ({ row, outcome: report.outcomes[i] }));
  const counts = countOutcomes(report.outcomes);
  const stopped = report.outcomes.filter((o) => o.stoppedBy);
  const answered = counts.sure + counts.likely + counts.ambiguous + counts.not_found;
  if (answered === 0 && stopped.length > 0) {
    // Nothing answered at all (service down, key refused, credits spent): nothing is written.
    sayCredits();
    return failKey("cli.match.nothingAnswered", { why: whyNotSearched(stopped[0], lang) });
  }
  /** The credits spent; "at most" when calls got no answer saying whether the service charged them. */
  function sayCredits() {
    const seconds = ((Date.now() - started) / 1000).toLocaleString(lang === "ro" ? "ro-RO" : "en-US", {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
    const uncertain = report.uncertain;
    say(uncertain > 0 ? "cli.match.creditsUncertain" : "cli.match.credits", {
      spent: report.credits,
      min: estimate.min,
      max: estimate.max,
      seconds,
      ...(uncertain > 0 ? { uncertain: count(uncertain, "call", lang) } : {}),
    });
  }

  // ---- The outputs: the workbook whole or not at all; then the CSV.
  let written: string | null = null;
  const failedWrite = (path: string, e: unknown, option: string) =>
    M[lang].unwritableSpent(path, plainFsError(e, lang), option, report.credits, flags.cache);
  if (out && targets) {
    try {
      writeWhole(out, matchedWorkbook(table, targets, matched, header, lang));
      written = out;
    } catch (e) {
      return fail(failedWrite(out, e, "--out"));
    }
  }
  let csvFailed = false;
  if (csvOut) {
    try {
      writeWhole(csvOut, matchedCsv(table, matched, header));
    } catch (e) {
      const why = failedWrite(csvOut, e, flags.csv ? "--csv" : "--out");
      if (!xlsx) return fail(why); // the CSV is the run's only output: nothing was written
      io.stderr.write(why + "\n");
      csvFailed = true;
    }
  }
  const code = stopped.length > 0 || csvFailed ? EXIT.partial : EXIT.ok;
  if (written) say("cli.match.written", { input, out: written });
  else if (csvOut) say("cli.match.written", { input, out: csvOut });
  if (written && csvOut && !csvFailed) say("cli.match.writtenCsv", { path: csvOut });
  say("cli.match.counts", {
    sure: counts.sure,
    likely: counts.likely,
    ambiguous: counts.ambiguous,
    notFound: counts.not_found,
    notSearched: counts.not_searched,
  });
  for (const [why, n] of notSearchedCauses(report.outcomes, lang)) say("cli.match.notSearchedWhy", { n, why });
  review(matched, table, nameCol, lang, say);
  sayCredits();
  io.stderr.write(t(lang, code === EXIT.ok ? "cli.match.outcome.ok" : "cli.match.outcome.partial") + "\n");
  if (json) {
    const rowsJson = matched.map((m) => ({
      row: m.row,
      name: table.value(m.row, nameCol),
      ...(countyCol === null ? {} : { county: table.value(m.row, countyCol) }),
      ...outcomeJson(m.outcome),
    }));
    const outcome = code === EXIT.ok ? "ok" : "partial";
    io.stdout.write(
      JSON.stringify({
        input,
        output: written,
        csv: csvFailed ? null : csvOut,
        outcome,
        exitCode: code,
        estimate: estimateJson(estimate),
        creditsSpent: report.credits,
        creditsUncertain: report.uncertain,
        counts,
        rows: rowsJson,
      }) + "\n",
    );
  }
  return code;
}

/** True when any cell of the row holds a value (the row is a row of the table, not a blank line). */
function rowHasValue(table: Table, row: number): boolean {
  for (let c = 1; c <= table.right; c++) if (table.occupied(row, c)) return true;
  return false;
}

function estimateJson(e: MatchEstimate) {
  return { min: e.min, max: e.max, distinct: e.distinct, cached: e.cached, invalid: e.invalid };
}

function countOutcomes(outcomes: readonly MatchOutcome[]): Record<Confidence, number> {
  const counts: Record<Confidence, number> = { sure: 0, likely: 0, ambiguous: 0, not_found: 0, not_searched: 0 };
  for (const o of outcomes) counts[o.confidence]++;
  return counts;
}

/** Why names were not searched, each reason with how many, most first. */
function notSearchedCauses(outcomes: readonly MatchOutcome[], lang: Lang): [string, number][] {
  const by = new Map<string, number>();
  for (const o of outcomes)
    if (o.confidence === "not_searched") by.set(whyNotSearched(o, lang), (by.get(whyNotSearched(o, lang)) ?? 0) + 1);
  return [...by].sort((a, b) => b[1] - a[1]);
}

/** The likely and ambiguous rows with their candidates (the first REVIEW_ROWS of them): what to check. */
function review(
  matched: readonly MatchedRow[],
  table: Table,
  nameCol: number,
  lang: Lang,
  say: (key: MessageKey, params?: Params) => void,
): void {
  const toCheck = matched.filter((m) => m.outcome.confidence === "likely" || m.outcome.confidence === "ambiguous");
  if (toCheck.length === 0) return;
  say("cli.match.review");
  for (const m of toCheck.slice(0, REVIEW_ROWS)) {
    const shown = m.outcome.candidates.slice(0, 3).map(candidateText);
    const more = m.outcome.candidates.length > 3 ? ` … (+${m.outcome.candidates.length - 3})` : "";
    const label = confidenceText(m.outcome, lang);
    const row = { row: String(m.row), name: String(table.value(m.row, nameCol)) };
    if (shown.length === 0) say("cli.match.reviewRowNone", { ...row, confidence: label });
    else say("cli.match.reviewRow", { ...row, confidence: label.split(/[:(]/)[0].trim(), candidates: shown.join("; ") + more });
  }
  if (toCheck.length > REVIEW_ROWS) say("cli.match.reviewMore", { n: toCheck.length - REVIEW_ROWS });
}

/** The workbook's sheet names, for the message of a sheet not found. */
function sheetNames(input: string, bytes: Uint8Array): string {
  try {
    return (
      readTable(input, bytes)
        .workbook?.sheets.map((s) => `„${s.name}”`)
        .join(", ") ?? ""
    );
  } catch {
    return "";
  }
}
