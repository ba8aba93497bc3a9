/** Measuring helpers: the machine, peak memory while a workload runs, and a fill's timing. */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Shown } from "./workloads";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  date: string;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
  };
}

/** Samples this process's memory every few milliseconds (when the event loop lets it) and keeps the peaks. */
export class MemoryPeak {
  rss = 0;
  heapUsed = 0;
  private timer: NodeJS.Timeout | null = null;

  start(): this {
    (globalThis as { gc?: () => void }).gc?.();
    this.sample();
    this.timer = setInterval(() => this.sample(), 5);
    this.timer.unref();
    return this;
  }

  stop(): { rssMb: number; heapMb: number } {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    return { rssMb: round(this.rss / 2 ** 20, 1), heapMb: round(this.heapUsed / 2 ** 20, 1) };
  }

  private sample(): void {
    const m = process.memoryUsage();
    if (m.rss > this.rss) this.rss = m.rss;
    if (m.heapUsed > this.heapUsed) this.heapUsed = m.heapUsed;
  }
}

export interface Fill {
  shown: Shown[];
  /** From the first invocation to the last cell settled. */
  timeMs: number;
  /** From the first invocation to the last: the calculation's synchronous part, before any call can leave. */
  invokedMs?: number;
}

/**
 * Invokes every cell at once, as Excel does on a recalculation, and waits for the last. `show` reads
 * each cell's answer as the bench compares it (a stand-in's raw answer → Shown), once all have
 * settled: one reaction per cell (Promise.all's), no closure and no clock read per cell, so that the
 * instrument costs little beside what it measures (W6: CPU per cached cell). The last cell settles
 * when Promise.all does: the time is read right after it.
 */
export async function fill<C, R = Shown>(cells: readonly C[], invoke: (cell: C) => Promise<R>, show?: (answer: R) => Shown): Promise<Fill> {
  const t0 = performance.now();
  const n = cells.length;
  const all: Promise<R>[] = new Array(n);
  for (let i = 0; i < n; i++) all[i] = invoke(cells[i]);
  const invokedMs = performance.now() - t0;
  const answers = await Promise.all(all);
  const last = performance.now();
  let shown: Shown[];
  if (show) {
    shown = new Array(n);
    for (let i = 0; i < n; i++) shown[i] = show(answers[i]);
  } else shown = answers as unknown as Shown[];
  return { shown, timeMs: last - t0, invokedMs };
}

/**
 * A full collection (with --expose-gc), then a wait until this process is quiet: the collection's
 * background sweeping goes on for tens of milliseconds of CPU after gc() returns (about 20 ms beside
 * W6's heap), and process.cpuUsage counts every thread's. Before a measured run, so that the run pays
 * for its own garbage, not for the bench's forced collection.
 */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  gc();
  for (let i = 0; i < 40; i++) {
    const c0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 25));
    const c = process.cpuUsage(c0);
    if (c.user + c.system < 1000) return; // under 1 ms of CPU in 25 ms: quiet
  }
}

export function round(n: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A process's line of /proc/PID/stat: its name, its parent, and CPU times in ms. */
export interface ProcStat {
  comm: string;
  ppid: number;
  /** Its own CPU (user + system). */
  cpuMs: number;
  /** Its children's it has reaped (user + system). */
  childrenCpuMs: number;
}

/** /proc/PID/stat read (Linux): the fields after the name in parentheses, times in ticks of 10 ms (USER_HZ 100). */
export function procStat(pid: number): ProcStat {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const close = stat.lastIndexOf(")"); // a name may hold spaces and parentheses
  const f = stat.slice(close + 2).split(" "); // from field 3 (state) on: utime, stime, cutime, cstime are 14 to 17
  return {
    comm: stat.slice(stat.indexOf("(") + 1, close),
    ppid: Number(f[1]),
    cpuMs: (Number(f[11]) + Number(f[12])) * 10,
    childrenCpuMs: (Number(f[13]) + Number(f[14])) * 10,
  };
}

/** What a `firma …` child process did: its output (stdout and stderr as written), time, peak memory, exit code. */
export interface FirmaProcess {
  out: string;
  seconds: number;
  /** The process's peak resident set (VmHWM, read from /proc while it runs), MB; null without /proc. */
  peakRssMb: number | null;
  exitCode: number | null;
}

/** Runs `bin/firma.js …` as a person's terminal (or a system timer) would: a process of its own, English words. */
export async function firmaProcess(args: readonly string[], env: Record<string, string> = {}): Promise<FirmaProcess> {
  const root = path.resolve(__dirname, "..");
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "bin", "firma.js"), ...args], {
    cwd: root,
    env: { ...process.env, LANG: "en_US.UTF-8", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
    out: out.trim(),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    peakRssMb: peakKb === null ? null : Math.round(peakKb / 1024),
    exitCode,
  };
}
