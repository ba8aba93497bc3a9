/**
 * The watch's scheduler with two instances on one PostgreSQL (a throwaway cluster,
 * test/support/postgres.ts) and the sandbox over HTTP (src/server/firm/watch-scheduler.ts): the same
 * list's job firing on both at the same tick is checked once, by one of them; a later tick once again.
 * A `firma watch run` killed (SIGKILL) during a check is finished by the other instance's sweep once
 * the killed one's lease lapsed, asking the service nothing the killed one had been answered. The
 * lists' schedules are read from the database, each in its own job; the counters reach /metrics.
 */
import { spawn } from "child_process";
import * as path from "path";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { Leases } from "../../src/server/firm/lease";
import { Metrics } from "../../src/server/firm/metrics";
import { upstream } from "../../src/server/firm/upstream";
import { WatchScheduler } from "../../src/server/firm/watch-scheduler";
import { WATCH_INCLUDE } from "../../src/server/firm/watch-check";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";

const ROOT = path.resolve(__dirname, "..", "..");
const installed = postgresBinDir() !== null;
const suite = installed ? describe : describe.skip;

let sb: Sandbox;
let pg: PostgresCluster;
let valid: number[];
let serial = 0;

beforeAll(async () => {
  if (!installed) return;
  sb = await startSandbox({ port: 0 });
  pg = await startPostgres();
  valid = (await (await fetch(`${sb.url}/__sandbox/cuis?kind=valid&count=1000`)).json()) as number[];
}, 120_000);
afterAll(async () => {
  if (!installed) return;
  await sb.close();
  await pg.stop();
});

interface Instance {
  store: FirmStore;
  scheduler: WatchScheduler;
  metrics: Metrics;
  leases: Leases;
}

async function instance(url: string, key: string, leaseMs: number): Promise<Instance> {
  const store = await openFirmStore(url);
  const holder = `instance-${++serial}`;
  const leases = new Leases({ store, holder, ttlMs: leaseMs });
  const metrics = new Metrics();
  const scheduler = new WatchScheduler({
    deps: {
      store,
      upstream: upstream({ base: () => sb.url, key, timeoutMs: 10_000 }),
      maxPerDay: null,
      leases,
      holder,
      metrics,
      revokedReason: (o) => `revoked ${o}`,
    },
    defaultSchedule: "0 6 * * *",
    sweepMs: 300,
    reloadMs: 60_000,
  });
  return { store, scheduler, metrics, leases };
}

async function close(...all: Instance[]): Promise<void> {
  for (const i of all) {
    await i.scheduler.close();
    await i.leases.close();
    await i.store.close();
  }
}

suite("two instances on one PostgreSQL", () => {
  test("the same tick fired on both: one check, by one of them; the next tick: one more; the schedules read from the database; the counters in /metrics", async () => {
    const url = await pg.createDatabase(`watch${++serial}`);
    const key = `demo-business-watchpg${serial}`;
    const a = await instance(url, key, 3000);
    const b = await instance(url, key, 3000);
    try {
      const cuis = valid.slice(0, 450);
      await a.store.watch.addList({ name: "clienti", owner: null, schedule: "30 7 * * 1-5", notify: [], cuis }, Date.now());
      await a.store.watch.addList({ name: "furnizori", owner: null, schedule: null, notify: [], cuis: valid.slice(450, 460) }, Date.now());
      await a.store.watchChecks.firmAccount(null, Date.now());
      await Promise.all([a.scheduler.reload(), b.scheduler.reload()]);
      expect(b.scheduler.schedules()).toEqual(
        new Map([
          ["clienti", "30 7 * * 1-5"],
          ["fin:clienti", "0 6 1 * *"],
          ["furnizori", "0 6 * * *"],
          ["fin:furnizori", "0 6 1 * *"],
        ]),
      );

      const tick = Date.parse("2026-03-10T05:30:00Z");
      sb.config.latencyMs = 50;
      const [ra, rb] = await Promise.all([a.scheduler.fire("clienti", tick), b.scheduler.fire("clienti", tick + 20_000)]);
      // One of them checked; the other found the list busy, or the tick done.
      expect([ra!.outcome, rb!.outcome].sort()).toEqual(["checked", ra!.outcome === "checked" ? rb!.outcome : ra!.outcome].sort());
      expect([ra!.outcome, rb!.outcome].filter((o) => o === "checked")).toHaveLength(1);
      expect(sb.usage(key).total).toBe(5);
      // Later, the same tick on either: done.
      expect((await b.scheduler.fire("clienti", tick + 40_000))!.outcome).toBe("done");
      expect((await a.scheduler.fire("clienti", tick))!.outcome).toBe("done");
      expect(sb.usage(key).total).toBe(5);

      // The next day's tick: checked once more.
      const next = tick + 86_400_000;
      const both = await Promise.all([a.scheduler.fire("clienti", next), b.scheduler.fire("clienti", next)]);
      expect(both.filter((r) => r!.outcome === "checked")).toHaveLength(1);
      const log = (await a.store.watch.log("clienti")).filter((e) => e.kind === "checked");
      expect(log).toHaveLength(2);
      // The same day, its answers reused: no credit.
      expect(sb.usage(key).total).toBe(5);

      const text = a.metrics.text() + b.metrics.text();
      const sum = (re: RegExp) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
      expect(sum(/^firma_watch_checks_total\{outcome="checked"\} (\d+)$/gm)).toBe(2);
      expect(sum(/^firma_watch_companies_total (\d+)$/gm)).toBe(900);
      expect(sum(/^firma_watch_credits_total (\d+)$/gm)).toBe(5);
      expect(sum(/^firma_watch_changes_total (\d+)$/gm)).toBe(0);

      // The financial-year check's tick, fired on both: one check of its own (its own lease and record), ⌈450/50⌉ credits.
      const fin = await Promise.all([a.scheduler.fire("clienti", next, "financial"), b.scheduler.fire("clienti", next, "financial")]);
      expect(fin.filter((r) => r!.outcome === "checked")).toHaveLength(1);
      expect(fin.every((r) => r!.tick.startsWith("fin:"))).toBe(true);
      expect(sb.usage(key).total).toBe(5 + 9);
      expect((await b.scheduler.fire("clienti", next, "financial"))!.outcome).toBe("done");
      const finLog = (await a.store.watch.log("clienti")).filter((e) => e.detail.check === "financial");
      expect(finLog.map((e) => [e.kind, e.detail.credits, e.detail.changes])).toEqual([["checked", 9, 0]]);
    } finally {
      sb.config.latencyMs = 0;
      await close(a, b);
    }
  }, 60_000);

  test("firma watch run killed (SIGKILL) during a check: the other instance finishes it once the lease lapsed, nothing answered asked again, the firm's meter equal to the service's count", async () => {
    const url = await pg.createDatabase(`watch${++serial}`);
    const key = `demo-business-watchpg${serial}`;
    const b = await instance(url, key, 1000);
    try {
      const cuis = valid.slice(0, 1000);
      await b.store.watch.addList({ name: "mare", owner: null, schedule: null, notify: [], cuis }, Date.now());
      sb.config.latencyMs = 150;
      const child = spawn(
        process.execPath,
        [path.join(ROOT, "bin", "firma.js"), "watch", "run", "mare", "--database", url, "--upstream", sb.url],
        {
          cwd: ROOT,
          env: { ...process.env, FIRMA_UPSTREAM_KEY: key, FIRMA_WATCH_LEASE_MS: "1000" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const exited = new Promise((done) => child.once("exit", (code, signal) => done(signal ?? code)));
      const start = Date.now();
      while (sb.requests.filter((r) => r.key === key).length < 4 && Date.now() - start < 30_000)
        await new Promise((r) => setTimeout(r, 10));
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      sb.config.latencyMs = 0;
      const askedBefore = sb.requests.filter((r) => r.key === key).length;
      const stored = await b.store.getAnswers(
        cuis.map((c) => `ident:${c}:${WATCH_INCLUDE}`),
        Date.now(),
      );
      const answered = new Set([...stored.keys()].map((k) => Number(k.split(":")[1])));
      expect(answered.size).toBeGreaterThanOrEqual(300);
      expect(await b.store.watchChecks.unfinished()).toHaveLength(1);

      // The other instance's sweep (every 300 ms) takes the check over once the killed one's lease lapsed.
      await b.scheduler.start();
      const until = Date.now() + 20_000;
      while ((await b.store.watchChecks.unfinished()).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(await b.store.watchChecks.unfinished()).toEqual([]);
      const again = sb.requests
        .filter((r) => r.key === key)
        .slice(askedBefore)
        .flatMap((r) => new URLSearchParams(r.query).get("cui")!.split(",").map(Number));
      expect(again.filter((c) => answered.has(c))).toEqual([]);
      expect(new Set(again)).toEqual(new Set(cuis.filter((c) => !answered.has(c))));
      const log = (await b.store.watch.log("mare")).filter((e) => e.kind === "checked");
      expect(log).toHaveLength(1);
      expect(await b.store.creditsSpent(bucharestMonth(Date.now()))).toBe(sb.usage(key).total);
      expect(log[0].detail.credits).toBe(sb.usage(key).total);
      expect(sb.usage(key).total).toBeLessThanOrEqual(11);
    } finally {
      sb.config.latencyMs = 0;
      await close(b);
    }
  }, 60_000);
});
