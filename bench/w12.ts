/**
 * W12: watching 10,000 companies. One firm's list of 10,000 CUIs, checked by `firma watch run` (a
 * child process, as a system timer would start it) against the sandbox at the bench's latency, on a
 * SQLite file: the first check (every company asked: the baseline) and a second one the same day
 * (every answer fetched today reused). Measured: the credits each cost at the sandbox (the goal: 100,
 * the API minimum of ⌈10,000 / 100⌉ batches, when the batches carry the watched fields), the time, and
 * the process's peak resident memory (VmHWM, read from /proc while it runs). The time from a change
 * seen to its e-mail accepted by the SMTP server belongs to the alerts' delivery, measured with it.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { openFirmStore } from "../src/server/firm/open-store";
import * as data from "../sandbox/dataset";
import type { Svc } from "./hardening";

const ROOT = path.resolve(__dirname, "..");
const COMPANIES = 10_000;
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
}

/** `firma watch run` in a child process; its credits at the sandbox, time and peak memory. */
async function check(svc: Svc, key: string, database: string, keyFile: string): Promise<W12Check> {
  const before = (await svc.usage(key)).total;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "bin", "firma.js"),
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
    ],
    {
      cwd: ROOT,
      env: { ...process.env, LANG: "en_US.UTF-8" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
  let peakKb: number | null = null;
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) peakKb = Math.max(peakKb ?? 0, Number(m[1]));
    } catch {
      // gone, or no /proc
    }
  }, 50);
  const exitCode = await new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  clearInterval(timer);
  return {
    credits: (await svc.usage(key)).total - before,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    peakRssMb: peakKb === null ? null : Math.round(peakKb / 1024),
    exitCode,
    line: out.trim(),
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
      await store.watch.addList({ name: "w12", owner: null, schedule: null, notify: [], cuis }, Date.now());
    } finally {
      await store.close();
    }
    const first = await check(svc, key, database, keyFile);
    const sameDay = await check(svc, key, database, keyFile);
    return { latencyMs, companies: cuis.length, minimum: Math.ceil(cuis.length / 100), first, sameDay };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
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
      "Memory: the process's peak resident set (VmHWM). The time from a change seen to its e-mail accepted is measured with the alerts' delivery.",
    "",
    "| Check | Credits | Time | Peak memory | Exit | What it said |",
    "|---|---:|---:|---:|---:|---|",
    row("first (the baseline)", r.first),
    row("second, the same day", r.sameDay),
    "",
  ];
}
