/**
 * `firma users add|list|revoke`: the firm's people and their personal tokens, in the database every
 * `firma serve` of the firm shares (`--database`, as `firma serve` takes it).
 *  - add NAME --budget N: a new token, shown once (the database keeps only its SHA-256);
 *  - list: each person's monthly budget, what they spent this (Bucharest) month, when they were last
 *    seen, whether they are revoked;
 *  - revoke NAME: the token stops working at once, on every instance.
 * Everything typed is checked before the database is opened, so a typing mistake writes nothing.
 */
import { Option } from "commander";
import { bucharestMonth, bucharestTime } from "../../engine/credits/bucharest-time";
import { count, formatNumber, t, type Lang } from "../../shared/messages/node";
import {
  CommandFailure,
  EXIT,
  commandLang,
  iso,
  program,
  run,
  table,
  withCommonOptions,
  withStore,
  writeJson,
  type CommandIo,
  type CommonFlags,
} from "./command-kit";
import type { FirmUserUsage } from "./firm-store";
import { hashToken, isUserName, newToken, parseBudget } from "./tokens";

interface AddFlags extends CommonFlags {
  budget?: string;
  email?: string;
}

const EMAIL = /^[^\s@,;<>"()]+@[^\s@,;<>"()]+\.[^\s@,;<>"()]+$/;

/** An address as typed, checked; "" clears it (null). */
function checkedEmail(email: string, lang: Lang): string | null {
  const e = email.trim();
  if (e === "") return null;
  if (!EMAIL.test(e)) throw new CommandFailure(t(lang, "users.badEmail", { value: email }), EXIT.usage);
  return e;
}

/** A name as typed, checked: a usage failure (exit 2) when it is not one. */
function checkedName(name: string | undefined, lang: Lang): string {
  if (name === undefined || name === "") throw new CommandFailure(t(lang, "users.noName"), EXIT.usage);
  if (!isUserName(name)) throw new CommandFailure(t(lang, "users.badName", { name }), EXIT.usage);
  return name;
}

async function add(name: string | undefined, flags: AddFlags, io: CommandIo, lang: Lang): Promise<void> {
  const user = checkedName(name, lang);
  if (flags.budget === undefined) throw new CommandFailure(t(lang, "users.noBudget"), EXIT.usage);
  const budget = parseBudget(flags.budget);
  if (budget === null) throw new CommandFailure(t(lang, "users.badBudget", { value: flags.budget }), EXIT.usage);
  const email = flags.email === undefined ? null : checkedEmail(flags.email, lang);
  const token = newToken();
  await withStore(flags, io, lang, async (store) => {
    await store.addUser(user, budget, hashToken(token), (io.now ?? Date.now)());
    if (email !== null) await store.watch.setEmail(user, email);
  });
  if (flags.json) writeJson(io, { name: user, budget, email, token });
  else
    io.stdout.write(
      `${t(lang, "users.added", { name: user, budget: count(budget, "credit", lang) })}\n${t(lang, "users.tokenOnce")}\n\n  ${token}\n\n`,
    );
}

function userJson(u: FirmUserUsage) {
  return {
    name: u.name,
    budget: u.budget,
    month: u.month,
    spent: u.spent,
    createdAt: iso(u.createdAt),
    lastSeenAt: iso(u.lastSeenAt),
    revokedAt: iso(u.revokedAt),
  };
}

async function list(flags: CommonFlags, io: CommandIo, lang: Lang): Promise<void> {
  const month = bucharestMonth((io.now ?? Date.now)());
  const users = await withStore(flags, io, lang, (store) => store.listUsers(month));
  if (flags.json) return writeJson(io, { month, users: users.map(userJson) });
  if (users.length === 0) return void io.stdout.write(`${t(lang, "users.none")}\n`);
  const never = t(lang, "users.never");
  const rows = users.map((u) => [
    u.name,
    formatNumber(u.budget, lang),
    formatNumber(u.spent, lang),
    u.lastSeenAt === null ? never : bucharestTime(u.lastSeenAt),
    u.revokedAt === null ? "" : bucharestTime(u.revokedAt),
  ]);
  const header = t(lang, "users.header", { month }).split("|");
  io.stdout.write(table(header, rows, new Set([1, 2])));
  const spent = users.reduce((s, u) => s + u.spent, 0);
  io.stdout.write(`${t(lang, "users.total", { people: users.length, spent: count(spent, "credit", lang), month })}\n`);
}

async function revoke(name: string | undefined, flags: CommonFlags, io: CommandIo, lang: Lang): Promise<void> {
  const user = checkedName(name, lang);
  const now = (io.now ?? Date.now)();
  await withStore(flags, io, lang, async (store) => {
    if (await store.revokeUser(user, now)) return;
    // Not revoked now: say whether there is no such person or they were revoked before.
    const known = (await store.listUsers(bucharestMonth(now))).find((u) => u.name === user);
    const key = known ? "users.alreadyRevoked" : "users.unknown";
    throw new CommandFailure(t(lang, key, { name: user }), EXIT.failed);
  });
  if (flags.json) writeJson(io, { name: user, revoked: true });
  else io.stdout.write(`${t(lang, "users.revoked", { name: user })}\n`);
}

async function setUser(name: string | undefined, flags: AddFlags, io: CommandIo, lang: Lang): Promise<void> {
  const user = checkedName(name, lang);
  if (flags.email === undefined) throw new CommandFailure(t(lang, "users.noChange"), EXIT.usage);
  const email = checkedEmail(flags.email, lang);
  await withStore(flags, io, lang, async (store) => {
    if (!(await store.watch.setEmail(user, email))) throw new CommandFailure(t(lang, "users.unknown", { name: user }), EXIT.failed);
  });
  if (flags.json) writeJson(io, { name: user, email });
  else io.stdout.write(`${t(lang, "users.emailSet", { name: user, email: email ?? "—" })}\n`);
}

/** `firma users …`; resolves to the exit code (0, 1: the database or the person, 2: usage). */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const lang = commandLang(argv, io.env);
  // --lang before or after the subcommand: the language is read from argv before parsing (commandLang)
  const cmd = program("firma users", t(lang, "users.help.description"), io, lang).addOption(
    new Option("--lang <lang>", t(lang, "users.help.lang")).choices(["ro", "en"]),
  );
  const of = (flags: CommonFlags): Lang => flags.lang ?? lang;
  withCommonOptions(cmd.command("add").description(t(lang, "users.help.add")), lang)
    .argument("[name]", t(lang, "users.help.name"))
    .option("--budget <credits>", t(lang, "users.help.budget"))
    .option("--email <address>", t(lang, "users.help.email"))
    .action((name: string | undefined, flags: AddFlags) => add(name, flags, io, of(flags)));
  withCommonOptions(cmd.command("set").description(t(lang, "users.help.set")), lang)
    .argument("[name]", t(lang, "users.help.name"))
    .option("--email <address>", t(lang, "users.help.email"))
    .action((name: string | undefined, flags: AddFlags) => setUser(name, flags, io, of(flags)));
  withCommonOptions(cmd.command("list").description(t(lang, "users.help.list")), lang).action((flags: CommonFlags) =>
    list(flags, io, of(flags)),
  );
  withCommonOptions(cmd.command("revoke").description(t(lang, "users.help.revoke")), lang)
    .argument("[name]", t(lang, "users.help.name"))
    .action((name: string | undefined, flags: CommonFlags) => revoke(name, flags, io, of(flags)));
  return run(cmd, argv, io, "firma users");
}
