/**
 * `firma audit --since YYYY-MM-DD [--user NAME] [--csv FILE] [--json]`: the firm's audit trail since
 * Bucharest midnight of that day: each request's time, person, endpoint, companies, whether the
 * shared store or the service answered (or the server refused), the credits charged, and the status;
 * then the total of credits. `--csv` writes the trail as a file (RFC 4180, a header row in both
 * languages as `firma refresh --changes` writes it), whole or not at all: a temporary file beside it,
 * then a rename.
 */
import { renameSync, rmSync, writeFileSync } from "fs";
import { resolve } from "path";
import { bucharestMidnight, bucharestMonth, bucharestTime } from "../../engine/credits/bucharest-time";
import { csvDocument, type CsvValue } from "../../shared/csv";
import { count, formatNumber, isMessageKey, t, type Lang } from "../../shared/messages/node";
import * as kit from "./command-kit";
import type { AnswerSource, AuditEntry } from "./firm-store";
import { isUserName } from "./tokens";

interface AuditFlags extends kit.CommonFlags {
  since?: string;
  user?: string;
  csv?: string;
}

/** The CSV's columns, each named in Romanian and English. */
const CSV_HEADER = ["când/when", "cine/who", "endpoint", "CUI", "sursa/source", "credite/credits", "status"];

/** The trail as a CSV file (src/shared/csv.ts): times in ISO 8601 (UTC), the companies separated by spaces, the source as its code. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const rows: CsvValue[][] = [CSV_HEADER];
  for (const e of entries) rows.push([new Date(e.at).toISOString(), e.user, e.endpoint, e.cuis.join(" "), e.source, e.credits, e.status]);
  return csvDocument(rows, { bom: true });
}

const SOURCE_KEY = { store: "audit.source.store", upstream: "audit.source.upstream", refused: "audit.source.refused" } as const;

/** The companies of one request as a table shows them: the first three, then how many more. */
function companies(cuis: readonly number[], lang: Lang): string {
  if (cuis.length <= 3) return cuis.join(" ");
  return `${cuis.slice(0, 3).join(" ")} ${t(lang, "audit.more", { n: cuis.length - 3 })}`;
}

/** A file-system error in words (the catalog's cli.fs.* texts), with its code. */
function fsReason(e: unknown, lang: Lang): string {
  const code = (e as NodeJS.ErrnoException).code ?? "";
  const key = `cli.fs.${code.toLowerCase()}`;
  return /^E[A-Z]+$/.test(code) && isMessageKey(key) ? `${t(lang, key)} (${code})` : (e as Error).message;
}

/** Writes the file whole or not at all; an unwritable place is a CommandFailure, and leaves no file. */
function writeWhole(file: string, text: string, lang: Lang): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new kit.CommandFailure(t(lang, "audit.unwritable", { file, reason: fsReason(e, lang) }), kit.EXIT.failed);
  }
}

function entryJson(e: AuditEntry) {
  return { at: kit.iso(e.at), user: e.user, endpoint: e.endpoint, cuis: e.cuis, source: e.source, credits: e.credits, status: e.status };
}

async function audit(flags: AuditFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const now = (io.now ?? Date.now)();
  // Without --since: from the start of this month, where the budgets start too.
  const since = flags.since ?? `${bucharestMonth(now)}-01`;
  const from = bucharestMidnight(since);
  if (from === null) throw new kit.CommandFailure(t(lang, "audit.badDate", { value: since }), kit.EXIT.usage);
  if (flags.user !== undefined && !isUserName(flags.user))
    throw new kit.CommandFailure(t(lang, "users.badName", { name: flags.user }), kit.EXIT.usage);
  const csvFile = flags.csv === undefined ? null : resolve(flags.csv);
  const entries = await kit.withStore(flags, io, lang, async (store) => {
    if (flags.user !== undefined && !(await store.listUsers(bucharestMonth(now))).some((u) => u.name === flags.user))
      throw new kit.CommandFailure(t(lang, "users.unknown", { name: flags.user }), kit.EXIT.failed);
    return store.auditSince(from, flags.user);
  });
  const credits = entries.reduce((s, e) => s + e.credits, 0);
  const fromStore = entries.filter((e) => e.source === "store").length;
  if (csvFile) writeWhole(csvFile, auditCsv(entries), lang);
  if (flags.json) {
    kit.writeJson(io, {
      since,
      user: flags.user ?? null,
      entries: entries.map(entryJson),
      total: { requests: entries.length, fromStore, credits },
    });
    return;
  }
  if (csvFile) {
    io.stdout.write(`${t(lang, "audit.csvWritten", { file: csvFile, requests: count(entries.length, "call", lang) })}\n`);
  } else if (entries.length > 0) {
    const header = t(lang, "audit.header").split("|");
    const rows = entries.map((e) => [
      bucharestTime(e.at),
      e.user,
      e.endpoint,
      companies(e.cuis, lang),
      e.source in SOURCE_KEY ? t(lang, SOURCE_KEY[e.source as AnswerSource]) : String(e.source),
      formatNumber(e.credits, lang),
      String(e.status),
    ]);
    io.stdout.write(kit.table(header, rows, new Set([5, 6])));
  }
  const total =
    entries.length === 0
      ? t(lang, "audit.none", { since })
      : t(lang, "audit.total", {
          requests: count(entries.length, "call", lang),
          fromStore,
          credits: count(credits, "credit", lang),
          since,
        });
  io.stdout.write(`${total}\n`);
}

/** `firma audit …`; resolves to the exit code (0, 1: the database or the file, 2: usage). */
export async function main(argv: string[], io: kit.CommandIo): Promise<number> {
  const lang = kit.commandLang(argv, io.env);
  const cmd = kit
    .withCommonOptions(kit.program("firma audit", t(lang, "audit.help.description"), io, lang), lang)
    .option("--since <date>", t(lang, "audit.help.since"))
    .option("--user <name>", t(lang, "audit.help.user"))
    .option("--csv <file>", t(lang, "audit.help.csv"))
    .action((flags: AuditFlags) => audit(flags, io, flags.lang ?? lang));
  return kit.run(cmd, argv, io, "firma audit");
}
