/**
 * `firma refresh book.xlsx`: the FIRMA add-in's job, without Excel. Arguments by commander
 * (well kept, CommonJS, no dependencies); the work is refreshWorkbook() in refresh.ts, the words
 * are messages.ts. Exit codes (messages.ts EXIT, also in --help and the README): 0 every cell
 * refreshed; 2 partial (some cells kept their previous values or could not be computed); 1 nothing
 * done (bad arguments, unreadable input, unwritable output, no FIRMA formula, no answer at all).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "fs";
import { basename, dirname, extname, join, resolve } from "path";
import { SingleBar } from "cli-progress";
import { withoutSecrets } from "../api/options";
import type { PlanName } from "../api/types";
import { FirmaEngine } from "../engine/engine";
import { LocalInputError } from "../engine/local-errors";
import { isPlanName } from "../engine/credits/subscription-plans";
import { KeyValueStore, MemoryStore } from "../engine/cache/store";
import { FIRM_VARIANT } from "../shared/cells";
import { commandWords } from "../shared/command-words";
import { isMessageKey, t as msg, type Lang } from "../shared/messages/node";
import { changesCsv, refreshWorkbook, RefreshReport } from "./refresh";
import { CacheStoreError, defaultCacheDir, defaultCachePath, SqliteStore } from "./sqlite-cache";
import { XlsxError } from "./xlsx-package";
import { cause, count, EXIT, langFromEnv, M, num } from "./messages";

export interface Io {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
}

interface RefreshFlags {
  key?: string;
  baseUrl?: string;
  out?: string;
  inPlace?: boolean;
  dryRun?: boolean;
  maxCredits?: number;
  plan?: PlanName;
  cacheDir?: string;
  cache: boolean;
  progress: boolean;
  lang?: Lang;
  json?: boolean;
  verbose?: boolean;
  force?: boolean;
  maxAge?: number;
  valuesOnly?: boolean;
  csv?: string;
  changes?: string;
}

const wholeNumber =
  (lang: Lang) =>
  (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(msg(lang, "cli.help.badWhole"));
    return n;
  };

const planName =
  (lang: Lang) =>
  (v: string): PlanName => {
    if (!isPlanName(v)) throw new InvalidArgumentError(msg(lang, "cli.help.badPlan"));
    return v;
  };

/** `--lang ro|en` (or `--lang=en`) among the arguments, before commander has parsed them. */
function langOfArgs(argv: readonly string[]): Lang | null {
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i] === "--lang" ? argv[i + 1] : argv[i].startsWith("--lang=") ? argv[i].slice(7) : undefined;
    if (v === "ro" || v === "en") return v;
  }
  return null;
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

/** The default output: `book.refreshed.xlsx` beside `book.xlsx`. */
export function defaultOutput(input: string, suffix = "refreshed"): string {
  const ext = extname(input) || ".xlsx";
  return join(dirname(input), `${basename(input, extname(input))}.${suffix}${ext}`);
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

  program
    .command("refresh")
    .description(h("cli.help.refresh"))
    .helpOption("-h, --help", h("cli.help.help"))
    .argument("<book.xlsx>", h("cli.help.book"))
    .option("--key <key>", h("cli.help.key"))
    .option("--base-url <url>", h("cli.help.baseUrl"))
    .option("--out <file>", h("cli.help.out"))
    .option("--in-place", h("cli.help.inPlace"))
    .option("--dry-run", h("cli.help.dryRun"))
    .option("--max-credits <n>", h("cli.help.maxCredits"), wholeNumber(lang))
    .option("--plan <plan>", h("cli.help.plan"), planName(lang))
    .option("--cache-dir <dir>", h("cli.help.cacheDir", { dir: defaultCacheDir() }))
    .option("--no-cache", h("cli.help.noCache"))
    .option("--no-progress", h("cli.help.noProgress"))
    .addOption(new Option("--lang <lang>", h("cli.help.lang")).choices(["ro", "en"]))
    .option("--values-only", h("cli.help.valuesOnly"))
    .option("--csv <file>", h("cli.help.csv"))
    .option("--changes <file>", h("cli.help.changes"))
    .option("--force", h("cli.help.force"))
    .option("--max-age <days>", h("cli.help.maxAge"), wholeNumber(lang))
    .option("--json", h("cli.help.json"))
    .option("--verbose", h("cli.help.verbose"))
    .addHelpText("after", `\n${h("cli.help.examples")}\n\n${h("cli.help.exitCodes")}`)
    .action(async (input: string, flags: RefreshFlags) => {
      code = await runRefresh(resolve(input), flags, io);
    });

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
  const key = flags.key ?? io.env.FIRMA_API_KEY;
  const baseUrl = flags.baseUrl ?? io.env.FIRMA_BASE_URL;
  if (!flags.dryRun && !key) return fail(t.noKey);
  if (!flags.dryRun && !baseUrl) return fail(t.noUrl);
  if (flags.inPlace && flags.valuesOnly) return fail(t.valuesInPlace);
  const out = flags.inPlace ? input : resolve(flags.out ?? defaultOutput(input, flags.valuesOnly ? "values" : "refreshed"));
  if (out === input && !flags.inPlace) return fail(t.sameFile);
  const csvOut = flags.csv ? resolve(flags.csv) : null;
  const changesOut = flags.changes ? resolve(flags.changes) : null;

  let bytes: Uint8Array;
  try {
    if (statSync(input).isDirectory()) return fail(t.unreadable(input, lang === "en" ? "it is a folder" : "este un dosar"));
    bytes = readFileSync(input);
  } catch (e) {
    return fail(t.unreadable(input, plainFsError(e, lang)));
  }
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
  let store: KeyValueStore;
  try {
    store = flags.cache ? new SqliteStore(defaultCachePath(flags.cacheDir ?? defaultCacheDir())) : new MemoryStore();
  } catch (e) {
    // A locked, unreadable or corrupt cache file: say which, before anything is asked of the service.
    if (e instanceof CacheStoreError) return fail(e.messageIn(lang));
    throw e;
  }
  let engine: FirmaEngine;
  try {
    engine = new FirmaEngine({
      baseUrl: baseUrl ?? "https://unset.invalid",
      apiKey: () => key ?? null,
      store,
      plan: () => flags.plan ?? null,
    });
    if (!flags.dryRun) engine.checkAddress(); // https, or loopback http
    // a full or failing cache is told, never silent
    engine.onCacheProblem((p) =>
      io.stderr.write(`${msg(lang, CACHE_PROBLEMS[p.kind], { evicted: count(p.evicted ?? 0, "answer", lang) })}\n`),
    );
    if (flags.maxAge !== undefined) engine.configure({ maxAgeMs: flags.maxAge * 86_400_000 });
  } catch (e) {
    if (e instanceof LocalInputError && e.kind === "invalid_base_url") return fail(t.badUrl(withoutSecrets(String(baseUrl))));
    return fail((e as Error).message);
  }

  const started = Date.now();
  const bar =
    flags.progress && !json && io.stderr.isTTY
      ? new SingleBar({ stream: io.stderr as NodeJS.WriteStream, format: "FIRMA [{bar}] {value}/{total}" })
      : null;
  let report: RefreshReport;
  // Ctrl-C: calls not yet sent are dropped; the run then ends as usual, after the calls in flight.
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once("SIGINT", onSigint);
  try {
    report = await refreshWorkbook(bytes, {
      engine,
      lang,
      dryRun: flags.dryRun,
      maxCredits: flags.maxCredits ?? null,
      force: flags.force,
      valuesOnly: flags.valuesOnly,
      csv: !!csvOut,
      changes: !!changesOut,
      signal: stop.signal,
      onProgress: bar ? (done, total) => (done === 1 ? bar.start(total, done) : bar.update(done)) : undefined,
    });
  } catch (e) {
    bar?.stop();
    if (e instanceof XlsxError) return fail(`${input}: ${lang === "en" ? e.en : e.ro}${e.detail ? ` (${e.detail})` : ""}`);
    throw e;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
  bar?.stop();

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
    say(t.credits(report.credits, est.credits, report.cacheHits, Date.now() - started));
    const code = fail(t.nothingAnswered);
    return code;
  }
  // The paths were checked before any call; a write can still fail now (a full disk, a folder made
  // meanwhile): the message says what was spent and whether a second run pays again.
  const failedWrite = (path: string, e: unknown, option: string) => {
    try {
      unlinkSync(`${path}.${process.pid}.tmp`); // a temporary file cut short by the failure
    } catch {
      /* none was made */
    }
    return t.unwritableSpent(path, plainFsError(e, lang), option, report.credits, flags.cache);
  };
  // The workbook written, a CSV beside it that could not be: said, and the outcome is partial (2).
  const copiesFailed: string[] = [];
  const failedCopies: string[] = [];
  let changesWritten = false;
  try {
    // Whole or not at all: a temporary file beside the output, then an atomic rename.
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, report.output);
    renameSync(tmp, out);
  } catch (e) {
    return fail(failedWrite(out, e, "--out"));
  }
  if (csvOut) {
    // One sheet: the file named; several: one file per sheet beside it (name.Sheet.csv).
    for (const c of report.csv) {
      const file = report.csv.length === 1 ? csvOut : csvOut.replace(/(\.csv)?$/i, `.${c.sheet.replace(/[^\w.-]+/g, "_")}.csv`);
      try {
        writeFileSync(`${file}.${process.pid}.tmp`, c.text);
        renameSync(`${file}.${process.pid}.tmp`, file);
      } catch (e) {
        copiesFailed.push(failedWrite(file, e, "--csv"));
        failedCopies.push(file);
      }
    }
  }
  if (changesOut) {
    try {
      writeFileSync(`${changesOut}.${process.pid}.tmp`, changesCsv(report.changes ?? []));
      renameSync(`${changesOut}.${process.pid}.tmp`, changesOut);
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
  say(t.credits(report.credits, est.credits, report.cacheHits, Date.now() - started));
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

/** Why `out` cannot be written, or null: its folder must exist and take a new file (probed, then removed). */
function unwritable(out: string, lang: Lang): string | null {
  try {
    if (existsSync(out) && statSync(out).isDirectory()) return lang === "en" ? "it is a folder" : "este un dosar";
    const probe = join(dirname(out), `.firma-${process.pid}.probe`);
    writeFileSync(probe, "");
    unlinkSync(probe);
    if (existsSync(out)) accessSync(out, constants.W_OK);
    return null;
  } catch (e) {
    return plainFsError(e, lang);
  }
}

/** What the CLI says about a cache that is full or failing (CacheProblem.kind → catalog key). */
const CACHE_PROBLEMS = {
  full: "cli.cache.full",
  write_failed: "cli.cache.writeFailed",
  read_timeout: "cli.cache.readTimeout",
  read_failed: "cli.cache.readFailed",
} as const;

/** A file-system error in words, not a raw ENOENT (catalog `cli.fs.*`). */
function plainFsError(e: unknown, lang: Lang): string {
  const code = (e as { code?: string }).code ?? "";
  const key = `cli.fs.${code.toLowerCase()}`;
  return /^E[A-Z]+$/.test(code) && isMessageKey(key) ? `${msg(lang, key)} (${code})` : (e as Error).message;
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
