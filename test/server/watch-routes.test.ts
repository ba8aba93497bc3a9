/**
 * The pane's watch routes (src/server/firm/watch-routes.ts) on `firma serve`'s custody app over a real
 * SQLite file, called over loopback HTTP with personal tokens: a person adds HER list (owner her,
 * the server's schedule, no other address) after a quote that is the command's arithmetic; past her
 * budget she is refused with it and nothing is written; another person's list and the firm's are never
 * read or changed through her token; the changes of her lists (and of the firm's lists that alert her
 * address) since a change id, never another's; tokens and the rate limit as /firm/me; errors in the
 * API's shape, in the language asked for. The changes' queries on PostgreSQL too (a throwaway cluster).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { AddressInfo } from "net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { openFirmStore } from "../../src/server/firm/open-store";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { hashToken, newToken } from "../../src/server/firm/tokens";
import { withControlDigit } from "../../src/api/cui";
import { costOf } from "../../src/server/firm/watch-cost";
import { minimalDist } from "../support/firm-server";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";

let dir: string;
let dist: string;
let serial = 0;

interface Firm {
  url: string;
  store: FirmStore;
  app: FastifyInstance;
  token(name: string, budget: number, email?: string): Promise<string>;
  call(token: string | null, method: string, p: string, body?: unknown, lang?: string): Promise<{ status: number; body: any }>;
}
const open: Firm[] = [];

/** A custody server on loopback over a new database: an SQLite file, or `database` (PostgreSQL). */
async function firm(o: { rateLimit?: { max: number; windowMs: number }; database?: string } = {}): Promise<Firm> {
  const rateLimit = o.rateLimit;
  const store = await openFirmStore(o.database ?? path.join(dir, `firm${++serial}.sqlite`));
  const app = await buildApp({
    dist,
    publicUrl: "https://addin.test.example.ro/",
    upstream: "http://127.0.0.1:9/", // nothing here calls the service
    logger: false,
    custody: { store, key: "demo-business-watch-routes", maxCreditsPerDay: null, rateLimit },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const f: Firm = {
    url,
    store,
    app,
    async token(name, budget, email) {
      const token = newToken();
      await store.addUser(name, budget, hashToken(token), Date.now());
      if (email) await store.watch.setEmail(name, email);
      return token;
    },
    async call(token, method, p, body, lang) {
      const headers: Record<string, string> = {};
      if (token !== null) headers["X-API-Key"] = token;
      if (lang) headers["Accept-Language"] = lang;
      if (body !== undefined) headers["Content-Type"] = "application/json";
      const res = await fetch(url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text === "" ? null : JSON.parse(text) };
    },
  };
  open.push(f);
  return f;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-routes-"));
  dist = minimalDist(dir);
});

afterEach(async () => {
  for (const f of open.splice(0)) {
    await f.app.close();
    await f.store.close();
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cuis = (n: number, from = 1_000_000) => Array.from({ length: n }, (_, i) => withControlDigit(from + i * 7));
const change = (cui: number, field: string, before: unknown, after: unknown, name: string) => ({ cui, field, before, after, name });

describe("her lists, from the pane", () => {
  test("the quote is the command's arithmetic; the list added is hers, on the server's schedule, with no other address; a second add merges", async () => {
    const f = await firm();
    const ana = await f.token("ana", 500);
    const three = cuis(3);
    expect((await f.call(ana, "GET", "/firm/watch")).body).toEqual({ owner: "ana", budget: 500, lists: [], following: [] });

    const quote = await f.call(ana, "POST", "/firm/watch/quote", { list: "clienti", cuis: three });
    expect(quote.status).toBe(200);
    const expected = costOf(3, { schedule: null }, Date.now());
    expect(quote.body).toMatchObject({ list: "clienti", exists: false, companies: 3, adding: 3, already: 0, message: null });
    expect(quote.body.cost).toEqual(expected);
    expect(quote.body.budget).toEqual({ others: 0, total: expected.monthly.low, budget: 500, fits: true });
    expect(await f.store.watch.list("clienti")).toBeNull(); // a quote writes nothing

    const added = await f.call(ana, "POST", "/firm/watch/lists", { list: "clienti", cuis: three });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ list: "clienti", created: true, companies: 3, added: 3 });
    expect(await f.store.watch.list("clienti")).toMatchObject({ owner: "ana", schedule: null, notify: [], companies: 3 });

    // the same three and two more: two added, the list's cost for five
    const more = [...three, ...cuis(2, 2_000_000)];
    const q2 = await f.call(ana, "POST", "/firm/watch/quote", { list: "clienti", cuis: more });
    expect(q2.body).toMatchObject({ exists: true, companies: 5, adding: 2, already: 3 });
    const a2 = await f.call(ana, "POST", "/firm/watch/lists", { list: "clienti", cuis: more });
    expect(a2.status).toBe(200);
    expect(a2.body).toMatchObject({ created: false, companies: 5, added: 2 });
    expect(await f.store.watch.members("clienti")).toEqual([...more].sort((a, b) => a - b));

    const mine = (await f.call(ana, "GET", "/firm/watch")).body;
    expect(mine.lists).toEqual([
      {
        name: "clienti",
        mine: true,
        companies: 5,
        schedule: "0 6 * * *",
        scheduleDefault: true,
        cost: { low: costOf(5, { schedule: null }, Date.now()).monthly.low, high: costOf(5, { schedule: null }, Date.now()).monthly.high },
        stopped: null,
        lastCheck: null,
      },
    ]);
  });

  test("past her budget: refused with the arithmetic (her other lists counted), nothing written; the quote says so first", async () => {
    const f = await firm();
    const bob = await f.token("bob", 40);
    const now = Date.now();
    expect((await f.call(bob, "POST", "/firm/watch/lists", { list: "furnizori", cuis: cuis(3) })).status).toBe(201);
    const one = costOf(1, { schedule: null }, now).monthly.low;
    const others = costOf(3, { schedule: null }, now).monthly.low;
    expect(others + one).toBeGreaterThan(40); // a list of one company more passes his 40 credits

    const quote = await f.call(bob, "POST", "/firm/watch/quote", { list: "altii", cuis: cuis(1, 3_000_000) });
    expect(quote.body.budget).toEqual({ others, total: others + one, budget: 40, fits: false });
    expect(quote.body.message).toContain(`${others + one}`);

    const refused = await f.call(bob, "POST", "/firm/watch/lists", { list: "altii", cuis: cuis(1, 3_000_000) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("over_budget");
    const c = costOf(1, { schedule: null }, now);
    expect(refused.body.error.message).toBe(
      `lista altii ar costa cel puțin ${c.monthly.low} de credite pe lună (${c.checksPerMonth} verificări × ${c.perCheck.low} + ${c.financial} pentru anul financiar); cu celelalte liste ale dvs. (${others}) ajunge la ${others + one}, peste bugetul dvs. lunar de 40. Urmăriți mai puține firme sau cereți administratorului un buget mai mare; nu s-a scris nimic.`,
    );
    expect(await f.store.watch.list("altii")).toBeNull();
    // in English when the pane asks for it
    const en = await f.call(bob, "POST", "/firm/watch/lists", { list: "altii", cuis: cuis(1, 3_000_000) }, "en-GB");
    expect(en.body.error.message).toMatch(/^the list altii would cost at least \d+ credits a month .* over your monthly budget of 40\./);
    // growing his own list past it: refused too, the list as it was
    const grow = await f.call(bob, "POST", "/firm/watch/lists", { list: "furnizori", cuis: cuis(150, 4_000_000) });
    expect(grow.status).toBe(422);
    expect((await f.store.watch.list("furnizori"))!.companies).toBe(3);
  });

  test("another person's list and the firm's: never read, changed or removed through her token", async () => {
    const f = await firm();
    const ana = await f.token("ana", 500);
    const bob = await f.token("bob", 500);
    expect((await f.call(bob, "POST", "/firm/watch/lists", { list: "bob-list", cuis: cuis(2) })).status).toBe(201);
    await f.store.watch.addList({ name: "firma", owner: null, schedule: null, notify: [], cuis: cuis(2, 5_000_000) }, Date.now());
    for (const name of ["bob-list", "firma"]) {
      const attempts = [
        await f.call(ana, "POST", "/firm/watch/quote", { list: name, cuis: cuis(1, 6_000_000) }),
        await f.call(ana, "POST", "/firm/watch/lists", { list: name, cuis: cuis(1, 6_000_000) }),
        await f.call(ana, "POST", `/firm/watch/lists/${name}/remove`, { cuis: cuis(1) }),
        await f.call(ana, "DELETE", `/firm/watch/lists/${name}`),
        await f.call(ana, "GET", `/firm/watch/lists/${name}`),
      ];
      for (const a of attempts)
        expect({ name, status: a.status, code: a.body.error.code }).toEqual({ name, status: 403, code: "not_yours" });
    }
    expect(await f.store.watch.members("bob-list")).toEqual(cuis(2));
    expect(await f.store.watch.members("firma")).toEqual(cuis(2, 5_000_000));
    expect((await f.call(ana, "GET", "/firm/watch")).body.lists).toEqual([]);
    // her own list of the same kind of name: unknown to her until she adds it
    expect((await f.call(ana, "DELETE", "/firm/watch/lists/nimic")).status).toBe(404);
  });

  test("companies off her list, then the list; invalid CUIs refused by value, nothing written", async () => {
    const f = await firm();
    const ana = await f.token("ana", 500);
    const four = cuis(4);
    await f.call(ana, "POST", "/firm/watch/lists", { list: "clienti", cuis: four });
    const bad = await f.call(ana, "POST", "/firm/watch/lists", { list: "clienti", cuis: [four[0], "12345678", "abc"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: "bad_cuis", message: "nu sunt CUI-uri valide: 12345678, abc; nu s-a scris nimic." });
    const badName = await f.call(ana, "POST", "/firm/watch/lists", { list: "două cuvinte", cuis: four });
    expect(badName.body.error.code).toBe("bad_list_name");

    const removed = await f.call(ana, "POST", "/firm/watch/lists/clienti/remove", { cuis: [four[1], four[2], cuis(1, 9_000_000)[0]] });
    expect(removed.body).toEqual({ list: "clienti", removed: [four[1], four[2]], notMembers: [cuis(1, 9_000_000)[0]] });
    expect((await f.call(ana, "GET", "/firm/watch/lists/clienti")).body).toEqual({
      name: "clienti",
      mine: true,
      cuis: [four[0], four[3]],
      names: {},
    });
    expect((await f.call(ana, "DELETE", "/firm/watch/lists/clienti")).body).toEqual({ list: "clienti", removed: true });
    expect(await f.store.watch.list("clienti")).toBeNull();
  });
});

/**
 * Her lists' changes and those of the firm's lists that alert her address, after an id; never another
 * person's; the last check shown (on either engine: the store's queries are the same SQL).
 */
async function changesSinceHerLastVisit(f: Firm): Promise<void> {
  const ana = await f.token("ana", 500, "ana@firma.ro");
  const bob = await f.token("bob", 500);
  const [a1, a2, b1, f1] = cuis(4);
  await f.call(ana, "POST", "/firm/watch/lists", { list: "clienti", cuis: [a1, a2] });
  await f.call(bob, "POST", "/firm/watch/lists", { list: "bob-list", cuis: [b1] });
  await f.store.watch.addList({ name: "firma", owner: null, schedule: null, notify: ["ANA@firma.ro"], cuis: [f1] }, Date.now());
  await f.store.watch.addList({ name: "alta", owner: null, schedule: null, notify: ["x@firma.ro"], cuis: [f1] }, Date.now());
  const commit = (list: string, cs: ReturnType<typeof change>[]) =>
    f.store.watch.commitCheck(
      list,
      { changes: cs, updates: cs.map((c) => ({ cui: c.cui, field: c.field, value: c.after })), unknown: [] },
      Date.now(),
    );

  const [s1] = await commit("clienti", [change(a1, "stare", "ACTIVA", "RADIATA", "Alfa SRL")]);
  await commit("bob-list", [change(b1, "platitor_tva", true, false, "Beta SRL")]);
  const [s3] = await commit("firma", [change(f1, "denumire", "Gama SRL", "=Gama NOUA", "=Gama NOUA")]);
  await commit("alta", [change(f1, "adresa", "x", "y", "Gama")]);
  const [s5] = await commit("clienti", [change(a2, "platitor_tva", false, true, "Delta SRL")]);

  const all = (await f.call(ana, "GET", "/firm/watch/changes?after=0")).body;
  expect(all.changes.map((c: { id: number }) => c.id)).toEqual([s1.id, s3.id, s5.id]);
  expect(all.changes[1]).toEqual({
    id: s3.id,
    list: "firma",
    cui: f1,
    name: "=Gama NOUA",
    field: "denumire",
    before: "Gama SRL",
    after: "=Gama NOUA",
    seenAt: s3.seenAt,
  });
  expect(all).toMatchObject({ last: s5.id, more: false });
  const after = (await f.call(ana, "GET", `/firm/watch/changes?after=${s3.id}`)).body;
  expect(after.changes.map((c: { id: number }) => c.id)).toEqual([s5.id]);
  expect((await f.call(ana, "GET", `/firm/watch/changes?after=${s5.id}`)).body).toEqual({ changes: [], last: s5.id, more: false });
  expect((await f.call(ana, "GET", "/firm/watch/changes?after=-1")).status).toBe(400);
  // bob sees his own only
  expect((await f.call(bob, "GET", "/firm/watch/changes?after=0")).body.changes.map((c: { list: string }) => c.list)).toEqual(["bob-list"]);

  const lists = (await f.call(ana, "GET", "/firm/watch")).body;
  expect(lists.lists[0].lastCheck).toEqual({ at: expect.any(Number), outcome: "checked", changes: 1, unknown: 0, reason: null });
  expect(lists.following.map((l: { name: string; mine: boolean }) => [l.name, l.mine])).toEqual([["firma", false]]);
  expect((await f.call(ana, "GET", "/firm/watch/lists/firma")).body).toEqual({
    name: "firma",
    mine: false,
    cuis: [f1],
    names: { [f1]: "=Gama NOUA" },
  });
}

describe("her changes since her last visit", () => {
  test("her lists' changes and those of the firm's lists that alert her address, after an id; never another person's; the last check shown", async () => {
    await changesSinceHerLastVisit(await firm());
  });

  const pgSuite = postgresBinDir() === null ? describe.skip : describe;
  pgSuite("on PostgreSQL", () => {
    let pg: PostgresCluster;
    beforeAll(async () => {
      pg = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await pg?.stop();
    });
    test("the same, the firm's database on PostgreSQL", async () => {
      await changesSinceHerLastVisit(await firm({ database: await pg.createDatabase("watch_routes") }));
    });
  });
});

describe("tokens, limits and bodies as /firm/me", () => {
  test("no token 401, not a token 401, unknown or revoked 403: nothing read or written", async () => {
    const f = await firm();
    const ana = await f.token("ana", 500);
    expect((await f.call(null, "GET", "/firm/watch")).body.error.code).toBe("missing_token");
    expect((await f.call("abc", "POST", "/firm/watch/lists", { list: "x", cuis: cuis(1) })).status).toBe(401);
    expect((await f.call(newToken(), "POST", "/firm/watch/lists", { list: "x", cuis: cuis(1) })).status).toBe(403);
    await f.store.revokeUser("ana", Date.now());
    const revoked = await f.call(ana, "POST", "/firm/watch/lists", { list: "x", cuis: cuis(1) });
    expect(revoked.body.error.code).toBe("token_refused");
    expect(await f.store.watch.lists()).toEqual([]);
  });

  test("the rate limit of /firm/me, on each watch route: past it a 429 in the API's shape; a body too large or not JSON in the API's shape", async () => {
    const f = await firm({ rateLimit: { max: 3, windowMs: 60_000 } });
    const ana = await f.token("ana", 500);
    for (let i = 0; i < 3; i++) expect((await f.call(ana, "GET", "/firm/watch")).status).toBe(200);
    const limited = await f.call(ana, "GET", "/firm/watch");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(await f.store.watch.lists()).toEqual([]);

    const big = await f.call(ana, "POST", "/firm/watch/quote", { list: "x", cuis: Array.from({ length: 20_000 }, () => "1234567890") });
    expect(big).toEqual({
      status: 413,
      body: { error: { code: "body_too_large", message: expect.stringMatching(/^cererea depășește 200\.000 de octeți/) } },
    });
    const res = await fetch(`${f.url}/firm/watch/lists`, {
      method: "POST",
      headers: { "X-API-Key": ana, "Content-Type": "application/json" },
      body: "{nu",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("bad_request");
    expect(await f.store.watch.lists()).toEqual([]);
  });
});
