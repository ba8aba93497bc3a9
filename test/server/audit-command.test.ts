/**
 * `firma audit` (src/server/firm/audit-command.ts) against a SQLite file in a temporary folder: the
 * trail since Bucharest midnight of the day asked, one person's or everyone's, as a table with its
 * total of credits, as JSON, or as a CSV file written whole or not at all; a bad date is exit 2.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { main } from "../../src/server/firm/audit-command";
import { openFirmStore } from "../../src/server/firm/open-store";
import { hashToken } from "../../src/server/firm/tokens";
import type { AuditEntry } from "../../src/server/firm/firm-store";

let dir: string;
let db: string;

// November 2026 in Bucharest is UTC+2: its first midnight is 2026-10-31T22:00Z.
const MIDNIGHT = Date.UTC(2026, 9, 31, 22, 0);
const NOW = Date.UTC(2026, 10, 25, 12, 0);
const TRAIL: AuditEntry[] = [
  { at: MIDNIGHT - 1, user: "ana", endpoint: "/v4/firme/batch", cuis: [14399840], source: "upstream", credits: 1, status: 200 },
  {
    at: MIDNIGHT,
    user: "ana",
    endpoint: "/v4/firme/batch",
    cuis: [14399840, 1590082, 6719278, 13548146, 8001],
    source: "upstream",
    credits: 4,
    status: 200,
  },
  {
    at: MIDNIGHT + 3_600_000,
    user: "bob",
    endpoint: "/v4/firme/batch",
    cuis: [14399840, 1590082],
    source: "store",
    credits: 0,
    status: 200,
  },
  { at: MIDNIGHT + 7_200_000, user: "bob", endpoint: "/v4/firme/6719278", cuis: [6719278], source: "upstream", credits: 1, status: 200 },
  { at: MIDNIGHT + 10_800_000, user: "ana", endpoint: "/v4/firme/search", cuis: [], source: "refused", credits: 0, status: 429 },
];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-audit-"));
  db = path.join(dir, "firm.db");
  const s = await openFirmStore(db);
  await s.addUser("ana", 500, hashToken("firma_" + "a".repeat(43)), MIDNIGHT - 86_400_000);
  await s.addUser("bob", 500, hashToken("firma_" + "b".repeat(43)), MIDNIGHT - 86_400_000);
  await s.addUser("cora", 500, hashToken("firma_" + "c".repeat(43)), MIDNIGHT - 86_400_000);
  for (const e of TRAIL) await s.audit(e);
  await s.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function audit(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, "--database", db], {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env,
    now: () => NOW,
  });
  return { code, out: out.join(""), err: err.join("") };
}

describe("firma audit", () => {
  test("since Bucharest midnight: when, who, endpoint, companies, source, credits, status; the total", async () => {
    const r = await audit(["--since", "2026-11-01"]);
    expect(r).toMatchObject({ code: 0, err: "" });
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^Când +Cine +Endpoint +Companii +Sursa +Credite +Stare$/);
    expect(lines.slice(2)).toEqual([
      expect.stringMatching(/^2026-11-01 00:00:00 +ana +\/v4\/firme\/batch +14399840 1590082 6719278 și încă 2 +serviciul +4 +200$/),
      expect.stringMatching(/^2026-11-01 01:00:00 +bob +\/v4\/firme\/batch +14399840 1590082 +depozitul firmei +0 +200$/),
      expect.stringMatching(/^2026-11-01 02:00:00 +bob +\/v4\/firme\/6719278 +6719278 +serviciul +1 +200$/),
      expect.stringMatching(/^2026-11-01 03:00:00 +ana +\/v4\/firme\/search +refuzat +0 +429$/),
      "Total de la 2026-11-01: 4 apeluri, dintre care 1 din depozitul firmei; 5 credite cheltuite la serviciu.",
    ]);
  });

  test("--user: one person's requests only", async () => {
    const r = await audit(["--since", "2026-11-01", "--user", "bob", "--lang", "en"]);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/ ana /);
    expect(r.out.trimEnd().split("\n").slice(-1)[0]).toBe(
      "Total since 2026-11-01: 2 calls, of which 1 from the firm's store; 1 credit spent at the service.",
    );
    const none = await audit(["--since", "2026-11-01", "--user", "cora"]);
    expect(none).toEqual({ code: 0, out: "Nicio cerere de la 2026-11-01.\n", err: "" });
  });

  test("an earlier day takes in the day before; a later one leaves it all out", async () => {
    expect((await audit(["--since", "2026-10-31"])).out).toContain("Total de la 2026-10-31: 5 apeluri");
    expect((await audit(["--since", "2026-11-02"])).out).toBe("Nicio cerere de la 2026-11-02.\n");
  });

  test("--json: the entries (ISO times) and the totals", async () => {
    const r = await audit(["--since", "2026-11-01", "--user", "ana", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      since: "2026-11-01",
      user: "ana",
      entries: [
        {
          at: "2026-10-31T22:00:00.000Z",
          user: "ana",
          endpoint: "/v4/firme/batch",
          cuis: [14399840, 1590082, 6719278, 13548146, 8001],
          source: "upstream",
          credits: 4,
          status: 200,
        },
        { at: "2026-11-01T01:00:00.000Z", user: "ana", endpoint: "/v4/firme/search", cuis: [], source: "refused", credits: 0, status: 429 },
      ],
      total: { requests: 2, fromStore: 0, credits: 4 },
    });
  });

  test("--csv: a header in both languages, one row a request, written whole", async () => {
    const file = path.join(dir, "audit.csv");
    const r = await audit(["--since", "2026-11-01", "--csv", file]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      `Jurnalul (4 apeluri) a fost scris în ${file}.\nTotal de la 2026-11-01: 4 apeluri, dintre care 1 din depozitul firmei; 5 credite cheltuite la serviciu.\n`,
    );
    expect(fs.readFileSync(file, "utf8")).toBe(
      "\ufeffcând/when,cine/who,endpoint,CUI,sursa/source,credite/credits,status\r\n" +
        "2026-10-31T22:00:00.000Z,ana,/v4/firme/batch,14399840 1590082 6719278 13548146 8001,upstream,4,200\r\n" +
        "2026-10-31T23:00:00.000Z,bob,/v4/firme/batch,14399840 1590082,store,0,200\r\n" +
        "2026-11-01T00:00:00.000Z,bob,/v4/firme/6719278,6719278,upstream,1,200\r\n" +
        "2026-11-01T01:00:00.000Z,ana,/v4/firme/search,,refused,0,429\r\n",
    );
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  test("--csv where it cannot be written: exit 1, one line, no file and no temporary file left", async () => {
    const missing = path.join(dir, "no-such-folder", "audit.csv");
    const r = await audit(["--since", "2026-11-01", "--csv", missing]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `firma audit: fișierul ${missing} nu poate fi scris (dosarul sau fișierul nu există (ENOENT)); nu s-a scris nimic.\n`,
    );
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
    // a folder where the file should be: the rename fails, the temporary file is removed
    const folder = path.join(dir, "a-folder.csv");
    fs.mkdirSync(folder);
    const f = await audit(["--since", "2026-11-01", "--csv", folder, "--lang", "en"]);
    expect(f.code).toBe(1);
    expect(f.err).toMatch(/^firma audit: the file .*a-folder\.csv cannot be written \(.*\); nothing was written\.\n$/);
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(fs.readdirSync(dir).filter((x) => x.endsWith(".tmp"))).toEqual([]);
  });

  test.each(["2026-13-01", "2026-02-30", "2026-11-1", "01.11.2026", "yesterday", ""])(
    "a bad date (%p): exit 2, one line",
    async (since) => {
      const r = await audit(["--since", since]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`firma audit: data „${since}” nu este o zi a calendarului în forma AAAA-LL-ZZ (de exemplu --since 2026-11-01).\n`);
      expect(r.out).toBe("");
    },
  );

  test("an unknown person: exit 1; a name that cannot be one: exit 2", async () => {
    expect(await audit(["--since", "2026-11-01", "--user", "dan"])).toMatchObject({
      code: 1,
      err: "firma audit: nu există o persoană cu numele dan.\n",
    });
    expect((await audit(["--since", "2026-11-01", "--user", "d n"])).code).toBe(2);
  });

  test("without --since: from the start of this Bucharest month", async () => {
    expect((await audit([])).out).toContain("Total de la 2026-11-01: 4 apeluri");
  });

  test("in English with an English LANG", async () => {
    const r = await audit(["--since", "2026-11-01"], { LANG: "en_US.UTF-8" });
    expect(r.out).toMatch(/^When +Who +Endpoint +Companies +Source +Credits +Status\n/);
    expect(r.out).toMatch(/14399840 1590082 6719278 and 2 more +the service +4 +200/);
    expect(r.out).toMatch(/the firm's store +0 +200/);
  });
});
