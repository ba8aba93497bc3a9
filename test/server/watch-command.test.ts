/**
 * `firma watch add|set|list|show|remove|log` (src/server/firm/watch-command.ts) as an administrator
 * types them, in this process, against a SQLite file in a temporary folder (and the same commands on
 * a throwaway PostgreSQL cluster): a list file with a header, blanks, duplicates and text; the cost
 * range and the budget's arithmetic; a wrong cron expression; owners revoked or unknown; every bad
 * input one line from the catalogs, exit 2 (or 1), and nothing written.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { withControlDigit } from "../../src/api/cui";
import { main } from "../../src/server/firm/watch-command";
import { main as usersMain } from "../../src/server/firm/users-command";
import type { FirmStore } from "../../src/server/firm/firm-store";
import { postgresBinDir, startPostgres, type PostgresCluster } from "../support/postgres";
import { withFirmStore } from "../support/firm-server";

/** Wednesday 25 November 2026, noon UTC: the 31 Bucharest days from that day's midnight hold 31 daily checks, 4 Mondays. */
const NOW = Date.UTC(2026, 10, 25, 12, 0);
const CUIS = [1234567, 7654321, 1111, 2222, 3333].map(withControlDigit);

let dir: string;
let db: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-watch-"));
  db = path.join(dir, "firm.db");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Ran {
  code: number;
  out: string;
  err: string;
}

async function call(fn: typeof main, argv: string[], env: Record<string, string> = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await fn(argv, {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env,
    now: () => NOW,
  });
  return { code, out: out.join(""), err: err.join("") };
}
const watch = (argv: string[], database = db) => call(main, [...argv, "--database", database]);
const users = (argv: string[], database = db) => call(usersMain, [...argv, "--database", database]);

function file(name: string, text: string | Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

const withStore = <T>(body: (s: FirmStore) => Promise<T>, database = db): Promise<T> => withFirmStore(database, body);

/** A CSV as Romanian Excel saves one: `;`, a header, a blank row, a duplicate, "RO" prefixes. */
const clientsCsv = () =>
  file("clienti.csv", `Nume;CUI\r\nAlfa SRL;RO${CUIS[0]}\r\nBeta SA;${CUIS[1]}\r\n;\r\nGama;${CUIS[2]}\r\nAlfa iar;${CUIS[0]}\r\n\r\n`);

test("a list from a CSV with a header, a blank and a duplicate: each CUI once, the cost as a range with its arithmetic", async () => {
  expect((await users(["add", "ana", "--budget", "100", "--email", "ana@firma.ro"])).code).toBe(0);
  const r = await watch(["add", "clienti", "--file", clientsCsv(), "--owner", "ana", "--notify", "contabil@firma.ro, sef@firma.ro"]);
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  expect(r.out).toContain("coloana B: 3 CUI-uri; 1 celule goale sărite, 1 duplicate luate o dată; primul rând, antet.");
  expect(r.out).toContain("Lista clienti (ana) urmărește 3 firme.");
  expect(r.out).toContain("Verificare: 0 6 * * * (implicit), ora României.");
  // ⌈3/100⌉ = 1 a check, 1 + 3 profiles at most; 31 daily checks + ⌈3/50⌉ = 1 for the financial year
  expect(r.out).toContain("Cost: 1–4 credite pe verificare");
  expect(r.out).toContain("pe lună 32–125 de credite (31 zile cu verificare, plus 1 pentru anul financiar: 1 × 1, loturi de 50)");
  expect(r.out).toContain("mai mult dacă loturile nu poartă câmpurile urmărite: câte un profil pe firmă");
  expect(r.out).toContain("An financiar nou: 0 6 1 * * (implicit), ora României.");
  await withStore(async (s) => {
    expect(await s.watch.members("clienti")).toEqual([...CUIS.slice(0, 3)].sort((a, b) => a - b));
    expect(await s.watch.list("clienti")).toMatchObject({
      owner: "ana",
      schedule: null,
      notify: ["contabil@firma.ro", "sef@firma.ro"],
      companies: 3,
    });
    expect(await s.watch.emailOf("ana")).toBe("ana@firma.ro");
  });
  const json = JSON.parse((await watch(["show", "clienti", "--json"])).out) as { cuis: number[]; cost: { monthly: { low: number } } };
  expect(json.cuis).toHaveLength(3);
  expect(json.cost.monthly.low).toBe(32);
});

test("a file with text among the CUIs is refused with its rows, and nothing is written (not even the database)", async () => {
  const f = file("furnizori.csv", `CUI\n${CUIS[0]}\nnu știu\n\n${CUIS[1] + 1}\n123\n`);
  const r = await watch(["add", "furnizori", "--file", f, "--firm"]);
  expect(r.code).toBe(2);
  expect(r.err).toBe(
    `firma watch: fișierul ${f} are în coloana A celule care nu sunt CUI-uri valide (3): ` +
      `rândul 3 („nu știu”: nu e un CUI: doar cifre, opțional cu RO); rândul 5 („${CUIS[1] + 1}”: cifra de control nu se potrivește); ` +
      "rândul 6 („123”: cifra de control nu se potrivește). Corectați-le sau ștergeți rândurile; nu s-a scris nimic.\n",
  );
  expect(fs.existsSync(db)).toBe(false);
  // a column named by a header that is not there; a damaged .xlsx; an empty column
  expect((await watch(["add", "f", "--file", f, "--firm", "--column", "Cod fiscal"])).err).toContain("nu are coloana „Cod fiscal”");
  const xlsx = file("clienti.xlsx", Buffer.from([0x50, 0x4b, 3, 4, 0, 0]));
  const x = await watch(["add", "f", "--file", xlsx, "--firm"]);
  expect([x.code, x.err]).toEqual([2, expect.stringContaining("nu poate fi citit ca registru Excel")]);
  const none = await watch(["add", "f", "--file", file("gol.csv", "CUI\n\n\n"), "--firm"]);
  expect([none.code, none.err]).toEqual([2, expect.stringContaining("nu are niciun CUI în coloana A")]);
  const missing = await watch(["add", "f", "--file", path.join(dir, "nu-e.csv"), "--firm"]);
  expect([missing.code, missing.err]).toEqual([1, expect.stringContaining("nu poate fi citit (ENOENT)")]);
  expect(fs.existsSync(db)).toBe(false);
});

test("a wrong cron expression is refused with the expected form; a good one changes the month's cost", async () => {
  const f = clientsCsv();
  for (const bad of ["0 25 * * *", "0 0 6 * * *", "zilnic", "0 6 30 2 *"]) {
    const r = await watch(["add", "clienti", "--file", f, "--firm", "--schedule", bad]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`programul „${bad}” nu este o expresie cron (`);
    expect(r.err).toContain("dați 5 câmpuri, minut oră zi-a-lunii lună zi-a-săptămânii, ora României; de exemplu „0 6 * * *”");
  }
  expect(fs.existsSync(db)).toBe(false);
  const en = await call(main, ["add", "clienti", "--file", f, "--firm", "--schedule", "0 25 * * *", "--lang", "en", "--database", db]);
  expect(en.err).toContain('the schedule "0 25 * * *" is not a cron expression (Invalid value for hour: 25): give 5 fields');
  // Mondays only: 4 in the 31 days from Wednesday 25 November 2026 (30 November, 7, 14 and 21 December)
  const r = await watch(["add", "clienti", "--file", f, "--firm", "--schedule", "0  7 * * 1"]);
  expect(r.code).toBe(0);
  expect(r.out).toContain("Verificare: 0 7 * * 1, ora României.");
  expect(r.out).toContain("pe lună 5–17 credite (4 zile cu verificare");
  // The financial-year check on its own schedule: twice a month is 2 × ⌈3/50⌉; a wrong one refused the same way.
  const bad = await watch(["set", "clienti", "--financial-schedule", "lunar"]);
  expect([bad.code, bad.err]).toEqual([2, expect.stringContaining("programul „lunar” nu este o expresie cron (")]);
  const twice = await watch(["set", "clienti", "--financial-schedule", "0 5 1,15 * *"]);
  expect(twice.code).toBe(0);
  expect(twice.out).toContain("pe lună 6–18 credite (4 zile cu verificare, plus 2 pentru anul financiar: 2 × 1, loturi de 50)");
  const shown = await watch(["show", "clienti"]);
  expect(shown.out).toContain("An financiar nou: 0 5 1,15 * *, ora României.");
  await withStore(async (s) => expect((await s.watch.list("clienti"))?.financialSchedule).toBe("0 5 1,15 * *"));
});

test("the budget: a person's lists together, the firm's against --watch-budget, refused with the arithmetic", async () => {
  await users(["add", "ana", "--budget", "40"]);
  const f = clientsCsv();
  expect((await watch(["add", "clienti", "--file", f, "--owner", "ana"])).code).toBe(0);
  const r = await watch(["add", "furnizori", "--file", f, "--owner", "ana"]);
  expect(r.code).toBe(1);
  expect(r.err).toBe(
    "firma watch: lista furnizori costă cel puțin 32 de credite pe lună (31 verificări × 1 + 1 pentru anul financiar); " +
      "cu celelalte liste ale lui/ei ana (32) ajunge la 64, peste bugetul lunar de 40. " +
      "Măriți bugetul (firma users), răriți programul sau împărțiți lista; nu s-a scris nimic.\n",
  );
  // weekly fits: 4 × 1 + 1 = 5, and 32 + 5 ≤ 40
  expect((await watch(["add", "furnizori", "--file", f, "--owner", "ana", "--schedule", "0 6 * * 1"])).code).toBe(0);
  // making it daily again is refused, and leaves it weekly
  expect((await watch(["set", "furnizori", "--schedule", "0 6 * * *"])).code).toBe(1);
  await withStore(async (s) => expect((await s.watch.list("furnizori"))?.schedule).toBe("0 6 * * 1"));
  const firm = await watch(["add", "firma", "--file", f, "--firm", "--watch-budget", "10"]);
  expect([firm.code, firm.err]).toEqual([1, expect.stringContaining("peste bugetul listelor firmei de 10 (--watch-budget)")]);
  expect((await watch(["add", "firma", "--file", f, "--firm", "--watch-budget", "1.5"])).code).toBe(2);
  expect((await watch(["list", "--json"])).out).not.toContain('"name":"firma"');
});

test("owners: revoked or unknown refused; --owner with --firm, or neither, is a usage error", async () => {
  await users(["add", "ana", "--budget", "100"]);
  await users(["revoke", "ana"]);
  const f = clientsCsv();
  const revoked = await watch(["add", "clienti", "--file", f, "--owner", "ana"]);
  expect([revoked.code, revoked.err]).toEqual([
    1,
    "firma watch: ana este revocat(ă): listele sale nu se mai verifică; alegeți alt proprietar. Nu s-a scris nimic.\n",
  ]);
  expect((await watch(["add", "clienti", "--file", f, "--owner", "bob"])).err).toContain("nu există o persoană cu numele bob");
  expect((await watch(["add", "clienti", "--file", f, "--owner", "ana", "--firm"])).code).toBe(2);
  const neither = await watch(["add", "clienti", "--file", f]);
  expect([neither.code, neither.err]).toEqual([2, expect.stringContaining("dați --owner NUME (lista unei persoane) sau --firm")]);
  expect((await watch(["add", "clienti", "--file", f, "--firm", "--notify", "ana@firma"])).err).toContain(
    "adresa de e-mail „ana@firma” nu este acceptată",
  );
  await withStore(async (s) => expect(await s.watch.lists()).toEqual([]));
});

test("set, list, show, remove companies, remove the list, and the log of it all", async () => {
  const f = clientsCsv();
  expect((await watch(["add", "clienti", "--file", f, "--firm"])).code).toBe(0);
  expect((await watch(["add", "clienti", "--file", f, "--firm"])).err).toContain("există deja o listă cu numele clienti");
  // the companies replaced by another file's
  const other = file("noi.csv", `Cod fiscal\n${CUIS[2]}\n${CUIS[3]}\n${CUIS[4]}\n${CUIS[3]}\n`);
  const set = await watch(["set", "clienti", "--file", other, "--notify", "a@x.ro"]);
  expect(set.code).toBe(0);
  expect(set.out).toContain("Lista clienti a fost schimbată.");
  await withStore(async (s) => expect(await s.watch.members("clienti")).toEqual(CUIS.slice(2).sort((a, b) => a - b)));
  expect((await watch(["set", "clienti"])).code).toBe(2);
  expect((await watch(["set", "nimic", "--notify", "a@x.ro"])).err).toContain("nu există o listă cu numele nimic");
  const list = await watch(["list"]);
  expect(list.out).toMatch(/^Lista\s+Proprietar\s+Firme\s+Program\s+Credite pe lună/);
  expect(list.out).toMatch(/clienti\s+a firmei\s+3\s+0 6 \* \* \* \(implicit\)\s+32–125/);
  const show = await watch(["show", "clienti"]);
  expect(show.out).toContain("Alertele merg și la: a@x.ro.");
  expect(show.out).toContain(String(CUIS[4]));
  // two on the list, one not, one not a CUI
  expect((await watch(["remove", "clienti", String(CUIS[3]), "abc"])).code).toBe(2);
  const rm = await watch(["remove", "clienti", String(CUIS[3]), `RO${CUIS[4]}`, String(CUIS[0])]);
  expect(rm.out).toBe(`Din lista clienti au fost scoase 2 firme.\nNu erau în listă: ${CUIS[0]}.\n`);
  await withStore(async (s) => expect(await s.watch.members("clienti")).toEqual([CUIS[2]]));
  expect((await watch(["remove", "clienti"])).out).toBe("Lista clienti a fost ștearsă (jurnalul ei rămâne).\n");
  expect((await watch(["list"])).out).toContain("Nicio listă încă");
  const log = JSON.parse((await watch(["log", "clienti", "--json"])).out) as { entries: Array<{ kind: string }> };
  expect(log.entries.map((e) => e.kind)).toEqual(["added", "changed", "members_removed", "removed"]);
  expect((await watch(["log"])).out).toMatch(/Când\s+Lista\s+Ce\s+Detalii/);
});

test("firma users set --email, and a bad address refused", async () => {
  await users(["add", "ana", "--budget", "5"]);
  expect((await users(["set", "ana", "--email", "ana@firma.ro"])).out).toBe("Adresa lui/ei ana: ana@firma.ro.\n");
  expect((await users(["set", "ana", "--email", "nu-e-adresa"])).code).toBe(2);
  expect((await users(["set", "bob", "--email", "b@firma.ro"])).code).toBe(1);
  expect((await users(["set", "ana"])).code).toBe(2);
  await withStore(async (s) => expect(await s.watch.emailOf("ana")).toBe("ana@firma.ro"));
});

const pgBin = postgresBinDir();
(pgBin ? describe : describe.skip)("on PostgreSQL (a throwaway cluster): the same lists", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres(pgBin);
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  test("add, set, show, remove, the budget refused, the log", async () => {
    const url = await cluster.createDatabase("firm_watch");
    await users(["add", "ana", "--budget", "40", "--email", "ana@firma.ro"], url);
    const f = clientsCsv();
    expect((await watch(["add", "clienti", "--file", f, "--owner", "ana"], url)).code).toBe(0);
    expect((await watch(["add", "furnizori", "--file", f, "--owner", "ana"], url)).err).toContain(
      "ajunge la 64, peste bugetul lunar de 40",
    );
    expect((await watch(["set", "clienti", "--firm", "--schedule", "0 6 * * 1"], url)).code).toBe(0);
    const show = JSON.parse((await watch(["show", "clienti", "--json"], url)).out) as { owner: string | null; cuis: number[] };
    expect(show).toMatchObject({ owner: null, cuis: CUIS.slice(0, 3).sort((a, b) => a - b) });
    expect((await watch(["remove", "clienti", String(CUIS[0])], url)).code).toBe(0);
    expect(await cluster.sql("SELECT COUNT(*)::int AS n FROM firm_watch_members", "firm_watch")).toEqual([{ n: 2 }]);
    expect((await watch(["remove", "clienti"], url)).code).toBe(0);
    expect(await cluster.sql("SELECT COUNT(*)::int AS n FROM firm_watch_members", "firm_watch")).toEqual([{ n: 0 }]);
    const log = JSON.parse((await watch(["log", "--json"], url)).out) as { entries: Array<{ kind: string }> };
    expect(log.entries.map((e) => e.kind)).toEqual(["added", "changed", "members_removed", "removed"]);
    await withStore(async (s) => expect(await s.watch.emailOf("ana")).toBe("ana@firma.ro"), url);
  }, 60_000);
});
