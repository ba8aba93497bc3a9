/**
 * What `firma refresh` and `firma match` share: the options of the key, the service's address, the
 * plan, the cache, the budget and the language (declared once, read once), the engine built from them
 * (the key read from --key or FIRMA_API_KEY and handed to the engine alone), the files they read and
 * write (a path checked before any credit is spent, a file written whole or not at all) and the
 * progress bar and Ctrl-C of a run.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "fs";
import { basename, dirname, extname, join } from "path";
import { SingleBar } from "cli-progress";
import { withoutSecrets } from "../api/options";
import type { PlanName } from "../api/types";
import { FirmaEngine } from "../engine/engine";
import { LocalInputError } from "../engine/local-errors";
import { isPlanName } from "../engine/credits/subscription-plans";
import { KeyValueStore, MemoryStore } from "../engine/cache/store";
import { isMessageKey, t as msg, type Lang, type MessageKey } from "../shared/messages/node";
import { XlsxError } from "../shared/xlsx/xlsx-error";
import { CacheStoreError, defaultCacheDir, defaultCachePath, SqliteStore } from "./sqlite-cache";
import { count, M } from "./messages";

export interface Io {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/** The options every command that asks the service takes (serviceOptions() declares them). */
export interface ServiceFlags {
  key?: string;
  baseUrl?: string;
  dryRun?: boolean;
  maxCredits?: number;
  plan?: PlanName;
  cacheDir?: string;
  cache: boolean;
  progress: boolean;
  lang?: Lang;
  maxAge?: number;
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

/**
 * Declares the key, address, estimate, budget, plan, cache, progress and language options on a command;
 * `budgetHelp` says what the budget leaves undone in that command's terms.
 */
export function serviceOptions(command: Command, lang: Lang, budgetHelp: MessageKey = "cli.help.maxCredits"): Command {
  const h = (key: Parameters<typeof msg>[1], params?: Parameters<typeof msg>[2]) => msg(lang, key, params);
  return command
    .option("--key <key>", h("cli.help.key"))
    .option("--base-url <url>", h("cli.help.baseUrl"))
    .option("--dry-run", h("cli.help.dryRun"))
    .option("--max-credits <n>", h(budgetHelp), wholeNumber(lang))
    .option("--plan <plan>", h("cli.help.plan"), planName(lang))
    .option("--cache-dir <dir>", h("cli.help.cacheDir", { dir: defaultCacheDir() }))
    .option("--no-cache", h("cli.help.noCache"))
    .option("--max-age <days>", h("cli.help.maxAge"), wholeNumber(lang))
    .option("--no-progress", h("cli.help.noProgress"))
    .addOption(new Option("--lang <lang>", h("cli.help.lang")).choices(["ro", "en"]));
}

/** `--lang ro|en` (or `--lang=en`) among the arguments, before commander has parsed them. */
export function langOfArgs(argv: readonly string[]): Lang | null {
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i] === "--lang" ? argv[i + 1] : argv[i].startsWith("--lang=") ? argv[i].slice(7) : undefined;
    if (v === "ro" || v === "en") return v;
  }
  return null;
}

/** The default output: `book.refreshed.xlsx` beside `book.xlsx`. */
export function defaultOutput(input: string, suffix = "refreshed", ext = extname(input) || ".xlsx"): string {
  return join(dirname(input), `${basename(input, extname(input))}.${suffix}${ext}`);
}

/** The key and the address, when a run needs them: the message that stops it otherwise. */
export function missingAccess(flags: ServiceFlags, env: Io["env"], lang: Lang): string | null {
  if (flags.dryRun) return null;
  if (!(flags.key ?? env.FIRMA_API_KEY)) return M[lang].noKey;
  if (!(flags.baseUrl ?? env.FIRMA_BASE_URL)) return M[lang].noUrl;
  return null;
}

/**
 * The engine of a run, on the disk cache (or memory with --no-cache); the key goes to it alone.
 * A cache that cannot be opened, or an address that is not https (nor loopback http), is the
 * message returned instead, before anything is asked of the service.
 */
export function openEngine(flags: ServiceFlags, io: Io, lang: Lang): FirmaEngine | string {
  const key = flags.key ?? io.env.FIRMA_API_KEY;
  const baseUrl = flags.baseUrl ?? io.env.FIRMA_BASE_URL;
  let store: KeyValueStore;
  try {
    store = flags.cache ? new SqliteStore(defaultCachePath(flags.cacheDir ?? defaultCacheDir())) : new MemoryStore();
  } catch (e) {
    // A locked, unreadable or corrupt cache file: say which, before anything is asked of the service.
    if (e instanceof CacheStoreError) return e.messageIn(lang);
    throw e;
  }
  try {
    const engine = new FirmaEngine({
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
    return engine;
  } catch (e) {
    if (e instanceof LocalInputError && e.kind === "invalid_base_url") return M[lang].badUrl(withoutSecrets(String(baseUrl)));
    return (e as Error).message;
  }
}

/** What the CLI says about a cache that is full or failing (CacheProblem.kind → catalog key). */
const CACHE_PROBLEMS = {
  full: "cli.cache.full",
  write_failed: "cli.cache.writeFailed",
  read_timeout: "cli.cache.readTimeout",
  read_failed: "cli.cache.readFailed",
} as const;

/** A file's bytes, or why they cannot be read (a folder, a missing file, no right to read it). */
export function readInput(path: string, lang: Lang): Uint8Array | { why: string } {
  try {
    if (statSync(path).isDirectory()) return { why: lang === "en" ? "it is a folder" : "este un dosar" };
    return readFileSync(path);
  } catch (e) {
    return { why: plainFsError(e, lang) };
  }
}

/** Why `out` cannot be written, or null: its folder must exist and take a new file (probed, then removed). */
export function unwritable(out: string, lang: Lang): string | null {
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

/**
 * Writes a file whole or not at all: a temporary file beside it, then an atomic rename; on failure
 * the temporary file is removed and the error thrown (the old file, if any, is untouched).
 */
export function writeWhole(path: string, content: Uint8Array | string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp); // a temporary file cut short by the failure
    } catch {
      /* none was made */
    }
    throw e;
  }
}

/** A file-system error in words, not a raw ENOENT (catalog `cli.fs.*`); a workbook too large to write, in the catalog's. */
export function plainFsError(e: unknown, lang: Lang): string {
  if (e instanceof XlsxError) return msg(lang, e.key, e.params);
  const code = (e as { code?: string }).code ?? "";
  const key = `cli.fs.${code.toLowerCase()}`;
  return /^E[A-Z]+$/.test(code) && isMessageKey(key) ? `${msg(lang, key)} (${code})` : (e as Error).message;
}

/** The progress bar on stderr, when it is a terminal and neither --no-progress nor --json said otherwise. */
export function progressBar(flags: ServiceFlags, io: Io, json: boolean): ((done: number, total: number) => void) & { stop(): void } {
  const bar =
    flags.progress && !json && io.stderr.isTTY
      ? new SingleBar({ stream: io.stderr as NodeJS.WriteStream, format: "FIRMA [{bar}] {value}/{total}" })
      : null;
  let started = false;
  const onProgress = (done: number, total: number) => {
    if (!bar) return;
    if (!started) {
      started = true;
      bar.start(total, done);
    } else bar.update(done);
  };
  return Object.assign(onProgress, { stop: () => started && bar?.stop() });
}

/** Runs `work` with Ctrl-C wired to its signal: calls not yet sent are dropped, the run ends as usual. */
export async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once("SIGINT", onSigint);
  try {
    return await work(stop.signal);
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
