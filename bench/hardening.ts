/**
 * The hardening workloads, run by run.ts next to W1–W6:
 *
 * - W7: 100,000 distinct companies × 5 functions (500,000 cells) through the built bundle: first
 *   fill, recalculation, and reopening over the same storage; each phase bounded in time.
 * - W8: first contact with a service that ignores `include` (and, in a second variant, also answers
 *   minimal financial items and range entries): the engine's estimate before any call against the
 *   credits the sandbox charged, on the CLI path (refreshWorkbook over a generated workbook).
 * - W9: a free key (10 credits a day) on W3's portfolio: calls on the first fill and on recalculation.
 * - FAULTS: W3's portfolio against a sandbox that errs, drops connections, breaks JSON, answers too
 *   late, and adds stranger and conflicting batch items: no cell may show a wrong value or hang.
 *
 * Each cell's outcome is classified against the dataset's truth (workloads.ts `expected`): right,
 * wrong (a value other than the truth: must never happen), an error by cause, or still pending when
 * the phase's time ran out.
 */
import { FirmaEngine } from "../src/engine/engine";
import { MemoryStore } from "../src/engine/cache/store";
import { evaluate } from "../src/shared/evaluate";
import { buildWorkbook, demoSpec } from "../test/fixtures/build-workbook";
import { refreshWorkbook } from "../src/cli/refresh";
import { resolveFaults } from "../sandbox/config";
import { KvAnswerStore } from "../src/engine/cache/answer-store";
import { ExcelStandIn, StandInError, StandInStorage, type StandInOptions } from "../test/support/excel-runtime";
import { IDBFactory } from "fake-indexeddb";
import { IdbKeyValueStore, openAnswerDb } from "../src/office/indexeddb-answers";
import * as data from "../sandbox/dataset";
import { MemoryPeak, round } from "./measure";
import { browserMarkdown, browserTargets, type BrowserResult } from "./browser";
import { apiMinimum, Cell, expected, FINANCIAL_FIELD, LATEST, latencyBound, w3 } from "./workloads";

/** What run.ts's Service offers these workloads. */
export interface Svc {
  readonly url: string;
  usage(key: string): Promise<{ total: number; refused: number; calls: number }>;
  log(key: string): Promise<{ path: string; query: string; status: number; credited: boolean; fault?: string; forged?: number }[]>;
  configure(patch: Record<string, unknown>): Promise<void>;
}

/** Every setting these workloads touch, at its default: put back after each of them. */
export const SANDBOX_DEFAULTS = {
  includeMode: "fields",
  financialShape: "full",
  rangeShape: "full",
  retryAfterSeconds: null,
  chargeFailures: false,
  // every fault off, each named (the sandbox merges fault settings field by field): its own table
  faults: resolveFaults({}),
};

const CONCURRENCY = 6;
const say = (s: string) => process.stderr.write(s + "\n");
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- outcomes -----------------------------------------------------------------------------------

const PENDING = Symbol("pending");

/** A cell's outcome: a value, an error with its message, or nothing yet. */
type Raw = { value: unknown } | { error: string; message: string } | typeof PENDING;

/** The stand-in's answer (a value in a 1×1 matrix, or the StandInError thrown) as a Raw. */
function fromStandIn(v: unknown): Raw {
  if (v instanceof StandInError) return { error: v.code, message: v.message ?? "" };
  if (Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) return { value: v[0][0] };
  return { error: "unexpected", message: JSON.stringify(v)?.slice(0, 60) ?? "" };
}

/** evaluate()'s matrix (src/functions) as a Raw. */
function fromMatrix(m: unknown[][]): Raw {
  const v = m[0]?.[0];
  if (typeof v === "object" && v !== null && "error" in v)
    return { error: String(v.error), message: String((v as { message?: unknown }).message ?? "") };
  return { value: v };
}

export interface Outcomes {
  cells: number;
  right: number;
  /** A value other than the dataset's: must be 0. */
  wrong: number;
  /** Errors where a value was due (or the wrong error), by "code message". */
  errors: Record<string, number>;
  errorCount: number;
  /** Still unsettled when the phase's time ran out. */
  pending: number;
  /** Error cells whose message speaks of a timeout. */
  timeouts: number;
  /** A few wrong cells, for the report. */
  wrongSamples: string[];
}

/** A phase's cells: an array, or cells made when asked (W7's 500,000, so that the bench does not hold them). */
interface Cells {
  readonly length: number;
  at(i: number): Cell | undefined;
}

function classify(cells: Cells, raw: readonly Raw[]): Outcomes {
  const o: Outcomes = { cells: cells.length, right: 0, wrong: 0, errors: {}, errorCount: 0, pending: 0, timeouts: 0, wrongSamples: [] };
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.at(i)!;
    const got = raw[i];
    if (got === PENDING) {
      o.pending++;
      continue;
    }
    const want = expected(cell);
    if ("value" in got) {
      if ("value" in want && got.value === want.value) o.right++;
      else {
        o.wrong++;
        if (o.wrongSamples.length < 5)
          o.wrongSamples.push(`${cell.fn}(${cell.args.join(",")}) = ${JSON.stringify(got.value)}, truth ${JSON.stringify(want)}`);
      }
    } else if ("error" in want && want.error === got.error) {
      o.right++;
    } else {
      o.errorCount++;
      // Messages name CUIs and years at times: keep their first words, so causes group.
      const k = `${got.error} ${got.message.replace(/\d{4,}/g, "N").slice(0, 90)}`;
      o.errors[k] = (o.errors[k] ?? 0) + 1;
      if (/timeout|timp|expir|răspuns la timp|did not answer/i.test(got.message)) o.timeouts++;
    }
  }
  return o;
}

interface Phase {
  outcomes: Outcomes;
  /** First invocation to the last cell settled (or to the abort). */
  timeMs: number;
  aborted: boolean;
  rssMb: number;
  heapMb: number;
}

/**
 * Invokes every cell at once, as Excel does, and waits for the last, or for `limitMs`. The harness is
 * the measuring instrument: per waiting cell it adds one reaction (a function made once per fill, no
 * closure per cell) and keeps the cell's promise; each answer is read (`toRaw`) after the phase, its
 * memory measured. Before, each cell had a `.then` with two closures, a `Promise.all` element and a
 * converting `.then`: ~500 bytes per waiting cell of the 1.4 kB a W7 cell took in the process.
 */
async function fillBounded<T>(cells: Cells, invoke: (c: Cell) => Promise<T>, toRaw: (v: T) => Raw, limitMs: number): Promise<Phase> {
  const memory = new MemoryPeak().start();
  const promises: Promise<T>[] = new Array(cells.length);
  const t0 = performance.now();
  let last = t0;
  let settled = 0;
  let allSettled: (aborted: boolean) => void = () => {};
  const finished = new Promise<boolean>((r) => (allSettled = r));
  const tick = (): void => {
    last = performance.now();
    if (++settled === cells.length) allSettled(false);
  };
  for (let i = 0; i < cells.length; i++) {
    const p = invoke(cells.at(i)!);
    promises[i] = p;
    p.then(tick, tick);
  }
  if (cells.length === 0) allSettled(false);
  const timer = setTimeout(() => allSettled(true), limitMs);
  const aborted = await finished;
  clearTimeout(timer);
  const timeMs = round((aborted ? performance.now() : last) - t0);
  const mem = memory.stop();
  return { outcomes: classify(cells, await answers(promises, toRaw)), timeMs, aborted, ...mem };
}

/**
 * Each promise's answer as a Raw, PENDING where it has not settled. Read after the phase: a reaction on
 * every promise, then a macrotask, which runs once every job those reactions queued has run (a promise
 * of the bundle's realm takes a job more than one of this realm, so racing a resolved sentinel would not do).
 */
async function answers<T>(promises: Promise<T>[], toRaw: (v: T) => Raw): Promise<Raw[]> {
  const raw: Raw[] = new Array(promises.length).fill(PENDING);
  promises.forEach((p, i) =>
    p.then(
      (v) => (raw[i] = toRaw(v)),
      (e: unknown) => (raw[i] = { error: "threw", message: e instanceof Error ? e.message : String(e) }),
    ),
  );
  await new Promise((r) => setImmediate(r));
  return raw;
}

function excel(svc: Svc, key: string, storage = new StandInStorage(), options: StandInOptions = {}): ExcelStandIn {
  storage.data.set("firma.guardThreshold", "off"); // a bench fill is confirmed in advance: no credit guard
  storage.data.set("firma.apiKey", key);
  storage.data.set("firma.baseUrl", svc.url);
  storage.data.set("firma.language", "en"); // error messages in English, for the report
  return new ExcelStandIn(storage, undefined, options);
}

/** A cell invoked through the stand-in; its answer is read with fromStandIn after the phase. */
const viaExcel = (xl: ExcelStandIn) => (c: Cell) => xl.call(c.fn, c.args);

function brief(o: Outcomes): string {
  const errs = Object.entries(o.errors)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ×${v}`)
    .join("; ");
  return `${o.right} right, ${o.wrong} wrong, ${o.errorCount} errors, ${o.pending} pending${errs ? ` [${errs}]` : ""}`;
}

let serial = 0;
const stamp = () => `${process.pid}-${++serial}`;

// ---- W7 -----------------------------------------------------------------------------------------

export const W7_COLUMNS = ["DENUMIRE", "JUDET", "CA", "PROFIT", "ANGAJATI"] as const;

export interface W7Phase extends Phase {
  name: string;
  calls: number;
  credits: number;
}

export interface W7Result {
  cells: number;
  companies: number;
  minimum: { calls: number; formula: string };
  boundMs: number;
  limitMs: number;
  phases: W7Phase[];
  /** Bytes the add-in's storage holds after the first fill (all keys, UTF-16 length as stored strings). */
  storedBytes: number;
  storedKeys: Record<string, number>;
  /** Entries in the persisted cache, when its shape is readable. */
  cacheEntries: number | null;
  /** The runtime's IndexedDB before the reopen (absent in results of runs before the stand-in had one). */
  idb?: { entries: number; compressedBytes: number; records: number } | { error: string };
}

/** Waits before the reopen, so that the IndexedDB tier's last timed write (every 5 s at most) has happened. */
const IDB_SETTLE_MS = 8000;

export async function w7(svc: Svc, latencyMs: number, limitMs: number, companies = 100_000, withIndexedDb = true): Promise<W7Result> {
  const cuis = data.sampleCuis(companies, 500_000);
  const cells = w7Cells(cuis);
  say(`W7: ${companies.toLocaleString("en")} companies × ${W7_COLUMNS.join(", ")} = ${cells.length.toLocaleString("en")} cells`);
  const minimum = apiMinimum(Array.from({ length: cells.length }, (_, i) => cells.at(i)!));
  const boundMs = latencyBound(minimum.calls, CONCURRENCY, latencyMs);
  const key = `demo-enterprise-w7-${stamp()}`;
  const storage = new StandInStorage();
  // The shared runtime is a browser page: its IndexedDB (fake-indexeddb, in this process) outlives the
  // runtime as OfficeRuntime.storage does, so the reopen gets the same one.
  const browser: StandInOptions = withIndexedDb ? { indexedDB: new IDBFactory() } : {};
  const phases: W7Phase[] = [];
  const run = async (name: string, xl: ExcelStandIn) => {
    const before = await svc.usage(key);
    const p = await fillBounded(cells, viaExcel(xl), fromStandIn, limitMs);
    if (p.aborted) await pause(1000); // let calls in flight land before counting
    const after = await svc.usage(key);
    const phase = { name, calls: after.calls - before.calls, credits: after.total - before.total, ...p };
    phases.push(phase);
    say(
      `  W7 ${name}: ${phase.calls} calls, ${phase.credits} credits (min ${minimum.calls}), ${p.timeMs} ms${p.aborted ? " ABORTED" : ""} (bound ${boundMs}); ` +
        `${p.rssMb}/${p.heapMb} MB; ${brief(p.outcomes)}`,
    );
  };
  const xl = excel(svc, key, storage, browser);
  await run("first fill", xl);
  await pause(1500); // the cache's delayed write has happened
  const storedKeys: Record<string, number> = {};
  for (const [k, v] of storage.data) storedKeys[k] = v.length;
  const storedBytes = Object.values(storedKeys).reduce((s, n) => s + n, 0);
  let cacheEntries: number | null = null;
  try {
    // The answers the add-in's store kept (sharded keys, a byte cap: src/engine/cache/answer-store.ts).
    const loaded = await new KvAnswerStore(storage).load();
    cacheEntries = [...loaded.entries].length;
  } catch {
    cacheEntries = null;
  }
  await run("recalculation", xl);
  await pause(IDB_SETTLE_MS);
  const idb = browser.indexedDB ? await idbHolds(browser.indexedDB as IDBFactory) : undefined;
  say(`  W7 IndexedDB before the reopen: ${JSON.stringify(idb)}`);
  await run("reopened (fresh runtime, same storage and IndexedDB)", excel(svc, key, storage, browser));
  return { cells: cells.length, companies, minimum, boundMs, limitMs, phases, storedBytes, storedKeys, cacheEntries, idb };
}

/**
 * W7's cells, company by company and W7_COLUMNS in order, each made when it is invoked or classified and
 * not kept: held as an array, the 500,000 cells and their arguments were ~50 MB of the bench's own heap in
 * every phase's peak.
 */
function w7Cells(cuis: readonly number[]): Cells {
  const width = W7_COLUMNS.length;
  return {
    length: cuis.length * width,
    at(i: number): Cell | undefined {
      if (!(i >= 0 && i < cuis.length * width)) return undefined;
      const fn = W7_COLUMNS[i % width];
      const c = cuis[Math.floor(i / width)];
      return { fn, args: fn in FINANCIAL_FIELD ? [c, LATEST] : [c] };
    },
  };
}

/** What the runtime's IndexedDB holds: answers (read as the add-in reads them), compressed bytes and records. */
async function idbHolds(factory: IDBFactory): Promise<NonNullable<W7Result["idb"]>> {
  try {
    const kv = new IdbKeyValueStore(await openAnswerDb(factory as unknown as globalThis.IDBFactory, 10_000));
    // The tier's layout (src/office/tiered-answers.ts): 256 shards "a.0" … under "a.".
    const loaded = await new KvAnswerStore(kv, { prefix: "a.", shards: 256, readTimeoutMs: 60_000 }).load();
    const entries = [...loaded.entries].length;
    let compressedBytes = 0;
    for (const b of kv.stored.values()) compressedBytes += b;
    return { entries, compressedBytes, records: kv.stored.size };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

// ---- W8 -----------------------------------------------------------------------------------------

export interface W8Variant {
  variant: string;
  settings: Record<string, unknown>;
  formulas: number;
  estimate: { calls: number; credits: number; cells: number; cached: number; distinctCuis: number; ifAnswered?: number; exact?: boolean };
  /**
   * On first contact (the estimate a range): the first call, sent alone, and the exact estimate of the
   * rest made after it (the CLI prints both). Absent: no probe was sent (or results from before it existed).
   */
  probe?: { credits: number; rest: number; exact: boolean } | null;
  /** What the sandbox charged during the refresh (usage.total), and all calls made. */
  charged: number;
  calls: number;
  /** The engine's own count (report.credits). */
  engineCredits: number;
  withinEstimate: boolean;
  values: number;
  errors: Record<string, number>;
  timeMs: number;
}

const W8_VARIANTS: { variant: string; settings: Record<string, unknown> }[] = [
  { variant: "include honoured (reference)", settings: {} },
  { variant: "include ignored", settings: { includeMode: "ignored" } },
  {
    variant: "include ignored + minimal financial items + minimal range entries",
    settings: { includeMode: "ignored", financialShape: "minimal", rangeShape: "minimal" },
  },
];

/** W8: the CLI's estimate on fresh storage, then the refresh, against the sandbox's counter. */
export async function w8(svc: Svc): Promise<W8Variant[]> {
  say("W8: first contact, 400 rows × DENUMIRE, STARE, JUDET, CA, PROFIT (+ one ISTORIC spill), CLI path");
  const spec = demoSpec({
    rows: 400,
    cuis: data.sampleCuis(250, 600_000),
    columns: [
      { header: "Denumire", formula: "=FIRMA.DENUMIRE({cui})" },
      { header: "Stare", formula: "=FIRMA.STARE({cui})" },
      { header: "Județ", formula: "=FIRMA.JUDET({cui})" },
      { header: `CA ${LATEST}`, formula: `=FIRMA.CA({cui},${LATEST})` },
      { header: `Profit ${LATEST}`, formula: `=FIRMA.PROFIT({cui},${LATEST})` },
    ],
    history: { formula: `=FIRMA.ISTORIC({cui},${LATEST - 4},${LATEST})`, cached: [["An", "Cifra de afaceri", "Profit net"]] },
  });
  const bytes = buildWorkbook(spec);
  const out: W8Variant[] = [];
  for (const v of W8_VARIANTS) {
    await svc.configure({ ...SANDBOX_DEFAULTS, ...v.settings });
    const key = `demo-enterprise-w8-${stamp()}`;
    const engine = new FirmaEngine({ baseUrl: svc.url, apiKey: () => key, store: new MemoryStore() });
    const before = await svc.usage(key);
    const t0 = performance.now();
    const report = await refreshWorkbook(bytes, { engine, lang: "en" });
    const timeMs = round(performance.now() - t0);
    const after = await svc.usage(key);
    const e = report.estimate;
    const charged = after.total - before.total;
    const row: W8Variant = {
      variant: v.variant,
      settings: v.settings,
      formulas: report.evaluated,
      estimate: {
        calls: e.calls,
        credits: e.credits,
        cells: e.cells,
        cached: e.cached,
        distinctCuis: e.distinctCuis,
        ifAnswered: e.ifAnswered,
        exact: e.exact,
      },
      probe: report.probe ?? null,
      charged,
      calls: after.calls - before.calls,
      engineCredits: report.credits,
      withinEstimate: charged <= e.credits,
      values: report.values,
      errors: report.errors,
      timeMs,
    };
    out.push(row);
    say(
      `  W8 ${v.variant}: shown ${e.exact ? `${e.credits}` : `${e.ifAnswered} if answered, at most ${e.credits}`} credits (${e.calls} calls)` +
        `${report.probe ? `; probe ${report.probe.credits}, rest estimated ${report.probe.rest}${report.probe.exact ? " (exact)" : ""}` : ""}, charged ${charged} (${row.calls} calls, engine counted ${report.credits}) → ` +
        `${row.withinEstimate ? "within" : "ABOVE"} the estimate; ${report.values} values, errors ${JSON.stringify(report.errors)}`,
    );
  }
  await svc.configure(SANDBOX_DEFAULTS);
  return out;
}

// ---- W9 -----------------------------------------------------------------------------------------

export interface W9Phase {
  name: string;
  calls: number;
  charged: number;
  refused: number;
  statuses: Record<string, number>;
  timeMs: number;
  aborted: boolean;
  outcomes: Outcomes;
}

/** W9: a free key (10 credits a day, then 429) on W3's portfolio: first fill, then a recalculation. */
export async function w9(svc: Svc, limitMs: number): Promise<W9Phase[]> {
  const sheet = w3();
  say(`W9: free key on ${sheet.title}`);
  const key = `demo-free-w9-${stamp()}`;
  const xl = excel(svc, key);
  const phases: W9Phase[] = [];
  let seen = 0;
  for (const name of ["first fill", "recalculation"]) {
    const before = await svc.usage(key);
    const p = await fillBounded(sheet.cells, viaExcel(xl), fromStandIn, limitMs);
    await pause(500);
    const after = await svc.usage(key);
    const log = await svc.log(key);
    const statuses: Record<string, number> = {};
    for (const e of log.slice(seen)) statuses[e.status] = (statuses[e.status] ?? 0) + 1;
    seen = log.length;
    const phase: W9Phase = {
      name,
      calls: after.calls - before.calls,
      charged: after.total - before.total,
      refused: after.refused - before.refused,
      statuses,
      timeMs: p.timeMs,
      aborted: p.aborted,
      outcomes: p.outcomes,
    };
    phases.push(phase);
    say(
      `  W9 ${name}: ${phase.calls} calls (${phase.charged} charged, statuses ${JSON.stringify(statuses)}), ${p.timeMs} ms; ${brief(p.outcomes)}`,
    );
  }
  return phases;
}

// ---- fault mix ----------------------------------------------------------------------------------

export interface FaultMixResult {
  mix: string;
  faults: Record<string, unknown>;
  engine: { timeoutMs: number; totalTimeoutMs: number };
  cells: number;
  minimum: number;
  calls: number;
  charged: number;
  /** Requests that repeated an earlier one of the run (same path and query): retries, mostly. */
  repeats: number;
  byFault: Record<string, number>;
  forgedItems: number;
  statuses: Record<string, number>;
  timeMs: number;
  /** A cell still unsettled this long after the fill began is "stuck". */
  stuckAfterMs: number;
  outcomes: Outcomes;
}

const TRANSPORT = { errorRate: 0.1, resetRate: 0.05, malformedRate: 0.05, spikeRate: 0.05, spikeMs: 4000 };
const BATCH = { batchStranger: 0.3, batchDuplicate: 0.05, batchConflict: 0.01, batchShuffle: true };

/**
 * The mixes: everything at once (the figure that counts), then each family alone, so that a wrong
 * or failed cell can be put down to its cause.
 */
export const FAULT_MIXES: { mix: string; faults: Record<string, unknown> }[] = [
  { mix: "all", faults: { seed: 7, ...TRANSPORT, ...BATCH } },
  { mix: "transport only (5xx, resets, broken JSON, slow answers)", faults: { seed: 7, ...TRANSPORT } },
  { mix: "stranger items only", faults: { seed: 7, batchStranger: 0.3, batchShuffle: true } },
  { mix: "identical duplicates only", faults: { seed: 7, batchDuplicate: 0.05, batchShuffle: true } },
  { mix: "conflicting duplicates only", faults: { seed: 7, batchConflict: 0.01, batchShuffle: true } },
];

export async function faultMixes(svc: Svc): Promise<FaultMixResult[]> {
  const out: FaultMixResult[] = [];
  for (const m of FAULT_MIXES) out.push(await faultMix(svc, m.mix, m.faults));
  return out;
}

/**
 * One fault mix on W3's portfolio, on the engine directly (src/engine, as the CLI uses it) so that
 * the per-attempt timeout can be set below the spikes: 2 s, spikes 4 s.
 */
export async function faultMix(svc: Svc, mix: string, faults: Record<string, unknown>): Promise<FaultMixResult> {
  const sheet = w3();
  const engineOpts = { timeoutMs: 2000, totalTimeoutMs: 30_000 };
  const stuckAfterMs = engineOpts.totalTimeoutMs + 30_000;
  say(`FAULTS ${mix}: ${sheet.title}; faults ${JSON.stringify(faults)}; engine ${JSON.stringify(engineOpts)}`);
  await svc.configure({ ...SANDBOX_DEFAULTS, faults: { ...SANDBOX_DEFAULTS.faults, ...faults } });
  const key = `demo-enterprise-faults-${stamp()}`;
  const engine = new FirmaEngine({ baseUrl: svc.url, apiKey: () => key, store: new MemoryStore(), ...engineOpts });
  await engine.ready();
  const before = await svc.usage(key);
  const p = await fillBounded(
    sheet.cells,
    (c) => evaluate(c.fn, c.args, { engine, lang: "en" }),
    (m) => fromMatrix(m as unknown[][]),
    stuckAfterMs,
  );
  await pause(1000);
  const after = await svc.usage(key);
  await svc.configure(SANDBOX_DEFAULTS);
  const log = await svc.log(key);
  const seen = new Set<string>();
  let repeats = 0;
  const byFault: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  let forgedItems = 0;
  for (const e of log) {
    const sig = `${e.path}?${e.query}`;
    if (seen.has(sig)) repeats++;
    seen.add(sig);
    if (e.fault) byFault[e.fault] = (byFault[e.fault] ?? 0) + 1;
    statuses[e.status] = (statuses[e.status] ?? 0) + 1;
    forgedItems += e.forged ?? 0;
  }
  const r: FaultMixResult = {
    mix,
    faults,
    engine: engineOpts,
    cells: sheet.cells.length,
    minimum: apiMinimum(sheet.cells).calls,
    calls: after.calls - before.calls,
    charged: after.total - before.total,
    repeats,
    byFault,
    forgedItems,
    statuses,
    timeMs: p.timeMs,
    stuckAfterMs,
    outcomes: p.outcomes,
  };
  say(
    `  FAULTS ${mix}: ${r.calls} calls (${r.charged} charged, ${repeats} repeats; faults ${JSON.stringify(byFault)}, ${forgedItems} forged items), ${p.timeMs} ms; ` +
      `${brief(p.outcomes)}${p.outcomes.wrongSamples.length ? `\n    wrong: ${p.outcomes.wrongSamples.join("\n    wrong: ")}` : ""}`,
  );
  return r;
}

// ---- report -------------------------------------------------------------------------------------

export interface HardeningResults {
  /** The built add-in in headless Chromium (bench/browser.ts): 100,000 names. */
  browser?: BrowserResult | { error: string };
  /** The same with W5's 10,000 names: the time to the last cell in a real browser. */
  browserW5?: BrowserResult | { error: string };
  w7?: W7Result | { error: string };
  w8?: W8Variant[];
  w9?: W9Phase[];
  faults?: FaultMixResult[];
}

const n = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toLocaleString("en"));
const errs = (o: Outcomes) =>
  Object.entries(o.errors)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k.replace(/\|/g, "/")} ×${n(v)}`)
    .join("; ") || "none";

/** The fault mixes of saved results (a results.json written before the mixes were split held one). */
function mixesOf(h: HardeningResults): FaultMixResult[] {
  return Array.isArray(h.faults) ? h.faults : [];
}

/** The estimate as the pane and the CLI show it: a range on first contact, one figure once the service is known. */
function shownRange(v: W8Variant): string {
  const e = v.estimate;
  return e.exact === false && e.ifAnswered !== undefined ? `${e.ifAnswered}–${e.credits}` : `${e.credits}`;
}

/** What the rest (after the probe) was charged against its estimate; null without a probe. */
function restCheck(v: W8Variant): { charged: number; off: number; met: boolean } | null {
  if (!v.probe) return null;
  const charged = v.charged - v.probe.credits;
  const off = charged === 0 ? (v.probe.rest === 0 ? 0 : 100) : round((Math.abs(v.probe.rest - charged) / charged) * 100, 1);
  return { charged, off, met: Math.abs(v.probe.rest - charged) <= 0.1 * Math.max(charged, v.probe.rest) };
}

export function hardeningTargets(h: HardeningResults): { target: string; measured: string; met: boolean }[] {
  const out: { target: string; measured: string; met: boolean }[] = [...browserTargets(h.browserW5), ...browserTargets(h.browser)];
  if (h.w7 && "phases" in h.w7) {
    const [first, recalc, reopened] = h.w7.phases;
    out.push({
      target: `W7 first fill: credits = the API minimum (${n(h.w7.minimum.calls)}), 0 timeouts, every cell right`,
      measured: `${n(first.credits)} credits, ${n(first.outcomes.timeouts)} timeouts, ${n(first.outcomes.right)} of ${n(first.outcomes.cells)} right${first.aborted ? ", aborted" : ""}`,
      met: !first.aborted && first.credits === h.w7.minimum.calls && first.outcomes.right === first.outcomes.cells,
    });
    for (const p of [recalc, reopened].filter(Boolean))
      out.push({ target: `W7 ${p.name}: 0 calls`, measured: `${n(p.calls)} calls`, met: p.calls === 0 && !p.aborted });
    // Issue 22's memory target: the bench process's peak heap under 1 GB in each phase (the stand-in,
    // fake-indexeddb and the bench share that process, so their bytes count too). The peak is mostly garbage
    // awaiting a major GC, not the live set (--trace-gc, 100,000 companies): the fill's last mark-compact comes
    // while the cells are invoked (762 → 516 MB at 8 s), none after it until the fill ends (then 198 MB live), so
    // whatever reaches the old generation during the fill — waiting cells, saves' JSON — counts until its end.
    for (const p of h.w7.phases.filter(Boolean))
      out.push({
        target: `W7 ${p.name}: peak heap < 1 GB`,
        measured: `${n(p.heapMb)} MB (RSS ${n(p.rssMb)} MB)`,
        met: p.heapMb < 1024 && !p.aborted,
      });
  }
  for (const v of h.w8 ?? []) {
    out.push({
      target: `W8 ${v.variant}: credits charged ≤ the upper bound shown before any call`,
      measured: `${v.charged} charged, ${shownRange(v)} shown`,
      met: v.withinEstimate,
    });
    const rest = restCheck(v);
    if (rest)
      out.push({
        target: `W8 ${v.variant}: after the probe's ${v.probe!.credits} credit, the estimate of the rest within 10 % of what the rest was charged`,
        measured: `rest estimated ${v.probe!.rest}, charged ${rest.charged} (${rest.off} % off)`,
        met: rest.met,
      });
  }
  if (h.w9) {
    const [first, recalc] = h.w9;
    out.push({
      target: "W9 free key, first fill: ≤ 11 calls (10 accepted + one 429)",
      measured: `${first.calls} calls`,
      met: first.calls <= 11,
    });
    if (recalc) out.push({ target: "W9 free key, recalculation: 0 calls", measured: `${recalc.calls} calls`, met: recalc.calls === 0 });
  }
  for (const f of mixesOf(h)) {
    const o = f.outcomes;
    out.push({
      target: `Fault mix (${f.mix}): 0 wrong cells, 0 stuck`,
      measured: `${n(o.wrong)} wrong, ${n(o.pending)} stuck`,
      met: o.wrong === 0 && o.pending === 0,
    });
  }
  return out;
}

export function hardeningMarkdown(h: HardeningResults, latencyMs: number): string[] {
  const lines: string[] = [...browserMarkdown(h.browserW5), ...browserMarkdown(h.browser)];
  if (h.w7) {
    lines.push("## W7: 100,000 companies × 5 functions (500,000 cells)", "");
    if ("error" in h.w7) lines.push(`Not measured: ${h.w7.error}`, "");
    else {
      const w = h.w7;
      lines.push(
        `${n(w.companies)} distinct companies × ${W7_COLUMNS.join(", ")} (year ${LATEST}) through the built bundle in the stand-in, key \`demo-enterprise-w7-…\`, ${latencyMs} ms latency. ` +
          `API minimum ${n(w.minimum.calls)} = ${w.minimum.formula}; latency bound ⌈${n(w.minimum.calls)} / ${CONCURRENCY}⌉ × ${latencyMs} ms = ${n(w.boundMs)} ms. ` +
          `Each phase is aborted after ${n(w.limitMs / 1000)} s (cells still unsettled then are "pending").`,
        "",
        "| Phase | Calls | Credits | Time | Aborted | Peak RSS / heap | Right | Wrong | Errors | Timeouts | Pending | Errors by cause |",
        "|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---|",
      );
      for (const p of w.phases) {
        const o = p.outcomes;
        lines.push(
          `| ${p.name} | ${n(p.calls)} | ${n(p.credits)} | ${n(p.timeMs)} ms | ${p.aborted ? "**yes**" : "no"} | ${p.rssMb} / ${p.heapMb} MB | ${n(o.right)} | ${n(o.wrong)} | ${n(o.errorCount)} | ${n(o.timeouts)} | ${n(o.pending)} | ${errs(o)} |`,
        );
      }
      lines.push(
        "",
        `Storage after the first fill: ${n(w.storedBytes)} characters in ${Object.keys(w.storedKeys).length} keys (${Object.entries(
          w.storedKeys,
        )
          .map(([k, v]) => `\`${k}\` ${n(v)}`)
          .join(", ")}); persisted cache entries: ${n(w.cacheEntries)}.`,
        "",
      );
      if (w.idb)
        lines.push(
          "error" in w.idb
            ? `The runtime's IndexedDB could not be read: ${w.idb.error}.`
            : `The runtime is a browser page with IndexedDB (fake-indexeddb in the bench's process, so its bytes count in the peaks above; the stand-in's \`indexedDB\` option): ` +
                `before the reopen (${n(IDB_SETTLE_MS / 1000)} s after the recalculation, as the tier writes at most every 5 s) it held ${n(w.idb.entries)} answers in ${n(w.idb.records)} records, ` +
                `${n(w.idb.compressedBytes)} bytes compressed. The reopen is a fresh stand-in over the same OfficeRuntime.storage and the same IndexedDB.`,
          "",
        );
    }
  }
  if (h.w8) {
    lines.push("## W8: first contact with a service that ignores `include`: estimate vs credits charged", "");
    lines.push(
      `A 400-row workbook (demoSpec: valid, duplicate, invalid and blank CUIs) × DENUMIRE, STARE, JUDET, CA ${LATEST}, PROFIT ${LATEST}, plus one ISTORIC ${LATEST - 4}–${LATEST} spill; ` +
        "the CLI path (`refreshWorkbook`, what `firma refresh` prints), fresh storage: the estimate shown before any call (a range while the service's behaviour is unknown: " +
        "the credits if the service answers every field, and the upper bound), then the first call alone (the probe), the estimate of the rest made after it, and what the sandbox's counter says was charged.",
      "",
      "| Sandbox | Formulas | Shown before any call (credits) | Calls at most | Probe | Rest estimated after it | Charged | Rest charged (off) | Calls | Engine's count | Charged ≤ upper bound | Values | Errors |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|",
    );
    for (const v of h.w8) {
      // The CUI quoted in a message makes each invalid one its own cause: grouped without it.
      const grouped: Record<string, number> = {};
      for (const [k, c] of Object.entries(v.errors)) {
        const g = k
          .replace(/\("[^"]*"\)/g, "(…)")
          .replace(/\|/g, "/")
          .slice(0, 80);
        grouped[g] = (grouped[g] ?? 0) + c;
      }
      const e = Object.entries(grouped)
        .map(([k, c]) => `${k} ×${c}`)
        .join("; ");
      const rest = restCheck(v);
      lines.push(
        `| ${v.variant} | ${n(v.formulas)} | ${shownRange(v)} | ${n(v.estimate.calls)} | ${v.probe ? n(v.probe.credits) : "–"} | ${v.probe ? `${n(v.probe.rest)}${v.probe.exact ? " (exact)" : ""}` : "–"} | ` +
          `${n(v.charged)} | ${rest ? `${n(rest.charged)} (${rest.off} %)` : "–"} | ${n(v.calls)} | ${n(v.engineCredits)} | ${v.withinEstimate ? "yes" : "**no**"} | ${n(v.values)} | ${e || "none"} |`,
      );
    }
    lines.push("");
  }
  if (h.w9) {
    lines.push("## W9: free key (10 credits a day) on W3's portfolio", "");
    lines.push(
      "| Phase | Calls | Charged | Refused | Statuses | Time | Right | Wrong | Errors by cause | Pending |",
      "|---|---:|---:|---:|---|---:|---:|---:|---|---:|",
    );
    for (const p of h.w9) {
      const o = p.outcomes;
      lines.push(
        `| ${p.name} | ${n(p.calls)} | ${n(p.charged)} | ${n(p.refused)} | ${Object.entries(p.statuses)
          .map(([s, c]) => `${s === "0" ? "no answer" : s} ×${c}`)
          .join(
            ", ",
          )} | ${n(p.timeMs)} ms${p.aborted ? " (aborted)" : ""} | ${n(o.right)} | ${n(o.wrong)} | ${errs(o)} | ${n(o.pending)} |`,
      );
    }
    lines.push("");
  }
  const mixes = mixesOf(h);
  if (mixes.length > 0) {
    lines.push("## Fault mix: W3's portfolio against a misbehaving sandbox", "");
    lines.push(
      `W3's ${n(mixes[0].cells)} cells on the engine (src/engine, directly, as the CLI uses it) with \`${JSON.stringify(mixes[0].engine)}\`, ${latencyMs} ms latency, fresh storage and key for each mix. ` +
        `A cell unsettled ${n(mixes[0].stuckAfterMs / 1000)} s after the fill began is stuck. Slow answers (spikes) are not named in the log's \`fault\`; they show as timeouts. The seeded stream strikes calls in the order they arrive, which the engine's concurrency varies, so the figures move from run to run (the "all" mix gave 49 and 80 wrong cells in two runs).`,
      "",
    );
  }
  for (const f of mixes) {
    const o = f.outcomes;
    lines.push(
      `### ${f.mix}`,
      "",
      `- Faults \`${JSON.stringify(f.faults)}\``,
      `- Cells: **${n(o.wrong)} wrong**, **${n(o.pending)} stuck**, ${n(o.right)} right, ${n(o.errorCount)} errors: ${errs(o)}`,
      `- Calls: ${n(f.calls)} (API minimum without faults ${n(f.minimum)}), ${n(f.charged)} charged, ${n(f.repeats)} repeated an earlier request (retries); ` +
        `faults struck: ${Object.entries(f.byFault)
          .map(([k, v]) => `${k} ×${v}`)
          .join(", ")}; forged batch items (strangers, conflicts): ${n(f.forgedItems)}; statuses ${Object.entries(f.statuses)
          .map(([s, c]) => `${s === "0" ? "no answer" : s} ×${c}`)
          .join(", ")}`,
      `- Time to the last cell: ${n(f.timeMs)} ms`,
    );
    if (o.wrongSamples.length) lines.push(`- Wrong cells, for example: ${o.wrongSamples.map((s) => `\`${s}\``).join(", ")}`);
    lines.push("");
  }
  return lines;
}
