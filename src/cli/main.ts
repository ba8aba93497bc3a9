/**
 * `firma refresh book.xlsx`: the FIRMA add-in's job, without Excel. Arguments by commander
 * (well kept, CommonJS, no dependencies); the work is refreshWorkbook() in refresh.ts.
 * Exit codes: 0 done (cells may hold errors, as in Excel), 1 usage or set-up (no key, no address),
 * 2 the input cannot be read as a workbook, 3 partial: some cells could not get an answer (budget
 * reached, service down, credits spent…) or some FIRMA formulas could not be evaluated without Excel,
 * and kept their previous values, 4 the output cannot be written.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { existsSync, readFileSync, renameSync, writeFileSync } from "fs";
import { basename, dirname, extname, join, resolve } from "path";
import { SingleBar } from "cli-progress";
import type { PlanName } from "../api/types";
import { FirmaEngine } from "../engine/engine";
import { isPlanName } from "../engine/plans";
import { KeyValueStore, MemoryStore } from "../engine/store";
import type { Lang } from "../functions/cells";
import { refreshWorkbook, RefreshReport } from "./refresh";
import { CacheStoreError, defaultCacheDir, defaultCachePath, SqliteStore } from "./sqlite-store";
import { XlsxError } from "./xlsx-package";

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
  lang: Lang;
}

const T = {
  ro: {
    noKey:
      "Lipsește cheia API. Dați-o cu --key sau în variabila FIRMA_API_KEY; o cheie se generează din contul dvs. Company Data Service, după înregistrare. Pentru o încercare fără cont: npm run sandbox, apoi --key demo-pro --base-url http://127.0.0.1:3001",
    noUrl:
      "Lipsește adresa serviciului. Dați-o cu --base-url sau în variabila FIRMA_BASE_URL (adresa Company Data Service API v4, https://…). Pentru o încercare locală: npm run sandbox și --base-url http://127.0.0.1:3001",
    sameFile: "Fișierul de ieșire ar fi chiar cel de intrare: folosiți --in-place dacă asta doriți.",
    estimate: (r: RefreshReport) =>
      `Estimare: ${r.evaluated} formule de calculat, ${r.estimate.distinctCuis} CUI distincte, ${r.estimate.cached} din cache, ${r.estimate.invalid} invalide → ${r.estimate.exact ? "" : "cel mult "}${r.estimate.calls} apeluri = ${r.estimate.credits} credite.`,
    budget: (n: number, max: number | undefined) =>
      max !== undefined && max < n
        ? `  bugetul --max-credits ${max} e sub estimare: se trimit cel mult ${max} apeluri, restul celulelor își păstrează valorile.`
        : "",
    kept: (n: number) => `  celule care și-au păstrat valoarea anterioară (fără răspuns): ${n}`,
    dry: "Rulare de probă (--dry-run): nu s-a cheltuit nimic și nu s-a scris nimic.",
    done: (input: string, out: string) => `FIRMA: ${input} → ${out}`,
    found: (r: RefreshReport) => `  formule FIRMA: ${r.formulas} (calculate ${r.evaluated}, necalculate ${r.skipped.length})`,
    filled: (r: RefreshReport, errs: number) => `  celule completate: ${r.values} cu valori, ${errs} cu erori`,
    credits: (r: RefreshReport, ms: number) =>
      `  credite cheltuite: ${r.credits} (estimare ${r.estimate.credits}); răspunsuri din cache: ${r.cacheHits}; timp: ${(ms / 1000).toFixed(1)} s`,
    skipped: "  necalculate (argumentele nu sunt constante):",
    spill: "  rezultate care nu încap (#SPILL!):",
  },
  en: {
    noKey:
      "The API key is missing. Give it with --key or in FIRMA_API_KEY; a key is generated in your Company Data Service account after registration. To try without an account: npm run sandbox, then --key demo-pro --base-url http://127.0.0.1:3001",
    noUrl:
      "The service address is missing. Give it with --base-url or in FIRMA_BASE_URL (the Company Data Service API v4 address, https://…). To try locally: npm run sandbox and --base-url http://127.0.0.1:3001",
    sameFile: "The output file would be the input itself: use --in-place if that is what you want.",
    estimate: (r: RefreshReport) =>
      `Estimate: ${r.evaluated} formulas to compute, ${r.estimate.distinctCuis} distinct CUIs, ${r.estimate.cached} cached, ${r.estimate.invalid} invalid → ${r.estimate.exact ? "" : "at most "}${r.estimate.calls} calls = ${r.estimate.credits} credits.`,
    budget: (n: number, max: number | undefined) =>
      max !== undefined && max < n
        ? `  the --max-credits ${max} budget is below the estimate: at most ${max} calls are sent, the other cells keep their values.`
        : "",
    kept: (n: number) => `  cells that kept their previous value (no answer): ${n}`,
    dry: "Dry run (--dry-run): nothing was spent and nothing was written.",
    done: (input: string, out: string) => `FIRMA: ${input} → ${out}`,
    found: (r: RefreshReport) => `  FIRMA formulas: ${r.formulas} (computed ${r.evaluated}, not computed ${r.skipped.length})`,
    filled: (r: RefreshReport, errs: number) => `  cells filled: ${r.values} with values, ${errs} with errors`,
    credits: (r: RefreshReport, ms: number) =>
      `  credits spent: ${r.credits} (estimate ${r.estimate.credits}); answers from the cache: ${r.cacheHits}; time: ${(ms / 1000).toFixed(1)} s`,
    skipped: "  not computed (arguments are not constants):",
    spill: "  results that do not fit (#SPILL!):",
  },
};

function wholeNumber(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new InvalidArgumentError("a whole number ≥ 0 / un număr întreg ≥ 0");
  return n;
}

function planName(v: string): PlanName {
  if (!isPlanName(v)) throw new InvalidArgumentError("free, pro, business or enterprise");
  return v;
}

/** The default output: `book.refreshed.xlsx` beside `book.xlsx`. */
export function defaultOutput(input: string): string {
  const ext = extname(input) || ".xlsx";
  return join(dirname(input), `${basename(input, extname(input))}.refreshed${ext}`);
}

export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let code = 0;
  const program = new Command("firma")
    .description("FIRMA: date despre firme românești în registre Excel / Romanian company data in Excel workbooks")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  program
    .command("refresh")
    .description(
      "actualizează valorile formulelor FIRMA dintr-un .xlsx, fără Excel / refresh the values of FIRMA formulas in an .xlsx, without Excel",
    )
    .argument("<book.xlsx>", "registrul de actualizat / the workbook to refresh")
    .option("--key <key>", "cheia API (implicit: FIRMA_API_KEY) / API key (default: FIRMA_API_KEY)")
    .option("--base-url <url>", "adresa serviciului (implicit: FIRMA_BASE_URL) / service address (default: FIRMA_BASE_URL)")
    .option(
      "--out <file>",
      "fișierul rezultat (implicit: <nume>.refreshed.xlsx alături) / output file (default: <name>.refreshed.xlsx beside it)",
    )
    .option("--in-place", "suprascrie fișierul de intrare / overwrite the input file")
    .option("--dry-run", "doar estimează costul, fără apeluri și fără scriere / only estimate the cost: no calls, nothing written")
    .option(
      "--max-credits <n>",
      "buget: niciun apel peste atâtea credite; celulele rămase își păstrează valorile / budget: no call past this many credits; the other cells keep their values",
      wholeNumber,
    )
    .option("--plan <plan>", "planul dvs., pentru verificarea anilor fără cost / your plan, to check years at no cost", planName)
    .option(
      "--cache-dir <dir>",
      `dosarul cache-ului, fișierul cache.sqlite (implicit ${defaultCacheDir()}) / the cache folder, file cache.sqlite`,
    )
    .option("--no-cache", "fără cache pe disc / no cache on disk")
    .option("--no-progress", "fără bară de progres / no progress bar")
    .addOption(new Option("--lang <lang>", "limba mesajelor / message language").choices(["ro", "en"]).default("ro"))
    .action(async (input: string, flags: RefreshFlags) => {
      code = await runRefresh(resolve(input), flags, io);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 1;
    throw e;
  }
  return code;
}

async function runRefresh(input: string, flags: RefreshFlags, io: Io): Promise<number> {
  const t = T[flags.lang];
  const say = (s: string) => io.stdout.write(s + "\n");
  const fail = (s: string, c: number) => {
    io.stderr.write(s + "\n");
    return c;
  };
  const key = flags.key ?? io.env.FIRMA_API_KEY;
  const baseUrl = flags.baseUrl ?? io.env.FIRMA_BASE_URL;
  if (!flags.dryRun && !key) return fail(t.noKey, 1);
  if (!flags.dryRun && !baseUrl) return fail(t.noUrl, 1);
  const out = flags.inPlace ? input : resolve(flags.out ?? defaultOutput(input));
  if (out === input && !flags.inPlace) return fail(t.sameFile, 1);

  let bytes: Uint8Array;
  try {
    bytes = readFileSync(input);
  } catch (e) {
    return fail(`${(e as Error).message}`, 2);
  }
  let store: KeyValueStore;
  try {
    store = flags.cache ? new SqliteStore(defaultCachePath(flags.cacheDir ?? defaultCacheDir())) : new MemoryStore();
  } catch (e) {
    // A locked, unreadable or corrupt cache file: say which, before anything is asked of the service.
    if (e instanceof CacheStoreError) return fail(e.message, 1);
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
    if (!flags.dryRun) void engine.client; // checks the address now (https, or loopback http)
    engine.cache.onProblem((p) => io.stderr.write(`${p.message}\n`)); // a full or failing cache is told, never silent
  } catch (e) {
    return fail((e as Error).message, 1);
  }

  const started = Date.now();
  const bar =
    flags.progress && io.stderr.isTTY
      ? new SingleBar({ stream: io.stderr as NodeJS.WriteStream, format: "FIRMA [{bar}] {value}/{total} formule" })
      : null;
  let report: RefreshReport;
  // Ctrl-C: calls not yet sent are dropped; the run then ends as usual, after the calls in flight.
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once("SIGINT", onSigint);
  try {
    report = await refreshWorkbook(bytes, {
      engine,
      lang: flags.lang,
      dryRun: flags.dryRun,
      maxCredits: flags.maxCredits ?? null,
      signal: stop.signal,
      onProgress: bar ? (done, total) => (done === 1 ? bar.start(total, done) : bar.update(done)) : undefined,
    });
  } catch (e) {
    bar?.stop();
    if (e instanceof XlsxError) return fail(`${input}: ${e.message}`, 2);
    throw e;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
  bar?.stop();

  say(t.estimate(report));
  const budgetLine = t.budget(report.estimate.credits, flags.maxCredits);
  if (budgetLine) say(budgetLine);
  if (report.refused) return fail(report.refused, 3);
  if (flags.dryRun || !report.output) {
    say(t.dry);
    return 0;
  }
  try {
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, report.output);
    renameSync(tmp, out);
  } catch (e) {
    return fail((e as Error).message, 4);
  }
  const errs = Object.values(report.errors).reduce((s, n) => s + n, 0);
  say(t.done(input, out));
  say(t.found(report));
  say(t.filled(report, errs));
  for (const [what, n] of Object.entries(report.errors).sort((a, b) => b[1] - a[1])) say(`    ${n} × ${what}`);
  const kept = Object.values(report.kept).reduce((a, b) => a + b, 0);
  if (kept > 0) {
    say(t.kept(kept));
    for (const [cause, n] of Object.entries(report.kept).sort((a, b) => b[1] - a[1])) say(`    ${n} × ${cause}`);
  }
  say(t.credits(report, Date.now() - started));
  if (report.skipped.length) {
    say(t.skipped);
    for (const s of report.skipped) say(`    ${s.sheet}!${s.address} ${s.formula} — ${s.reason}`);
  }
  if (report.spillConflicts.length) {
    say(t.spill);
    for (const s of report.spillConflicts) say(`    ${s.sheet}!${s.address} — ${s.blockedBy}`);
  }
  if (!existsSync(out)) return 4;
  // partial: cells kept their values, or formulas could not be evaluated (issue 11 item 3)
  return kept > 0 || report.skipped.length > 0 ? 3 : 0;
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
