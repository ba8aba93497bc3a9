/**
 * `npm run bench`: credits and speed of the FIRMA functions, measured against two baselines.
 *
 * The real functions (the BUILT dist/functions.js, in the stand-in for Excel's custom-functions
 * runtime that the function tests use) fill each sheet of workloads.ts against the sandbox, which
 * runs in a process of its own with injected latency (100 ms unless --latency says otherwise).
 * The baselines (baselines.ts) fill the same sheets on the same sandbox. For every fill: calls made
 * (= credits), the minimum the API allows, time to the last cell, the bound latency and the
 * concurrency setting impose, peak memory, and whether each cell shows what the dataset holds.
 *
 * Writes bench/results.md and bench/results.json and prints the Markdown.
 *
 * The hardening workloads W7 (500,000 cells), W8 (estimate vs charged when `include` is ignored),
 * W9 (free key) and FAULTS (fault mix) are in hardening.ts; W10 (a firm through its custody server) in w10.ts;
 * W11 (names to CUIs under each search setting) in w11.ts; W12 (one check of a 10,000-company watch list) in w12.ts; W13 (the firm's server under load) in w13.ts;
 * BROWSER (the built add-in in headless Chromium: W5's 10,000 names for time, 100,000 for heap) in browser.ts;
 * H2 (the add-in in Chromium through firma serve over HTTP/2 and HTTP/1.1) in h2.ts;
 * SCALE (`firma refresh` of a 100,000-row workbook, a child process) in scale.ts.
 *
 *   npm run bench                       everything (the one-call-per-cell baseline on W3–W5 and W7 take minutes)
 *   npm run bench -- --quick            skips the one-call-per-cell baseline on W3 and W5
 *   npm run bench -- --latency 50       another injected latency
 *   npm run bench -- W8 W9 FAULTS       some workloads only (also --only W8,W9); their figures replace
 *                                       those of the same workloads in results.json, the rest is kept
 *   npm run bench -- W7 --phase-limit 300   W7's phases aborted after 300 s (default 600)
 *   npm run bench -- W13 --w13-minutes 2    W13's long recalculation run for 2 minutes (default 10; 0: none)
 *   npm run bench -- W13 --w13-setups PostgreSQL:50   W13's setups named only (DATABASE[:PEOPLE], comma-separated)
 *   FIRMA_W13_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" npm run bench -- W13   W13's server run with these Node options
 *   FIRMA_W13_SERVE_ARGS="--access-log" npm run bench -- W13   W13's server started with these options of firma serve too
 *   FIRMA_W10_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" npm run bench -- W10   W10's servers run with these Node options
 *   npm run bench -- W10 --w10-rotations 4   W10's PostgreSQL setups in turn, 4 times, printed (nothing recorded for W10)
 *   npm run bench -- H2 --h2-profile    H2 with Chromium's CPU profile of the page during its HTTP/2 fill of 100,000
 *   npm run bench -- --render           only writes results.md again from results.json
 *   npm run bench -- W1 W6 --compare DIR    W1 and W6 also with the build in DIR (another commit's
 *                                       `npm run build:local`), alternately with this one, in this run
 */
import { ChildProcess, fork } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as zlib from "zlib";
import { DIST, ExcelStandIn, StandInError, StandInStorage } from "../test/support/excel-runtime";
import { OneCallPerCell, Strategy, TimerFlushBatching } from "./baselines";
import { collectGarbage, Fill, fill, Machine, machine, median, MemoryPeak, round } from "./measure";
import * as data from "../sandbox/dataset";
import { apiMinimum, Cell, LATEST, latencyBound, Minimum, Sheet, Shown, tally, Tally, w1, w2, w3, w5, w6 } from "./workloads";
import { faultMixes, hardeningMarkdown, HardeningResults, hardeningTargets, w7, w8, w9 } from "./hardening";
import { browserFill, W5_NAMES } from "./browser";
import { w10, w10Markdown, W10Result, w10Rotations, w10Targets } from "./w10";
import { w11, w11Markdown, W11Result, w11Targets } from "./w11";
import { w12, w12Markdown, W12Result, w12Targets } from "./w12";
import { w13, w13Markdown, W13Result, w13Targets } from "./w13";
import { h2, h2Markdown, H2Result, h2Targets } from "./h2";
import { scale, scaleMarkdown, ScaleResult, scaleTargets } from "./scale";

/** FIRMA's default concurrency (engine.ts) and batching window (settings), which the bench leaves as they are. */
const CONCURRENCY = 6;
const WINDOW_MS = 40;
/**
 * Bundle budget: what the shared runtime's page (taskpane.html) loads at Excel's startup — the
 * webpack runtime, the shared chunk (engine, client, catalogs), the functions and the pane. Before
 * the two entries shared one webpack runtime, the functions bundle (96.9 KB) and the pane's bundle each carried an engine: 281,660
 * bytes in all; the budget is below that.
 */
const BUNDLE_BUDGET_BYTES = 250 * 1024;
const STARTUP_SCRIPTS = ["runtime.js", "shared.js", "functions.js", "taskpane.js"];

// ---- command line -------------------------------------------------------------------------------

interface Args {
  latencyMs: number;
  quick: boolean;
  only: Set<string> | null;
  render: boolean;
  /** Longest a phase of W7 (or W9) may run before it is aborted and reported as such. */
  phaseLimitMs: number;
  /** A build of another commit to measure W1 and W6 with, beside this one. */
  compare: string | null;
  /** W13's long run, minutes. */
  w13Minutes: number;
  /** --w13-setups: the databases and numbers of people W13 runs (all of them without it). */
  w13Only: { people?: number[]; databases: string[] } | undefined;
  /** H2: the page's CPU profile during the HTTP/2 fill of 100,000. */
  h2Profile: boolean;
  /** --w10-rotations N: W10's PostgreSQL setups in turn, N times, printed, instead of W10's recorded run. */
  w10Rotations: number;
}

const WORKLOADS = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "FAULTS", "W10", "W11", "W12", "W13", "BROWSER", "H2", "SCALE"];

/** `SQLite:50,PostgreSQL` → the databases and the numbers of people named (all of them where none is). */
function w13Setups(list: string): { people?: number[]; databases: string[] } {
  const databases = new Set<string>();
  const people = new Set<number>();
  for (const item of list.split(",")) {
    const [db, n] = item.split(":");
    if (db !== "SQLite" && db !== "PostgreSQL") throw new Error(`--w13-setups: ${db} is neither SQLite nor PostgreSQL`);
    databases.add(db);
    if (n !== undefined) people.add(Number(n));
  }
  return { databases: [...databases], people: people.size > 0 ? [...people] : undefined };
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    latencyMs: 100,
    quick: false,
    only: null,
    render: false,
    phaseLimitMs: 600_000,
    compare: null,
    w13Minutes: 10,
    w13Only: undefined,
    h2Profile: false,
    w10Rotations: 0,
  };
  const pick = (names: string[]) => {
    for (const w of names) if (!WORKLOADS.includes(w)) throw new Error(`unknown workload ${w}; one of ${WORKLOADS.join(", ")}`);
    args.only = new Set([...(args.only ?? []), ...names]);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--quick") args.quick = true;
    else if (a === "--render") args.render = true;
    else if (a === "--latency") args.latencyMs = Number(argv[++i]);
    else if (a === "--phase-limit") args.phaseLimitMs = Number(argv[++i]) * 1000;
    else if (a === "--w13-minutes") args.w13Minutes = Number(argv[++i]);
    else if (a === "--w13-setups") args.w13Only = w13Setups(argv[++i]);
    else if (a === "--h2-profile") args.h2Profile = true;
    else if (a === "--w10-rotations") args.w10Rotations = Number(argv[++i]);
    else if (a === "--only") pick(argv[++i].toUpperCase().split(","));
    else if (a === "--compare") args.compare = path.resolve(argv[++i]);
    else if (!a.startsWith("-")) pick([a.toUpperCase()]);
    else throw new Error(`unknown argument ${a}; see the header of bench/run.ts`);
  }
  if (!(args.latencyMs >= 0)) throw new Error("--latency takes a number of milliseconds");
  if (!(args.phaseLimitMs > 0)) throw new Error("--phase-limit takes a number of seconds");
  if (!(Number.isInteger(args.w10Rotations) && args.w10Rotations >= 0)) throw new Error("--w10-rotations takes a whole number of rounds");
  return args;
}

// ---- the sandbox, in its own process ------------------------------------------------------------

class Service {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {}

  static start(latencyMs: number): Promise<Service> {
    const child = fork(path.join(__dirname, "sandbox-process.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: { ...process.env, FIRMA_BENCH_LATENCY_MS: String(latencyMs) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return new Promise((resolve, reject) => {
      child.once("message", (m: { url: string }) => resolve(new Service(m.url, child)));
      child.once("exit", (code) => reject(new Error(`the sandbox process ended (${code})`)));
    });
  }

  private async control(route: string, init?: RequestInit): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.url}/__sandbox/${route}`, init);
    } catch {
      // a kept-alive connection the sandbox closed meanwhile: once more, on a new one
      res = await fetch(`${this.url}/__sandbox/${route}`, init);
    }
    if (!res.ok) throw new Error(`sandbox control ${route}: HTTP ${res.status}`);
    return res.json();
  }

  /** Credits charged to a key (= charged calls), calls refused (5xx, 4xx other than 404…), and all calls: running counters. */
  async usage(key: string): Promise<{ total: number; refused: number; calls: number }> {
    return (await this.control(`usage?key=${encodeURIComponent(key)}`)) as { total: number; refused: number; calls: number };
  }

  /** A key's logged calls (the sandbox keeps the last 50,000), oldest first. */
  async log(
    key: string,
  ): Promise<{ path: string; query: string; status: number; credited: boolean; at: number; fault?: string; forged?: number }[]> {
    return (await this.control(`requests?key=${encodeURIComponent(key)}`)) as Awaited<ReturnType<Service["log"]>>;
  }

  /** HTTP calls a key made, whatever their outcome. */
  async requests(key: string): Promise<number> {
    return ((await this.control(`requests?key=${encodeURIComponent(key)}`)) as unknown[]).length;
  }

  async configure(patch: Record<string, unknown>): Promise<void> {
    await this.control("config", { method: "PUT", body: JSON.stringify(patch), headers: { "Content-Type": "application/json" } });
  }

  stop(): void {
    this.child.disconnect();
  }
}

// ---- strategies ---------------------------------------------------------------------------------

type StrategyName = "FIRMA" | "one call per cell" | "timer-flush batching (MS sample)" | "timer-flush + size split (variant)";

/** The stand-in's answer for one cell as a value or an error code. */
function shownOf(v: unknown): Shown {
  if (v instanceof StandInError) return { error: v.code };
  if (Array.isArray(v) && Array.isArray(v[0]) && v.length === 1 && v[0].length === 1) return { value: v[0][0] };
  return { error: `unexpected ${JSON.stringify(v)?.slice(0, 40)}` };
}

function excel(service: Service, key: string, storage = new StandInStorage(), dist = DIST): ExcelStandIn {
  storage.data.set("firma.guardThreshold", "off"); // a bench fill is confirmed in advance: no credit guard
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", service.url);
  return new ExcelStandIn(storage, dist);
}

const viaExcel = (xl: ExcelStandIn) => (c: Cell) => xl.call(c.fn, c.args).then(shownOf);
/** The stand-in's raw answer for a cell, read by fill()'s `show` (shownOf) once all have settled: W6 counts every reaction per cell. */
const answerOf = (xl: ExcelStandIn) => (c: Cell) => xl.call(c.fn, c.args);

/**
 * A baseline's cells invoked through the same Excel stand-in as FIRMA's: the stand-in shapes each
 * call's arguments by the function's metadata and shows its answer, as it does for FIRMA, so every
 * strategy pays the same invocation work per cell (a real add-in's functions are invoked by Excel too).
 * The baseline answers the cell itself; the stand-in shows a placeholder matrix in its place.
 */
function baselineViaExcel(xl: ExcelStandIn, s: Strategy): (c: Cell) => Promise<Shown> {
  return (c) => {
    let got: Shown = { error: "not answered" };
    return xl.invokeAs(c.fn, () => s.invoke(c).then((r) => ((got = r), PLACEHOLDER)), c.args).then(() => got);
  };
}
const PLACEHOLDER = [[0]];

// ---- one measured fill --------------------------------------------------------------------------

interface Row {
  workload: string;
  strategy: string;
  cells: number;
  calls: number | null;
  attempts: number | null;
  minimum: Minimum;
  timeMs: number | null;
  /** The fill's synchronous part: every cell invoked, before any call can leave (ms). */
  invokedMs?: number;
  boundMs: number;
  rssMb: number | null;
  heapMb: number | null;
  tally: Tally | null;
  note?: string;
}

let serial = 0;
const newKey = (w: string) => `demo-enterprise-bench-${w.toLowerCase()}-${++serial}`;

async function measure(
  service: Service,
  sheet: Sheet,
  strategy: string,
  key: string,
  minimum: Minimum,
  boundMs: number,
  run: () => Promise<Fill>,
  note?: string,
): Promise<Row> {
  const [before, attemptsBefore] = [await service.usage(key), await service.requests(key)];
  // Every strategy's measured fill starts from a collected heap (the bench runs with --expose-gc): the
  // garbage of the warm-up and of the workloads before is nobody's fill, and its collection would land
  // in whichever fill happens to run next. The peak below is then the fill's own.
  (globalThis as { gc?: () => void }).gc?.();
  const memory = new MemoryPeak().start();
  const f = await run();
  const mem = memory.stop();
  const [after, attemptsAfter] = [await service.usage(key), await service.requests(key)];
  const row: Row = {
    workload: sheet.id,
    strategy,
    cells: sheet.cells.length,
    calls: after.total - before.total,
    attempts: attemptsAfter - attemptsBefore,
    minimum,
    timeMs: round(f.timeMs),
    ...(f.invokedMs !== undefined ? { invokedMs: round(f.invokedMs) } : {}),
    boundMs,
    rssMb: mem.rssMb,
    heapMb: mem.heapMb,
    tally: tally(sheet.cells, f.shown),
    note,
  };
  const t = row.tally!;
  process.stderr.write(
    `  ${sheet.id} ${strategy.padEnd(36)} ${String(row.calls).padStart(6)} calls (min ${minimum.calls}), ${String(row.timeMs).padStart(7)} ms (bound ${boundMs}${row.invokedMs !== undefined ? `; all invoked by ${row.invokedMs} ms` : ""}), ` +
      `${t.ok} right, ${t.wrong} wrong, ${t.failed} failed${t.failed ? " " + JSON.stringify(t.failures) : ""}\n`,
  );
  return row;
}

function skipped(sheet: Sheet, strategy: string, minimum: Minimum, boundMs: number, note: string): Row {
  return {
    workload: sheet.id,
    strategy,
    cells: sheet.cells.length,
    calls: null,
    attempts: null,
    minimum,
    timeMs: null,
    boundMs,
    rssMb: null,
    heapMb: null,
    tally: null,
    note,
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A fill of other companies (2,000 names and 200 financial years), run by every strategy once before
 * its measured fill: Excel's runtime is a page that stays loaded, so no strategy is measured with
 * cold code, and whichever runs first on a workload does not also warm the sandbox and its
 * connections for the others. 2,000, not 300: each workload's stand-in is a fresh JavaScript context,
 * and 300 cells left the add-in's per-cell path partly unoptimized in W5 when it ran first (about
 * 2,000 → 1,945 ms). Not counted: measure() reads the calls before and after its own fill.
 */
const WARM_UP: Cell[] = [
  ...data.sampleCuis(2_000, 800_000).map((c): Cell => ({ fn: "DENUMIRE", args: [c] })),
  ...data.sampleCuis(200, 810_000).map((c): Cell => ({ fn: "CA", args: [c, LATEST] })),
];

async function warmUp(invoke: (c: Cell) => Promise<Shown>): Promise<void> {
  await fill(WARM_UP, (c) => invoke(c).catch((): Shown => ({ error: "warm-up" })));
}

/** The baselines on a sheet (fresh instances, fresh keys). */
async function baselines(service: Service, args: Args, sheet: Sheet, min: Minimum, bound: number, slowPerCell: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  const xl = excel(service, newKey(sheet.id)); // only its invocation path is used: no FIRMA function is called
  const per: StrategyName = "one call per cell";
  if (slowPerCell && args.quick) {
    rows.push(skipped(sheet, per, min, bound, "skipped (--quick)"));
  } else {
    const key = newKey(sheet.id);
    const s = new OneCallPerCell(service.url, key, CONCURRENCY);
    await warmUp(baselineViaExcel(xl, s));
    rows.push(await measure(service, sheet, per, key, min, bound, () => fill(sheet.cells, baselineViaExcel(xl, s))));
  }
  for (const split of [false, true]) {
    const key = newKey(sheet.id);
    const s: Strategy = new TimerFlushBatching(service.url, key, { split, concurrency: CONCURRENCY });
    const name: StrategyName = split ? "timer-flush + size split (variant)" : "timer-flush batching (MS sample)";
    await warmUp(baselineViaExcel(xl, s));
    (s as TimerFlushBatching).statuses = {}; // the warm-up's answers are not the workload's
    const row = await measure(service, sheet, name, key, min, bound, () => fill(sheet.cells, baselineViaExcel(xl, s)));
    const statuses = (s as TimerFlushBatching).statuses;
    const refused = Object.entries(statuses).filter(([st]) => st !== "200");
    if (refused.length > 0)
      row.note = `requests answered ${refused.map(([st, n]) => `${st === "0" ? "no answer" : `HTTP ${st}`} ×${n}`).join(", ")}`;
    rows.push(row);
  }
  return rows;
}

// ---- workloads ----------------------------------------------------------------------------------

async function simpleWorkload(service: Service, args: Args, sheet: Sheet, slowPerCell: boolean): Promise<Row[]> {
  process.stderr.write(`${sheet.id}: ${sheet.title}\n`);
  const min = apiMinimum(sheet.cells);
  const bound = latencyBound(min.calls, CONCURRENCY, args.latencyMs);
  const key = newKey(sheet.id);
  const xl = excel(service, key);
  await warmUp(viaExcel(xl));
  const rows = [await measure(service, sheet, "FIRMA", key, min, bound, () => fill(sheet.cells, viaExcel(xl)))];
  rows.push(...(await baselines(service, args, sheet, min, bound, slowPerCell)));
  return rows;
}

/** W3 and W4: the portfolio, then recalculated warm, then again after the add-in's storage is reloaded. */
async function portfolio(service: Service, args: Args): Promise<Row[]> {
  const sheet = w3();
  process.stderr.write(`W3: ${sheet.title}\n`);
  const min = apiMinimum(sheet.cells);
  const bound = latencyBound(min.calls, CONCURRENCY, args.latencyMs);
  const key = newKey("W3");
  const storage = new StandInStorage();
  const xl = excel(service, key, storage);
  await warmUp(viaExcel(xl));
  const rows = [await measure(service, sheet, "FIRMA", key, min, bound, () => fill(sheet.cells, viaExcel(xl)))];
  const base = await baselines(service, args, sheet, min, bound, true);
  rows.push(...base);

  const w4: Sheet = { ...sheet, id: "W4", title: "W3 recalculated" };
  process.stderr.write(`W4: ${w4.title}\n`);
  const zero: Minimum = { calls: 0, formula: "0 (every answer is known)" };
  rows.push(await measure(service, w4, "FIRMA (warm cache)", key, zero, 0, () => fill(w4.cells, viaExcel(xl))));
  await pause(800); // the cache's delayed write (500 ms) has happened
  const reopened = new ExcelStandIn(storage);
  rows.push(await measure(service, w4, "FIRMA (add-in storage reloaded)", key, zero, 0, () => fill(w4.cells, viaExcel(reopened))));
  const perCell = base.find((r) => r.strategy === "one call per cell")!;
  rows.push({
    ...perCell,
    workload: "W4",
    minimum: zero,
    boundMs: 0,
    rssMb: null,
    heapMb: null,
    note: perCell.calls === null ? perCell.note : "not re-run: without a cache every recalculation repeats W3's calls (figures of W3)",
  });
  const bx = excel(service, newKey("W4")); // the baselines' invocation path (as in baselines())
  for (const split of [false, true]) {
    const k = newKey("W4");
    const s = new TimerFlushBatching(service.url, k, { split, concurrency: CONCURRENCY });
    await fill(w4.cells, baselineViaExcel(bx, s)); // the first calculation
    rows.push(
      await measure(service, w4, split ? "timer-flush + size split (variant)" : "timer-flush batching (MS sample)", k, zero, 0, () =>
        fill(w4.cells, baselineViaExcel(bx, s)),
      ),
    );
  }
  return rows;
}

interface CpuResult {
  cells: number;
  primingCalls: number;
  recalcCalls: number;
  /** CPU (user + system) per cell of each measured recalculation, µs. */
  runsUs: number[];
  medianUs: number;
  wallMs: number[];
  /** The bench's own bookkeeping per cell (fill() over already-settled promises), µs. */
  harnessUs: number;
  /**
   * The stand-in's and the bench's share per cell, µs, median of runs interleaved with FIRMA's: the same
   * fill through the same stand-in, its functions answering a constant at once (what Excel's own work
   * on a call costs here, and no add-in). Absent in results of older runs.
   */
  standInUs?: number;
}

/** W6: the engine's own CPU cost per cell on a recalculation of 100,000 cached cells. */
async function cpuPerCell(service: Service, args: Args, dist = DIST): Promise<CpuResult> {
  const sheet = w6();
  process.stderr.write(`W6: ${sheet.title}${dist === DIST ? "" : ` (build in ${dist})`}\n`);
  const key = newKey("W6");
  const xl = excel(service, key, undefined, dist);
  await service.configure({ latencyMs: 0 });
  await fill(sheet.cells, viaExcel(xl)); // priming: fetch and cache everything
  await service.configure({ latencyMs: args.latencyMs });
  const primingCalls = (await service.usage(key)).total;
  await fill(sheet.cells, answerOf(xl), shownOf); // warm-up (JIT)
  const runsUs: number[] = [];
  const wallMs: number[] = [];
  let wrong = 0;
  // The stand-in alone: the same bundle's registrations, each answering one constant matrix at once.
  const bare = excel(service, newKey("W6"), undefined, dist);
  const constant = Promise.resolve([[1]]);
  for (const id of [...bare.associated.keys()]) bare.associated.set(id, () => constant);
  await fill(sheet.cells, answerOf(bare), shownOf); // warm-up (JIT)
  const standInRunsUs: number[] = [];
  for (let i = 0; i < 5; i++) {
    await collectGarbage();
    const b0 = process.cpuUsage();
    await fill(sheet.cells, answerOf(bare), shownOf);
    const b = process.cpuUsage(b0);
    standInRunsUs.push((b.user + b.system) / sheet.cells.length);
    await collectGarbage();
    const c0 = process.cpuUsage();
    const f = await fill(sheet.cells, answerOf(xl), shownOf);
    const c = process.cpuUsage(c0);
    runsUs.push(round((c.user + c.system) / sheet.cells.length, 2));
    wallMs.push(round(f.timeMs));
    const t = tally(sheet.cells, f.shown);
    wrong += t.wrong + t.failed;
  }
  const recalcCalls = (await service.usage(key)).total - primingCalls;
  // The bench's own share: the same fill() over cells that answer at once.
  await collectGarbage();
  const h0 = process.cpuUsage();
  await fill(sheet.cells, () => constant, shownOf);
  const h = process.cpuUsage(h0);
  const result: CpuResult = {
    cells: sheet.cells.length,
    primingCalls,
    recalcCalls,
    runsUs,
    medianUs: median(runsUs),
    wallMs,
    harnessUs: round((h.user + h.system) / sheet.cells.length, 2),
    standInUs: round(median(standInRunsUs), 2),
  };
  process.stderr.write(
    `  W6 FIRMA: ${result.runsUs.join(", ")} µs CPU per cell (median ${result.medianUs}; the stand-in and bench alone ${result.standInUs}, ` +
      `FIRMA's own ${round(result.medianUs - result.standInUs!, 2)}); ${recalcCalls} calls; ${wrong} cells not right\n`,
  );
  if (wrong > 0) throw new Error(`W6: ${wrong} cells did not show the dataset's value`);
  return result;
}

/**
 * `--compare DIR`: W1 (time to the last cell, calls) and W6 (CPU per cached cell) with this build and
 * the one in DIR, alternately, four times each, so that the machine's noise falls on both alike.
 */
async function compareBuilds(service: Service, args: Args, other: string): Promise<void> {
  const out: string[] = [];
  const builds = [
    ["this build", DIST],
    ["compared", other],
  ] as const;
  // Four rounds, the order swapped each round: the first measurement of a run warms the machine for the second.
  for (const round of [1, 2, 3, 4]) {
    for (const [label, dist] of round % 2 ? builds : [...builds].reverse()) {
      const sheet = w1();
      const key = newKey("W1");
      const xl = excel(service, key, undefined, dist);
      const f = await fill(sheet.cells, viaExcel(xl));
      const calls = (await service.usage(key)).total;
      const cpu = await cpuPerCell(service, args, dist);
      const own = cpu.standInUs === undefined ? "–" : String(Math.round((cpu.medianUs - cpu.standInUs) * 100) / 100);
      out.push(
        `| ${round} | ${label} | ${calls} | ${round1(f.timeMs)} | ${cpu.runsUs.join(", ")} | ${cpu.medianUs} | ${cpu.standInUs ?? "–"} | ${own} |`,
      );
    }
  }
  process.stdout.write(
    [
      "",
      `W1 and W6, this build (${DIST}) beside ${other}:`,
      "",
      "| round | build | W1 calls | W1 ms to the last cell | W6 µs CPU per cached cell (5 runs) | W6 median | the stand-in and bench alone | the add-in's own |",
      "|---:|---|---:|---:|---|---:|---:|---:|",
      ...out,
      "",
    ].join("\n"),
  );
}

const round1 = (ms: number) => Math.round(ms);

// ---- report -------------------------------------------------------------------------------------

interface Target {
  target: string;
  measured: string;
  met: boolean;
}

interface Results {
  machine: Machine;
  settings: { latencyMs: number; jitterMs: number; concurrency: number; windowMs: number; baselineConcurrency: number; quick: boolean };
  bundle: { file: string; bytes: number; gzipBytes: number; budgetBytes: number };
  rows: Row[];
  w6: CpuResult | null;
  hardening?: HardeningResults;
  /** W10: a firm through its custody server (w10.ts). */
  w10?: W10Result;
  /** W11: names to CUIs under each search setting (w11.ts). */
  w11?: W11Result;
  /** W12: one check of a 10,000-company watch list (w12.ts). */
  w12?: W12Result;
  /** SCALE: firma refresh of 100,000 rows (scale.ts). */
  scale?: ScaleResult;
  /** W13: the firm's server under load (w13.ts). */
  w13?: W13Result;
  /** H2: the add-in in Chromium through firma serve over HTTP/2 and HTTP/1.1 (h2.ts). */
  h2?: H2Result | { error: string };
  /** The workloads the last run measured, when it was filtered (the others come from earlier runs). */
  lastRun?: string[];
  targets: Target[];
}

const n = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toLocaleString("en"));

function targets(rows: Row[], w6: CpuResult | null, bundle: Results["bundle"], hardening: HardeningResults = {}): Target[] {
  const out: Target[] = [];
  const firma = (w: string, s = "FIRMA") => rows.find((r) => r.workload === w && r.strategy === s);
  for (const w of ["W1", "W2", "W3"]) {
    const r = firma(w);
    if (r)
      out.push({
        target: `${w}: credits = the API minimum`,
        measured: `${r.calls} calls, minimum ${r.minimum.calls}`,
        met: r.calls === r.minimum.calls,
      });
  }
  for (const s of ["FIRMA (warm cache)", "FIRMA (add-in storage reloaded)"]) {
    const r = firma("W4", s);
    if (r) out.push({ target: `W4 ${s.slice(7, -1)}: 0 credits`, measured: `${r.calls} calls`, met: r.calls === 0 });
  }
  for (const w of ["W1", "W2", "W3", "W5"]) {
    const r = firma(w);
    const naive = firma(w, "timer-flush + size split (variant)");
    if (r && naive && r.timeMs !== null && naive.timeMs !== null && naive.tally && naive.tally.failed === 0)
      out.push({
        target: `${w}: time to the last cell ahead of the size-split batcher (same run)`,
        measured: `${n(r.timeMs)} ms vs ${n(naive.timeMs)} ms`,
        met: r.timeMs < naive.timeMs,
      });
  }
  const r5 = firma("W5");
  if (r5) {
    const limit = 1.1 * r5.boundMs;
    out.push({
      target: `W5: time ≤ 1.1 × latency bound (${n(round(limit))} ms)`,
      measured: `${n(r5.timeMs)} ms = ${round(r5.timeMs! / r5.boundMs, 2)} × bound`,
      met: r5.timeMs! <= limit,
    });
  }
  if (w6) {
    out.push({
      target: "W6: ≤ 5 µs CPU per cached cell, all of it (FIRMA, the stand-in, the bench)",
      measured: `${w6.medianUs} µs (median of ${w6.runsUs.length})`,
      met: w6.medianUs <= 5,
    });
    if (w6.standInUs !== undefined)
      out.push({
        target: "W6: ≤ 5 µs CPU per cached cell, FIRMA's own (all of it − the stand-in and bench answering a constant)",
        measured: `${round(w6.medianUs - w6.standInUs, 2)} µs (${w6.medianUs} − ${w6.standInUs})`,
        met: w6.medianUs - w6.standInUs <= 5,
      });
  }
  out.push({
    target: `scripts the runtime page loads at startup ≤ ${n(bundle.budgetBytes / 1024)} KB`,
    measured: `${n(round(bundle.bytes / 1024, 1))} KB (${n(round(bundle.gzipBytes / 1024, 1))} KB gzipped)`,
    met: bundle.bytes <= bundle.budgetBytes,
  });
  const wrongRows = rows.filter((r) => r.strategy.startsWith("FIRMA") && r.tally && (r.tally.wrong > 0 || r.tally.failed > 0));
  out.push({
    target: "FIRMA: every cell shows the dataset's value or the right error",
    measured: wrongRows.length === 0 ? "all cells right" : wrongRows.map((r) => `${r.workload} ${r.strategy}`).join(", "),
    met: wrongRows.length === 0,
  });
  out.push(...hardeningTargets(hardening));
  return out;
}

function markdown(res: Results): string {
  const m = res.machine;
  const s = res.settings;
  const lines: string[] = [];
  lines.push("# FIRMA benchmark results", "");
  lines.push(`Written by \`npm run bench\` (bench/run.ts) on ${m.date.slice(0, 10)} (${m.date}).`, "");
  lines.push(`- Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB; ${m.os}; Node ${m.node}`);
  lines.push(
    `- Sandbox in its own process, injected latency ${s.latencyMs} ms per call (jitter ${s.jitterMs}); FIRMA at its defaults: concurrency ${s.concurrency}, batching window ${s.windowMs} ms; baselines limited to the same ${s.baselineConcurrency} calls at once (a browser's connections per host).`,
  );
  lines.push(
    "- FIRMA = the built `dist/runtime.js`, `shared.js` and `functions.js` (as the runtime page loads them) in the Excel runtime stand-in (test/support/excel-runtime.ts); baselines = bench/baselines.ts, invoked through the same stand-in (its argument shaping and answer display per cell, `invokeAs`), so every strategy pays the same invocation work.",
  );
  lines.push(
    "- API minimum: ⌈distinct valid CUIs with a profile cell / 100⌉ + ⌈distinct valid CUIs with a financial cell / 50⌉ (spec: 1 credit per call, batches of ≤ 100 / ≤ 50 CUIs; assumes batch items carry the fields shown, as the sandbox's do).",
  );
  lines.push(
    `- Latency bound: ⌈API minimum / ${s.concurrency}⌉ × ${s.latencyMs} ms. Peak RSS/heap: the benchmark process (the stand-in, the functions and the bench), sampled every 5 ms.`,
  );
  if (s.quick) lines.push("- Run with --quick: the one-call-per-cell baseline was skipped on W3–W5.");
  if (res.lastRun) lines.push(`- The last run measured ${res.lastRun.join(", ")} only; the other sections come from earlier runs.`);
  lines.push("");
  lines.push("## Targets", "", "| Target | Measured | Met |", "|---|---|---|");
  for (const t of res.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`);
  lines.push("");
  lines.push("## Summary: calls (= credits) · time to the last cell", "");
  const strategies = ["FIRMA", "one call per cell", "timer-flush batching (MS sample)", "timer-flush + size split (variant)"];
  lines.push(`| Workload | API minimum | ${strategies.join(" | ")} |`, `|---|---:|${strategies.map(() => "---|").join("")}`);
  const brief = (r: Row | undefined) => {
    if (!r || r.calls === null) return r?.note?.startsWith("skipped") ? "skipped" : "–";
    const failed = r.tally?.failed ? `, **${n(r.tally.failed)} cells failed**` : "";
    return `${n(r.calls)} · ${n(r.timeMs)} ms${failed}${r.note?.startsWith("not re-run") ? " (as W3)" : ""}`;
  };
  const workloads = [...new Set(res.rows.map((r) => r.workload))];
  for (const w of workloads) {
    const rows = res.rows.filter((r) => r.workload === w);
    const firma = rows.filter((r) => r.strategy.startsWith("FIRMA"));
    for (const f of firma) {
      const label = firma.length > 1 ? `${w} (${f.strategy.slice(7, -1)})` : w;
      lines.push(
        `| ${label} | ${n(f.minimum.calls)} | ${[f, ...strategies.slice(1).map((s) => rows.find((r) => r.strategy === s))].map(brief).join(" | ")} |`,
      );
    }
  }
  lines.push("");
  lines.push("## Fills", "");
  lines.push(
    "| Workload | Strategy | Cells | Calls (= credits) | API minimum | Time to last cell | Latency bound | Peak RSS / heap | Cells right / wrong / failed | Note |",
  );
  lines.push("|---|---|---:|---:|---|---:|---:|---|---|---|");
  for (const r of res.rows) {
    const t = r.tally;
    const cells = t
      ? `${n(t.ok)} / ${n(t.wrong)} / ${n(t.failed)}${
          t.failed
            ? ` (${Object.entries(t.failures)
                .map(([k, v]) => `${k} ×${n(v)}`)
                .join(", ")})`
            : ""
        }`
      : "–";
    const calls =
      r.calls === null ? "–" : `${n(r.calls)}${r.attempts !== null && r.attempts !== r.calls ? ` (${n(r.attempts)} requests)` : ""}`;
    const time = r.timeMs === null ? "–" : `${n(r.timeMs)} ms${r.boundMs > 0 && !t?.failed ? ` (${round(r.timeMs / r.boundMs, 2)}×)` : ""}`;
    const mem = r.rssMb === null ? "–" : `${r.rssMb} / ${r.heapMb} MB`;
    lines.push(
      `| ${r.workload} | ${r.strategy} | ${n(r.cells)} | ${calls} | ${n(r.minimum.calls)} = ${r.minimum.formula} | ${time} | ${n(r.boundMs)} ms | ${mem} | ${cells} | ${r.note ?? ""} |`,
    );
  }
  lines.push("");
  if (res.w6) {
    const w = res.w6;
    lines.push("## W6: CPU per cached cell", "");
    lines.push(
      `${n(w.cells)} cells (10,000 rows × 10 functions, cached by a priming fill of ${w.primingCalls} calls at 0 ms latency), recalculated through the stand-in: ` +
        `CPU (user + system, process.cpuUsage) per cell in ${w.runsUs.length} runs: ${w.runsUs.join(", ")} µs; median **${w.medianUs} µs**; ` +
        `wall time per recalculation ${w.wallMs.map((x) => n(x)).join(", ")} ms; calls during the recalculations: ${w.recalcCalls}. ` +
        `Of this, the bench's own bookkeeping (the same fill over cells that answer at once) is ${w.harnessUs} µs per cell` +
        (w.standInUs === undefined
          ? "."
          : `, and the stand-in with it (the same fill through the same stand-in, each function answering a constant at once; median of 5 runs interleaved with FIRMA's) ${w.standInUs} µs: FIRMA's own share is **${round(w.medianUs - w.standInUs, 2)} µs**. ` +
            "The stand-in is TypeScript run by tsx, which names every closure it makes (esbuild's keepNames); Excel's own work on a call is not measured here."),
      "",
    );
  }
  if (res.hardening) lines.push(...hardeningMarkdown(res.hardening, s.latencyMs));
  if (res.w10) lines.push(...w10Markdown(res.w10, s.latencyMs));
  if (res.w11) lines.push(...w11Markdown(res.w11, s.latencyMs));
  if (res.w12) lines.push(...w12Markdown(res.w12));
  if (res.scale) lines.push(...scaleMarkdown(res.scale));
  if (res.w13) lines.push(...w13Markdown(res.w13));
  if (res.h2) lines.push(...h2Markdown(res.h2));
  lines.push("## Scripts loaded at startup", "");
  lines.push(
    `\`${res.bundle.file}\`: ${n(res.bundle.bytes)} bytes (${n(res.bundle.gzipBytes)} gzipped); budget ${n(res.bundle.budgetBytes)} bytes.`,
    "",
  );
  lines.push("## Reading the baselines", "");
  lines.push(
    "- *One call per cell*: each cell calls `GET /v4/firme/{cui}` or `/financiar?an=` through the project's client (retries, timeouts), no cache; 6 at a time.",
    "- *Timer-flush batching (MS sample)*: Microsoft's custom-functions batching pattern: invocations pushed onto one array, a 100 ms setTimeout sends all of them in one batch request (one per endpoint, and per year for financial data); no de-duplication, no split at 100/50, no cache. Requests above the service's batch size are refused (400 `batch_too_large`; a URL above the sandbox's 16 KB header limit gets 431), so those cells fail: shown as failed, with the HTTP status.",
    "- *Timer-flush + size split (variant)*: the same, with the queued list cut at 100 / 50 CUIs, so that it can be compared at all; still no de-duplication and no cache.",
    "- W4 rows of the baselines: they have no cache, so a recalculation costs what the first calculation did.",
    "",
  );
  return lines.join("\n");
}

// ---- main ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.render) {
    const saved = JSON.parse(fs.readFileSync(path.join(__dirname, "results.json"), "utf8")) as Results;
    // The targets again from the figures: a target added since the run is judged too.
    saved.targets = [
      ...targets(saved.rows, saved.w6, saved.bundle, saved.hardening ?? {}),
      ...w10Targets(saved.w10),
      ...w11Targets(saved.w11),
      ...w12Targets(saved.w12),
      ...scaleTargets(saved.scale),
      ...w13Targets(saved.w13),
      ...h2Targets(saved.h2),
    ];
    fs.writeFileSync(path.join(__dirname, "results.json"), JSON.stringify(saved, null, 2) + "\n");
    fs.writeFileSync(path.join(__dirname, "results.md"), markdown(saved) + "\n");
    process.stderr.write("written: bench/results.md (from results.json)\n");
    return;
  }
  const want = (w: string) => args.only === null || args.only.has(w);
  const bundleParts = STARTUP_SCRIPTS.map((f) => fs.readFileSync(path.join(DIST, f)));
  const service = await Service.start(args.latencyMs);
  const rows: Row[] = [];
  let w6Result: CpuResult | null = null;
  let w10Result: W10Result | undefined;
  let w11Result: W11Result | undefined;
  let w12Result: W12Result | undefined;
  let scaleResult: ScaleResult | undefined;
  let w13Result: W13Result | undefined;
  let h2Result: H2Result | { error: string } | undefined;
  const hardening: HardeningResults = {};
  try {
    if (args.compare !== null) {
      await compareBuilds(service, args, args.compare);
      return;
    }
    if (want("W1")) rows.push(...(await simpleWorkload(service, args, w1(), false)));
    if (want("W2")) rows.push(...(await simpleWorkload(service, args, w2(), false)));
    if (want("W3") || want("W4")) rows.push(...(await portfolio(service, args)));
    if (want("W5")) rows.push(...(await simpleWorkload(service, args, w5(), true)));
    if (want("W6")) w6Result = await cpuPerCell(service, args);
    if (want("W8")) hardening.w8 = await w8(service);
    if (want("W9")) hardening.w9 = await w9(service, args.phaseLimitMs);
    if (want("FAULTS")) hardening.faults = await faultMixes(service);
    if (want("W10") && args.w10Rotations > 0) await w10Rotations(service, args.w10Rotations);
    else if (want("W10")) w10Result = await w10(service);
    if (want("W11")) w11Result = await w11(service);
    if (want("W12")) w12Result = await w12(service, args.latencyMs);
    if (want("SCALE")) scaleResult = await scale(service, args.latencyMs);
    if (want("W13")) w13Result = await w13(service, args.latencyMs, args.w13Minutes, args.w13Only);
    if (want("H2")) h2Result = await h2(service, args.latencyMs, { profile: args.h2Profile }).catch((e: Error) => ({ error: e.message }));
    if (want("BROWSER")) {
      // W5's 10,000 names first (time to the last cell), then 100,000 (the heap a webview holds).
      hardening.browserW5 = await browserFill(service, args.latencyMs, W5_NAMES, undefined, true).catch((e: Error) => ({
        error: e.message,
      }));
      hardening.browser = await browserFill(service, args.latencyMs).catch((e: Error) => ({ error: e.message }));
    }
    if (want("W7")) {
      try {
        hardening.w7 = await w7(service, args.latencyMs, args.phaseLimitMs);
      } catch (e) {
        // An engine that falls over on 500,000 cells is a finding, not a reason to lose the other figures.
        process.stderr.write(`  W7 failed: ${(e as Error).stack}\n`);
        hardening.w7 = { error: (e as Error).message };
      }
    }
  } finally {
    service.stop();
  }
  const bundle = {
    file: `dist/{${STARTUP_SCRIPTS.join(",")}}`,
    bytes: bundleParts.reduce((a, b) => a + b.length, 0),
    gzipBytes: bundleParts.reduce((a, b) => a + zlib.gzipSync(b, { level: 9 }).length, 0),
    budgetBytes: BUNDLE_BUDGET_BYTES,
  };
  // A filtered run replaces its workloads' figures in the saved results and keeps the others.
  const savedFile = path.join(__dirname, "results.json");
  let kept: Results | null = null;
  if (args.only !== null && fs.existsSync(savedFile)) kept = JSON.parse(fs.readFileSync(savedFile, "utf8")) as Results;
  const ran = new Set(rows.map((r) => r.workload));
  const allRows = kept ? [...kept.rows.filter((r) => !ran.has(r.workload)), ...rows] : rows;
  allRows.sort((a, b) => WORKLOADS.indexOf(a.workload) - WORKLOADS.indexOf(b.workload));
  const w6All = w6Result ?? (args.only !== null && !want("W6") ? (kept?.w6 ?? null) : null);
  const hardeningAll: HardeningResults = { ...(kept?.hardening ?? {}), ...hardening };
  const w10All = w10Result ?? kept?.w10;
  const w11All = w11Result ?? kept?.w11;
  const w12All = w12Result ?? kept?.w12;
  const scaleAll = scaleResult ?? kept?.scale;
  const w13All = w13Result ?? kept?.w13;
  const h2All = h2Result ?? kept?.h2;
  const results: Results = {
    machine: machine(),
    settings: {
      latencyMs: args.latencyMs,
      jitterMs: 0,
      concurrency: CONCURRENCY,
      windowMs: WINDOW_MS,
      baselineConcurrency: CONCURRENCY,
      quick: args.quick,
    },
    bundle,
    rows: allRows,
    w6: w6All,
    hardening: hardeningAll,
    w10: w10All,
    w11: w11All,
    w12: w12All,
    scale: scaleAll,
    w13: w13All,
    h2: h2All,
    lastRun: args.only === null ? undefined : [...args.only],
    targets: [
      ...targets(allRows, w6All, bundle, hardeningAll),
      ...w10Targets(w10All),
      ...w11Targets(w11All),
      ...w12Targets(w12All),
      ...scaleTargets(scaleAll),
      ...w13Targets(w13All),
      ...h2Targets(h2All),
    ],
  };
  // W10's rotations alone measure nothing to record: the results stay as they were.
  if (args.w10Rotations > 0 && args.only?.size === 1 && args.only.has("W10")) {
    process.stderr.write("W10's rotations: bench/results.* left as they were\n");
    process.exit(0);
  }
  const md = markdown(results);
  process.stdout.write(md + "\n");
  fs.writeFileSync(path.join(__dirname, "results.md"), md + "\n");
  fs.writeFileSync(savedFile, JSON.stringify(results, null, 2) + "\n");
  process.stderr.write("written: bench/results.md, bench/results.json\n");
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
