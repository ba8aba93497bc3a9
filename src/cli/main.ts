/**
 * `firma refresh book.xlsx`: the FIRMA add-in's job, without Excel. Arguments by commander
 * (well kept, CommonJS, no dependencies); the work is refreshWorkbook() in refresh.ts, the words
 * are messages.ts; what it shares with `firma match` (match-command.ts) is cli-setup.ts. Exit codes (messages.ts EXIT, also in --help and the README): 0 every cell
 * refreshed; 2 partial (some cells kept their previous values or could not be computed); 1 nothing
 * done (bad arguments, unreadable input, unwritable output, no FIRMA formula, no answer at all).
 */
import { Command, CommanderError } from "commander";
import { resolve } from "path";
import { FIRM_VARIANT } from "../shared/cells";
import { commandWords } from "../shared/command-words";
import { t as msg, type Lang } from "../shared/messages/node";
import { changesCsv, refreshWorkbook, RefreshReport } from "./refresh";
import { XlsxError } from "../shared/xlsx/xlsx-package";
import { cause, count, EXIT, langFromEnv, M, num } from "./messages";
import {
  defaultOutput,
  langOfArgs,
  missingAccess,
  openEngine,
  plainFsError,
  progressBar,
  readInput,
  serviceOptions,
  untilInterrupted,
  unwritable,
  writeWhole,
  type Io,
  type ServiceFlags,
} from "./cli-setup";
import { matchCommand } from "./match-command";

export { defaultOutput, type Io } from "./cli-setup";

interface RefreshFlags extends ServiceFlags {
  out?: string;
  inPlace?: boolean;
  json?: boolean;
  verbose?: boolean;
  force?: boolean;
  valuesOnly?: boolean;
  csv?: string;
  changes?: string;
}

/**
 * The commands bin/firma.js sends elsewhere (the firm's server and its people, src/server), listed in
 * `firma --help` beside refresh: their own help has their options.
 */
function otherCommands(lang: Lang): string {
  const rows = [
    ["serve [options]", msg(lang, "serve.help.description")],
    ["users <command>", msg(lang, "users.help.description")],
    ["audit [options]", msg(lang, "audit.help.description")],
  ];
  return [msg(lang, "cli.help.otherCommands"), ...rows.map(([c, d]) => `  firma ${c.padEnd(17)}${d.split("\n")[0]}`)].join("\n");
}

export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let code = 0;
  // The help speaks the language the messages will: --lang if given, else LANG (as runRefresh decides).
  const lang = langOfArgs(argv) ?? langFromEnv(io.env);
  const h = (key: Parameters<typeof msg>[1], params?: Parameters<typeof msg>[2]) => msg(lang, key, params);
  // Commander's own words (Usage:, its errors) in the user's language too.
  const words = commandWords(lang, { writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  const program = new Command("firma")
    .description(h("cli.help.program"))
    .exitOverride()
    .configureHelp(words.help)
    .configureOutput(words.output)
    .showSuggestionAfterError(true)
    .helpOption("-h, --help", h("cli.help.help"))
    .helpCommand("help [command]", h("cli.help.helpCommand"))
    .addHelpText("after", `\n${otherCommands(lang)}\n\n${h("cli.help.example")}\n\n${h("cli.help.exitCodes")}`);

  serviceOptions(
    program
      .command("refresh")
      .description(h("cli.help.refresh"))
      .helpOption("-h, --help", h("cli.help.help"))
      .argument("<book.xlsx>", h("cli.help.book")),
    lang,
  )
    .option("--out <file>", h("cli.help.out"))
    .option("--in-place", h("cli.help.inPlace"))
    .option("--values-only", h("cli.help.valuesOnly"))
    .option("--csv <file>", h("cli.help.csv"))
    .option("--changes <file>", h("cli.help.changes"))
    .option("--force", h("cli.help.force"))
    .option("--json", h("cli.help.json"))
    .option("--verbose", h("cli.help.verbose"))
    .addHelpText("after", `\n${h("cli.help.examples")}\n\n${h("cli.help.exitCodes")}`)
    .action(async (input: string, flags: RefreshFlags) => {
      code = await runRefresh(resolve(input), flags, io);
    });
  matchCommand(program, lang, io, (c) => (code = c));

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.nothing;
    throw e;
  }
  return code;
}

async function runRefresh(input: string, flags: RefreshFlags, io: Io): Promise<number> {
  const lang: Lang = flags.lang ?? langFromEnv(io.env);
  const t = M[lang];
  const json = !!flags.json;
  // With --json, stdout carries the one JSON object; the words go to stderr.
  const say = (s: string) => (json ? io.stderr : io.stdout).write(s + "\n");
  const fail = (s: string, c: number = EXIT.nothing) => {
    io.stderr.write(s + "\n");
    if (json) io.stdout.write(JSON.stringify({ input, outcome: "nothing", exitCode: c, error: s }) + "\n");
    return c;
  };
  const access = missingAccess(flags, io.env, lang);
  if (access) return fail(access);
  if (flags.inPlace && flags.valuesOnly) return fail(t.valuesInPlace);
  const out = flags.inPlace ? input : resolve(flags.out ?? defaultOutput(input, flags.valuesOnly ? "values" : "refreshed"));
  if (out === input && !flags.inPlace) return fail(t.sameFile);
  const csvOut = flags.csv ? resolve(flags.csv) : null;
  const changesOut = flags.changes ? resolve(flags.changes) : null;

  const bytes = readInput(input, lang);
  if (!(bytes instanceof Uint8Array)) return fail(t.unreadable(input, bytes.why));
  // Before any credit is spent: can the result be saved where it must go?
  if (!flags.dryRun) {
    for (const [target, option] of [
      [out, "--out"],
      [csvOut, "--csv"],
      [changesOut, "--changes"],
    ] as const) {
      if (target === null) continue;
      const why = unwritable(target, lang);
      if (why) return fail(t.unwritable(target, why, option));
    }
  }
  const engine = openEngine(flags, io, lang);
  if (typeof engine === "string") return fail(engine);

  const started = Date.now();
  const bar = progressBar(flags, io, json);
  let report: RefreshReport;
  // Ctrl-C: calls not yet sent are dropped; the run then ends as usual, after the calls in flight.
  try {
    report = await untilInterrupted((signal) =>
      refreshWorkbook(bytes, {
        engine,
        lang,
        dryRun: flags.dryRun,
        maxCredits: flags.maxCredits ?? null,
        force: flags.force,
        valuesOnly: flags.valuesOnly,
        csv: !!csvOut,
        changes: !!changesOut,
        signal,
        onProgress: bar,
      }),
    );
  } catch (e) {
    bar.stop();
    if (e instanceof XlsxError) return fail(`${input}: ${msg(lang, e.key, e.params)}${e.detail ? ` (${e.detail})` : ""}`);
    throw e;
  }
  bar.stop();

  if (report.formulas === 0) return fail(t.noFormulas(input));
  const est = report.estimate;
  say(t.estimate(report.evaluated, est.distinctCuis, est.cached, est.invalid, est.credits, est.exact, est.ifAnswered));
  if (report.probe) say(t.probed(report.probe.credits, report.probe.rest, report.probe.exact));
  if (flags.maxCredits !== undefined && flags.maxCredits < est.credits) say(t.budget(flags.maxCredits));
  if (flags.dryRun || !report.output) {
    say(t.dry);
    if (json) io.stdout.write(JSON.stringify(summary(report, input, null, EXIT.ok, Date.now() - started)) + "\n");
    return EXIT.ok;
  }
  const errors = Object.values(report.errors).reduce((s, n) => s + n, 0);
  const kept = Object.values(report.kept).reduce((a, b) => a + b, 0);
  // "Credits spent" through a firm's server that named whose limit it was: her budget, or the firm's cap.
  const firm = engine.credits().quotaStop()?.firm;
  const why = (c: string) => cause(c === "credits_exhausted" && firm ? FIRM_VARIANT[firm] : c, lang);
  // Nothing answered at all (service down, key refused, credits spent): the file is left alone.
  if (report.values + errors === 0 && kept > 0) {
    for (const [c, n] of Object.entries(report.kept)) say(`    ${count(n, "cell", lang)}: ${why(c)}`);
    say(t.credits(report.credits, est.credits, report.cacheHits, Date.now() - started, report.creditsUncertain));
    const code = fail(t.nothingAnswered);
    return code;
  }
  // The paths were checked before any call; a write can still fail now (a full disk, a folder made
  // meanwhile): the message says what was spent and whether a second run pays again.
  const failedWrite = (path: string, e: unknown, option: string) =>
    t.unwritableSpent(path, plainFsError(e, lang), option, report.credits, flags.cache);
  // The workbook written, a CSV beside it that could not be: said, and the outcome is partial (2).
  const copiesFailed: string[] = [];
  const failedCopies: string[] = [];
  let changesWritten = false;
  try {
    writeWhole(out, report.output); // whole or not at all
  } catch (e) {
    return fail(failedWrite(out, e, "--out"));
  }
  if (csvOut) {
    // One sheet: the file named; several: one file per sheet beside it (name.Sheet.csv).
    for (const c of report.csv) {
      const file = report.csv.length === 1 ? csvOut : csvOut.replace(/(\.csv)?$/i, `.${c.sheet.replace(/[^\w.-]+/g, "_")}.csv`);
      try {
        writeWhole(file, c.text);
      } catch (e) {
        copiesFailed.push(failedWrite(file, e, "--csv"));
        failedCopies.push(file);
      }
    }
  }
  if (changesOut) {
    try {
      writeWhole(changesOut, changesCsv(report.changes ?? []));
      changesWritten = true;
    } catch (e) {
      copiesFailed.push(failedWrite(changesOut, e, "--changes"));
      failedCopies.push(changesOut);
    }
  }
  for (const m of copiesFailed) io.stderr.write(m + "\n");
  const code =
    kept > 0 || report.skipped.length > 0 || report.arraysInOneCell.length > 0 || copiesFailed.length > 0 ? EXIT.partial : EXIT.ok;
  say(t.done(input, out));
  say(t.found(report.formulas, report.skipped.length));
  if (changesWritten && changesOut) say(t.changes(report.changes?.length ?? 0, changesOut));
  say(t.refreshed(report.values, errors));
  for (const [what, n] of Object.entries(report.errors).sort((a, b) => b[1] - a[1])) say(`    ${num(n, lang)} × ${what}`);
  if (kept > 0) {
    say(t.kept(kept));
    for (const [c, n] of Object.entries(report.kept).sort((a, b) => b[1] - a[1])) say(`    ${num(n, lang)} × ${why(c)}`);
    if (flags.verbose) for (const k of report.keptCells) say(`      ${k.sheet}!${k.address} — ${why(k.cause)}`);
  }
  if (report.skipped.length) {
    say(t.skipped(report.skipped.length));
    if (flags.verbose) for (const s of report.skipped) say(`      ${s.sheet}!${s.address} ${s.formula} — ${s.reason}`);
  }
  if (report.arraysInOneCell.length) {
    // An array result in a cell the file holds as an ordinary formula: only its top-left value fits.
    say(t.arrays(report.arraysInOneCell.length));
    if (flags.verbose) for (const a of report.arraysInOneCell) say(`      ${a.sheet}!${a.address} (${a.size})`);
  }
  if ((kept > 0 || report.skipped.length > 0 || report.arraysInOneCell.length > 0) && !flags.verbose) say(t.verboseHint);
  if (report.spillConflicts.length) {
    say(t.spill);
    for (const s of report.spillConflicts) say(`    ${s.sheet}!${s.address} — ${s.blockedBy}`);
  }
  say(t.credits(report.credits, est.credits, report.cacheHits, Date.now() - started, report.creditsUncertain));
  say(t.outcome[code === EXIT.ok ? "ok" : "partial"]);
  if (json) io.stdout.write(JSON.stringify({ ...summary(report, input, out, code, Date.now() - started), failedCopies }) + "\n");
  return code;
}

/** The run as one JSON object (--json), for scripts. */
function summary(r: RefreshReport, input: string, output: string | null, exitCode: number, ms: number) {
  return {
    input,
    output,
    outcome: exitCode === EXIT.ok ? "ok" : exitCode === EXIT.partial ? "partial" : "nothing",
    exitCode,
    estimate: {
      credits: r.estimate.credits,
      ifAnswered: r.estimate.ifAnswered,
      exact: r.estimate.exact,
      cached: r.estimate.cached,
      invalid: r.estimate.invalid,
      probe: r.probe ?? null,
    },
    budget: r.budget,
    creditsSpent: r.credits,
    // Of those, the calls that got no answer: the service may not have charged them.
    creditsUncertain: r.creditsUncertain,
    formulas: r.formulas,
    cells: {
      refreshed: r.values,
      errors: r.errors,
      kept: r.kept,
      notComputable: r.skipped.length,
    },
    cacheHits: r.cacheHits,
    timeMs: ms,
  };
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (c) => (process.exitCode = c),
    (e) => {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
