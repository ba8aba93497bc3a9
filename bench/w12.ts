/**
 * W12: watching 10,000 companies. One firm's list of 10,000 CUIs, checked by `firma watch run` (a
 * child process, as a system timer would start it) against the sandbox at the bench's latency, on a
 * SQLite file: the first check (every company asked: the baseline), a second one the same day (every
 * answer fetched today reused), and a third as on the next day (the stored answers aged by a day) after
 * the registry changed ten companies, with `--smtp` to a real SMTP server on loopback (smtp-server, the
 * tests' mailbox). Measured: the credits each cost at the sandbox (the goal: 100, the API minimum of
 * ⌈10,000 / 100⌉ batches, when the batches carry the watched fields), the time, the process's peak
 * resident memory (VmHWM, read from /proc while it runs), and the time from the changes being seen
 * (committed, their `seen_at`) to their e-mail being accepted by the SMTP server.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import Database from "better-sqlite3";
import { openFirmStore } from "../src/server/firm/open-store";
import * as data from "../sandbox/dataset";
import { startMailbox } from "../test/support/alert-receivers";
import type { Svc } from "./hardening";
import { firmaProcess } from "./measure";

const COMPANIES = 10_000;
/** Companies the registry changes before the third check (one field each: their status). */
const CHANGED = 10;
const say = (s: string) => process.stderr.write(s + "\n");

export interface W12Check {
  credits: number;
  seconds: number;
  peakRssMb: number | null;
  exitCode: number | null;
  line: string;
}

export interface W12Result {
  latencyMs: number;
  companies: number;
  /** The API minimum for one check: ⌈companies / 100⌉. */
  minimum: number;
  first: W12Check;
  sameDay: W12Check;
  /** The third check, as on the next day, after CHANGED companies changed; mailed (absent in results kept from before). */
  nextDay?: W12Check & {
    changes: number;
    messages: number;
    /** From the changes' commit (`seen_at`) to the SMTP server accepting their message, ms. */
    changeToMailMs: number | null;
  };
}

/** `firma watch run` in a child process; its credits at the sandbox, time and peak memory. */
async function check(svc: Svc, key: string, database: string, keyFile: string, extra: string[] = []): Promise<W12Check> {
  const before = (await svc.usage(key)).total;
  const run = await firmaProcess([
    "watch",
    "run",
    "--database",
    database,
    "--key-file",
    keyFile,
    "--upstream",
    svc.url,
    "--lang",
    "en",
    ...extra,
  ]);
  return {
    credits: (await svc.usage(key)).total - before,
    seconds: run.seconds,
    peakRssMb: run.peakRssMb,
    exitCode: run.exitCode,
    line: run.out,
  };
}

export async function w12(svc: Svc, latencyMs: number): Promise<W12Result> {
  say(`W12: one check of ${COMPANIES.toLocaleString("en")} companies`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "firma-w12-"));
  try {
    const key = `demo-enterprise-bench-w12-${Date.now()}`;
    const keyFile = path.join(work, "key");
    fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const database = path.join(work, "firm.sqlite");
    const cuis = data
      .sampleCuis(COMPANIES + 2_000, 40_000)
      .filter((c) => data.company(c))
      .slice(0, COMPANIES);
    const store = await openFirmStore(database);
    try {
      // The firm's list: its alerts go to the --notify address (the mailbox of the third check).
      await store.watch.addList({ name: "w12", owner: null, schedule: null, notify: ["contabil@firma.test"], cuis }, Date.now());
    } finally {
      await store.close();
    }
    const first = await check(svc, key, database, keyFile);
    const sameDay = await check(svc, key, database, keyFile);
    const nextDay = await mailedCheck(svc, key, database, keyFile, cuis);
    return { latencyMs, companies: cuis.length, minimum: Math.ceil(cuis.length / 100), first, sameDay, nextDay };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The third check: the answers stored by the first aged by a day (as the next day's check finds
 * them), CHANGED companies struck off at the sandbox, `firma watch run --smtp` to a mailbox on
 * loopback; the time from the changes' commit to the message's acceptance.
 */
async function mailedCheck(svc: Svc, key: string, database: string, keyFile: string, cuis: number[]): Promise<W12Result["nextDay"]> {
  say(`W12: the next day's check, ${CHANGED} companies changed, mailed`);
  const db = new Database(database);
  try {
    db.prepare("UPDATE firm_answers SET fetched_at = fetched_at - 86400000").run();
  } finally {
    db.close();
  }
  const changed = cuis.filter((_, i) => i % Math.floor(cuis.length / CHANGED) === 7).slice(0, CHANGED);
  await svc.configure({ overrides: Object.fromEntries(changed.map((c) => [String(c), { stare: "RADIATA" }])) });
  const box = await startMailbox();
  try {
    let acceptedAt: number | null = null;
    void box.next().then(() => (acceptedAt ??= Date.now()));
    const c = await check(svc, key, database, keyFile, ["--smtp", box.url, "--smtp-from", "FIRMA <alerte@firma.test>"]);
    const store = await openFirmStore(database);
    let seenAt: number | null = null;
    let changes = 0;
    try {
      const all = await store.watch.changes("w12");
      changes = all.length;
      seenAt = all.length > 0 ? Math.max(...all.map((x) => x.seenAt)) : null;
    } finally {
      await store.close();
    }
    return {
      ...c,
      changes,
      messages: box.messages.length,
      changeToMailMs: acceptedAt !== null && seenAt !== null ? acceptedAt - seenAt : null,
    };
  } finally {
    await svc.configure({ overrides: {} });
    await box.close();
  }
}

export function w12Targets(r: W12Result | undefined): { target: string; measured: string; met: boolean }[] {
  if (!r) return [];
  return [
    {
      target: `W12: one check of ${r.companies.toLocaleString("en")} companies costs the API minimum (${r.minimum} credits); a second the same day costs 0`,
      measured: `${r.first.credits} credits, then ${r.sameDay.credits}; exit ${r.first.exitCode}, ${r.sameDay.exitCode}`,
      met: r.first.credits === r.minimum && r.sameDay.credits === 0 && r.first.exitCode === 0 && r.sameDay.exitCode === 0,
    },
    ...(r.nextDay
      ? [
          {
            target: `W12: the next day's check finds the ${CHANGED} changes and their e-mail is accepted by the SMTP server (one message)`,
            measured:
              `${r.nextDay.changes} changes, ${r.nextDay.messages} message, ${r.nextDay.credits} credits; ` +
              `from seen to accepted ${r.nextDay.changeToMailMs ?? "?"} ms`,
            met: r.nextDay.changes === CHANGED && r.nextDay.messages === 1 && r.nextDay.credits === r.minimum && r.nextDay.exitCode === 0,
          },
        ]
      : []),
  ];
}

export function w12Markdown(r: W12Result): string[] {
  const row = (name: string, c: W12Check) =>
    `| ${name} | ${c.credits} | ${c.seconds} s | ${c.peakRssMb ?? "?"} MB | ${c.exitCode} | ${c.line.replace(/\|/g, "\\|")} |`;
  return [
    "## W12: watching 10,000 companies",
    "",
    `One firm's list of ${r.companies.toLocaleString("en")} companies checked by \`firma watch run\` (a child process, as a system timer starts it) ` +
      `against the sandbox at ${r.latencyMs} ms, on a SQLite file; the API minimum for a check is ${r.minimum} credits. ` +
      "Memory: the process's peak resident set (VmHWM). The third check runs as on the next day (the stored answers aged by a day) " +
      `after the registry changed ${CHANGED} companies, with \`--smtp\` to a real SMTP server on loopback.`,
    "",
    "| Check | Credits | Time | Peak memory | Exit | What it said |",
    "|---|---:|---:|---:|---:|---|",
    row("first (the baseline)", r.first),
    row("second, the same day", r.sameDay),
    ...(r.nextDay ? [row(`next day, ${CHANGED} changed, mailed`, r.nextDay)] : []),
    "",
    ...(r.nextDay
      ? [
          `From the changes being seen (committed) to their e-mail being accepted by the SMTP server: ` +
            `**${r.nextDay.changeToMailMs ?? "?"} ms** (${r.nextDay.changes} changes, ${r.nextDay.messages} message).`,
          "",
        ]
      : []),
  ];
}
