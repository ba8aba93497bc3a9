/**
 * `firma watch run [list]`: checks now, in its own process, one list or every list that runs — for a
 * system timer (cron, a systemd timer) as much as for a person. It takes the options of `firma serve`
 * a check needs: the firm's database (`--database`), its key (`--key-file`, or FIRMA_UPSTREAM_KEY),
 * the service (`--upstream`, or FIRMA_UPSTREAM_URL), `--max-credits-per-day`, `--watch-budget`, and the
 * alerts' mail settings (`--smtp`, `--smtp-file`, `--smtp-from`: watch-alert-options.ts). After its checks
 * it delivers what is due (watch-deliver.ts): the alerts of these checks and any left waiting before.
 * `--financial` runs the financial-year check instead (whether a company published a new financial
 * year): a system timer calls it monthly, as `firma serve` runs it on each list's `--financial-schedule`.
 *
 * A check another instance is running is waited for as long as its lease may last (a killed instance's
 * lease lapses, and its check is finished here); a check left open by a killed process is finished
 * first. One line per list says what was checked, changed, reused, paid, or why it stopped. Exit codes:
 * 0 every list checked; 3 a check incomplete (budget, the firm's day, the plan, the service) or a list
 * stopped (its owner revoked); 1 the database, or a list another instance held too long, or none; 2
 * what was typed.
 */
import { randomUUID } from "node:crypto";
import { Option } from "commander";
import { count, formatNumber, t, type Lang, type MessageKey } from "../../shared/messages/node";
import * as kit from "./command-kit";
import { custodySettings } from "./custody-setup";
import { Leases } from "./lease";
import { isUserName, parseBudget } from "./tokens";
import { upstream } from "./upstream";
import { smtpSettings, withAlertOptions, type AlertFlags } from "./watch-alert-options";
import { checkList, FINANCIAL_TICK, kindOf, type AfterCheck, type CheckOutcome, type CheckResult } from "./watch-check";
import { Deliverer } from "./watch-deliver";
import { AlertMailer } from "./watch-mail";

/** The alerts' mail settings, as typed: handed to the delivery, never shown (`--smtp-file` holds a password). */
export type DeliveryFlags = AlertFlags;

export interface RunIo extends kit.CommandIo {
  /** Also after each committed check (tests); the alerts are delivered after the checks in any case. */
  afterCheck?: (delivery: DeliveryFlags, lang: Lang) => AfterCheck | undefined;
}

export interface RunFlags extends kit.CommonFlags, DeliveryFlags {
  keyFile?: string;
  upstream?: string;
  maxCreditsPerDay?: string;
  watchBudget?: string;
  financial?: boolean;
}

export const EXIT_INCOMPLETE = 3;

const fail = (msg: string, code: number = kit.EXIT.usage) => new kit.CommandFailure(msg, code);
/** A list another instance checks: waited for this long past its lease's length, then reported. */
const WAIT_STEP_MS = 500;

/** How long a check's lease holds unrenewed (FIRMA_WATCH_LEASE_MS, as `firma serve` reads it). */
export function watchLeaseMs(env: kit.CommandIo["env"]): number {
  const n = parseBudget(env.FIRMA_WATCH_LEASE_MS ?? "");
  return n !== null && n >= 300 ? n : 30_000;
}

/** Adds `firma watch run` to the `firma watch` program; resolves the exit code its run gave (0 until it ran). */
export function addRunCommand(cmd: ReturnType<typeof kit.program>, io: RunIo, lang: Lang): () => number {
  let exit: number = kit.EXIT.ok;
  const run = kit.withCommonOptions(cmd.command("run").description(t(lang, "watch.help.run")), lang);
  withAlertOptions(run, lang)
    .argument("[list]", t(lang, "watch.help.list"))
    .addOption(new Option("--key-file <file>", t(lang, "serve.help.keyFile")))
    .addOption(new Option("--upstream <url>", t(lang, "serve.help.upstream")).env("FIRMA_UPSTREAM_URL"))
    .addOption(new Option("--max-credits-per-day <n>", t(lang, "serve.help.maxCreditsPerDay")))
    .addOption(new Option("--watch-budget <credits>", t(lang, "serve.help.watchBudget")))
    .addOption(new Option("--financial", t(lang, "watch.help.financial")))
    .addHelpText("after", `\n${t(lang, "watch.run.exitCodes")}`)
    .action(async (name: string | undefined, f: RunFlags) => {
      exit = await runChecks(name, f, io, f.lang ?? lang);
    });
  return () => exit;
}

async function runChecks(name: string | undefined, f: RunFlags, io: RunIo, lang: Lang): Promise<number> {
  if (name !== undefined && !isUserName(name)) throw fail(t(lang, "watch.badName", { name }));
  const die = (key: MessageKey, params: Record<string, string | number> = {}) => fail(t(lang, key, params));
  if (f.keyFile === undefined && io.env.FIRMA_UPSTREAM_KEY === undefined) throw fail(t(lang, "watch.run.needsKey"));
  // The key read once, kept in memory, sent to the service only (custody-setup.ts, as `firma serve` reads it).
  const custody = custodySettings({ keyFile: f.keyFile, maxCreditsPerDay: f.maxCreditsPerDay }, io.env, die);
  if (!custody) throw fail(t(lang, "watch.run.needsKey"));
  const base = f.upstream ?? "";
  if (!/^https?:\/\/\S+$/.test(base)) throw fail(t(lang, "watch.run.needsUpstream"));
  let budget: number | null = null;
  if (f.watchBudget !== undefined) {
    budget = parseBudget(f.watchBudget);
    if (budget === null) throw fail(t(lang, "watch.badBudget", { value: f.watchBudget.slice(0, 20) }));
  }
  const now = io.now ?? Date.now;
  const leaseMs = watchLeaseMs(io.env);
  // The mail settings checked before anything is paid for; the password stays in its file.
  const smtp = smtpSettings(f, io.env, die);
  const afterCheck = io.afterCheck?.({ smtp: f.smtp, smtpFile: f.smtpFile, smtpFrom: f.smtpFrom }, lang);
  const results = await kit.withStore(f, io, lang, async (store) => {
    const holder = randomUUID();
    const leases = new Leases({ store, holder, ttlMs: leaseMs, now });
    const errors: string[] = [];
    const deps = {
      store,
      upstream: upstream({ base: () => base, key: custody.key, timeoutMs: 30_000 }),
      maxPerDay: custody.maxCreditsPerDay,
      leases,
      holder,
      now,
      afterCheck,
      revokedReason: (owner: string) => t(lang, "watch.ownerRevokedReason", { owner }),
      onError: (e: unknown, what: string) => void errors.push(`${what}: ${(e as Error)?.message ?? e}`),
    };
    try {
      await store.watchChecks.firmAccount(budget, now());
      // Checks of this kind a killed process left open first, then the lists asked for.
      const kind = f.financial ? "financial" : "identity";
      const open = (await store.watchChecks.unfinished()).filter((c) => kindOf(c.tick) === kind).map((c) => c.list);
      const names =
        name !== undefined
          ? [name]
          : [...new Set([...open, ...(await store.watch.lists()).filter((l) => l.stoppedAt === null).map((l) => l.name)])];
      if (name !== undefined && !(await store.watch.list(name))) throw fail(t(lang, "watch.unknown", { name }), kit.EXIT.failed);
      const tick = `${f.financial ? FINANCIAL_TICK : ""}run:${new Date(now()).toISOString()}`;
      const out: CheckResult[] = [];
      for (const n of names) {
        let r = await checkList(deps, n, tick);
        // Held by another: waited for as long as its lease may last (it lapses if its holder was killed).
        for (let waited = 0; r.outcome === "busy" && waited < leaseMs + WAIT_STEP_MS; waited += WAIT_STEP_MS) {
          await new Promise((done) => setTimeout(done, WAIT_STEP_MS));
          r = await checkList(deps, n, tick);
        }
        out.push(r);
      }
      // What these checks committed, and whatever waited before, goes out now (a timer calls this process).
      const mailer = smtp ? new AlertMailer(smtp) : null;
      try {
        await new Deliverer({ store, mailer, onError: (e) => void errors.push(`delivery: ${(e as Error)?.message ?? e}`) }).deliverDue();
      } finally {
        mailer?.close();
      }
      return { out, errors };
    } finally {
      await leases.close();
    }
  });
  if (f.json) kit.writeJson(io, { checks: results.out.map((r) => ({ ...r, changes: r.changes.length })), errors: results.errors });
  else {
    if (results.out.length === 0) io.stdout.write(`${t(lang, "watch.run.none")}\n`);
    for (const r of results.out) io.stdout.write(`${line(r, lang)}\n`);
    for (const e of results.errors) io.stderr.write(`firma watch run: ${e}\n`);
  }
  if (results.out.length === 0) return kit.EXIT.failed;
  if (results.out.some((r) => r.outcome === "failed" || r.outcome === "busy" || r.outcome === "unknown" || r.outcome === "interrupted"))
    return kit.EXIT.failed;
  if (results.out.some((r) => r.outcome === "incomplete" || (r.outcome === "stopped" && name !== undefined))) return EXIT_INCOMPLETE;
  return kit.EXIT.ok;
}

/** One list's line: what was checked, reused, paid, changed; or why not. */
export function line(r: CheckResult, lang: Lang): string {
  const p = {
    list: kindOf(r.tick) === "financial" ? `${r.list} (${t(lang, "watch.run.financial")})` : r.list,
    companies: formatNumber(r.companies, lang),
    reused: formatNumber(r.reused, lang),
    credits: count(r.credits, "credit", lang),
    changes: formatNumber(r.changes.length, lang),
    unknown: formatNumber(r.unknown, lang),
    reason: r.reason === null ? "" : reasonText(r.reason, lang),
  };
  const resumed = r.resumed ? ` ${t(lang, "watch.run.resumed")}` : "";
  return t(lang, OUTCOMES[r.outcome], p) + (r.outcome === "checked" || r.outcome === "incomplete" ? resumed : "");
}

const OUTCOMES: Record<CheckOutcome, MessageKey> = {
  checked: "watch.run.checked",
  incomplete: "watch.run.incomplete",
  done: "watch.run.done",
  busy: "watch.run.busy",
  stopped: "watch.run.stopped",
  unknown: "watch.run.unknown",
  interrupted: "watch.run.interrupted",
  failed: "watch.run.failed",
};

const REASONS: Record<string, MessageKey> = {
  budget_exhausted: "watch.reason.budgetExhausted",
  day_limit: "watch.reason.dayLimit",
  plan_stopped: "watch.reason.planStopped",
  firm_key_refused: "watch.reason.firmKeyRefused",
  store_unavailable: "watch.reason.storeUnavailable",
  upstream_failed: "watch.reason.upstreamFailed",
  closing: "watch.reason.closing",
};

/** A stop reason in the user's words (a list's stopped reason is already in words). */
export function reasonText(reason: string, lang: Lang): string {
  return reason in REASONS ? t(lang, REASONS[reason]) : reason;
}
