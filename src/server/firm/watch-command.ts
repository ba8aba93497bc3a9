/**
 * `firma watch add|set|list|show|remove|log`: the firm's watch lists, in the database every
 * `firma serve` of the firm shares. A list is a person's (`--owner`, charged to their monthly
 * budget) or the firm's (`--firm`, charged to `--watch-budget`); its companies come from a CSV file
 * (watch-file.ts); its schedule is a cron expression in Bucharest time (watch-cost.ts). Everything
 * typed and the file are checked before the database is opened; a list whose cheapest month passes
 * its budget is refused with the arithmetic, and nothing is written.
 */
import { Option } from "commander";
import { readFileSync } from "fs";
import { parseCui } from "../../api/cui";
import { bucharestMonth, bucharestTime } from "../../engine/credits/bucharest-time";
import { creditRange } from "../../shared/credit-range";
import { count, formatNumber, t, type Lang } from "../../shared/messages/node";
import * as kit from "./command-kit";
import type { FirmStore } from "./firm-store";
import { isUserName, parseBudget } from "./tokens";
import { budgetArithmetic, costOf, DEFAULT_FINANCIAL_SCHEDULE, DEFAULT_SCHEDULE, parseSchedule, type CostRange } from "./watch-cost";
import { XlsxError } from "../../shared/xlsx/xlsx-error";
import { readWatchFile, WATCH_FILE_MESSAGE, WatchFileError, type WatchFile } from "./watch-file";
import type { WatchList } from "./watch-store";
import { addRunCommand, type RunIo } from "./watch-run";
import { checkWebhookSecret, checkWebhookUrl, SECRET_LENGTH } from "./watch-webhook";

interface HookFlags extends kit.CommonFlags {
  url?: string;
  secretFile?: string;
  remove?: boolean;
}

interface ListFlags extends kit.CommonFlags {
  file?: string;
  column?: string;
  owner?: string;
  firm?: boolean;
  schedule?: string;
  financialSchedule?: string;
  notify?: string;
  watchBudget?: string;
}

const fail = (msg: string, code: number = kit.EXIT.usage) => new kit.CommandFailure(msg, code);
const EMAIL = /^[^\s@,;<>"()]+@[^\s@,;<>"()]+\.[^\s@,;<>"()]+$/;
const CUI_REASON = {
  empty: "watch.cui.empty",
  format: "watch.cui.format",
  length: "watch.cui.length",
  control: "watch.cui.control",
} as const;
/** Invalid rows named in a message: the first ones, then how many more. */
const SHOWN_ROWS = 10;

function checkedListName(name: string | undefined, lang: Lang): string {
  if (name === undefined || name === "") throw fail(t(lang, "watch.noName"));
  if (!isUserName(name)) throw fail(t(lang, "watch.badName", { name }));
  return name;
}

function checkedSchedule(expr: string | undefined, lang: Lang): string | undefined {
  if (expr === undefined) return undefined;
  const s = parseSchedule(expr);
  if (!s.ok) throw fail(t(lang, "watch.badSchedule", { value: expr, reason: s.reason }));
  return expr.trim().replace(/\s+/g, " ");
}

function checkedNotify(list: string | undefined, lang: Lang): string[] | undefined {
  if (list === undefined) return undefined;
  const all = list
    .split(/[,;]/)
    .map((a) => a.trim())
    .filter((a) => a !== "");
  const bad = all.filter((a) => !EMAIL.test(a));
  if (bad.length > 0) throw fail(t(lang, "watch.badEmail", { value: bad.join(", ") }));
  return [...new Set(all)];
}

/** `--owner NAME` or `--firm` (null), or undefined when neither was typed. */
function checkedOwner(flags: ListFlags, lang: Lang): string | null | undefined {
  if (flags.owner !== undefined && flags.firm) throw fail(t(lang, "watch.ownerAndFirm"));
  if (flags.firm) return null;
  if (flags.owner === undefined) return undefined;
  if (!isUserName(flags.owner)) throw fail(t(lang, "users.badName", { name: flags.owner }));
  return flags.owner;
}

function checkedBudget(flags: ListFlags, lang: Lang): number | null {
  if (flags.watchBudget === undefined) return null;
  const n = parseBudget(flags.watchBudget);
  if (n === null) throw fail(t(lang, "watch.badBudget", { value: flags.watchBudget }));
  return n;
}

/** The file's CUIs; a file that cannot be read, or holds anything but CUIs, is a usage failure. */
function readList(file: string, column: string | undefined, lang: Lang): WatchFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw fail(
      t(lang, "watch.fileUnreadable", { file, reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message }),
      kit.EXIT.failed,
    );
  }
  let read: WatchFile;
  try {
    read = readWatchFile(file, bytes, column);
  } catch (e) {
    if (e instanceof XlsxError) {
      throw fail(t(lang, "watch.fileXlsx", { file, reason: `${t(lang, e.key, e.params)}${e.detail ? ` (${e.detail})` : ""}` }));
    }
    if (!(e instanceof WatchFileError)) throw e;
    throw fail(t(lang, WATCH_FILE_MESSAGE[e.kind], { file, detail: e.detail }));
  }
  const sheet = ofSheet(read, lang);
  if (read.invalid.length > 0) {
    const rows = read.invalid
      .slice(0, SHOWN_ROWS)
      .map((b) => t(lang, "watch.badRow", { row: b.row, text: b.text, reason: t(lang, CUI_REASON[b.reason]) }))
      .join("; ");
    const more = read.invalid.length > SHOWN_ROWS ? ` ${t(lang, "audit.more", { n: read.invalid.length - SHOWN_ROWS })}` : "";
    throw fail(t(lang, "watch.invalidRows", { file, n: read.invalid.length, column: read.column, sheet, rows: `${rows}${more}` }));
  }
  if (read.cuis.length === 0) throw fail(t(lang, "watch.emptyFile", { file, column: read.column, sheet }));
  return read;
}

function costLine(c: CostRange, lang: Lang): string {
  return t(lang, "watch.cost", {
    perCheck: creditRange(c.perCheck.low, c.perCheck.high, lang),
    checks: c.checksPerMonth,
    financial: c.financial,
    financialChecks: c.financialChecks,
    perFinancialCheck: c.perFinancialCheck,
    month: creditRange(c.monthly.low, c.monthly.high, lang),
  });
}

/**
 * Refuses (nothing written) when the cheapest month of this list and the others charged to the same
 * budget passes it: a person's budget for their lists, `--watch-budget` for the firm's.
 */
async function checkBudget(
  store: FirmStore,
  name: string,
  owner: string | null,
  cost: CostRange,
  firmBudget: number | null,
  now: number,
  lang: Lang,
): Promise<void> {
  let budget: number | null = firmBudget;
  if (owner !== null) {
    const user = (await store.listUsers(bucharestMonth(now))).find((u) => u.name === owner);
    if (!user) throw fail(t(lang, "users.unknown", { name: owner }), kit.EXIT.failed);
    if (user.revokedAt !== null) throw fail(t(lang, "watch.ownerRevoked", { name: owner }), kit.EXIT.failed);
    budget = user.budget;
  }
  if (budget === null) return;
  const { others, total, fits } = budgetArithmetic(await store.watch.lists(), name, owner, cost, budget, now);
  if (fits) return;
  throw fail(
    t(lang, owner === null ? "watch.overFirmBudget" : "watch.overBudget", {
      name,
      owner: owner ?? "",
      checks: cost.checksPerMonth,
      perCheck: cost.perCheck.low,
      financial: cost.financial,
      low: count(cost.monthly.low, "credit", lang),
      others,
      total,
      budget,
    }),
    kit.EXIT.failed,
  );
}

/** " of sheet …" after the column of a workbook's list; nothing for a CSV's. */
function ofSheet(read: WatchFile, lang: Lang): string {
  return read.sheet === undefined ? "" : t(lang, "watch.ofSheet", { sheet: read.sheet });
}

function fileLine(file: string, read: WatchFile, lang: Lang): string {
  return t(lang, "watch.fileRead", {
    file,
    column: read.column,
    sheet: ofSheet(read, lang),
    cuis: read.cuis.length,
    blanks: read.blanks,
    duplicates: read.duplicates,
    header: read.header ? t(lang, "watch.withHeader") : "",
  });
}

async function add(name: string | undefined, flags: ListFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const list = checkedListName(name, lang);
  const owner = checkedOwner(flags, lang);
  if (owner === undefined) throw fail(t(lang, "watch.noOwner"));
  if (flags.file === undefined) throw fail(t(lang, "watch.noFile"));
  const schedule = checkedSchedule(flags.schedule, lang) ?? null;
  const financialSchedule = checkedSchedule(flags.financialSchedule, lang) ?? null;
  const notify = checkedNotify(flags.notify, lang) ?? [];
  const firmBudget = checkedBudget(flags, lang);
  const read = readList(flags.file, flags.column, lang);
  const now = (io.now ?? Date.now)();
  const cost = costOf(read.cuis.length, { schedule, financialSchedule }, now);
  await kit.withStore(flags, io, lang, async (store) => {
    await checkBudget(store, list, owner, cost, firmBudget, now, lang);
    if (!(await store.watch.addList({ name: list, owner, schedule, financialSchedule, notify, cuis: read.cuis }, now)))
      throw fail(t(lang, "watch.exists", { name: list }), kit.EXIT.failed);
  });
  if (flags.json)
    return kit.writeJson(io, { name: list, owner, schedule, financialSchedule, notify, companies: read.cuis.length, cost, file: read });
  io.stdout.write(`${fileLine(flags.file, read, lang)}\n`);
  io.stdout.write(`${t(lang, "watch.added", { name: list, owner: owner ?? t(lang, "watch.theFirm"), n: read.cuis.length })}\n`);
  io.stdout.write(`${scheduleLines({ schedule, financialSchedule }, lang)}\n`);
  io.stdout.write(`${costLine(cost, lang)}\n`);
}

/** When the list is checked: its identification check, its financial-year check. */
function scheduleLines(l: { schedule: string | null; financialSchedule: string | null }, lang: Lang): string {
  const dflt = (s: string) => `${s} ${t(lang, "watch.default")}`;
  return [
    t(lang, "watch.schedule", { schedule: l.schedule ?? dflt(DEFAULT_SCHEDULE) }),
    t(lang, "watch.financialSchedule", { schedule: l.financialSchedule ?? dflt(DEFAULT_FINANCIAL_SCHEDULE) }),
  ].join("\n");
}

async function set(name: string | undefined, flags: ListFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const list = checkedListName(name, lang);
  const owner = checkedOwner(flags, lang);
  const schedule = checkedSchedule(flags.schedule, lang);
  const financialSchedule = checkedSchedule(flags.financialSchedule, lang);
  const notify = checkedNotify(flags.notify, lang);
  const firmBudget = checkedBudget(flags, lang);
  const read = flags.file === undefined ? undefined : readList(flags.file, flags.column, lang);
  if (owner === undefined && schedule === undefined && financialSchedule === undefined && notify === undefined && read === undefined)
    throw fail(t(lang, "watch.nothingToSet"));
  const now = (io.now ?? Date.now)();
  const after = await kit.withStore(flags, io, lang, async (store) => {
    const before = await store.watch.list(list);
    if (!before) throw fail(t(lang, "watch.unknown", { name: list }), kit.EXIT.failed);
    const newOwner = owner === undefined ? before.owner : owner;
    const cost = costOf(
      read?.cuis.length ?? before.companies,
      { schedule: schedule ?? before.schedule, financialSchedule: financialSchedule ?? before.financialSchedule },
      now,
    );
    await checkBudget(store, list, newOwner, cost, firmBudget, now, lang);
    await store.watch.updateList(list, { owner, schedule, financialSchedule, notify, cuis: read?.cuis }, now);
    return { list: (await store.watch.list(list)) as WatchList, cost };
  });
  if (flags.json) return kit.writeJson(io, { ...listJson(after.list), cost: after.cost });
  if (read && flags.file) io.stdout.write(`${fileLine(flags.file, read, lang)}\n`);
  io.stdout.write(`${t(lang, "watch.changed", { name: list })}\n${costLine(after.cost, lang)}\n`);
}

function listJson(l: WatchList) {
  return { ...l, createdAt: kit.iso(l.createdAt), updatedAt: kit.iso(l.updatedAt), stoppedAt: kit.iso(l.stoppedAt) };
}

async function listAll(flags: kit.CommonFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const now = (io.now ?? Date.now)();
  const lists = await kit.withStore(flags, io, lang, (store) => store.watch.lists());
  if (flags.json) return kit.writeJson(io, { lists: lists.map((l) => ({ ...listJson(l), cost: costOf(l.companies, l, now) })) });
  if (lists.length === 0) return void io.stdout.write(`${t(lang, "watch.none")}\n`);
  const rows = lists.map((l) => {
    const c = costOf(l.companies, l, now);
    return [
      l.name,
      l.owner ?? t(lang, "watch.theFirm"),
      formatNumber(l.companies, lang),
      l.schedule ?? `${DEFAULT_SCHEDULE} ${t(lang, "watch.default")}`,
      `${formatNumber(c.monthly.low, lang)}–${formatNumber(c.monthly.high, lang)}`,
      l.stoppedAt === null ? "" : `${bucharestTime(l.stoppedAt)} ${l.stoppedReason ?? ""}`.trim(),
    ];
  });
  io.stdout.write(kit.table(t(lang, "watch.header").split("|"), rows, new Set([2])));
}

async function show(name: string | undefined, flags: kit.CommonFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const list = checkedListName(name, lang);
  const now = (io.now ?? Date.now)();
  const found = await kit.withStore(flags, io, lang, async (store) => {
    const l = await store.watch.list(list);
    if (!l) throw fail(t(lang, "watch.unknown", { name: list }), kit.EXIT.failed);
    const hook = (await store.outbox.hookOf(list))?.url ?? null;
    return { list: l, cuis: await store.watch.members(list), hook, undelivered: await store.outbox.tally(list) };
  });
  const cost = costOf(found.list.companies, found.list, now);
  if (flags.json)
    return kit.writeJson(io, { ...listJson(found.list), webhook: found.hook, undelivered: found.undelivered, cuis: found.cuis, cost });
  const l = found.list;
  io.stdout.write(`${t(lang, "watch.added", { name: l.name, owner: l.owner ?? t(lang, "watch.theFirm"), n: l.companies })}\n`);
  io.stdout.write(`${scheduleLines(l, lang)}\n`);
  if (l.notify.length > 0) io.stdout.write(`${t(lang, "watch.notify", { to: l.notify.join(", ") })}\n`);
  if (found.hook !== null) io.stdout.write(`${t(lang, "watch.hook.shown", { url: found.hook })}\n`);
  for (const u of found.undelivered)
    io.stdout.write(
      `${t(lang, u.state === "pending" ? "alert.show.pending" : "alert.show.failed", { n: u.n, target: u.target, name: l.name })}\n`,
    );
  if (l.stoppedAt !== null)
    io.stdout.write(`${t(lang, "watch.stopped", { at: bucharestTime(l.stoppedAt), reason: l.stoppedReason ?? "" })}\n`);
  io.stdout.write(`${costLine(cost, lang)}\n\n${found.cuis.join("\n")}\n`);
}

async function remove(name: string | undefined, cuis: string[], flags: kit.CommonFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const list = checkedListName(name, lang);
  const parsed = cuis.map((c) => ({ c, p: parseCui(c) }));
  const bad = parsed.filter((x) => !x.p.ok).map((x) => x.c);
  if (bad.length > 0) throw fail(t(lang, "watch.badCuis", { value: bad.join(", ") }));
  const wanted = parsed.map((x) => (x.p.ok ? x.p.cui : 0));
  const now = (io.now ?? Date.now)();
  const removed = await kit.withStore(flags, io, lang, async (store) => {
    if (!(await store.watch.list(list))) throw fail(t(lang, "watch.unknown", { name: list }), kit.EXIT.failed);
    if (wanted.length === 0) return (await store.watch.removeList(list, now)) ? null : [];
    return store.watch.removeMembers(list, wanted, now);
  });
  if (flags.json) return kit.writeJson(io, { name: list, removed: removed ?? "list" });
  if (removed === null) return void io.stdout.write(`${t(lang, "watch.removed", { name: list })}\n`);
  const absent = wanted.filter((c) => !removed.includes(c));
  io.stdout.write(`${t(lang, "watch.membersRemoved", { name: list, n: removed.length })}\n`);
  if (absent.length > 0) io.stdout.write(`${t(lang, "watch.notMembers", { cuis: absent.join(", ") })}\n`);
}

async function log(name: string | undefined, flags: kit.CommonFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const list = name === undefined ? undefined : checkedListName(name, lang);
  const entries = await kit.withStore(flags, io, lang, (store) => store.watch.log(list));
  if (flags.json) return kit.writeJson(io, { entries: entries.map((e) => ({ ...e, at: kit.iso(e.at) })) });
  if (entries.length === 0) return void io.stdout.write(`${t(lang, "watch.noLog")}\n`);
  const rows = entries.map((e) => [bucharestTime(e.at), e.list, e.kind, JSON.stringify(e.detail)]);
  io.stdout.write(kit.table(t(lang, "watch.logHeader").split("|"), rows, new Set()));
}

/**
 * `firma watch hook LIST --url URL --secret-file F` (or `--remove`): the list's webhook, the
 * administrator's only. The secret is read from a file, never typed (argv is visible to every user of
 * the computer), and never shown again.
 */
async function hook(name: string | undefined, flags: HookFlags, io: kit.CommandIo, lang: Lang): Promise<void> {
  const list = checkedListName(name, lang);
  if (flags.remove && flags.url !== undefined) throw fail(t(lang, "watch.hook.urlAndRemove"));
  if (!flags.remove && flags.url === undefined) throw fail(t(lang, "watch.hook.nothing"));
  const now = (io.now ?? Date.now)();
  if (flags.remove) {
    const removed = await kit.withStore(flags, io, lang, async (store) => {
      if (!(await store.watch.list(list))) throw fail(t(lang, "watch.unknown", { name: list }), kit.EXIT.failed);
      return store.outbox.removeHook(list, now);
    });
    if (flags.json) return kit.writeJson(io, { name: list, webhook: null, removed });
    return void io.stdout.write(`${t(lang, removed ? "watch.hook.removed" : "watch.hook.none", { name: list })}\n`);
  }
  const url = checkWebhookUrl(flags.url ?? "");
  if (!url.ok)
    throw fail(t(lang, "watch.hook.badUrl", { value: (flags.url ?? "").slice(0, 200), reason: t(lang, `watch.hook.${url.problem}`) }));
  if (flags.secretFile === undefined) throw fail(t(lang, "watch.hook.noSecret"));
  let raw: string;
  try {
    raw = readFileSync(flags.secretFile, "utf8");
  } catch (e) {
    throw fail(
      t(lang, "watch.hook.secretUnreadable", { file: flags.secretFile, reason: (e as NodeJS.ErrnoException).code ?? "?" }),
      kit.EXIT.failed,
    );
  }
  const secret = checkWebhookSecret(raw);
  if (secret === null) throw fail(t(lang, "watch.hook.badSecret", { file: flags.secretFile, ...SECRET_LENGTH }));
  await kit.withStore(flags, io, lang, async (store) => {
    if (!(await store.watch.list(list))) throw fail(t(lang, "watch.unknown", { name: list }), kit.EXIT.failed);
    await store.outbox.setHook(list, url.url, secret, now);
  });
  if (flags.json) return kit.writeJson(io, { name: list, webhook: url.url });
  io.stdout.write(`${t(lang, "watch.hook.set", { name: list, url: url.url, file: flags.secretFile })}\n`);
}

/** `firma watch …`; resolves to the exit code (0, 1: the database, the file or the budget, 2: usage; `run`: 3 a check incomplete). */
export async function main(argv: string[], io: RunIo): Promise<number> {
  const lang = kit.commandLang(argv, io.env);
  // --lang before or after the subcommand: the language is read from argv before parsing (commandLang)
  const cmd = kit
    .program("firma watch", t(lang, "watch.help.description"), io, lang)
    .addOption(new Option("--lang <lang>", t(lang, "users.help.lang")).choices(["ro", "en"]));
  const of = (flags: kit.CommonFlags): Lang => flags.lang ?? lang;
  const listOptions = (c: ReturnType<typeof cmd.command>) =>
    kit
      .withCommonOptions(c, lang)
      .argument("[list]", t(lang, "watch.help.list"))
      .option("--file <file>", t(lang, "watch.help.file"))
      .option("--column <column>", t(lang, "watch.help.column"))
      .option("--owner <name>", t(lang, "watch.help.owner"))
      .option("--firm", t(lang, "watch.help.firm"))
      .option("--schedule <cron>", t(lang, "watch.help.schedule"))
      .option("--financial-schedule <cron>", t(lang, "watch.help.financialSchedule"))
      .option("--notify <addresses>", t(lang, "watch.help.notify"))
      .option("--watch-budget <credits>", t(lang, "watch.help.watchBudget"));
  listOptions(cmd.command("add").description(t(lang, "watch.help.add"))).action((n: string | undefined, f: ListFlags) =>
    add(n, f, io, of(f)),
  );
  listOptions(cmd.command("set").description(t(lang, "watch.help.set"))).action((n: string | undefined, f: ListFlags) =>
    set(n, f, io, of(f)),
  );
  kit
    .withCommonOptions(cmd.command("list").description(t(lang, "watch.help.lists")), lang)
    .action((f: kit.CommonFlags) => listAll(f, io, of(f)));
  kit
    .withCommonOptions(cmd.command("show").description(t(lang, "watch.help.show")), lang)
    .argument("[list]", t(lang, "watch.help.list"))
    .action((n: string | undefined, f: kit.CommonFlags) => show(n, f, io, of(f)));
  kit
    .withCommonOptions(cmd.command("remove").description(t(lang, "watch.help.remove")), lang)
    .argument("[list]", t(lang, "watch.help.list"))
    .argument("[cui...]", t(lang, "watch.help.cuis"))
    .action((n: string | undefined, cuis: string[], f: kit.CommonFlags) => remove(n, cuis, f, io, of(f)));
  kit
    .withCommonOptions(cmd.command("hook").description(t(lang, "watch.help.hook")), lang)
    .argument("[list]", t(lang, "watch.help.list"))
    .option("--url <url>", t(lang, "watch.help.url"))
    .option("--secret-file <file>", t(lang, "watch.help.secretFile"))
    .option("--remove", t(lang, "watch.help.removeHook"))
    .action((n: string | undefined, f: HookFlags) => hook(n, f, io, of(f)));
  kit
    .withCommonOptions(cmd.command("log").description(t(lang, "watch.help.log")), lang)
    .argument("[list]", t(lang, "watch.help.list"))
    .action((n: string | undefined, f: kit.CommonFlags) => log(n, f, io, of(f)));
  const ran = addRunCommand(cmd, io, lang);
  const code = await kit.run(cmd, argv, io, "firma watch");
  return code === kit.EXIT.ok ? ran() : code;
}
