/**
 * What `firma users` and `firma audit` share: the streams they write to, the language of their
 * messages, the one way they open the firm's database (`--database`, else DATABASE_URL, else the
 * default SQLite file), the exit codes. They count months and days in the Bucharest calendar (src/engine/credits/bucharest-time.ts).
 * A failure is one line from the catalogs on stderr (with --json, also an object on stdout), and an
 * exit code: 2 for what was typed wrong (nothing was asked of the database), 1 for the rest.
 */
import { Command, CommanderError, Option } from "commander";
import { commandWords } from "../../shared/command-words";
import { t, type Lang, type MessageKey } from "../../shared/messages/node";
import { describeDatabase, openFirmStore, resolveDatabaseUrl } from "./open-store";
import { FirmStoreError, type FirmStore, type FirmStoreErrorCode } from "./firm-store";

export interface CommandIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
  /** The clock (tests move it); Date.now by default. */
  now?: () => number;
  /** Opens the database (tests inject a failing one); openFirmStore by default. */
  openStore?: (url: string) => Promise<FirmStore>;
}

/** The options every subcommand takes. */
export interface CommonFlags {
  database?: string;
  json?: boolean;
  lang?: Lang;
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A failure the command reports as one line and an exit code. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The language: --lang if typed (before commander has parsed it, so the help speaks it too), else LANG. */
export function commandLang(argv: readonly string[], env: CommandIo["env"]): Lang {
  const at = argv.findIndex((a) => a === "--lang" || a.startsWith("--lang="));
  const typed = at < 0 ? undefined : argv[at].includes("=") ? argv[at].slice("--lang=".length) : argv[at + 1];
  if (typed === "ro" || typed === "en") return typed;
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || "";
  return locale.toLowerCase().startsWith("en") ? "en" : "ro";
}

/** A commander program that writes to the io's streams and throws instead of exiting. */
export function program(name: string, description: string, io: CommandIo, lang: Lang): Command {
  // Commander's own words (Usage:, its errors) in the user's language too.
  const words = commandWords(lang, { writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  return new Command(name)
    .description(description)
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp(words.help)
    .configureOutput(words.output)
    .helpOption("-h, --help", t(lang, "cli.help.help"))
    .helpCommand("help [command]", t(lang, "cli.help.helpCommand"))
    .addHelpText("after", `\n${t(lang, "users.help.exitCodes")}`);
}

/** Adds --database, --json and --lang to a command. */
export function withCommonOptions(cmd: Command, lang: Lang): Command {
  return cmd
    .helpOption("-h, --help", t(lang, "cli.help.help"))
    .addOption(new Option("--database <url>", t(lang, "users.help.database")))
    .addOption(new Option("--json", t(lang, "users.help.json")))
    .addOption(new Option("--lang <lang>", t(lang, "users.help.lang")).choices(["ro", "en"]));
}

/** Which catalog message says what went wrong with the database, and the exit code it gives. */
const STORE_FAILURES: Record<FirmStoreErrorCode, [MessageKey, number]> = {
  unknown_scheme: ["users.db.unknownScheme", EXIT.usage],
  unreachable: ["users.db.unreachable", EXIT.failed],
  read_only: ["users.db.readOnly", EXIT.failed],
  disk_full: ["users.db.diskFull", EXIT.failed],
  newer_schema: ["users.db.newerSchema", EXIT.failed],
  user_exists: ["users.exists", EXIT.failed],
  bad_name: ["users.badName", EXIT.usage],
  bad_budget: ["users.badBudget", EXIT.usage],
};

/** A FirmStoreError as the one line and exit code the commands give; other errors as they are. */
export function storeFailure(e: unknown, lang: Lang, url: string): unknown {
  if (!(e instanceof FirmStoreError)) return e;
  const [key, exitCode] = STORE_FAILURES[e.code];
  const p = e.params;
  const shown = describeDatabase(url);
  // The driver's own words (the store gives them as `detail`), never with the URL's password.
  const reason = String(p.reason ?? p.detail ?? e.message)
    .split(url)
    .join(shown);
  return new CommandFailure(
    t(lang, key, {
      ...p,
      database: typeof p.database === "string" ? describeDatabase(p.database) : shown,
      reason,
      value: p.value ?? p.budget ?? "",
    }),
    exitCode,
  );
}

/** Opens the database `--database`, DATABASE_URL or the default names; a failure as a CommandFailure. */
export async function openDatabase(flags: CommonFlags, io: CommandIo, lang: Lang): Promise<FirmStore> {
  const url = resolveDatabaseUrl(flags.database, io.env);
  try {
    return await (io.openStore ?? openFirmStore)(url);
  } catch (e) {
    throw storeFailure(e, lang, url);
  }
}

/** Runs a command's body with the store open, and closes it whatever happens. */
export async function withStore<T>(flags: CommonFlags, io: CommandIo, lang: Lang, body: (store: FirmStore) => Promise<T>): Promise<T> {
  const store = await openDatabase(flags, io, lang);
  try {
    return await body(store);
  } catch (e) {
    throw storeFailure(e, lang, resolveDatabaseUrl(flags.database, io.env));
  } finally {
    await store.close().catch(() => undefined);
  }
}

/**
 * Parses and runs a program; returns the exit code. Commander's own usage errors (an unknown option,
 * a missing argument) are 2, its help 0; a CommandFailure is its line on stderr and its code.
 */
export async function run(cmd: Command, argv: string[], io: CommandIo, prefix: string): Promise<number> {
  const json = argv.includes("--json");
  try {
    await cmd.parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (!(e instanceof CommandFailure)) throw e;
    io.stderr.write(`${prefix}: ${e.message}\n`);
    if (json) io.stdout.write(`${JSON.stringify({ error: e.message, exitCode: e.exitCode })}\n`);
    return e.exitCode;
  }
}

/** Writes an object as the one JSON line on stdout. */
export function writeJson(io: CommandIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}

/** A moment as ISO 8601 (UTC), or null. */
export function iso(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

/** Rows as a plain-text table: columns padded to their widest cell, numbers aligned right. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}
