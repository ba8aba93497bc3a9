/**
 * The watch's financial-year check and its identification check against a service that ignores
 * `include` (src/server/firm/watch-check.ts, watch-observe.ts, watch-diff.ts diffYears), through
 * `firma watch run` against the sandbox over HTTP, on a SQLite file:
 *  - `--financial`: a first check sets each company's latest financial year and alerts nothing; two
 *    companies publish a later year (the sandbox's `filedUpTo`) and the next check finds exactly those
 *    two, mailed (a real SMTP server); a third finds none; each costs ⌈companies / 50⌉;
 *  - a budget spent mid financial check: INCOMPLETE, exit 3, no change read as "nothing changed";
 *    the next check with budget finds the new year;
 *  - a financial check cut short is resumed by the next (its own record, beside the identification
 *    check's), the batches already answered read from the store, nothing paid twice;
 *  - a service that ignores `include`: the check asks the profiles of the companies whose batch item
 *    lacks a watched field, pays what `firma watch add` said at most (the range's upper end) and finds
 *    the same changes as against a service that honours it (which costs the lower end); a firm server
 *    that already knows asks the profiles only.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { randomUUID } from "crypto";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { Leases } from "../../src/server/firm/lease";
import { upstream } from "../../src/server/firm/upstream";
import { main } from "../../src/server/firm/watch-command";
import { checkList } from "../../src/server/firm/watch-check";
import { FIRM_ACCOUNT } from "../../src/server/firm/watch-checks";
import { startSandbox, type Sandbox } from "../../sandbox/server";
import { startMailbox } from "../support/alert-receivers";
import { withFirmStore } from "../support/firm-server";

const DAY = 86_400_000;
/** 06:00 in Bucharest, the 1st of a month. */
const T0 = Date.parse("2026-04-01T03:00:00Z");

let sb: Sandbox;
let dir: string;
let database: string;
let keyFile: string;
let key: string;
let serial = 0;
let valid: number[];

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  valid = (await (await fetch(`${sb.url}/__sandbox/cuis?kind=valid&count=400`)).json()) as number[];
});
afterAll(() => sb.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-fin-"));
  database = path.join(dir, "firm.db");
  key = `demo-business-watchfin${++serial}`;
  keyFile = path.join(dir, "key");
  fs.writeFileSync(keyFile, key);
  sb.config.overrides = {};
  sb.config.filedUpTo = {};
  sb.config.includeMode = "fields";
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const withStore = <T>(fn: (s: FirmStore) => Promise<T>): Promise<T> => withFirmStore(database, fn);

const io = (at: number, out: { text: string }) => ({
  stdout: { write: (s: string) => (out.text += s) },
  stderr: { write: (s: string) => (out.text += s) },
  env: { LANG: "en_US.UTF-8" },
  now: () => at,
});

/** `firma watch run …` in this process at `at`; its exit code and what it printed. */
async function run(at: number, ...args: string[]): Promise<{ code: number; out: string }> {
  const out = { text: "" };
  const code = await main(
    ["run", ...args, "--database", database, "--key-file", keyFile, "--upstream", sb.url, "--lang", "en"],
    io(at, out),
  );
  return { code, out: out.text };
}

const credits = () => sb.usage(key).total;

/** Companies of `cuis` that have figures for the sandbox's latest year (asked with a key of their own). */
async function withLatestYear(cuis: readonly number[]): Promise<number[]> {
  const r = await fetch(`${sb.url}/v4/firme/batch/financiar?cui=${cuis.slice(0, 50).join(",")}`, {
    headers: { "X-API-Key": "demo-enterprise-watchfin-probe" },
  });
  const items = (await r.json()) as Array<{ cui: number; an: number }>;
  return [...new Set(items.filter((i) => i.an === sb.config.latestYear).map((i) => i.cui))];
}

describe("the financial-year check", () => {
  test("first: the baseline, no alert; two companies publish the latest year: the next check finds and mails exactly those two; the third, none; ⌈companies / 50⌉ each", async () => {
    const cuis = valid.slice(0, 120);
    const latest = sb.config.latestYear;
    const [a, b] = await withLatestYear(cuis.slice(100, 120).concat(cuis.slice(0, 30)));
    sb.config.filedUpTo = { [a]: latest - 1, [b]: latest - 3 };
    await withStore(async (s) => {
      await s.watch.addList({ name: "clienti", owner: null, schedule: null, notify: ["contabil@firma.ro"], cuis }, T0);
    });
    const first = await run(T0, "clienti", "--financial");
    expect(first).toEqual({
      code: 0,
      out: "clienti (financial year): 120 companies checked (0 from answers fetched today), 3 credits, 0 changes.\n",
    });
    expect(credits()).toBe(3);
    const seen = await withStore((s) => s.watch.seen("clienti"));
    // Without figures for the service's latest year: none seen (the batch asks the latest year).
    expect(seen.get(a)!.get("an_financiar")).toBeNull();
    expect(seen.get(b)!.get("an_financiar")).toBeNull();
    expect([...seen.values()].filter((f) => f.get("an_financiar") === latest).length).toBeGreaterThan(60);

    // The same day again: its answers reused, nothing paid.
    expect((await run(T0 + 60_000, "clienti", "--financial")).out).toBe(
      "clienti (financial year): 120 companies checked (120 from answers fetched today), 0 credits, 0 changes.\n",
    );
    expect(credits()).toBe(3);

    // Both publish the latest year: a new latest year for each.
    sb.config.filedUpTo = {};
    const box = await startMailbox();
    try {
      const second = await run(T0 + 30 * DAY, "clienti", "--financial", "--smtp", box.url, "--smtp-from", "alerte@firma.ro");
      expect(second).toEqual({
        code: 0,
        out: "clienti (financial year): 120 companies checked (0 from answers fetched today), 3 credits, 2 changes.\n",
      });
      const changes = await withStore((s) => s.watch.changes("clienti"));
      expect(changes.map((c) => [c.cui, c.field, c.before, c.after]).sort()).toEqual(
        [
          [a, "an_financiar", null, latest],
          [b, "an_financiar", null, latest],
        ].sort(),
      );
      // Delivered like the other changes: one message for the list and check, both changes in its CSV.
      expect(box.messages).toHaveLength(1);
      const csv = box.messages[0].mail.attachments.find((x) => /\.csv$/.test(x.filename ?? ""))!.content.toString("utf8");
      for (const c of changes) expect(csv).toContain(String(c.cui));
      expect(box.messages[0].mail.text).toMatch(/Ultimul an financiar publicat/);

      const third = await run(T0 + 60 * DAY, "clienti", "--financial", "--smtp", box.url, "--smtp-from", "alerte@firma.ro");
      expect(third.out).toBe("clienti (financial year): 120 companies checked (0 from answers fetched today), 3 credits, 0 changes.\n");
      expect(box.messages).toHaveLength(1);
    } finally {
      await box.close();
    }
    expect(credits()).toBe(9);
    await withStore(async (s) => {
      // The firm's one meter, the audit trail and the list's log say which check it was.
      expect(await s.creditsSpent(bucharestMonth(T0))).toBe(3);
      const audit = (await s.auditSince(0)).filter((x) => x.endpoint === "watch clienti financial");
      expect(audit.map((x) => [x.user, x.credits, x.status])).toEqual([
        [FIRM_ACCOUNT, 3, 200],
        [FIRM_ACCOUNT, 0, 200],
        [FIRM_ACCOUNT, 3, 200],
        [FIRM_ACCOUNT, 3, 200],
      ]);
      const log = (await s.watch.log("clienti")).filter((e) => e.kind === "checked");
      expect(log.map((e) => [e.detail.check, e.detail.changes])).toEqual([
        ["financial", 0],
        ["financial", 0],
        ["financial", 2],
        ["financial", 0],
      ]);
    });
  });

  test("a budget spent mid financial check: INCOMPLETE (exit 3), no change reported for the companies not looked at; with budget, the next check finds the new year", async () => {
    const cuis = valid.slice(200, 320);
    const latest = sb.config.latestYear;
    // A company of the last batch of 50 (the companies are asked in ascending order).
    const last = [...cuis].sort((x, y) => x - y).slice(100);
    const [late] = await withLatestYear(last);
    sb.config.filedUpTo = { [late]: latest - 1 };
    await withStore((s) => s.watch.addList({ name: "furnizori", owner: null, schedule: null, notify: [], cuis }, T0));
    expect((await run(T0, "furnizori", "--financial", "--watch-budget", "100")).code).toBe(0);
    sb.config.filedUpTo = {};
    // 3 spent this month: a budget of 5 lets two of the three batches through.
    const cut = await run(T0 + DAY, "furnizori", "--financial", "--watch-budget", "5");
    expect(cut).toEqual({
      code: 3,
      out: "furnizori (financial year): INCOMPLETE — the monthly budget is spent: 20 of 120 companies could not be looked at (their values were kept; the next check looks again); 2 credits, 0 changes among the others.\n",
    });
    expect(credits()).toBe(5);
    await withStore(async (s) => {
      expect((await s.usageOf(FIRM_ACCOUNT, bucharestMonth(T0)))!.spent).toBe(5);
      const log = (await s.watch.log("furnizori")).slice(1).map((e) => [e.kind, e.detail.check, e.detail.reason, e.detail.unknown]);
      expect(log).toEqual([
        ["checked", "financial", undefined, 0],
        ["incomplete", "financial", "budget_exhausted", 20],
      ]);
      expect((await s.watch.seen("furnizori")).get(late)!.get("an_financiar")).toBeNull();
    });
    const after = await run(T0 + 2 * DAY, "furnizori", "--financial", "--watch-budget", "100");
    expect(after.out).toBe("furnizori (financial year): 120 companies checked (0 from answers fetched today), 3 credits, 1 changes.\n");
    const [change] = await withStore((s) => s.watch.changes("furnizori"));
    expect([change.cui, change.before, change.after]).toEqual([late, null, latest]);
  });
});

test("a financial check cut short (its instance stopping) is resumed by the next: the batches answered are not asked again, nothing paid twice", async () => {
  const cuis = valid.slice(0, 120);
  const store = await openFirmStore(database);
  const holder = randomUUID();
  const leases = new Leases({ store, holder, ttlMs: 30_000, now: () => T0 });
  try {
    await store.watchChecks.firmAccount(null, T0);
    await store.watch.addList({ name: "clienti", owner: null, schedule: null, notify: [], cuis }, T0);
    let allowed = 1;
    const deps = {
      store,
      upstream: upstream({ base: () => sb.url, key, timeoutMs: 30_000 }),
      maxPerDay: null,
      leases,
      holder,
      now: () => T0,
      revokedReason: () => "revoked",
    };
    const cut = await checkList({ ...deps, closing: () => allowed-- <= 0 }, "clienti", "fin:2026-04-01T03:00Z");
    expect([cut.outcome, cut.credits]).toEqual(["interrupted", 1]);
    expect(await store.watchChecks.unfinished()).toEqual([{ list: "clienti", tick: "fin:2026-04-01T03:00Z", holder }]);
    // An identification check meanwhile has a record of its own: it does not take the financial one over.
    expect((await checkList(deps, "clienti", "2026-04-01T03:00Z")).resumed).toBe(false);
    const resumed = await checkList(deps, "clienti", "fin:2026-04-01T03:01Z");
    expect([resumed.outcome, resumed.resumed, resumed.tick, resumed.reused, resumed.credits]).toEqual([
      "checked",
      true,
      "fin:2026-04-01T03:00Z",
      50,
      3,
    ]);
    // 2 identification batches + 3 financial batches, each once.
    expect(credits()).toBe(2 + 3);
    expect(await store.watchChecks.unfinished()).toEqual([]);
  } finally {
    await leases.close();
    await store.close();
  }
});

describe("a service that ignores include", () => {
  /** The list added through `firma watch add` (its cost range as it says it), then two checks a day apart, the registry changing between. */
  async function scenario(mode: "fields" | "ignored", cuis: number[], changed: Record<string, Record<string, string | boolean>>) {
    sb.config.includeMode = mode;
    sb.config.overrides = {};
    const file = path.join(dir, `list-${mode}.csv`);
    fs.writeFileSync(file, `CUI\n${cuis.join("\n")}\n`);
    const out = { text: "" };
    expect(await main(["add", "clienti", "--file", file, "--firm", "--database", database, "--json"], io(T0, out))).toBe(0);
    const cost = (JSON.parse(out.text) as { cost: { perCheck: { low: number; high: number } } }).cost.perCheck;
    const spent: number[] = [];
    let before = credits();
    for (const [i, at] of [T0, T0 + DAY].entries()) {
      if (i === 1) sb.config.overrides = changed;
      const r = await run(at, "clienti");
      expect(r.code).toBe(0);
      spent.push(credits() - before);
      before = credits();
    }
    const changes = (await withStore((s) => s.watch.changes("clienti"))).map((c) => [c.cui, c.field, c.before, c.after]);
    return { cost, spent, changes: changes.sort() };
  }

  test("the profiles of the companies whose item lacks a watched field: within the range `watch add` said (its upper end), the same changes as when batches carry the fields (its lower end)", async () => {
    const cuis = valid.slice(330, 360);
    const [x, y] = [cuis[3], cuis[17]];
    const changed: Record<string, Record<string, string>> = {
      [x]: { judet: "Județul Nou", caen_principal: "9999" },
      [y]: { adresa: "Str. Nouă 1", j_cod: "J99/999/2099", stare: "RADIATA" },
    };
    const honoured = await scenario("fields", cuis, changed);
    expect(honoured.cost).toEqual({ low: 1, high: 31 });
    expect(honoured.spent).toEqual([1, 1]);

    database = path.join(dir, "firm-ignored.db");
    key = `demo-business-watchfin${++serial}`;
    fs.writeFileSync(keyFile, key);
    const ignored = await scenario("ignored", cuis, changed);
    expect(ignored.cost).toEqual(honoured.cost);
    // One batch, which shows include ignored, then one profile per company: the range's upper end.
    expect(ignored.spent).toEqual([31, 31]);
    expect(ignored.changes).toEqual(honoured.changes);
    // The fields only a profile (or an honoured include) carries are among them.
    expect(ignored.changes.map((c) => c[1])).toEqual(expect.arrayContaining(["judet", "caen_principal", "adresa", "j_cod"]));
    // The same day again: today's profiles reused, nothing paid (the bare batch items are not).
    const again = await run(T0 + DAY + 60_000, "clienti");
    expect(again.out).toBe("clienti: 30 companies checked (30 from answers fetched today), 0 credits, 0 changes.\n");
  });

  test("a firm server that knows the service ignores include asks the profiles only (no batch); one that does not learns it from its first batch", async () => {
    sb.config.includeMode = "ignored";
    const cuis = valid.slice(0, 250);
    const store = await openFirmStore(database);
    const holder = randomUUID();
    const leases = new Leases({ store, holder, ttlMs: 30_000, now: () => T0 });
    try {
      await store.watchChecks.firmAccount(null, T0);
      await store.watch.addList({ name: "mare", owner: null, schedule: null, notify: [], cuis }, T0);
      await store.watch.addList({ name: "mica", owner: null, schedule: null, notify: [], cuis: valid.slice(260, 270) }, T0);
      const include = { includeIgnored: null as boolean | null };
      const deps = (at: number) => ({
        store,
        upstream: upstream({ base: () => sb.url, key, timeoutMs: 30_000 }),
        maxPerDay: null,
        leases,
        holder,
        now: () => at,
        include,
        revokedReason: () => "revoked",
      });
      const learned = await checkList(deps(T0), "mare", "t1");
      // 250 companies: the first batch shows include ignored; the other two batches are not asked.
      expect([learned.outcome, learned.credits]).toEqual(["checked", 251]);
      expect(include.includeIgnored).toBe(true);
      const calls = sb.requests.length;
      const known = await checkList(deps(T0), "mica", "t1");
      expect([known.outcome, known.credits]).toEqual(["checked", 10]);
      const asked = sb.requests.slice(calls).filter((r) => r.key === key);
      expect(asked.map((r) => r.endpoint)).toEqual(Array(10).fill("company"));
    } finally {
      await leases.close();
      await store.close();
    }
  });
});
