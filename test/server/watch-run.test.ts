/**
 * `firma watch run` against the sandbox over HTTP, on a SQLite file (src/server/firm/watch-run.ts,
 * watch-check.ts): a first check sets the baseline and alerts nothing; the registry changes a company's
 * status, VAT, name and address (the sandbox's `overrides`) and the next day's check finds exactly
 * those four; the day after, none. A second check on the same day pays nothing (today's answers are
 * reused). A budget spent mid-check stops it, says INCOMPLETE, and its log line is not "checked";
 * an owner revoked stops the list; a bad cron for `firma serve` shows the expected form; and a
 * `firma watch run` killed (SIGKILL) during a check is finished by the next run without asking the
 * service again for what it had been answered, the firm's meter equal to the service's count.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { main } from "../../src/server/firm/watch-command";
import { WATCH_INCLUDE } from "../../src/server/firm/watch-check";
import { FIRM_ACCOUNT } from "../../src/server/firm/watch-checks";
import { serve } from "../../src/server/main";
import { buildApp } from "../../src/server/app";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { startMailbox } from "../support/alert-receivers";
import { withFirmStore } from "../support/firm-server";

const ROOT = path.resolve(__dirname, "..", "..");
const DAY = 86_400_000;
/** 06:00 in Bucharest, a Tuesday. */
const T0 = Date.parse("2026-03-10T04:00:00Z");

let sb: Sandbox;
let dir: string;
let database: string;
let keyFile: string;
let key: string;
let serial = 0;
let valid: number[];
let missing: number;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  valid = (await (await fetch(`${sb.url}/__sandbox/cuis?kind=valid&count=1200`)).json()) as number[];
  [missing] = (await (await fetch(`${sb.url}/__sandbox/cuis?kind=missing&count=1`)).json()) as number[];
});
afterAll(() => sb.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-run-"));
  database = path.join(dir, "firm.db");
  key = `demo-business-watchrun${++serial}`;
  keyFile = path.join(dir, "key");
  fs.writeFileSync(keyFile, key);
  sb.config.overrides = {};
  sb.config.latencyMs = 0;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const withStore = <T>(fn: (s: FirmStore) => Promise<T>): Promise<T> => withFirmStore(database, fn);

/** `firma watch run [list]` in this process at `at`; its exit code and what it printed. */
async function run(at: number, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env: { LANG: "en_US.UTF-8" },
    now: () => at,
  };
  const code = await main(["run", ...args, "--database", database, "--key-file", keyFile, "--upstream", sb.url, "--lang", "en"], io);
  return { code, out, err };
}

const credits = () => sb.usage(key).total;

/** What `firma serve` asks of a build: its page, manifest and metadata. */
function fakeDist(): string {
  const dist = path.join(dir, "dist");
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, "taskpane.html"), "<!doctype html>");
  fs.writeFileSync(path.join(dist, "manifest.xml"), "<OfficeApp/>");
  fs.writeFileSync(path.join(dist, "firma-build.json"), JSON.stringify({ addinUrl: "https://a.test/", serviceUrl: "", version: "0" }));
  return dist;
}

test("end to end by e-mail: `watch run --smtp` mails the second check's four changes to the owner and --notify (a real SMTP server), the first and third check mail nothing", async () => {
  const box = await startMailbox();
  try {
    const cuis = valid.slice(300, 420);
    await withStore(async (s) => {
      const t = newToken();
      await s.addUser("ana", 1000, hashToken(t), T0);
      await s.watch.setEmail("ana", "ana@firma.ro");
      await s.watch.addList({ name: "furnizori", owner: "ana", schedule: null, notify: ["contabil@firma.ro"], cuis }, T0);
    });
    const mailed = (at: number) => run(at, "furnizori", "--smtp", box.url, "--smtp-from", "FIRMA <alerte@firma.ro>");
    expect((await mailed(T0)).out).toBe("furnizori: 120 companies checked (0 from answers fetched today), 2 credits, 0 changes.\n");
    expect(box.messages).toHaveLength(0); // a first check sets the baseline and alerts nothing
    const c = cuis[11];
    const before = await withStore(async (s) => (await s.watch.seen("furnizori")).get(c)!);
    sb.config.overrides = {
      [c]: { stare: "RADIATA", platitor_tva: !before.get("platitor_tva"), denumire: '=HYPERLINK("http://x")', adresa: "Str. Alta 1" },
    };
    const second = await mailed(T0 + DAY);
    expect(second.out).toBe("furnizori: 120 companies checked (0 from answers fetched today), 2 credits, 4 changes.\n");
    expect(second.code).toBe(0);
    expect(box.messages).toHaveLength(1);
    const [{ mail, rcpt }] = box.messages;
    expect(rcpt.sort()).toEqual(["ana@firma.ro", "contabil@firma.ro"]);
    const ids = (await withStore((s) => s.watch.changes("furnizori"))).map((x) => x.id);
    expect(ids).toHaveLength(4);
    // the attached CSV: one row per change, its CUI in a column of its own, the hostile name made safe
    const csv = mail.attachments.find((a) => /\.csv$/.test(a.filename ?? ""))!.content.toString("utf8");
    for (const id of ids) expect(csv).toMatch(new RegExp(`(^|\\n)"?${id}"?[,;]`));
    expect(csv.split(/\r?\n/).filter((l) => l.includes(String(c)))).toHaveLength(4);
    expect(csv).not.toMatch(/(^|[,;])=HYPERLINK/m);
    // the third check finds nothing and mails nothing; a run again delivers nothing twice
    expect((await mailed(T0 + 2 * DAY)).out).toBe(
      "furnizori: 120 companies checked (0 from answers fetched today), 2 credits, 0 changes.\n",
    );
    expect(box.messages).toHaveLength(1);
  } finally {
    await box.close();
  }
});

test("first check: the baseline, no change; the registry changes four fields: the next day's check finds exactly those; the day after, none; the same day again: no credit", async () => {
  const cuis = [...valid.slice(0, 250), missing];
  await withStore((s) => s.watch.addList({ name: "clienti", owner: null, schedule: null, notify: [], cuis }, T0));

  const first = await run(T0, "clienti");
  expect(first).toEqual({
    code: 0,
    out: "clienti: 251 companies checked (0 from answers fetched today), 4 credits, 0 changes.\n",
    err: "",
  });
  // ⌈251 / 100⌉ batches and the one profile call that confirms the company the batches left out
  expect(credits()).toBe(4);

  const again = await run(T0 + 3_600_000, "clienti");
  expect(again.out).toBe("clienti: 251 companies checked (251 from answers fetched today), 0 credits, 0 changes.\n");
  expect(credits()).toBe(4);

  const before = await withStore(async (s) => (await s.watch.seen("clienti")).get(valid[7])!);
  sb.config.overrides = {
    [valid[7]]: {
      stare: "INACTIVA",
      platitor_tva: !before.get("platitor_tva"),
      denumire: "NUME NOU SRL",
      adresa: "Str. Nouă nr. 2, Cluj-Napoca",
    },
  };
  const second = await run(T0 + DAY, "clienti");
  expect(second.out).toBe("clienti: 251 companies checked (0 from answers fetched today), 4 credits, 4 changes.\n");
  const changes = await withStore((s) => s.watch.changes("clienti"));
  expect(changes.map((c) => [c.cui, c.field, c.before, c.after])).toEqual([
    [valid[7], "stare", before.get("stare"), "INACTIVA"],
    [valid[7], "platitor_tva", before.get("platitor_tva"), !before.get("platitor_tva")],
    [valid[7], "denumire", before.get("denumire"), "NUME NOU SRL"],
    [valid[7], "adresa", before.get("adresa"), "Str. Nouă nr. 2, Cluj-Napoca"],
  ]);
  const third = await run(T0 + 2 * DAY, "clienti");
  expect(third.out).toBe("clienti: 251 companies checked (0 from answers fetched today), 4 credits, 0 changes.\n");
  expect(credits()).toBe(12);

  await withStore(async (s) => {
    const log = (await s.watch.log("clienti")).filter((e) => e.kind === "checked");
    expect(log.map((e) => [e.detail.changes, e.detail.credits])).toEqual([
      [0, 4],
      [0, 0],
      [4, 4],
      [0, 4],
    ]);
    // The firm's lists' account paid, on the firm's one meter: equal to the service's count.
    expect(await s.creditsSpent(bucharestMonth(T0))).toBe(12);
    expect((await s.listUsers(bucharestMonth(T0))).map((u) => u.name)).not.toContain(FIRM_ACCOUNT);
    const audit = (await s.auditSince(0)).filter((a) => a.endpoint === "watch clienti");
    expect(audit.map((a) => [a.user, a.credits, a.status])).toEqual([
      [FIRM_ACCOUNT, 4, 200],
      [FIRM_ACCOUNT, 0, 200],
      [FIRM_ACCOUNT, 4, 200],
      [FIRM_ACCOUNT, 4, 200],
    ]);
  });
});

test("a budget spent mid-check: the check stops and says INCOMPLETE (exit 3), its log line is not 'checked', the budget is not passed", async () => {
  await withStore(async (s) => {
    await s.addUser("ana", 2, hashToken(newToken()), T0);
    await s.watch.addList({ name: "furnizori", owner: "ana", schedule: null, notify: [], cuis: valid.slice(0, 300) }, T0);
  });
  const r = await run(T0, "furnizori");
  expect(r.code).toBe(3);
  expect(r.out).toBe(
    "furnizori: INCOMPLETE — the monthly budget is spent: 100 of 300 companies could not be looked at (their values were kept; the next check looks again); 2 credits, 0 changes among the others.\n",
  );
  expect(credits()).toBe(2);
  await withStore(async (s) => {
    expect((await s.usageOf("ana", bucharestMonth(T0)))!.spent).toBe(2);
    const log = (await s.watch.log("furnizori")).map((e) => [e.kind, e.detail.reason, e.detail.unknown]);
    expect(log).toEqual([
      ["added", undefined, undefined],
      ["incomplete", "budget_exhausted", 100],
    ]);
    expect((await s.auditSince(0)).find((a) => a.endpoint === "watch furnizori")).toMatchObject({ user: "ana", credits: 2, status: 429 });
  });
  // The firm's lists' budget: --watch-budget, on the same meter.
  await withStore((s) => s.watch.addList({ name: "firma", owner: null, schedule: null, notify: [], cuis: valid.slice(300, 600) }, T0));
  const firm = await run(T0, "firma", "--watch-budget", "1");
  expect([firm.code, firm.out.split(" — ")[1]?.slice(0, 27)]).toEqual([3, "the monthly budget is spent"]);
  expect(credits()).toBe(3);
});

test("an owner revoked: the list stops with a line in its log, costs nothing, and is not checked again", async () => {
  await withStore(async (s) => {
    await s.addUser("ion", 50, hashToken(newToken()), T0);
    await s.watch.addList({ name: "ion-clienti", owner: "ion", schedule: null, notify: [], cuis: valid.slice(0, 20) }, T0);
    // a check of it a killed process left open: closed with the list, never swept again
    await s.watchChecks.begin("ion-clienti", "2026-03-09T04:00Z", "killed", T0);
    await s.revokeUser("ion", T0);
  });
  const r = await run(T0, "ion-clienti");
  expect([r.code, r.out]).toEqual([3, "ion-clienti: stopped (its owner ion was revoked); not checked.\n"]);
  // All lists: the stopped one is left out.
  const all = await run(T0 + DAY);
  expect([all.code, all.out]).toEqual([1, "No list to check: add one with firma watch add clienti --file clienti.csv --firm.\n"]);
  expect(credits()).toBe(0);
  expect(await withStore((s) => s.watchChecks.unfinished())).toEqual([]);
  const log = await withStore((s) => s.watch.log("ion-clienti"));
  expect(log.map((e) => [e.kind, e.detail.reason])).toEqual([
    ["added", undefined],
    ["stopped", "its owner ion was revoked"],
  ]);
});

test("what is typed wrong: no key, no service, a bad budget, an unknown list; a bad cron for firma serve shows the expected form", async () => {
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (said += s) }, env: { LANG: "en_US.UTF-8" } };
  let said = "";
  expect(await main(["run", "--database", database, "--upstream", sb.url, "--lang", "en"], io)).toBe(2);
  expect(said).toContain("checking needs the firm's key: give --key-file F");
  said = "";
  expect(await main(["run", "--database", database, "--key-file", keyFile, "--lang", "en"], io)).toBe(2);
  expect(said).toContain("checking needs the data service's address");
  said = "";
  expect(await main(["run", "--database", database, "--key-file", keyFile, "--upstream", sb.url, "--watch-budget", "-1"], io)).toBe(2);
  expect(said).toContain("-1");
  expect((await run(T0, "nu-exista")).code).toBe(1);

  const dist = fakeDist();
  const args = [
    "--http",
    "--port",
    "0",
    "--dist",
    dist,
    "--key-file",
    keyFile,
    "--database",
    database,
    "--upstream",
    sb.url,
    "--lang",
    "en",
  ];
  await expect(serve([...args, "--watch-schedule", "0 25 * * *"], { ...io, env: {} })).rejects.toThrow(
    /the schedule "0 25 \* \* \*" is not a cron expression \(.+\): give 5 fields, minute hour day-of-month month day-of-week, Romanian time; for example "0 6 \* \* \*"/,
  );
  await expect(
    serve(["--http", "--port", "0", "--dist", dist, "--watch-budget", "10", "--lang", "en"], { ...io, env: {} }),
  ).rejects.toThrow(/--watch-budget go with custody mode only/);
}, 30_000);

test("firma watch run killed (SIGKILL) during a check: the next run finishes it, asks nothing it had been answered, and the firm's meter equals the service's count", async () => {
  const cuis = valid.slice(0, 1000);
  await withStore((s) => s.watch.addList({ name: "mare", owner: null, schedule: null, notify: [], cuis }, Date.now()));
  sb.config.latencyMs = 150;
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bin", "firma.js"), "watch", "run", "mare", "--database", database, "--key-file", keyFile, "--upstream", sb.url],
    { cwd: ROOT, env: { ...process.env, FIRMA_WATCH_LEASE_MS: "1000" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise((done) => child.once("exit", (code, signal) => done(signal ?? code)));
  const start = Date.now();
  while (sb.requests.filter((r) => r.key === key).length < 5 && Date.now() - start < 30_000) await new Promise((r) => setTimeout(r, 10));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  sb.config.latencyMs = 0;
  const askedBefore = sb.requests.filter((r) => r.key === key).length;
  expect(askedBefore).toBeGreaterThanOrEqual(5);
  expect(askedBefore).toBeLessThan(10);
  // What the killed run was answered, and kept.
  const answered = await withStore(async (s) => {
    const got = await s.getAnswers(
      cuis.map((c) => `ident:${c}:${WATCH_INCLUDE}`),
      Date.now(),
    );
    return new Set([...got.keys()].map((k) => Number(k.split(":")[1])));
  });
  expect(answered.size).toBeGreaterThanOrEqual(400);

  let out = "";
  const code = await main(["run", "--database", database, "--key-file", keyFile, "--upstream", sb.url, "--lang", "en"], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
    env: { LANG: "en_US.UTF-8", FIRMA_WATCH_LEASE_MS: "1000" },
  });
  expect(code).toBe(0);
  expect(out).toMatch(
    new RegExp(
      `^mare: 1,000 companies checked \\(${answered.size.toLocaleString("en")} from answers fetched today\\), \\d+ credits, 0 changes\\. \\(a check cut short earlier, finished`,
    ),
  );
  const after = sb.requests.filter((r) => r.key === key).slice(askedBefore);
  const askedAgain = after.flatMap((r) => new URLSearchParams(r.query).get("cui")!.split(",").map(Number));
  expect(askedAgain.filter((c) => answered.has(c))).toEqual([]);
  expect(new Set(askedAgain)).toEqual(new Set(cuis.filter((c) => !answered.has(c))));
  await withStore(async (s) => {
    // One check, one record: the credits of both runs counted on it; the firm's meter equal to the service's count.
    const log = (await s.watch.log("mare")).filter((e) => e.kind === "checked");
    expect(log).toHaveLength(1);
    expect(log[0].detail.credits).toBe(credits());
    expect(await s.creditsSpent(bucharestMonth(Date.now()))).toBe(credits());
    expect(await s.watchChecks.unfinished()).toEqual([]);
  });
  // At most the call cut off in flight was paid twice: 10 batches, one more.
  expect(credits()).toBeLessThanOrEqual(11);
}, 60_000);

test("firma serve in custody mode: the scheduler starts with the server, finishes a check a killed instance left open, and /metrics counts it", async () => {
  const cuis = valid.slice(0, 120);
  await withStore(async (s) => {
    await s.watch.addList({ name: "clienti", owner: null, schedule: "15 6 * * *", notify: [], cuis }, Date.now());
    // What a killed instance leaves: the check begun, its lease gone with it.
    expect(await s.watchChecks.begin("clienti", "2026-03-10T04:15Z", "killed-instance", Date.now())).toMatchObject({ resumed: false });
  });
  const dist = fakeDist();
  const store = await openFirmStore(database);
  const app = await buildApp({
    dist,
    publicUrl: "https://a.test/",
    upstream: sb.url,
    custody: { store, key, maxCreditsPerDay: null, watch: { defaultSchedule: "0 6 * * *", budget: 40, leaseMs: 1000 } },
  });
  try {
    await app.ready();
    const until = Date.now() + 20_000;
    while ((await store.watchChecks.unfinished()).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await store.watchChecks.unfinished()).toEqual([]);
    expect((await store.watch.log("clienti")).filter((e) => e.kind === "checked").map((e) => e.detail.credits)).toEqual([2]);
    expect(await store.usageOf(FIRM_ACCOUNT, bucharestMonth(Date.now()))).toEqual({ budget: 40, spent: 2 });
    const metrics = await (await app.inject({ url: "/metrics" })).body;
    expect(metrics).toContain('firma_watch_checks_total{outcome="checked"} 1\n');
    expect(metrics).toContain("firma_watch_companies_total 120\n");
    expect(metrics).toContain("firma_watch_credits_total 2\n");
    expect(credits()).toBe(2);
  } finally {
    await app.close();
    await store.close();
  }
}, 30_000);
