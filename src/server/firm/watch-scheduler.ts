/**
 * The watch lists' checks inside `firma serve` (custody mode): each list that runs gets two croner jobs,
 * in Bucharest time: its identification check on its schedule (`--schedule`, else the server's
 * `--watch-schedule`, else 06:00 daily) and its financial-year check on its own (`--financial-schedule`,
 * else the 1st of the month at 06:00; its ticks begin `fin:`). Every instance on the database keeps the same jobs; when one fires, the tick (its minute) is
 * checked once for all of them: the list's lease lets one instance in at a time (lease.ts, the
 * mechanism the batch leaders use), and the check's record (watch-checks.ts) tells the others, when
 * their turn comes, that this tick is done.
 *
 * A check cut short (its instance killed) leaves its record open: every instance looks for open
 * records at start and then every `sweepMs`, and the first to get the list's lease once the killed
 * one's lapsed finishes it (watch-check.ts reuses what was already paid for). The lists are read
 * again every `reloadMs`, so that `firma watch add|set|remove` on any computer reach every instance.
 */
import { Cron } from "croner";
import { BUCHAREST, DEFAULT_FINANCIAL_SCHEDULE, DEFAULT_SCHEDULE } from "./watch-cost";
import { checkList, FINANCIAL_TICK, kindOf, type CheckDeps, type CheckKind, type CheckResult } from "./watch-check";

export interface SchedulerOptions {
  deps: Omit<CheckDeps, "closing">;
  /** The schedule of a list without one (`--watch-schedule`). @default DEFAULT_SCHEDULE */
  defaultSchedule?: string;
  /** The financial-year check's schedule of a list without one. @default DEFAULT_FINANCIAL_SCHEDULE */
  defaultFinancialSchedule?: string;
  /** How often the lists are read again. @default 60000 */
  reloadMs?: number;
  /** How often open check records are looked for. @default 10000 */
  sweepMs?: number;
  /** Each check's result (the server logs it). */
  onResult?: (r: CheckResult) => void;
}

/** The tick of a firing at `at`: its minute, in UTC, the same on every instance. */
export function tickOf(at: number): string {
  return new Date(Math.floor(at / 60_000) * 60_000).toISOString().slice(0, 16) + "Z";
}

export class WatchScheduler {
  private readonly jobs = new Map<string, { pattern: string; cron: Cron }>();
  private readonly running = new Map<string, Promise<CheckResult>>();
  private timers: Array<ReturnType<typeof setInterval>> = [];
  private closing = false;
  private readonly deps: CheckDeps;

  constructor(private readonly o: SchedulerOptions) {
    this.deps = { ...o.deps, closing: () => this.closing };
  }

  /** Reads the lists, starts their jobs, finishes what a stopped instance left open. */
  async start(): Promise<void> {
    await this.reload();
    void this.sweep();
    const every = (ms: number, fn: () => Promise<unknown>) => {
      const t = setInterval(() => void fn(), ms);
      t.unref?.();
      this.timers.push(t);
    };
    every(this.o.reloadMs ?? 60_000, () => this.reload());
    every(this.o.sweepMs ?? 10_000, () => this.sweep());
  }

  /** The lists with a job, and their schedules (a financial-year check's job under `fin:<list>`). */
  schedules(): Map<string, string> {
    return new Map([...this.jobs].map(([name, j]) => [name, j.pattern]));
  }

  /** Brings the jobs in line with the lists in the database. */
  async reload(): Promise<void> {
    if (this.closing) return;
    let lists;
    try {
      lists = await this.o.deps.store.watch.lists();
    } catch (e) {
      this.o.deps.onError?.(e, "watch lists not read");
      return;
    }
    // Keyed `<list>` (the identification check) and `fin:<list>` (the financial-year check).
    const wanted = new Map<string, { name: string; kind: CheckKind; pattern: string }>();
    for (const l of lists.filter((l) => l.stoppedAt === null)) {
      wanted.set(l.name, { name: l.name, kind: "identity", pattern: l.schedule ?? this.o.defaultSchedule ?? DEFAULT_SCHEDULE });
      wanted.set(`${FINANCIAL_TICK}${l.name}`, {
        name: l.name,
        kind: "financial",
        pattern: l.financialSchedule ?? this.o.defaultFinancialSchedule ?? DEFAULT_FINANCIAL_SCHEDULE,
      });
    }
    for (const [key, job] of this.jobs) {
      if (wanted.get(key)?.pattern === job.pattern) continue;
      job.cron.stop();
      this.jobs.delete(key);
    }
    for (const [key, { name, kind, pattern }] of wanted) {
      if (this.jobs.has(key)) continue;
      try {
        const cron = new Cron(pattern, { timezone: BUCHAREST, mode: "5-part" }, () => void this.fire(name, undefined, kind));
        this.jobs.set(key, { pattern, cron });
      } catch (e) {
        // A schedule written by an older FIRMA or by hand that croner does not read: said, not run.
        this.o.deps.onError?.(e, `watch list ${name}: schedule "${pattern}" not understood`);
      }
    }
  }

  /** The list's job of `kind` fired at `at` (now): its tick, checked once across the instances. */
  fire(name: string, at: number = (this.o.deps.now ?? Date.now)(), kind: CheckKind = "identity"): Promise<CheckResult | null> {
    return this.check(name, `${kind === "financial" ? FINANCIAL_TICK : ""}${tickOf(at)}`);
  }

  /** The checks an instance left open: finished here when their list's lease is free. */
  async sweep(): Promise<void> {
    if (this.closing) return;
    let open;
    try {
      open = await this.o.deps.store.watchChecks.unfinished();
    } catch (e) {
      this.o.deps.onError?.(e, "watch checks not read");
      return;
    }
    for (const c of open) if (!this.running.has(runKey(c.list, c.tick))) void this.check(c.list, c.tick);
  }

  /** Stops the jobs; a check under way stops at its next call, its record left open for the next instance. */
  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const j of this.jobs.values()) j.cron.stop();
    this.jobs.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private async check(name: string, tick: string): Promise<CheckResult | null> {
    if (this.closing) return null;
    // One check of a list and kind at a time in this process (the lease is per instance).
    const key = runKey(name, tick);
    const under = this.running.get(key);
    if (under) return under;
    const p = checkList(this.deps, name, tick).finally(() => this.running.delete(key));
    this.running.set(key, p);
    const r = await p;
    this.o.onResult?.(r);
    return r;
  }
}

/** A list's check of the tick's kind, as the running checks are keyed. */
const runKey = (list: string, tick: string): string => `${kindOf(tick)}:${list}`;
