/**
 * `firma users add|list|revoke` (src/server/firm/users-command.ts) as an administrator types them, run
 * in this process against a SQLite file in a temporary folder: a token is shown once and only its hash
 * is stored; the list shows budgets, this month's spend, last seen and revoked; a revoked token stops
 * working; every bad input is one line from the catalogs, exit 2 (or 1), and nothing written.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { main } from "../../src/server/firm/users-command";
import { openFirmStore } from "../../src/server/firm/open-store";
import { hashToken } from "../../src/server/firm/tokens";
import { bucharestMonth } from "../../src/engine/credits/bucharest-time";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { main as auditMain } from "../../src/server/firm/audit-command";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";
import { withFirmStore } from "../support/firm-server";

let dir: string;
let db: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-users-"));
  db = path.join(dir, "firm.db");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** Runs `firma users …` with the clock at `now`; Romanian unless the environment says otherwise. */
async function users(argv: string[], env: Record<string, string> = {}, now = Date.now()): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env,
    now: () => now,
  });
  return { code, out: out.join(""), err: err.join("") };
}

/** The database's files (the main file and, while open, its journal), all their bytes. */
function dbBytes(): string {
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith("firm.db"))
    .map((f) => fs.readFileSync(path.join(dir, f)).toString("latin1"))
    .join("");
}

const withStore = <T>(body: (s: FirmStore) => Promise<T>): Promise<T> => withFirmStore(db, body);

const TOKEN = /firma_[A-Za-z0-9_-]{43}/;

describe("firma users add", () => {
  test("prints a new token once, says so, and stores only its hash", async () => {
    const r = await users(["add", "ana", "--budget", "500", "--database", db]);
    expect(r).toMatchObject({ code: 0, err: "" });
    const token = TOKEN.exec(r.out)![0];
    expect(r.out).toContain("ana a fost adăugat(ă), cu un buget de 500 de credite pe lună.");
    expect(r.out).toContain("Tokenul personal este arătat doar acum, o singură dată");
    const bytes = dbBytes();
    expect(bytes).not.toContain(token);
    expect(bytes).not.toContain(token.slice(6));
    expect(bytes).toContain(hashToken(token));
    const ana = await withStore((s) => s.userByTokenHash(hashToken(token), Date.now()));
    expect(ana).toMatchObject({ name: "ana", budget: 500, revokedAt: null });
  });

  test("two people get two different tokens", async () => {
    const a = await users(["add", "ana", "--budget", "5", "--database", db]);
    const b = await users(["add", "bob", "--budget", "5", "--database", db]);
    expect(TOKEN.exec(a.out)![0]).not.toBe(TOKEN.exec(b.out)![0]);
  });

  test("--json: {name, budget, email, token}, nothing else on stdout", async () => {
    const r = await users(["add", "ana", "--budget", "0", "--database", db, "--json"]);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(o)).toEqual(["name", "budget", "email", "token"]);
    expect(o).toMatchObject({ name: "ana", budget: 0 });
    expect(o.token).toMatch(new RegExp(`^${TOKEN.source}$`));
  });

  test("DATABASE_URL names the database when --database is not given", async () => {
    expect((await users(["add", "ana", "--budget", "5"], { DATABASE_URL: db })).code).toBe(0);
    expect(await withStore((s) => s.listUsers("2026-11"))).toHaveLength(1);
  });

  describe("bad input: one line, exit 2, nothing written", () => {
    const cases: [string, string[], RegExp][] = [
      ["a negative budget", ["add", "bob", "--budget", "-1"], /bugetul „-1” nu este un număr întreg ≥ 0/],
      ["a fractional budget", ["add", "bob", "--budget", "1.5"], /bugetul „1\.5” nu este un număr întreg ≥ 0/],
      ["a budget in words", ["add", "bob", "--budget", "abc"], /bugetul „abc” nu este un număr întreg ≥ 0/],
      ["an empty budget", ["add", "bob", "--budget", ""], /bugetul „” nu este/],
      ["no budget", ["add", "bob"], /lipsește bugetul lunar: dați --budget N/],
      ["a name with a space", ["add", "bob smith", "--budget", "5"], /numele „bob smith” nu este acceptat/],
      ["a name with a slash", ["add", "../bob", "--budget", "5"], /numele „\.\.\/bob” nu este acceptat/],
      ["a name too long", ["add", "b".repeat(65), "--budget", "5"], /nu este acceptat/],
      ["no name", ["add", "--budget", "5"], /lipsește numele persoanei/],
    ];
    test.each(cases)("%s", async (_, argv, message) => {
      // on a database that exists: the people unchanged
      await users(["add", "ana", "--budget", "500", "--database", db]);
      const before = await withStore((s) => s.listUsers("2026-11"));
      const r = await users([...argv, "--database", db]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.out).not.toMatch(TOKEN);
      expect(await withStore((s) => s.listUsers("2026-11"))).toEqual(before);
      // on one that does not: not even created
      const fresh = path.join(dir, "fresh.db");
      expect((await users([...argv, "--database", fresh])).code).toBe(2);
      expect(fs.existsSync(fresh)).toBe(false);
    });
  });

  test("a name that exists (revoked or not): exit 1, the first person's token and budget unchanged", async () => {
    const first = TOKEN.exec((await users(["add", "ana", "--budget", "500", "--database", db])).out)![0];
    const r = await users(["add", "ana", "--budget", "7", "--database", db]);
    expect(r.code).toBe(1);
    expect(r.err).toBe("firma users: există deja o persoană cu numele ana (poate revocată): alegeți alt nume. Nu s-a scris nimic.\n");
    expect(r.out).not.toMatch(TOKEN);
    expect(await withStore((s) => s.userByTokenHash(hashToken(first), Date.now()))).toMatchObject({ name: "ana", budget: 500 });
    await users(["revoke", "ana", "--database", db]);
    expect((await users(["add", "ana", "--budget", "7", "--database", db])).code).toBe(1);
    expect(await withStore((s) => s.listUsers("2026-11"))).toHaveLength(1);
  });

  test("a database URL with an unknown scheme: exit 2, nothing created", async () => {
    const r = await users(["add", "ana", "--budget", "5", "--database", "mysql://firma@localhost/firma"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^firma users: baza de date „mysql:\/\/localhost\/firma” nu este înțeleasă/);
    expect(r.out).toBe("");
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test("a database that refuses the connection: exit 1, one line, no password shown, no token shown", async () => {
    const r = await users(["add", "ana", "--budget", "5", "--database", "postgres://firma:s3cret@127.0.0.1:1/firma"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^firma users: baza de date postgres:\/\/127\.0\.0\.1:1\/firma nu poate fi deschisă \(.+\); verificați/);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).not.toContain("s3cret");
    expect(r.out).not.toMatch(TOKEN);
  });

  test("--json on a failure: the error as an object on stdout too", async () => {
    const r = await users(["add", "bob", "--budget", "x", "--database", db, "--json", "--lang", "en"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({
      error: "the budget “x” is not a whole number ≥ 0 of credits a month (for example --budget 500).",
      exitCode: 2,
    });
  });
});

describe("firma users list", () => {
  const NOW = Date.UTC(2026, 10, 25, 12, 0); // 25 November 2026, 14:00 in Bucharest

  test("name, budget, this month's spend (after the store records reservations), last seen, revoked", async () => {
    const ana = TOKEN.exec((await users(["add", "ana", "--budget", "500", "--database", db], {}, NOW)).out)![0];
    await users(["add", "bob", "--budget", "1200", "--database", db], {}, NOW);
    await users(["add", "cora", "--budget", "0", "--database", db], {}, NOW);
    await withStore(async (s) => {
      const month = bucharestMonth(NOW);
      for (let i = 0; i < 3; i++)
        expect(await s.reserveCredit({ user: "ana", month, day: "2026-11-25", maxPerDay: null, now: NOW })).toBe("ok");
      // last month's spend is not this month's
      expect(await s.reserveCredit({ user: "bob", month: "2026-10", day: "2026-10-30", maxPerDay: null, now: NOW - 30 * 86_400_000 })).toBe(
        "ok",
      );
      await s.userByTokenHash(hashToken(ana), NOW + 60_000);
    });
    await users(["revoke", "cora", "--database", db], {}, NOW + 120_000);

    const r = await users(["list", "--database", db], {}, NOW + 180_000);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^Nume +Buget lunar +Cheltuit în 2026-11 +Văzut ultima dată +Revocat$/);
    expect(lines[2]).toMatch(/^ana +500 +3 +2026-11-25 14:01:00$/);
    expect(lines[3]).toMatch(/^bob +1\.200 +0 +niciodată$/);
    expect(lines[4]).toMatch(/^cora +0 +0 +niciodată +2026-11-25 14:02:00$/);
    expect(lines[5]).toBe("Persoane: 3; cheltuit împreună în 2026-11: 3 credite.");

    const j = JSON.parse((await users(["list", "--database", db, "--json"], {}, NOW + 180_000)).out);
    expect(j.month).toBe("2026-11");
    expect(j.users.map((u: { name: string }) => u.name)).toEqual(["ana", "bob", "cora"]);
    expect(j.users[0]).toEqual({
      name: "ana",
      budget: 500,
      month: "2026-11",
      spent: 3,
      createdAt: new Date(NOW).toISOString(),
      lastSeenAt: new Date(NOW + 60_000).toISOString(),
      revokedAt: null,
    });
    expect(j.users[2].revokedAt).toBe(new Date(NOW + 120_000).toISOString());
  });

  test("in English with --lang en or an English LANG", async () => {
    await users(["add", "bob", "--budget", "1200", "--database", db], {}, NOW);
    for (const r of [
      await users(["list", "--database", db, "--lang", "en"], {}, NOW),
      await users(["list", "--database", db], { LANG: "en_GB.UTF-8" }, NOW),
    ]) {
      expect(r.out).toMatch(/^Name +Monthly budget +Spent in 2026-11 +Last seen +Revoked\n/);
      expect(r.out).toMatch(/\nbob +1,200 +0 +never\n/);
      expect(r.out).toContain("People: 1; spent together in 2026-11: 0 credits.");
    }
  });

  test("nobody yet: a sentence saying how to add someone", async () => {
    const r = await users(["list", "--database", db]);
    expect(r).toEqual({ code: 0, out: "Nicio persoană încă: adăugați una cu firma users add NUME --budget N.\n", err: "" });
    expect(JSON.parse((await users(["list", "--database", db, "--json"], {}, NOW)).out)).toEqual({ month: "2026-11", users: [] });
  });
});

describe("firma users revoke", () => {
  test("the token stops working at once; a second revoke and an unknown name are exit 1", async () => {
    const token = TOKEN.exec((await users(["add", "ana", "--budget", "5", "--database", db])).out)![0];
    const r = await users(["revoke", "ana", "--database", db]);
    expect(r).toEqual({ code: 0, out: "Tokenul lui/ei ana a fost revocat: următorul apel cu el primește 403.\n", err: "" });
    expect(await withStore((s) => s.userByTokenHash(hashToken(token), Date.now()))).toBeNull();

    const again = await users(["revoke", "ana", "--database", db]);
    expect(again).toMatchObject({ code: 1, err: "firma users: tokenul lui/ei ana era deja revocat.\n" });
    const unknown = await users(["revoke", "dan", "--database", db, "--lang", "en"]);
    expect(unknown).toMatchObject({ code: 1, err: "firma users: there is no person named dan.\n" });
    expect((await users(["revoke", "no body", "--database", db])).code).toBe(2);
    expect(JSON.parse((await users(["revoke", "dan", "--database", db, "--json"])).out).exitCode).toBe(1);
  });

  test("--json: {name, revoked}", async () => {
    await users(["add", "ana", "--budget", "5", "--database", db]);
    expect(JSON.parse((await users(["revoke", "ana", "--database", db, "--json"])).out)).toEqual({ name: "ana", revoked: true });
  });
});

test("an unknown subcommand or option is a usage error (exit 2); --help is 0", async () => {
  expect((await users(["promote", "ana"])).code).toBe(2);
  expect((await users(["list", "--frobnicate"])).code).toBe(2);
  const help = await users(["add", "--help"]);
  expect(help.code).toBe(0);
  expect(help.out).toContain("--budget <credits>");
});

const pgBin = postgresBinDir();
(pgBin ? describe : describe.skip)("on PostgreSQL (a throwaway cluster): the same commands, the same database for everyone", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres(pgBin);
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test("a read-only database: exit 1, one line, no token shown, nothing written", async () => {
    const url = await cluster.createDatabase("firm_ro");
    expect((await users(["add", "ana", "--budget", "5", "--database", url])).code).toBe(0);
    await cluster.sql("ALTER DATABASE firm_ro SET default_transaction_read_only = on");
    const r = await users(["add", "bob", "--budget", "5", "--database", url]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `firma users: baza de date postgres://127.0.0.1:${cluster.port}/firm_ro este doar pentru citire: nu s-a scris nimic.\n`,
    );
    expect(r.out).not.toMatch(TOKEN);
    expect((await cluster.sql("SELECT name FROM firm_users", "firm_ro")).map((u) => u.name)).toEqual(["ana"]);
  });

  test("add, a name taken, list with spend, revoke, audit: only the token's hash in the database", async () => {
    const url = await cluster.createDatabase("firm_cmds");
    const NOW = Date.UTC(2026, 10, 25, 12, 0);
    const add = await users(["add", "ana", "--budget", "500", "--database", url, "--json"], {}, NOW);
    expect(add.code).toBe(0);
    const { token } = JSON.parse(add.out) as { token: string };
    expect(token).toMatch(TOKEN);
    const rows = await cluster.sql("SELECT * FROM firm_users", "firm_cmds");
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token.slice(6));
    expect(rows[0].token_hash).toBe(hashToken(token));

    // DATABASE_URL as firma serve reads it; a name taken is refused with nothing written
    const again = await users(["add", "ana", "--budget", "1"], { DATABASE_URL: url }, NOW);
    expect(again.code).toBe(1);
    expect(again.err).toContain("există deja o persoană cu numele ana");
    expect((await users(["add", "bob", "--budget", "1.5", "--database", url], {}, NOW)).code).toBe(2);
    expect(await cluster.sql("SELECT name, budget FROM firm_users", "firm_cmds")).toEqual([{ name: "ana", budget: 500 }]);

    const store = await openFirmStore(url);
    try {
      expect(await store.reserveCredit({ user: "ana", month: "2026-11", day: "2026-11-25", maxPerDay: null, now: NOW })).toBe("ok");
      await store.audit({
        at: NOW,
        user: "ana",
        endpoint: "/v4/firme/batch",
        cuis: [14399840],
        source: "upstream",
        credits: 1,
        status: 200,
      });
    } finally {
      await store.close();
    }
    const list = JSON.parse((await users(["list", "--database", url, "--json"], {}, NOW)).out);
    expect(list.users).toMatchObject([{ name: "ana", budget: 500, spent: 1 }]);
    let auditOut = "";
    const trail = await auditMain(["--since", "2026-11-25", "--database", url, "--json"], {
      stdout: { write: (s: string) => void (auditOut += s) },
      stderr: { write: () => 0 },
      env: {},
      now: () => NOW,
    });
    expect(trail).toBe(0);
    expect(JSON.parse(auditOut).total).toEqual({ requests: 1, fromStore: 0, credits: 1 });

    expect((await users(["revoke", "ana", "--database", url], {}, NOW)).code).toBe(0);
    const s2 = await openFirmStore(url);
    try {
      expect(await s2.userByTokenHash(hashToken(token), NOW)).toBeNull();
    } finally {
      await s2.close();
    }
  });
});
