/**
 * The load generator W13 (w13.ts) and the load test (test/server/load.test.ts) share: people, each
 * with a personal token and a portfolio, sending the requests the add-in sends to refresh it (batch
 * identification of 100 companies with the add-in's `include`, batch financial of 50 for one year)
 * over keep-alive connections of Node's own HTTP client, one request in flight per person; a static
 * loopback responder that answers the same requests with the same bytes (the baseline); and the
 * custody server as a deployer starts it (`node bin/firma.js serve …`, a child process whose memory,
 * open files and connections are read from /proc).
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as path from "path";
import { procStat } from "./measure";
import { prng } from "../test/fixtures/build-workbook";
import * as data from "../sandbox/dataset";
import { EXTRA_PROFILE } from "../src/engine/plan/dispatch";

const ROOT = path.resolve(__dirname, "..");

// ---- portfolios and their requests -------------------------------------------------------------

/**
 * `people` portfolios of `size` companies drawn from a pool of `pool` (the W10 shape): 60 % a core
 * everyone shares, 40 % a window of the rest of the pool, person i's starting at ⌊i × rest / people⌋,
 * each shuffled in its own order. With enough people the union is the whole pool.
 */
export function portfolios(people: number, size = 2000, pool = 5000, seed = 500_000): number[][] {
  const all = data.sampleCuis(pool, seed);
  const coreSize = Math.round(size * 0.6);
  const core = all.slice(0, coreSize);
  const rest = all.slice(coreSize);
  return Array.from({ length: people }, (_, i) => {
    const start = Math.floor((i * rest.length) / people);
    const own = Array.from({ length: size - coreSize }, (_, k) => rest[(start + k) % rest.length]);
    const list = [...core, ...own];
    const random = prng(1000 + i);
    for (let j = list.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [list[j], list[k]] = [list[k], list[j]];
    }
    return list;
  });
}

/** The add-in's requests for a portfolio: identification in batches of 100 (with `include`, or not), financial in batches of 50 for `year`. */
export function refreshRequests(cuis: readonly number[], year: number, include = true): string[] {
  const out: string[] = [];
  const inc = include ? `&include=${EXTRA_PROFILE.join(",")}` : "";
  for (let i = 0; i < cuis.length; i += 100) out.push(`/v4/firme/batch?cui=${cuis.slice(i, i + 100).join(",")}${inc}`);
  for (let i = 0; i < cuis.length; i += 50) out.push(`/v4/firme/batch/financiar?cui=${cuis.slice(i, i + 50).join(",")}&an=${year}`);
  return out;
}

/** The API minimum for the union of the portfolios: ⌈n/100⌉ + ⌈n/50⌉. */
export function minimumCredits(lists: readonly (readonly number[])[]): number {
  const n = new Set(lists.flat()).size;
  return Math.ceil(n / 100) + Math.ceil(n / 50);
}

// ---- the client -----------------------------------------------------------------------------------

export interface Sample {
  ms: number;
  status: number;
  /** The request's kind: "batch" or "financial". */
  kind: string;
}

export interface Answer {
  status: number;
  ms: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One GET over `agent`; a connection error is status 0. */
export function get(agent: http.Agent, base: string, p: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(base + p, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", () => resolve({ status: 0, ms: performance.now() - started, headers: {}, body: Buffer.alloc(0) }));
    });
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started, headers: {}, body: Buffer.alloc(0) }));
  });
}

export interface Pass {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Answers other than 200 (a connection error counts as status 0). */
  errors: number;
  statuses: Record<string, number>;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Figures of a pass from its samples. */
export function summary(samples: readonly Sample[], seconds: number): Pass {
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const ms = samples.map((s) => s.ms);
  const r2 = (v: number) => Math.round(v * 100) / 100;
  return {
    requests: samples.length,
    seconds: r2(seconds),
    perSecond: Math.round(samples.length / seconds),
    p50: r2(percentile(ms, 50)),
    p99: r2(percentile(ms, 99)),
    errors: samples.filter((s) => s.status !== 200).length,
    statuses,
  };
}

export interface Person {
  token: string;
  /** Her connections, kept from one pass to the next (an add-in keeps its connections alive); a pass's own when absent. */
  agent?: http.Agent;
  /** The server this person's add-in talks to. */
  base: string;
  requests: string[];
}

/**
 * Every person at once, each sending her requests one after the other (`inFlight` at a time) over her
 * own keep-alive connections; `onAnswer` sees each answer (the bench keeps one body of each kind).
 */
export async function runPeople(
  people: readonly Person[],
  o: { inFlight?: number; baseOverride?: string; onAnswer?: (p: string, a: Answer) => void } = {},
): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  const inFlight = o.inFlight ?? 1;
  const agents: http.Agent[] = [];
  const started = performance.now();
  await Promise.all(
    people.map(async (person) => {
      let agent = person.agent;
      if (!agent) {
        agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
        agents.push(agent);
      }
      let next = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < person.requests.length) {
            const p = person.requests[next++];
            const a = await get(agent!, o.baseOverride ?? person.base, p, { "X-API-Key": person.token });
            samples.push({ ms: a.ms, status: a.status, kind: p.startsWith("/v4/firme/batch/financiar") ? "financial" : "batch" });
            o.onAnswer?.(p, a);
          }
        }),
      );
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const a of agents) a.destroy();
  return { samples, seconds };
}

// ---- the baseline ---------------------------------------------------------------------------------

/** A static loopback responder: each request answered with the bytes (and headers) recorded for its kind. */
export async function startResponder(answers: ReadonlyMap<string, Answer>): Promise<{ url: string; close(): Promise<void> }> {
  const kinds = new Map([...answers].map(([k, a]) => [k, { headers: { ...a.headers }, body: a.body }]));
  for (const v of kinds.values()) {
    delete v.headers["connection"];
    delete v.headers["keep-alive"];
    delete v.headers["date"];
    delete v.headers["transfer-encoding"];
  }
  const server = http.createServer((req, res) => {
    const kind = (req.url ?? "").startsWith("/v4/firme/batch/financiar") ? "financial" : "batch";
    const a = kinds.get(kind) ?? kinds.values().next().value!;
    res.writeHead(200, a.headers);
    res.end(a.body);
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// ---- the server, as a deployer starts it ----------------------------------------------------------

export interface FirmServer {
  url: string;
  child: ChildProcess;
  /** Resident memory (MB), open file descriptors and CPU time used so far (ms) of the server process now. */
  resources(): { rssMb: number; fds: number; cpuMs: number };
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** The last 20 warnings and errors of its log (JSON lines on stdout). */
  problems(): string[];
  stop(): Promise<void>;
}

/** A folder with what `firma serve` needs to start without a build (the custody API does not use the pages). */
export function fakeDist(dir: string): string {
  const dist = path.join(dir, "dist");
  fs.mkdirSync(dist, { recursive: true });
  const url = "https://firm.test.example.ro/";
  fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html><title>FIRMA</title>");
  fs.writeFileSync(path.join(dist, "manifest.xml"), `<OfficeApp><SourceLocation DefaultValue="${url}taskpane.html"/></OfficeApp>`);
  fs.writeFileSync(path.join(dist, "firma-build.json"), JSON.stringify({ addinUrl: url, serviceUrl: "", version: "0.1.0" }));
  return dist;
}

/**
 * `node bin/firma.js serve --http … --key-file … --database …` (custody mode), or without a key file and
 * a database the relay, and with `tls` over HTTPS (HTTP/2 and HTTP/1.1) instead of --http; resolves once
 * it says where it listens.
 */
export function startFirmServer(o: {
  upstream: string;
  keyFile?: string;
  database?: string;
  dist: string;
  tls?: { certFile: string; keyFile: string };
  extraArgs?: string[];
  nodeArgs?: string[];
  env?: Record<string, string>;
}): Promise<FirmServer> {
  const args = ["serve", ...(o.tls ? ["--tls-cert", o.tls.certFile, "--tls-key", o.tls.keyFile] : ["--http"])];
  args.push("--host", "127.0.0.1", "--port", "0", "--lang", "en");
  if (o.keyFile) args.push("--key-file", o.keyFile);
  if (o.database) args.push("--database", o.database);
  args.push("--upstream", o.upstream, "--dist", o.dist, ...(o.extraArgs ?? []));
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), path.join(ROOT, "bin", "firma.js"), ...args], {
    cwd: ROOT,
    env: { ...process.env, LANG: "en_US.UTF-8", ...o.env },
    // stdout: one JSON line per request (pino), read and dropped as a log collector would
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The log's warnings and errors (pino levels 40 and up), the last 20: what a run's errors were.
  const problems: string[] = [];
  let partial = "";
  child.stdout!.on("data", (b: Buffer) => {
    const lines = (partial + b.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const l of lines) if (/"level":(4|5|6)0/.test(l) && problems.push(l.slice(0, 500)) > 20) problems.shift();
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (b: Buffer) => {
      err += b.toString();
      const m = /serves the add-in at (https?:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m)
        resolve({
          url: m[1],
          child,
          stderr: () => err,
          problems: () => [...problems],
          resources() {
            const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
            const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
            const { cpuMs } = procStat(child.pid!);
            return { rssMb: Math.round(rss), fds: fs.readdirSync(`/proc/${child.pid}/fd`).length, cpuMs };
          },
          async stop() {
            child.kill("SIGTERM");
            await exited;
          },
        });
    });
    void exited.then(() => reject(new Error(`firma serve ended: ${err.trim()}`)));
  });
}
