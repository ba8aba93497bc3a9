/**
 * W13: the firm's server under load. 50 and 200 people, each refreshing a 2,000-company portfolio
 * drawn from a pool of 5,000 (W10's shape: 60 % a core everyone shares, the rest a window of the
 * pool), all at once, through one `firma serve` in custody mode (a child process) against the sandbox
 * at 50 ms, then recalculating it from the store; on SQLite and on PostgreSQL (a throwaway cluster).
 * Each person sends the add-in's requests (bench/load.ts: batch identification of 100 with `include`,
 * batch financial of 50 for the latest year) one after the other over her own kept-alive connection.
 *
 * Measured per setup: requests a second, p50/p99 of the refresh (answers that went upstream, or
 * waited for a call another person's request made) and of the recalculation (all from the store);
 * the baseline: the same requests, in the same run, answered by a static loopback responder with the
 * same bytes (three passes of each, alternately; the median pass of each side) (bench/load.ts startResponder); the server's resident memory at start, after the refresh
 * and at the end, its open files; errors; the upstream credits against the API minimum for the union;
 * the others' p99 over two passes while one person's add-in loops on one request at 1,000 a second; then, with 200 people,
 * recalculations for `minutes` (10 by default) with memory and open files after each.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as http from "http";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../test/support/postgres";
import { openFirmStore } from "../src/server/firm/open-store";
import { hashToken, newToken } from "../src/server/firm/tokens";
import * as data from "../sandbox/dataset";
import {
  fakeDist,
  get,
  minimumCredits,
  portfolios,
  refreshRequests,
  runPeople,
  startFirmServer,
  startResponder,
  summary,
  type Answer,
  type Pass,
  type Person,
  type Sample,
} from "./load";
import type { Svc } from "./hardening";

const LATENCY_MS = 50;
/** The looping add-in's requests on their way at most. */
const LOOP_IN_FLIGHT = 64;
/** Store passes and responder passes, alternately. */
const ROUNDS = 3;

/** The median pass's figures: requests a second, p50 and p99 each the median of the passes'; errors summed. */
function medianPass(passes: readonly Pass[]): Pass {
  const mid = <T>(xs: T[], by: (x: T) => number) => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];
  const m = mid([...passes], (x) => x.perSecond);
  return {
    ...m,
    p50: mid([...passes], (x) => x.p50).p50,
    p99: mid([...passes], (x) => x.p99).p99,
    errors: passes.reduce((a, x) => a + x.errors, 0),
    requests: passes.reduce((a, x) => a + x.requests, 0),
  };
}
const say = (s: string) => process.stderr.write(s + "\n");

export interface W13Run {
  database: string;
  people: number;
  refresh: Pass;
  store: Pass;
  baseline: Pass;
  /** Each pass's requests a second, the store's and the responder's, alternately measured. */
  passes?: { store: number[]; baseline: number[] };
  /** Requests a second and p99 against the baseline's. */
  ratio: { perSecond: number; p99: number };
  credits: number;
  minimum: number;
  memoryMb: { start: number; afterRefresh: number; end: number };
  fds: { start: number; end: number };
  /** The others' recalculation while one person's add-in loops on one request. */
  loop: {
    othersP99: number;
    /** The others' p99 in each of their two passes while the add-in loops. */
    othersPassesP99?: number[];
    othersErrors: number;
    /** Requests the looping add-in sent (aiming at one a millisecond), and those it could not send (its connections all busy). */
    loopSent?: number;
    loopAnswered: number;
    loopRefused: number;
    loopSkipped?: number;
    upstreamCalls: number;
  };
}

export interface W13Long {
  database: string;
  people: number;
  minutes: number;
  passes: number;
  requests: number;
  errors: number;
  /** The answers other than 200, by status (0: the connection failed). */
  statuses: Record<string, number>;
  /** The server's last warnings and errors, when there were errors. */
  problems?: string[];
  /** Each pass: requests a second, p99, memory (MB), open files. */
  samples: { perSecond: number; p99: number; rssMb: number; fds: number }[];
}

export interface W13Result {
  latencyMs: number;
  /** What FIRMA_W13_NODE_ARGS and FIRMA_W13_SERVE_ARGS added to the server's command (a profiler, --access-log), when they did. */
  serverExtras?: string[];
  runs: W13Run[];
  long: W13Long[];
  skipped: { setup: string; why: string }[];
}

let serial = 0;
/** Options added to the server's command from the environment (run.ts's header), recorded with the result. */
const NODE_EXTRAS = process.env.FIRMA_W13_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
const SERVE_EXTRAS = process.env.FIRMA_W13_SERVE_ARGS?.split(/\s+/).filter(Boolean) ?? [];

async function setupServer(svc: Svc, database: string, people: number, work: string) {
  const key = `demo-enterprise-bench-w13-${++serial}`;
  const keyFile = path.join(work, `key${serial}`);
  fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  const store = await openFirmStore(database);
  const tokens: string[] = [];
  try {
    for (let i = 0; i < people; i++) {
      const t = newToken();
      await store.addUser(`p${i}`, 100_000, hashToken(t), Date.now());
      tokens.push(t);
    }
  } finally {
    await store.close();
  }
  const server = await startFirmServer({
    upstream: svc.url,
    keyFile,
    database,
    dist: fakeDist(work),
    nodeArgs: NODE_EXTRAS,
    extraArgs: SERVE_EXTRAS,
  });
  return { key, tokens, server };
}

async function runSetup(
  svc: Svc,
  name: string,
  database: string,
  people: number,
  work: string,
  minutes: number,
): Promise<{ run: W13Run; long: W13Long | null }> {
  say(`W13: ${name}, ${people} people`);
  const { key, tokens, server } = await setupServer(svc, database, people, work);
  try {
    const start = server.resources();
    const lists = portfolios(people);
    const persons: Person[] = lists.map((l, i) => ({
      token: tokens[i],
      base: server.url,
      requests: refreshRequests(l, data.LATEST_YEAR),
      agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    }));
    const r = await runPeople(persons);
    const refresh = summary(r.samples, r.seconds);
    const credits = (await svc.usage(key)).total;
    const afterRefresh = server.resources();
    const kinds = new Map<string, Answer>();
    // The store and the responder pass after pass, alternately (ROUNDS each), so that both meet the same
    // machine (its warm-up, whatever else runs on it); each side's figures are the median of its passes.
    const storePasses: Pass[] = [];
    const baselinePasses: Pass[] = [];
    let responder: Awaited<ReturnType<typeof startResponder>> | null = null;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const s = await runPeople(persons, {
          onAnswer: (p, a) => {
            const kind = p.startsWith("/v4/firme/batch/financiar") ? "financial" : "batch";
            if (a.status === 200 && !kinds.has(kind)) kinds.set(kind, a);
          },
        });
        storePasses.push(summary(s.samples, s.seconds));
        responder ??= await startResponder(kinds);
        const b = await runPeople(
          persons.map((p) => ({ ...p, agent: undefined })),
          { baseOverride: responder.url },
        );
        baselinePasses.push(summary(b.samples, b.seconds));
      }
    } finally {
      await responder?.close();
    }
    const store = medianPass(storePasses);
    const baseline = medianPass(baselinePasses);
    say(
      `  passes (requests a second): store ${storePasses.map((x) => x.perSecond).join(", ")}; responder ${baselinePasses.map((x) => x.perSecond).join(", ")}`,
    );

    // One add-in stuck in a loop on one request at 1,000 requests a second (a request every millisecond,
    // paced by the clock, not by the answers; at most LOOP_IN_FLIGHT at once, the rest not sent), while
    // the others recalculate twice: the per-person limiter (custody.ts RATE_LIMIT) answers it 429 once past
    // its allowance; the others' p99 is measured meanwhile.
    const callsBefore = (await svc.usage(key)).calls;
    const loopRequest = persons[0].requests[0];
    let looping = true;
    const loopStats = { sent: 0, answered: 0, refused: 0, skipped: 0 };
    const loop = (async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: LOOP_IN_FLIGHT });
      const out: Promise<void>[] = [];
      let inFlight = 0;
      const t0 = performance.now();
      while (looping) {
        const due = Math.floor(performance.now() - t0) - loopStats.sent - loopStats.skipped;
        for (let i = 0; i < due; i++) {
          if (inFlight >= LOOP_IN_FLIGHT) {
            loopStats.skipped++;
            continue;
          }
          loopStats.sent++;
          inFlight++;
          out.push(
            get(agent, persons[0].base, loopRequest, { "X-API-Key": persons[0].token }).then((a) => {
              inFlight--;
              if (a.status === 200) loopStats.answered++;
              else loopStats.refused++;
            }),
          );
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.all(out);
      agent.destroy();
    })();
    const othersPasses: Pass[] = [];
    const othersSamples: Sample[] = [];
    let othersSeconds = 0;
    for (let i = 0; i < 2; i++) {
      const o = await runPeople(persons.slice(1));
      othersPasses.push(summary(o.samples, o.seconds));
      othersSamples.push(...o.samples);
      othersSeconds += o.seconds;
    }
    looping = false;
    await loop;
    const othersPass = summary(othersSamples, othersSeconds);
    const upstreamCalls = (await svc.usage(key)).calls - callsBefore;

    let long: W13Long | null = null;
    if (minutes > 0) {
      long = { database: name, people, minutes, passes: 0, requests: 0, errors: 0, statuses: {}, samples: [] };
      const until = performance.now() + minutes * 60_000;
      while (performance.now() < until) {
        const p = await runPeople(persons);
        const x = summary(p.samples, p.seconds);
        const res = server.resources();
        long.passes++;
        long.requests += x.requests;
        long.errors += x.errors;
        for (const [st, n] of Object.entries(x.statuses)) if (st !== "200") long.statuses[st] = (long.statuses[st] ?? 0) + n;
        long.samples.push({ perSecond: x.perSecond, p99: x.p99, rssMb: res.rssMb, fds: res.fds });
      }
      const first = long.samples[0];
      const last = long.samples[long.samples.length - 1];
      if (long.errors > 0) long.problems = server.problems();
      say(
        `  ${minutes} min: ${long.passes} passes, ${long.requests} requests, ${long.errors} errors${long.errors ? ` (by status: ${JSON.stringify(long.statuses)})` : ""}; memory ${first.rssMb} → ${last.rssMb} MB, files ${first.fds} → ${last.fds}`,
      );
    }
    for (const p of persons) p.agent!.destroy();
    const end = server.resources();
    const run: W13Run = {
      database: name,
      people,
      refresh,
      store,
      baseline,
      passes: { store: storePasses.map((x) => x.perSecond), baseline: baselinePasses.map((x) => x.perSecond) },
      ratio: {
        perSecond: Math.round((store.perSecond / baseline.perSecond) * 100) / 100,
        p99: Math.round((store.p99 / baseline.p99) * 100) / 100,
      },
      credits,
      minimum: minimumCredits(lists),
      memoryMb: { start: start.rssMb, afterRefresh: afterRefresh.rssMb, end: end.rssMb },
      fds: { start: start.fds, end: end.fds },
      loop: {
        othersP99: othersPass.p99,
        othersPassesP99: othersPasses.map((x) => x.p99),
        othersErrors: othersPass.errors,
        loopSent: loopStats.sent,
        loopAnswered: loopStats.answered,
        loopRefused: loopStats.refused,
        loopSkipped: loopStats.skipped,
        upstreamCalls,
      },
    };
    say(
      `  refresh ${refresh.perSecond}/s p50 ${refresh.p50} p99 ${refresh.p99} ms; store ${store.perSecond}/s p50 ${store.p50} p99 ${store.p99} ms; ` +
        `baseline ${baseline.perSecond}/s p50 ${baseline.p50} p99 ${baseline.p99} ms (× ${run.ratio.perSecond} req/s, × ${run.ratio.p99} p99); ` +
        `errors ${refresh.errors + store.errors}; ${credits} credits for a minimum of ${run.minimum}; memory ${start.rssMb} → ${afterRefresh.rssMb} → ${end.rssMb} MB; ` +
        `loop: others' p99 ${othersPass.p99} ms (passes ${othersPasses.map((x) => x.p99).join(", ")}), ${loopStats.sent} sent, ${loopStats.answered} answered, ${loopStats.refused} refused, ${loopStats.skipped} not sent, ${upstreamCalls} upstream calls`,
    );
    return { run, long };
  } finally {
    await server.stop();
  }
}

/** `minutes`: the long recalculation run with 200 people (0: none). */
export async function w13(
  svc: Svc,
  restoreLatencyMs: number,
  minutes = 10,
  only?: { people?: number[]; databases?: string[] },
): Promise<W13Result> {
  const extras = [...NODE_EXTRAS, ...SERVE_EXTRAS];
  const result: W13Result = { latencyMs: LATENCY_MS, ...(extras.length ? { serverExtras: extras } : {}), runs: [], long: [], skipped: [] };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "firma-bench-w13-"));
  await svc.configure({ latencyMs: LATENCY_MS });
  const peopleList = only?.people ?? [50, 200];
  const want = (db: string) => !only?.databases || only.databases.includes(db);
  try {
    if (want("SQLite"))
      for (const people of peopleList) {
        const { run, long } = await runSetup(
          svc,
          "SQLite",
          path.join(work, `w13-${people}.sqlite`),
          people,
          work,
          people === 200 ? minutes : 0,
        );
        result.runs.push(run);
        if (long) result.long.push(long);
      }
    if (!want("PostgreSQL")) {
      // not asked for
    } else if (postgresBinDir() === null) {
      result.skipped.push({ setup: "PostgreSQL", why: "PostgreSQL is not installed (scripts/setup.sh installs it)" });
    } else {
      let pg: PostgresCluster | null = null;
      try {
        pg = await startPostgres();
        for (const people of peopleList) {
          const url = await pg.createDatabase(`firm_w13_${people}`);
          const { run, long } = await runSetup(svc, "PostgreSQL", url, people, work, people === 200 ? minutes : 0);
          result.runs.push(run);
          if (long) result.long.push(long);
        }
      } finally {
        await pg?.stop();
      }
    }
  } finally {
    await svc.configure({ latencyMs: restoreLatencyMs });
    fs.rmSync(work, { recursive: true, force: true });
  }
  return result;
}

// ---- report -----------------------------------------------------------------------------------------

export function w13Targets(r: W13Result | undefined): { target: string; measured: string; met: boolean }[] {
  if (!r) return [];
  const out = r.runs.map((x) => ({
    target: `W13 ${x.database}, ${x.people} people: from the store ≥ 0.5 × the responder's requests a second, p99 ≤ 3 × its p99, 0 errors`,
    measured: `× ${x.ratio.perSecond} requests a second, × ${x.ratio.p99} p99, ${x.refresh.errors + x.store.errors} errors`,
    met: x.ratio.perSecond >= 0.5 && x.ratio.p99 <= 3 && x.refresh.errors + x.store.errors === 0,
  }));
  for (const l of r.long) {
    // Nothing that grows without bound: the second half's highest memory within 10 % of the first
    // half's, the open files at the end within 5 of the first pass's, and no error.
    const half = Math.max(1, Math.floor(l.samples.length / 2));
    const first = Math.max(...l.samples.slice(0, half).map((s) => s.rssMb));
    const second = Math.max(...l.samples.slice(half).map((s) => s.rssMb), 0);
    const fds = [l.samples[0].fds, l.samples[l.samples.length - 1].fds];
    out.push({
      target: `W13 ${l.database}, ${l.people} people recalculating for ${l.minutes} min: nothing grows without bound (memory of the second half ≤ 1.1 × the first's, open files within 5), 0 errors`,
      measured: `memory ${first} → ${second} MB (highest of each half), open files ${fds[0]} → ${fds[1]}, ${l.errors} errors in ${l.requests.toLocaleString("en")} requests`,
      met: second <= 1.1 * first && fds[1] <= fds[0] + 5 && l.errors === 0,
    });
  }
  return out;
}

export function w13Markdown(r: W13Result): string[] {
  const lines = ["## W13: the firm's server under load", ""];
  if (r.serverExtras?.length) lines.push(`**The server ran with \`${r.serverExtras.join(" ")}\` added:** not W13's usual server.`, "");
  lines.push(
    `People each refresh a 2,000-company portfolio drawn from 5,000 (W10's shape), all at once, through one \`firma serve\` in custody mode ` +
      `(a child process) against the sandbox at ${r.latencyMs} ms, then recalculate it from the store; each person sends the add-in's requests ` +
      "(batch identification of 100 with `include`, batch financial of 50) one after the other over her own kept-alive connection (bench/load.ts, Node's HTTP client). " +
      "The baseline: the same requests in the same run, answered by a static loopback responder with the same bytes. " +
      "The looping add-in sends one request a millisecond (paced by the clock, at most 64 on their way; the others recalculate twice meanwhile): the server's per-person limit answers it 429 past its allowance. " +
      "The recalculation and the responder run three passes each, alternately; each side's figures are its median pass's (the passes' requests a second in the list below the table). " +
      "The load generator, the responder, the server, the sandbox and the database share this machine's two cores (with whatever else runs on it).",
    "",
    "| Database | People | Requests/s from the store (baseline) | p50 / p99 from the store | p50 / p99 upstream (refresh) | p50 / p99 baseline | × req/s | × p99 | Memory start / after refresh / end | Errors | Credits (minimum) | Others' p99 while one add-in loops |",
    "|---|---:|---|---|---|---|---:|---:|---|---:|---|---|",
  );
  for (const x of r.runs)
    lines.push(
      `| ${x.database} | ${x.people} | ${x.store.perSecond} (${x.baseline.perSecond}) | ${x.store.p50} / ${x.store.p99} ms | ${x.refresh.p50} / ${x.refresh.p99} ms | ` +
        `${x.baseline.p50} / ${x.baseline.p99} ms | ${x.ratio.perSecond} | ${x.ratio.p99} | ${x.memoryMb.start} / ${x.memoryMb.afterRefresh} / ${x.memoryMb.end} MB | ` +
        `${x.refresh.errors + x.store.errors} | ${x.credits} (${x.minimum}) | ${x.loop.othersP99} ms${x.loop.othersPassesP99 ? ` (${x.loop.othersPassesP99.join(" / ")} ms by pass)` : ""} (loop: ${x.loop.loopSent !== undefined ? `${x.loop.loopSent} sent, ` : ""}${x.loop.loopAnswered} answered, ${x.loop.loopRefused} refused, ${x.loop.upstreamCalls} upstream calls) |`,
    );
  for (const s of r.skipped) lines.push(`| ${s.setup} | skipped: ${s.why} | | | | | | | | | | |`);
  lines.push("");
  for (const x of r.runs)
    if (x.passes)
      lines.push(
        `- ${x.database}, ${x.people} people, requests a second per pass: store ${x.passes.store.join(", ")}; responder ${x.passes.baseline.join(", ")}.`,
      );
  for (const l of r.long) {
    const first = l.samples[0];
    const last = l.samples[l.samples.length - 1];
    const max = Math.max(...l.samples.map((s) => s.rssMb));
    lines.push(
      `- ${l.database}, ${l.people} people recalculating for ${l.minutes} min: ${l.passes} passes, ${l.requests.toLocaleString("en")} requests, ${l.errors} errors` +
        `${
          l.errors && l.statuses
            ? ` (${Object.entries(l.statuses)
                .map(([st, n]) => `${st === "0" ? "connection failed" : `HTTP ${st}`} ×${n}`)
                .join(", ")})`
            : ""
        }; ` +
        `server memory ${first.rssMb} → ${last.rssMb} MB (at most ${max}), open files ${first.fds} → ${last.fds}; ` +
        `requests a second per pass ${Math.min(...l.samples.map((s) => s.perSecond))}–${Math.max(...l.samples.map((s) => s.perSecond))}.`,
    );
  }
  lines.push("");
  return lines;
}
