/**
 * W10: a firm. Ten people, each refreshing a 2,000-row portfolio (W3's sheet: 7 functions a row,
 * 10 % repeated rows, 2 % invalid CUIs), all at once, through the firm's custody server (`firma serve
 * --key-file … --database …`, a real child process each) against the sandbox: through ONE server on an
 * SQLite file; then on one PostgreSQL (a throwaway cluster, test/support/postgres.ts, a database for each
 * setup) through ONE instance, through TWO instances (the people taken round-robin between them), which
 * share one batch queue per kind (shared-queue.ts) and whose time to the last cell is held to one
 * instance's, and through two instances with a queue each (FIRMA_SHARED_QUEUE=0), for comparison. Then
 * ROUNDS more rounds of one instance against two sharing the queue, fills alone: the time target takes the
 * median of the rounds' ratios, as one round's ratio on a two-core machine whose speed drifts says little.
 *
 * The portfolios are drawn from one pool of 5,000 clients (sampleCuis(5000, 500_000)):
 *  - each portfolio has W3's 1,760 distinct companies (2,000 rows − 200 repeated − 40 invalid);
 *  - 60 % of them (1,056) are the same for everyone: the pool's first 1,056 clients, the firm's core;
 *  - the other 40 % (704) are "their own": a window of 704 consecutive clients of the rest of the pool
 *    (3,944 clients), person i's starting at ⌊i × 3,944 / 10⌋ and wrapping around. Ten windows of 704
 *    cover the rest once and 1.8 times on average, so each non-core client is in one or two
 *    portfolios, and the union of all ten portfolios is exactly the pool of 5,000.
 *
 * Each person is the built add-in in the Excel runtime stand-in, as the bench's other workloads, with
 * her personal token where the key goes and the server's address where the service's goes.
 *
 * Measured, per setup: the upstream credits (the sandbox's count for the firm's key) against the API
 * minimum for the union (apiMinimum over every person's cells: ⌈5,000/100⌉ + ⌈5,000/50⌉) and against
 * "without the server", the sum of each person's own minimum; the credits the server attributed to the
 * people (must equal the upstream count); each person's time to the last cell (min / median / max);
 * the relay's latency: a cached /v4/firme/batch request (100 companies, all in the store) through the
 * server, 200 times one after the other, against the same request sent to the sandbox directly, and the
 * time an uncached request spends in the server beyond the service's own (30 fresh batches, each sent
 * through the server and, with another key, directly); and throughput: 2,000 cached batch requests,
 * 16 in flight (round-robin over the instances).
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { prng } from "../test/fixtures/build-workbook";
import { DIST, ExcelStandIn, StandInError, StandInStorage } from "../test/support/excel-runtime";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../test/support/postgres";
import { openFirmStore } from "../src/server/firm/open-store";
import { hashToken, newToken } from "../src/server/firm/tokens";
import { bucharestDay } from "../src/engine/credits/bucharest-time";
import { GOVERNOR_DEFAULTS } from "../src/server/upstream-governor";
import * as data from "../sandbox/dataset";
import { fill, median, procStat, round } from "./measure";
import { apiMinimum, FINANCIAL_FIELD, LATEST, tally, W3_COLUMNS, type Cell, type Minimum, type Sheet, type Shown } from "./workloads";
import type { Svc } from "./hardening";

const PEOPLE = 10;
const ROWS = 2000;
const POOL = 5000;
const OVERLAP = 0.6;
/** W3's shape: 10 % of the rows repeat an earlier company, 2 % hold an invalid CUI. */
const DUPLICATES = Math.round(ROWS * 0.1);
const INVALID = Math.round(ROWS * 0.02);
const DISTINCT = ROWS - DUPLICATES - INVALID;
const CORE = Math.round(DISTINCT * OVERLAP);
const OWN = DISTINCT - CORE;
const ROOT = path.resolve(__dirname, "..");
/** The setups on PostgreSQL: one instance (the time two are held to), two (one batch queue between them), and two with a queue each (FIRMA_SHARED_QUEUE=0). */
const ONE_PG = "one instance, PostgreSQL";
const SHARED_PG = "two instances, PostgreSQL";
const TWO_PG = "two instances, PostgreSQL, a queue each (FIRMA_SHARED_QUEUE=0)";
/**
 * The same with add-ins that keep 120 calls in flight, not 6: as a page the server serves over HTTP/2
 * (lanes.ts). The server here speaks HTTP/1.1 (--http): each add-in opens as many connections instead.
 */
const H2_ROWS = "add-ins with 120 calls in flight (as over HTTP/2)";
const H2 = `, ${H2_ROWS}`;
const say = (s: string) => process.stderr.write(s + "\n");

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export interface W10Run {
  setup: string;
  instances: number;
  /** Upstream credits (the sandbox's count for the firm's key) for the ten refreshes. */
  credits: number;
  /** Calls the sandbox received for the firm's key, charged or not. */
  calls: number;
  /** The firm's upstream calls during the refreshes, by endpoint: how many, and companies per call on average. */
  upstream: { endpoint: string; calls: number; companiesPerCall: number; /** Companies asked again after a first call. */ twice: number }[];
  /** The credits the server attributed to the people (its database). */
  attributed: number;
  /** Each person's time to the last cell, ms, in the order of the people. */
  timesMs: number[];
  time: Spread;
  /**
   * Where the fill's time went: the CPU the bench's own process (the ten people's add-ins) used during
   * it, the fill's wall time, and how busy the machine's cores were meanwhile (/proc/stat; null elsewhere).
   */
  fillCpu?: {
    benchCpuMs: number;
    wallMs: number;
    machineBusyPct: number | null;
    /** CPU ms of each part during the fill (/proc): the servers, PostgreSQL, the sandbox, the bench, the rest. */
    byPart?: Record<string, number>;
  };
  cells: { right: number; wrong: number; failed: number; failures: Record<string, number> };
  /** A cached batch (100 companies) through the server, one after the other: round trip, ms. */
  hitMs: { median: number; p99: number; n: number; upstreamCalls: number };
  /** The same request to the sandbox directly: its own latency, ms. */
  upstreamMs: { median: number; n: number };
  /** Uncached batches: time through the server minus the same batch sent directly, ms. */
  missAddedMs: { median: number; p99: number; n: number };
  /** Identification answers the server(s) served from one fetched with another `include` (/metrics). */
  otherIncludeHits?: number;
  /** Cached batch requests, `inFlight` at once. */
  throughput: { requests: number; inFlight: number; seconds: number; perSecond: number; failed: number; upstreamCalls: number };
}

/** One fill's figures alone (a round of the time comparison): nothing measured after it. */
export type W10Fill = Pick<W10Run, "setup" | "credits" | "timesMs" | "time" | "fillCpu" | "cells">;

/** A round of the time comparison: one instance, then two sharing the queue, each on a new database. */
export interface W10Round {
  /** The slowest person's time to the last cell, ms. */
  oneMs: number;
  sharedMs: number;
  oneCredits: number;
  sharedCredits: number;
  /** Which ran first: the rounds alternate, so that a drift of the machine during the run weighs on both. */
  oneFirst: boolean;
  /** Cells wrong or failed in the round's two fills (a round with any is not counted as a time). */
  cellsAmiss: number;
}

export interface W10Result {
  /** What FIRMA_W10_NODE_ARGS added to the servers' command (a profiler), when it did. */
  serverExtras?: string[];
  people: number;
  rows: number;
  pool: number;
  core: number;
  own: number;
  /** The API minimum for the union of every person's companies. */
  minimum: Minimum;
  /** Σ each person's own minimum: what ten add-ins with their own caches pay. */
  withoutServer: number;
  perPerson: Minimum;
  runs: W10Run[];
  /**
   * More rounds of one instance against two sharing the queue (fills alone), after the setups above: the
   * time target takes the median of every round's ratio, the table's included (this machine's speed drifts).
   */
  rounds?: W10Round[];
  /** A setup that could not run, and why. */
  skipped: { setup: string; why: string }[];
}

// ---- the portfolios ---------------------------------------------------------------------------

/** The machine's CPU times since boot (/proc/stat's first line, in ticks), or null where there is none. */
function cpuTimes(): number[] | null {
  try {
    // user nice system idle iowait irq softirq (steal, and the guests' time already in user, left out)
    return fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 8).map(Number);
  } catch {
    return null;
  }
}

/** How busy the cores were between two readings of cpuTimes: everything but idle and waiting on I/O. */
function busyPct(a: number[] | null, b: number[] | null): number | null {
  if (!a || !b) return null;
  const d = b.map((v, i) => v - a[i]);
  const total = d.reduce((x, y) => x + y, 0);
  return total > 0 ? Math.round(100 * (1 - (d[3] + d[4]) / total)) : null;
}

/** The bench's PostgreSQL cluster's postmaster (its checkpointer's parent), once the cluster runs. */
let postmasterPid: number | null = null;

async function findPostmaster(pg: PostgresCluster): Promise<number | null> {
  const rows = (await pg.sql("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")) as { pid: number }[];
  const pid = rows[0]?.pid;
  if (pid === undefined) return null;
  return processCpu().get(Number(pid))?.ppid ?? null;
}

const cpuMs = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);

/**
 * Each process's name, parent and CPU time from /proc, in ms: its own (user + system) and that of its
 * children it has reaped (so that a process ending during the fill still counts, to its parent); empty
 * where there is no /proc.
 */
function processCpu(): Map<number, { comm: string; ppid: number; ms: number }> {
  const out = new Map<number, { comm: string; ppid: number; ms: number }>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const p = procStat(Number(pid));
      out.set(Number(pid), { comm: p.comm, ppid: p.ppid, ms: p.cpuMs + p.childrenCpuMs });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/**
 * The CPU each part used between two readings of processCpu: the servers (by pid), PostgreSQL (the
 * bench's cluster: its postmaster and that one's children), the sandbox (this process's other children),
 * this process, and everything else (another PostgreSQL on the machine included).
 */
function cpuByPart(a: ReturnType<typeof processCpu>, b: ReturnType<typeof processCpu>, servers: number[]): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const [pid, x] of b) {
    const used = x.ms - (a.get(pid)?.ms ?? 0);
    if (used <= 0) continue;
    const i = servers.indexOf(pid);
    const part =
      i >= 0
        ? `server ${i + 1}`
        : postmasterPid !== null && (pid === postmasterPid || x.ppid === postmasterPid)
          ? "PostgreSQL"
          : pid === process.pid
            ? "bench"
            : x.ppid === process.pid
              ? "sandbox"
              : "other";
    parts[part] = (parts[part] ?? 0) + used;
  }
  return parts;
}

/** Invalid CUIs as users type them (as W3's). */
function invalidCui(i: number, valid: number): unknown {
  const near = valid + (valid % 10 === 9 ? -1 : 1);
  return [near, `RO${near}`, "12345678901", "n/a", 0, -valid, valid + 0.5, "RO 1234 5678 99"][i % 8];
}

/** W3's sheet over given distinct companies: some spelled RO…, 10 % repeated rows, 2 % invalid, shuffled. */
function portfolioOf(id: string, distinct: number[], seed: number): Sheet {
  const random = prng(seed);
  const column: unknown[] = distinct.map((c, i) => (i % 10 === 3 ? `RO${c}` : c));
  for (let i = 0; i < DUPLICATES; i++) {
    const c = distinct[Math.floor(random() * distinct.length)];
    column.push(i % 3 === 0 ? `RO${c}` : i % 3 === 1 ? ` ${c} ` : c);
  }
  for (let i = 0; i < INVALID; i++) column.push(invalidCui(i, distinct[i]));
  for (let i = column.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [column[i], column[j]] = [column[j], column[i]];
  }
  const cells = column.flatMap((cui) => W3_COLUMNS.map((fn): Cell => ({ fn, args: fn in FINANCIAL_FIELD ? [cui, LATEST] : [cui] })));
  return { id, title: `person ${id}: ${ROWS} rows × ${W3_COLUMNS.length} functions`, cells };
}

/** The ten portfolios (see the header: a shared core of 60 %, the rest a window of the pool's rest). */
export function firmPortfolios(): Sheet[] {
  const pool = data.sampleCuis(POOL, 500_000);
  const core = pool.slice(0, CORE);
  const rest = pool.slice(CORE);
  return Array.from({ length: PEOPLE }, (_, i) => {
    const start = Math.floor((i * rest.length) / PEOPLE);
    const own = Array.from({ length: OWN }, (_, k) => rest[(start + k) % rest.length]);
    // The core first, then their own, in one order per person (the sheet is shuffled anyway).
    return portfolioOf(`p${i}`, [...core, ...own], 10 + i);
  });
}

// ---- the custody server, as a deployer starts it ----------------------------------------------

interface Instance {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `node bin/firma.js serve --http … --key-file … --database …`; resolves once it says where it listens. */
function startServer(svc: Svc, keyFile: string, database: string, env: Record<string, string> = {}): Promise<Instance> {
  const args = ["serve", "--http", "--host", "127.0.0.1", "--port", "0", "--lang", "en", "--key-file", keyFile];
  args.push("--database", database, "--upstream", svc.url, "--dist", DIST);
  const child = spawn(process.execPath, [...NODE_EXTRAS, path.join(ROOT, "bin", "firma.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, LANG: "en_US.UTF-8", ...env },
    // stdout: one JSON line per request (pino), not read here
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (b: Buffer) => {
      err += b.toString();
      const m = /serves the add-in at (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m)
        resolve({
          url: m[1],
          child,
          async stop() {
            child.kill("SIGTERM");
            await exited;
          },
        });
    });
    void exited.then(() => reject(new Error(`firma serve ended: ${err.trim()}`)));
  });
}

/** Node options added to the servers' command from the environment (run.ts's header), recorded with the result. */
const NODE_EXTRAS = process.env.FIRMA_W10_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];

/**
 * Rounds of one instance against two sharing the queue after W10's setups, fills alone: with the table's, five
 * ratios, whose median the time target takes. On this machine one round's ratio ranges from 1.0 to 1.45.
 * The rounds alternate which setup goes first, and each drops its databases when it ends.
 */
const ROUNDS = 4;

/** The calls at the service at once a server begins with (its governor grows them while the answers stay fast). */
const AT_ONCE = GOVERNOR_DEFAULTS.initial;

// ---- one setup ----------------------------------------------------------------------------------

function person(token: string, url: string, h2: boolean): ExcelStandIn {
  const storage = new StandInStorage();
  storage.data.set("firma.guardThreshold", "off"); // a bench fill is confirmed in advance: no credit guard
  storage.data.set("firma.apiKey", token);
  storage.data.set("firma.baseUrl", url);
  // Over HTTP/2 the page is the server's own (firma serve serves the add-in): its load and its answers say h2 (Navigation and Resource Timing).
  return new ExcelStandIn(storage, undefined, h2 ? { servedBy: { origin: new URL(url).origin, protocol: "h2" } } : {});
}

function shownOf(v: unknown): Shown {
  if (v instanceof StandInError) return { error: v.code };
  if (Array.isArray(v) && Array.isArray(v[0]) && v.length === 1 && v[0].length === 1) return { value: v[0][0] };
  return { error: `unexpected ${JSON.stringify(v)?.slice(0, 40)}` };
}

const percentile = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (v: number) => round(v, 1);

async function timed(url: string, key: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { "X-API-Key": key } });
  await r.arrayBuffer();
  return { ms: performance.now() - t0, status: r.status };
}

let serial = 0;

/** A setup's ten refreshes, its servers still running: where the measurements after them start. */
interface Filled {
  fill: W10Fill;
  key: string;
  tokens: string[];
  urls: string[];
  usage: { total: number; calls: number };
}

/** Starts the setup's servers, the ten people refresh their portfolios through them, `then` measures more, the servers stop. */
async function withFill<T>(
  svc: Svc,
  setup: string,
  databases: string[],
  sheets: Sheet[],
  work: string,
  env: Record<string, string>,
  h2: boolean,
  then: (f: Filled) => Promise<T>,
): Promise<T> {
  say(`W10: ${setup}`);
  const key = `demo-business-bench-w10-${++serial}`;
  const keyFile = path.join(work, `key${serial}`);
  fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  const setupStore = await openFirmStore(databases[0]);
  const tokens: string[] = [];
  try {
    for (let i = 0; i < PEOPLE; i++) {
      const t = newToken();
      await setupStore.addUser(`p${i}`, 100_000, hashToken(t), Date.now());
      tokens.push(t);
    }
  } finally {
    await setupStore.close();
  }
  const instances: Instance[] = [];
  try {
    for (const db of databases) instances.push(await startServer(svc, keyFile, db, env));
    const urls = instances.map((s) => s.url);

    // ---- the ten refreshes, all at once -----------------------------------------------------
    const people = sheets.map((_, i) => person(tokens[i], urls[i % urls.length], h2));
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const stat0 = cpuTimes();
    const procs0 = processCpu();
    const fills = await Promise.all(sheets.map((s, i) => fill(s.cells, (c) => people[i].call(c.fn, c.args).then(shownOf))));
    const fillCpu = {
      benchCpuMs: cpuMs(process.cpuUsage(cpu0)),
      wallMs: round(performance.now() - wall0),
      machineBusyPct: busyPct(stat0, cpuTimes()),
      byPart: cpuByPart(
        procs0,
        processCpu(),
        instances.map((x) => x.child.pid ?? -1),
      ),
    };
    const usage = await svc.usage(key);
    const cells = { right: 0, wrong: 0, failed: 0, failures: {} as Record<string, number> };
    fills.forEach((f, i) => {
      const t = tally(sheets[i].cells, f.shown);
      cells.right += t.ok;
      cells.wrong += t.wrong;
      cells.failed += t.failed;
      for (const [k, v] of Object.entries(t.failures)) cells.failures[k] = (cells.failures[k] ?? 0) + v;
    });
    const timesMs = fills.map((f) => round(f.timeMs));
    const time = { min: Math.min(...timesMs), median: round(median(timesMs)), max: Math.max(...timesMs) };
    return await then({ fill: { setup, credits: usage.total, timesMs, time, fillCpu, cells }, key, tokens, urls, usage });
  } finally {
    await Promise.all(instances.map((s) => s.stop()));
  }
}

/** One setup's fill alone (a round of the time comparison): nothing measured after it. */
function fillAlone(
  svc: Svc,
  setup: string,
  databases: string[],
  sheets: Sheet[],
  work: string,
  env: Record<string, string> = {},
): Promise<W10Fill> {
  return withFill(svc, setup, databases, sheets, work, env, false, async ({ fill: f }) => {
    say(
      `  ${f.credits} credits; last cell ${f.time.min}–${f.time.max} ms; ${f.cells.right} right, ${f.cells.wrong} wrong, ${f.cells.failed} failed`,
    );
    return f;
  });
}

/** One setup: the fill, then the relay's latency and throughput through the same servers. */
function runSetup(
  svc: Svc,
  setup: string,
  databases: string[],
  sheets: Sheet[],
  work: string,
  env: Record<string, string> = {},
  h2 = false,
): Promise<W10Run> {
  return withFill(svc, setup, databases, sheets, work, env, h2, async ({ fill, key, tokens, urls, usage }) => {
    const { timesMs, fillCpu, time, cells } = fill;
    const byEndpoint = new Map<string, { calls: number; companies: number; distinct: Set<string> }>();
    for (const r of await svc.log(key)) {
      const endpoint = r.path.replace(/\/\d+(?=\/|$)/, "/{cui}");
      const e = byEndpoint.get(endpoint) ?? { calls: 0, companies: 0, distinct: new Set<string>() };
      const cuis = decodeURIComponent(/(?:^|&)cui=([^&]*)/.exec(r.query)?.[1] ?? r.path).split(",");
      e.calls++;
      e.companies += cuis.length;
      for (const c of cuis) e.distinct.add(c);
      byEndpoint.set(endpoint, e);
    }
    const upstream = [...byEndpoint].map(([endpoint, e]) => ({
      endpoint,
      calls: e.calls,
      companiesPerCall: round(e.companies / e.calls, 1),
      twice: e.companies - e.distinct.size,
    }));
    const check = await openFirmStore(databases[0]);
    let attributed: number;
    try {
      attributed = await check.creditsSpent(bucharestDay(Date.now()).slice(0, 7));
    } finally {
      await check.close();
    }
    say(
      `  ${usage.total} credits (${usage.calls} calls, ${attributed} attributed); last cell ${Math.min(...timesMs)}–${Math.max(...timesMs)} ms; ` +
        `${cells.right} right, ${cells.wrong} wrong, ${cells.failed} failed${cells.failed ? " " + JSON.stringify(cells.failures) : ""}; ` +
        upstream.map((u) => `${u.endpoint} ×${u.calls} (${u.companiesPerCall} companies a call, ${u.twice} asked twice)`).join(", "),
    );

    // ---- a cached request: through the server, and to the service directly --------------------
    const batch = (await svc.log(key)).find((r) => r.path === "/v4/firme/batch" && r.status === 200);
    if (!batch) throw new Error("W10: the server sent no batch identification upstream");
    const cached = `/v4/firme/batch?${batch.query}`;
    const before = (await svc.usage(key)).calls;
    const hits: number[] = [];
    for (let i = 0; i < 200; i++) hits.push((await timed(urls[i % urls.length] + cached, tokens[0])).ms);
    const hitCalls = (await svc.usage(key)).calls - before;
    const direct: number[] = [];
    const directKey = `${key}-direct`;
    for (let i = 0; i < 10; i++) direct.push((await timed(svc.url + cached, directKey)).ms);

    // ---- uncached requests: the server's time beyond the service's own ---------------------------
    const fresh = data.sampleCuis(3000, 700_000 + serial * 10_000);
    const added: number[] = [];
    for (let i = 0; i < 30; i++) {
      const q = `/v4/firme/batch?cui=${fresh.slice(i * 100, i * 100 + 100).join(",")}`;
      const through = await timed(urls[i % urls.length] + q, tokens[1 + (i % (PEOPLE - 1))]);
      const own = await timed(svc.url + q, directKey);
      if (through.status === 200 && own.status === 200) added.push(through.ms - own.ms);
    }

    // ---- throughput: cached batch requests, 16 in flight ---------------------------------------
    const mid = (await svc.usage(key)).calls;
    const REQUESTS = 2000;
    const IN_FLIGHT = 16;
    let next = 0;
    let failed = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          const r = await timed(urls[i % urls.length] + cached, tokens[i % PEOPLE]).catch(() => ({ status: 0, ms: 0 }));
          if (r.status !== 200) failed++;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const after = (await svc.usage(key)).calls;
    let otherIncludeHits = 0;
    for (const u of urls) {
      const text = await (await fetch(`${u}/metrics`)).text();
      otherIncludeHits += Number(/^firma_store_hits_other_include_total (\d+)$/m.exec(text)?.[1] ?? 0);
    }
    const run: W10Run = {
      setup,
      instances: urls.length,
      credits: usage.total,
      calls: usage.calls,
      upstream,
      attributed,
      timesMs,
      fillCpu,
      time,
      cells,
      hitMs: { median: ms(median(hits)), p99: ms(percentile(hits, 99)), n: hits.length, upstreamCalls: hitCalls },
      upstreamMs: { median: ms(median(direct)), n: direct.length },
      missAddedMs: { median: ms(median(added)), p99: ms(percentile(added, 99)), n: added.length },
      otherIncludeHits,
      throughput: {
        requests: REQUESTS,
        inFlight: IN_FLIGHT,
        seconds: round(seconds, 2),
        perSecond: round(REQUESTS / seconds),
        failed,
        upstreamCalls: after - mid,
      },
    };
    say(
      `  cached batch: ${run.hitMs.median} ms median, ${run.hitMs.p99} ms p99 (the service alone: ${run.upstreamMs.median} ms); ` +
        `uncached: +${run.missAddedMs.median} ms median, +${run.missAddedMs.p99} ms p99; ` +
        `${run.throughput.perSecond} cached requests/s (${IN_FLIGHT} in flight, ${failed} failed)`,
    );
    return run;
  });
}

// ---- the workload ---------------------------------------------------------------------------------

export async function w10(svc: Svc): Promise<W10Result> {
  const sheets = firmPortfolios();
  const all = sheets.flatMap((s) => s.cells);
  const each = sheets.map((s) => apiMinimum(s.cells));
  const result: W10Result = {
    ...(NODE_EXTRAS.length ? { serverExtras: NODE_EXTRAS } : {}),
    people: PEOPLE,
    rows: ROWS,
    pool: POOL,
    core: CORE,
    own: OWN,
    minimum: apiMinimum(all),
    withoutServer: each.reduce((a, m) => a + m.calls, 0),
    perPerson: each[0],
    runs: [],
    skipped: [],
  };
  say(
    `W10: a firm — ${PEOPLE} people × ${ROWS} rows; union minimum ${result.minimum.calls} (${result.minimum.formula}), without the server ${result.withoutServer}`,
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "firma-bench-w10-"));
  try {
    result.runs.push(await runSetup(svc, "one server, SQLite", [path.join(work, "firm.sqlite")], sheets, work));
    result.runs.push(await runSetup(svc, `one server, SQLite${H2}`, [path.join(work, "firm-h2.sqlite")], sheets, work, {}, true));
    if (postgresBinDir() === null) {
      for (const setup of [ONE_PG, SHARED_PG, `${SHARED_PG}${H2}`, TWO_PG])
        result.skipped.push({ setup, why: "PostgreSQL is not installed (scripts/setup.sh installs it)" });
    } else {
      let pg: PostgresCluster | null = null;
      try {
        pg = await startPostgres();
        postmasterPid = await findPostmaster(pg);
        // each setup on a database of its own: nothing stored by one serves the next
        const one = await pg.createDatabase("firm_w10_one");
        result.runs.push(await runSetup(svc, ONE_PG, [one], sheets, work));
        const two = await pg.createDatabase("firm_w10");
        result.runs.push(await runSetup(svc, SHARED_PG, [two, two], sheets, work));
        const shared = await pg.createDatabase("firm_w10_h2");
        result.runs.push(await runSetup(svc, `${SHARED_PG}${H2}`, [shared, shared], sheets, work, {}, true));
        const own = await pg.createDatabase("firm_w10_own");
        result.runs.push(await runSetup(svc, TWO_PG, [own, own], sheets, work, { FIRMA_SHARED_QUEUE: "0" }));
        result.rounds = [];
        for (let i = 1; i <= ROUNDS; i++) {
          const oneFirst = i % 2 === 0; // the table's round ran one instance first: the next goes the other way
          const fills: Partial<Record<"one" | "shared", W10Fill>> = {};
          for (const which of oneFirst ? (["one", "shared"] as const) : (["shared", "one"] as const)) {
            const name = `firm_w10_round${i}_${which}`;
            const db = await pg.createDatabase(name);
            const [setup, dbs] = which === "one" ? [ONE_PG, [db]] : [SHARED_PG, [db, db]];
            fills[which] = await fillAlone(svc, `${setup}, round ${i + 1}`, dbs, sheets, work);
            await pg.sql(`DROP DATABASE ${name} WITH (FORCE)`);
          }
          const { one: a, shared: b } = fills as Record<"one" | "shared", W10Fill>;
          result.rounds.push({
            oneMs: a.time.max,
            sharedMs: b.time.max,
            oneCredits: a.credits,
            sharedCredits: b.credits,
            oneFirst,
            cellsAmiss: a.cells.wrong + a.cells.failed + b.cells.wrong + b.cells.failed,
          });
        }
      } finally {
        await pg?.stop();
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return result;
}

/**
 * W10's PostgreSQL setups in turn (one instance, two sharing the queue, a queue each), `rounds` times, each
 * fill on a new database: each fill's credits, slowest person, the cores' busy share and each part's CPU,
 * then each setup's median and the median of each round's ratio of two instances to one. On a machine
 * whose speed drifts, a ratio within one round means more than one run's. Nothing is recorded.
 */
export async function w10Rotations(svc: Svc, rounds: number): Promise<void> {
  if (postgresBinDir() === null) throw new Error("W10's rotations need PostgreSQL (scripts/setup.sh installs it)");
  const sheets = firmPortfolios();
  const setups: [string, number, Record<string, string>][] = [
    [ONE_PG, 1, {}],
    [SHARED_PG, 2, {}],
    [TWO_PG, 2, { FIRMA_SHARED_QUEUE: "0" }],
  ];
  const slowest = new Map<string, number[]>(setups.map(([setup]) => [setup, []]));
  const ratios: number[] = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "firma-bench-w10-rotations-"));
  const pg = await startPostgres();
  try {
    postmasterPid = await findPostmaster(pg);
    for (let round = 1; round <= rounds; round++) {
      for (const [i, [setup, count, env]] of setups.entries()) {
        const db = await pg.createDatabase(`firm_w10_rotation_${round}_${i}`);
        const r = await fillAlone(svc, setup, Array<string>(count).fill(db), sheets, work, env);
        const last = Math.max(...r.timesMs);
        slowest.get(setup)!.push(last);
        const parts = Object.entries(r.fillCpu?.byPart ?? {})
          .sort(([p], [q]) => p.localeCompare(q))
          .map(([p, ms]) => `${p} ${n(ms)}`)
          .join(", ");
        say(
          `W10 rotation ${round}/${rounds}, ${setup}: ${r.credits} credits, slowest person ${n(last)} ms, ` +
            `cores ${r.fillCpu?.machineBusyPct ?? "?"} % busy, CPU ms: ${parts}`,
        );
      }
      const [one, shared] = [slowest.get(ONE_PG)!, slowest.get(SHARED_PG)!];
      ratios.push(round2(shared[shared.length - 1] / one[one.length - 1]));
    }
    for (const [setup, list] of slowest)
      say(`W10 rotations, ${setup}: the slowest person's median ${n(median(list))} ms (${list.map(n).join(", ")})`);
    say(
      `W10 rotations: two instances sharing the queue ÷ one instance, each round: ${ratios.join(", ")}; median ${round2(median(ratios))}`,
    );
  } finally {
    await pg.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;

// ---- report -----------------------------------------------------------------------------------------

const n = (v: number) => v.toLocaleString("en");

/**
 * Each round's ratio of two instances sharing the queue to one instance (the slowest person's time), the
 * table's first, unrounded; a round with cells wrong or failed has none (its time is not a fill's).
 */
function timeRatios(r: W10Result, one: W10Run, shared: W10Run): (number | null)[] {
  return [shared.time.max / one.time.max, ...(r.rounds ?? []).map((x) => (x.cellsAmiss === 0 ? x.sharedMs / x.oneMs : null))];
}

const counted = (ratios: (number | null)[]) => ratios.filter((x): x is number => x !== null);
const shownRatio = (x: number | null) => (x === null ? "not counted (cells wrong or failed)" : `${round2(x)} ×`);
const rounds = (k: number) => (k === 1 ? "1 round" : `${k} rounds`);

export function w10Targets(r: W10Result | undefined): { target: string; measured: string; met: boolean }[] {
  if (!r) return [];
  const one = r.runs.find((x) => x.setup === ONE_PG);
  const shared = r.runs.find((x) => x.setup === SHARED_PG);
  const ratios = one && shared ? timeRatios(r, one, shared) : [];
  const time =
    one && shared
      ? [
          {
            target: `W10 ${SHARED_PG}: the time to the last cell within 10 % of one instance's (the slowest person's, the median of the rounds)`,
            measured:
              `${round2(median(counted(ratios)))} × the median of ${rounds(counted(ratios).length)} (${ratios.map(shownRatio).join(", ")}); ` +
              `the table's round: ${n(shared.time.max)} ms against ${n(one.time.max)} ms`,
            met: counted(ratios).length === ratios.length && median(counted(ratios)) <= 1.1,
          },
        ]
      : [];
  return [
    ...time,
    ...r.runs.flatMap((run) => [
      {
        target: `W10 ${run.setup}: upstream credits = the API minimum for the union (${r.minimum.calls})`,
        measured: `${n(run.credits)} credits (without the server: ${n(r.withoutServer)})`,
        met: run.credits === r.minimum.calls,
      },
      {
        target: `W10 ${run.setup}: credits attributed to the people = upstream credits; every cell right`,
        measured: `${n(run.attributed)} attributed, ${n(run.credits)} charged; ${n(run.cells.wrong)} wrong, ${n(run.cells.failed)} failed`,
        met: run.attributed === run.credits && run.cells.wrong === 0 && run.cells.failed === 0,
      },
    ]),
  ];
}

/** The rounds of one instance against two sharing the queue, as a line of the report. */
function roundsLines(r: W10Result): string[] {
  const one = r.runs.find((x) => x.setup === ONE_PG);
  const shared = r.runs.find((x) => x.setup === SHARED_PG);
  if (!one || !shared || !r.rounds?.length) return [];
  const ratios = timeRatios(r, one, shared);
  const each = r.rounds.map(
    (x, i) =>
      `round ${i + 2} (${x.oneFirst ? "one instance first" : "two first"}): ${n(x.sharedMs)} ms against ${n(x.oneMs)} ms ` +
      `(${shownRatio(ratios[i + 1])}; ${x.sharedCredits} credits against ${x.oneCredits}${x.cellsAmiss ? `; ${n(x.cellsAmiss)} cells wrong or failed` : ""})`,
  );
  return [
    `- Two instances sharing the queue against one, in ${rounds(ratios.length)} (the table's is the first; the others, after every setup above, ` +
      `are fills alone, each on a new database dropped after it, the order alternating): ${each.join("; ")}. The slowest person's ratio, round by round: ` +
      `${ratios.map(shownRatio).join(", ")}; median ${round2(median(counted(ratios)))} ×. On two cores the fill's time follows the CPU of all its parts, ` +
      "and the machine's speed drifts within a run, so that one round's ratio says little and the target takes the median.",
  ];
}

export function w10Markdown(r: W10Result, latencyMs: number): string[] {
  const lines = ["## W10: a firm", ""];
  if (r.serverExtras?.length) lines.push(`**The servers ran with \`${r.serverExtras.join(" ")}\` added:** not W10's usual servers.`, "");
  lines.push(
    `${r.people} people refresh a ${n(r.rows)}-row portfolio each (W3's sheet: 7 functions a row, ${n(r.rows * 7)} cells), all at once, ` +
      `through the firm's custody server (\`firma serve --key-file … --database …\`, child processes) against the sandbox at ${latencyMs} ms. ` +
      `The portfolios come from one pool of ${n(r.pool)} clients: each has ${n(r.core + r.own)} distinct companies, ${n(r.core)} (60 %) from a core ` +
      `everyone shares and ${n(r.own)} from a window of the rest of the pool, so that the ten together cover the pool exactly (bench/w10.ts). ` +
      `The API minimum for the union: ${n(r.minimum.calls)} = ${r.minimum.formula}; without the server each person pays their own ` +
      `${r.perPerson.calls} = ${r.perPerson.formula}, ${n(r.withoutServer)} in all.`,
    "",
  );
  lines.push(
    "| Setup | Upstream credits | API minimum (union) | Without the server | Attributed to people | Time to the last cell per person (min / median / max) | Cells right / wrong / failed | Cached batch through the server (median / p99) | The service alone | Uncached: added by the server (median / p99) | Cached batch requests per second |",
    "|---|---:|---:|---:|---:|---|---|---|---:|---|---:|",
  );
  for (const x of r.runs) {
    const t = x.throughput;
    lines.push(
      `| ${x.setup} | ${n(x.credits)}${x.calls !== x.credits ? ` (${n(x.calls)} calls)` : ""} | ${n(r.minimum.calls)} | ${n(r.withoutServer)} | ${n(x.attributed)} | ` +
        `${n(x.time.min)} / ${n(x.time.median)} / ${n(x.time.max)} ms | ${n(x.cells.right)} / ${n(x.cells.wrong)} / ${n(x.cells.failed)} | ` +
        `${x.hitMs.median} / ${x.hitMs.p99} ms | ${x.upstreamMs.median} ms | +${x.missAddedMs.median} / +${x.missAddedMs.p99} ms | ` +
        `${n(t.perSecond)} (${n(t.requests)} requests, ${t.inFlight} in flight${t.failed ? `, **${t.failed} failed**` : ""}) |`,
    );
  }
  for (const s of r.skipped) lines.push(`| ${s.setup} | skipped: ${s.why} | | | | | | | | | |`);
  lines.push("");
  for (const x of r.runs)
    lines.push(
      `- ${x.setup}, the firm's upstream calls: ${x.upstream
        .map(
          (u) =>
            `\`${u.endpoint}\` ×${n(u.calls)} (${u.companiesPerCall} companies a call; ${n(u.twice)} companies asked again after a first call)`,
        )
        .join(", ")}; ${n(x.otherIncludeHits ?? 0)} identification answers served from one fetched with another \`include\`.`,
    );
  lines.push(
    `- Time to the last cell: from each person's first invocation; the ten stand-ins (the add-in's work for ${n(r.people * r.rows * 7)} cells) share the bench's one process, ` +
      `and the server(s), the sandbox and the bench share this machine's cores. The service alone would need ⌈${r.minimum.calls} / ${AT_ONCE}⌉ × ${latencyMs} ms = ` +
      `${n(Math.ceil(r.minimum.calls / AT_ONCE) * latencyMs)} ms for the union's minimum at the ${AT_ONCE} calls at once a server begins with (upstream-governor.ts; it grows while the answers stay fast).`,
    ...r.runs
      .filter((x) => x.fillCpu)
      .map(
        (x) =>
          `- ${x.setup}, the fill: ${n(x.fillCpu!.wallMs)} ms; the bench's process (the ten people's add-ins) used ${n(x.fillCpu!.benchCpuMs)} ms of CPU ` +
          `meanwhile (${Math.round((100 * x.fillCpu!.benchCpuMs) / x.fillCpu!.wallMs)} % of a core)` +
          (x.fillCpu!.machineBusyPct === null ? "" : `, and the machine's cores were ${x.fillCpu!.machineBusyPct} % busy`) +
          (x.fillCpu!.byPart && Object.keys(x.fillCpu!.byPart).length > 0
            ? `; CPU by part: ${Object.entries(x.fillCpu!.byPart)
                .sort(([p], [q]) => p.localeCompare(q))
                .map(([p, ms]) => `${p} ${n(ms)} ms`)
                .join(", ")} (total ${n(Object.values(x.fillCpu!.byPart).reduce((t, v) => t + v, 0))} ms).`
            : "."),
      ),
    ...roundsLines(r),
    `- Rows "${H2_ROWS}": each person's add-in keeps up to 120 calls in flight (src/engine/credits/lanes.ts), as the page \`firma serve\` serves over HTTP/2 ` +
      "does (its Navigation and Resource Timing say h2); the servers here speak HTTP/1.1, so each add-in opens that many connections instead of streams. " +
      "In the other rows each add-in keeps a browser's 6 over HTTP/1.1.",
    "- Cached batch: one /v4/firme/batch request of 100 companies the store holds (the query of one of the server's own upstream calls), " +
      "sent 200 times one after the other through the server(s); the service alone: the same request to the sandbox directly (its injected latency included).",
    "- Uncached: 30 batches of 100 companies nobody asked for, each through the server and then directly with another key; the figure is the difference " +
      "(the server's token check, store look-up, its gathering window: none for a full batch of 100, the write of the answers).",
    "- Throughput: 2,000 cached batch requests from this process, 16 in flight, round-robin over the instances; every one answered from the store " +
      "(no upstream call), on this machine, with the bench and the sandbox on the same cores.",
    "",
  );
  return lines;
}
