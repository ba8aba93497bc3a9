/**
 * `firma match` end to end: the CLI as a person runs it (test/support/cli.ts), the engine's real
 * matcher, the sandbox over loopback. Names are real sandbox companies, found by asking the sandbox's
 * own search with a key of their own, then written the messy ways people write them ("SC X SRL",
 * lower case, without diacritics, "S.R.L."). Credits are checked against what the sandbox charged.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { Workbook } from "../../src/shared/xlsx/workbook";

const sb = sandboxPerFile(() => ({ faults: { errorRate: 0, resetRate: 0, malformedRate: 0, failNext: 0, rateLimitAfter: null } }));
let dir: string;
let n = 0;
const fresh = (plan = "pro") => `demo-${plan}-match${++n}`;

interface Company {
  cui: number;
  denumire: string;
  judet: string;
}
/** Companies whose name no other company of the sandbox has (a search by the whole name lists one). */
let unique: Company[] = [];

async function search(q: string, limit = 100): Promise<{ items: Company[]; total: number }> {
  const res = await fetch(`${sb.url}/v4/firme/search?q=${encodeURIComponent(q)}&limit=${limit}`, {
    headers: { "X-API-Key": "demo-enterprise-picker" },
  });
  const body = (await res.json()) as { data: Company[]; pagination: { total: number } };
  return { items: body.data, total: body.pagination.total };
}

const bare = (name: string) => name.replace(/\s+(SRL|SA)$/, "");
const plain = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "firma-match-e2e-"));
  const { items } = await search("trans");
  for (const c of items) {
    if (unique.length >= 6) break;
    if (!/ SRL$/.test(c.denumire)) continue;
    const same = await search(bare(c.denumire));
    if (same.total === 1) unique.push(c);
  }
  // one with diacritics in its name, to write without them
  const withMarks = items.find((c) => /[ȘȚĂÂÎșțăâî]/.test(c.denumire) && !unique.includes(c));
  if (withMarks && (await search(bare(withMarks.denumire))).total === 1) unique.push(withMarks);
  unique = unique.slice(0, 7);
  expect(unique.length).toBeGreaterThanOrEqual(5);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the sandbox charged lies between the report's credits and those less the calls it names as possibly not charged. */
function expectCharged(j: { creditsSpent: number; creditsUncertain: number }, charged: number): void {
  expect(charged).toBeLessThanOrEqual(j.creditsSpent);
  expect(charged).toBeGreaterThanOrEqual(j.creditsSpent - j.creditsUncertain);
}

/** The messy ways: "SC X SRL", lower case with S.R.L., without diacritics, upper case without the form. */
function messy(c: Company, i: number): string {
  const b = bare(c.denumire);
  switch (i % 4) {
    case 0:
      return `SC ${b} SRL`;
    case 1:
      return `${b.toLowerCase()} s.r.l.`;
    case 2:
      return plain(c.denumire).toLowerCase();
    default:
      return `S.C. ${plain(b)} S.R.L.`;
  }
}

function workbookOf(rows: unknown[][], name: string): string {
  const path = join(dir, name);
  writeFileSync(path, buildWorkbook({ sheets: [{ name: "Clienți", rows: rows as never }], addin: false }));
  return path;
}

describe("firma match on the sandbox", () => {
  it("matches messy names to their CUIs: sure rows get the CUI as a number; bad rows cost nothing; the credits are what the sandbox charged", async () => {
    const rows: unknown[][] = [["Client", "Județ"]];
    unique.forEach((c, i) => rows.push([messy(c, i), i % 2 === 0 ? plain(c.judet) : null]));
    rows.push([messy(unique[0], 1), unique[0].judet]); // a duplicate, written another way
    rows.push(["Trans", null]); // many companies: never sure
    rows.push(["Qwzxy Nimeni Srl", null]); // no such company
    rows.push([null, "Arad"], [4242, null], ["X", null], ["S.R.L.", null], [messy(unique[1], 0), "Atlantida"]);
    const path = workbookOf(rows, "clienti.xlsx");
    const key = fresh();
    const r = await firma(["match", path, "--column", "Client", "--county-column", "B", "--no-progress", "--no-cache", "--json"], {
      key,
      baseUrl: sb.url,
    });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    const wb = Workbook.open(readFileSync(join(dir, "clienti.matched.xlsx")));
    const v = (a: string) => wb.getValue("Clienți", a);
    expect([v("C1"), v("D1"), v("E1")]).toEqual(["CUI", "Denumire oficială", "Potrivire"]);
    unique.forEach((c, i) => {
      expect([v(`C${i + 2}`), v(`D${i + 2}`), v(`E${i + 2}`)]).toEqual([c.cui, c.denumire, "sigur"]);
    });
    const at = (k: number) => unique.length + 2 + k; // the rows after the companies
    expect(v(`C${at(0)}`)).toBe(unique[0].cui);
    expect(v(`C${at(1)}`)).toBeNull(); // "Trans": no CUI
    expect(String(v(`E${at(1)}`))).toMatch(/^ambiguu/);
    expect(v(`E${at(2)}`)).toBe("negăsit");
    expect(v(`E${at(3)}`)).toBe("necăutat: celulă goală");
    expect(v(`E${at(4)}`)).toMatch(/^necăutat: nu e un nume/);
    expect(v(`E${at(5)}`)).toBe("necăutat: nume prea scurt");
    expect(v(`E${at(6)}`)).toBe("necăutat: doar forma juridică, fără nume");
    expect(v(`E${at(7)}`)).toBe("necăutat: județ necunoscut „Atlantida”");
    expect(r.err).toContain("județ necunoscut „Atlantida”");
    expect(j.counts).toMatchObject({ sure: unique.length + 1, not_found: 1, not_searched: 5 });
    expect(j.counts.ambiguous + j.counts.likely).toBe(1);
    // what the sandbox charged is what the summary says (less any call it says may not have been charged), and the duplicate was not asked again
    expectCharged(j, sb.usage(key).total);
    expect(j.creditsSpent).toBeLessThanOrEqual(j.estimate.max);
    expect(j.creditsSpent).toBeGreaterThanOrEqual(j.estimate.min);
    expect(j.estimate.distinct).toBe(unique.length + 2);
    expect(r.err).toMatch(/credite cheltuite: \d+/);
  });

  it("counts a call without an answer as spent, and says the service may not have charged it", async () => {
    const path = workbookOf([["Client"], ...unique.slice(0, 3).map((c) => [c.denumire])], "unanswered.xlsx");
    const key = fresh();
    sb.config.faults = { ...sb.config.faults, failNext: 1 }; // the first search: a 500, not charged; its retry is answered
    try {
      const r = await firma(
        ["match", path, "--column", "A", "--no-cache", "--no-progress", "--json", "--out", join(dir, "unanswered.out.xlsx")],
        {
          key,
          baseUrl: sb.url,
        },
      );
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      expect(j.counts.sure).toBe(3);
      expect(j.creditsUncertain).toBe(1);
      expect(j.creditsSpent).toBe(sb.usage(key).total + 1);
      expect(r.err).toMatch(/credite cheltuite: cel mult \d+ .*serviciul poate să nu fi taxat 1 apel fără răspuns/);
    } finally {
      sb.config.faults = { ...sb.config.faults, failNext: 0 };
    }
  });

  it("asks nothing again on a second run with the disk cache", async () => {
    // names as the service spells them, but for case and legal form (diacritics: the test below)
    const path = workbookOf(
      [["Client"], ...unique.map((c, i) => [i % 2 ? `SC ${bare(c.denumire)} SRL` : c.denumire.toLowerCase()])],
      "again.xlsx",
    );
    const key = fresh();
    const args = [
      "match",
      path,
      "--column",
      "A",
      "--cache-dir",
      join(dir, "cache-again"),
      "--no-progress",
      "--json",
      "--out",
      join(dir, "again.out.xlsx"),
    ];
    const first = await firma(args, { key, baseUrl: sb.url });
    expect(first.code).toBe(0);
    const spent = sb.usage(key).total;
    expect(spent).toBeGreaterThan(0);
    const second = await firma([...args, "--force"], { key, baseUrl: sb.url });
    expect(second.code).toBe(0);
    expect(sb.usage(key).calls).toBe(spent);
    expect(JSON.parse(second.out).creditsSpent).toBe(0);
    expect(JSON.parse(second.out).counts.sure).toBe(unique.length);
  });

  // The engine (src/engine/match) searches a name typed with diacritics as typed while it does not know
  // whether the service folds them; once it has learned that it does, the same name's first query form is
  // the folded one, which the cache does not hold: the second run pays again for such names. Expected to
  // fail until the engine finds a cached answer under either form.
  test("asks nothing again on a second run for names typed with diacritics", async () => {
    const marked = unique.filter((c) => /[ȘȚĂÂÎșțăâî]/.test(c.denumire));
    expect(marked.length).toBeGreaterThan(1);
    // the first typed with its diacritics; the second without, which shows the engine that the service folds them
    const path = workbookOf([["Client"], [marked[0].denumire.toLowerCase()], [plain(marked[1].denumire)]], "marks.xlsx");
    const key = fresh();
    const args = [
      "match",
      path,
      "--column",
      "A",
      "--cache-dir",
      join(dir, "cache-marks"),
      "--no-progress",
      "--json",
      "--out",
      join(dir, "marks.out.xlsx"),
    ];
    expect((await firma(args, { key, baseUrl: sb.url })).code).toBe(0);
    const spent = sb.usage(key).calls;
    expect((await firma([...args, "--force"], { key, baseUrl: sb.url })).code).toBe(0);
    expect(sb.usage(key).calls).toBe(spent);
  });

  it("reads Romanian Excel's CSV: ; separators, Windows-1250 without a BOM, and UTF-8 with one, to the same answers", async () => {
    const c = unique.find((u) => /[ȘȚĂÂÎșțăâî]/.test(u.denumire)) ?? unique[0];
    const text = `Denumire;Județ\r\nSC ${bare(c.denumire)} SRL;${c.judet}\r\n${messy(unique[1], 1)};\r\n`;
    // Windows-1250: ș ț as Romanian Windows types them (ş ţ, cedilla), the rest Latin-2
    const cp1250: Record<string, number> = {
      ș: 0xba,
      ş: 0xba,
      ț: 0xfe,
      ţ: 0xfe,
      Ș: 0xaa,
      Ş: 0xaa,
      Ț: 0xde,
      Ţ: 0xde,
      ă: 0xe3,
      Ă: 0xc3,
      â: 0xe2,
      Â: 0xc2,
      î: 0xee,
      Î: 0xce,
    };
    writeFileSync(join(dir, "win.csv"), Buffer.from([...text].map((ch) => cp1250[ch] ?? ch.charCodeAt(0))));
    writeFileSync(join(dir, "bom.csv"), "\ufeff" + text);
    const key = fresh();
    const results = [];
    for (const f of ["win.csv", "bom.csv"]) {
      const r = await firma(["match", join(dir, f), "--column", "Denumire", "--county-column", "Județ", "--no-progress", "--no-cache"], {
        key,
        baseUrl: sb.url,
      });
      expect(r.code).toBe(0);
      results.push(readFileSync(join(dir, f.replace(".csv", ".matched.csv")), "utf8").split("\r\n"));
      expect(r.err).toContain(f === "win.csv" ? "windows-1250" : "utf-8");
    }
    const [win, bom] = results;
    expect(win[1]).toMatch(new RegExp(`,${c.cui},[^,]+,sure$`));
    expect(win[2]).toMatch(new RegExp(`,${unique[1].cui},[^,]+,sure$`));
    expect(win.map((l) => l.split(",").slice(-3).join(","))).toEqual(bom.map((l) => l.split(",").slice(-3).join(",")));
    expect(win[0]).toBe("\ufeffDenumire,Judeţ,cui,official_name,confidence"); // Windows-1250 has only the cedilla ţ
    expect(bom[0]).toBe("\ufeffDenumire,Județ,cui,official_name,confidence");
  });

  it("--dry-run on 50,000 names prints the estimate quickly and asks the sandbox nothing", async () => {
    const lines = ["Denumire"];
    for (let i = 0; i < 50_000; i++) lines.push(`SC Firma Numarul ${i} SRL`);
    writeFileSync(join(dir, "big.csv"), lines.join("\r\n"));
    const key = fresh();
    const t0 = Date.now();
    const r = await firma(["match", join(dir, "big.csv"), "--column", "A", "--dry-run", "--no-cache", "--json"], { key, baseUrl: sb.url });
    const ms = Date.now() - t0;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).estimate).toMatchObject({ distinct: 50_000, invalid: 0 });
    expect(JSON.parse(r.out).estimate.max).toBeGreaterThanOrEqual(50_000);
    expect(sb.usage(key).calls).toBe(0);
    expect(existsSync(join(dir, "big.matched.csv"))).toBe(false);
    expect(ms).toBeLessThan(15_000);
  });
});

describe("firma match when things go wrong", () => {
  const names = () => [["Client"], ...unique.map((c, i) => [messy(c, i)]), ["Trans"], ["Qwzxy Nimeni"]];

  it("--max-credits reached mid-run: the rest not searched, exit 2, what was matched still written, no credit past the budget", async () => {
    const path = workbookOf(names(), "budget.xlsx");
    const key = fresh();
    const r = await firma(["match", path, "--column", "A", "--max-credits", "3", "--no-cache", "--no-progress", "--json"], {
      key,
      baseUrl: sb.url,
    });
    expect(r.code).toBe(2);
    expect(sb.usage(key).total).toBeLessThanOrEqual(3);
    const j = JSON.parse(r.out);
    expectCharged(j, sb.usage(key).total);
    expect(j.counts.not_searched).toBeGreaterThan(0);
    expect(j.rows.filter((x: { stoppedBy?: string }) => x.stoppedBy === "budget").length).toBe(j.counts.not_searched);
    const wb = Workbook.open(readFileSync(join(dir, "budget.matched.xlsx")));
    const sure = j.rows.filter((x: { confidence: string }) => x.confidence === "sure");
    expect(sure.length).toBeGreaterThan(0);
    for (const s of sure) expect(wb.getValue("Clienți", `B${s.row}`)).toBe(s.cui);
    const stopped = j.rows.find((x: { stoppedBy?: string }) => x.stoppedBy);
    expect(Object.keys(stopped)).not.toContain("cause"); // the error object behind a stop stays inside
    expect(wb.getValue("Clienți", `D${stopped.row}`)).toMatch(/^necăutat: bugetul de credite s-a atins/);
    expect(r.err).toContain("Parțial");
  });

  it("a Free key's 10 credits a day: the names past them not searched, said as credits spent, exit 2", async () => {
    const rows: unknown[][] = [["Client"]];
    const { items } = await search("trans", 20);
    for (const c of items.slice(0, 14)) rows.push([c.denumire]);
    const path = workbookOf(rows, "free.xlsx");
    const key = fresh("free");
    const r = await firma(["match", path, "--column", "A", "--no-cache", "--no-progress", "--json"], { key, baseUrl: sb.url });
    expect(r.code).toBe(2);
    expect(sb.usage(key).total).toBe(10);
    const j = JSON.parse(r.out);
    expect(j.rows.some((x: { stoppedBy?: string }) => x.stoppedBy === "quota")).toBe(true);
    expect(r.err).toContain("creditele planului s-au epuizat");
    expect(existsSync(join(dir, "free.matched.xlsx"))).toBe(true);
  });

  it("a refused key: exit 1, nothing written, the message says so", async () => {
    const path = workbookOf(names(), "refused.xlsx");
    const r = await firma(["match", path, "--column", "A", "--no-cache", "--no-progress"], { key: "not-a-key", baseUrl: sb.url });
    expect(r.code).toBe(1);
    expect(r.err).toContain("cheia API a fost refuzată");
    expect(existsSync(join(dir, "refused.matched.xlsx"))).toBe(false);
  });

  it("the service down: exit 1, nothing written", async () => {
    const path = workbookOf(names(), "down.xlsx");
    const r = await firma(["match", path, "--column", "A", "--no-cache", "--no-progress"], { key: fresh(), baseUrl: "http://127.0.0.1:9" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("Niciun nume nu a primit răspuns");
    expect(existsSync(join(dir, "down.matched.xlsx"))).toBe(false);
  });

  it("the service failing (5xx on every call): the run stops early, exit 1, nothing written", async () => {
    const { items } = await search("trans", 60);
    sb.config.faults = { errorRate: 1 };
    const path = workbookOf([["Client"], ...items.map((c) => [c.denumire])], "failing.xlsx");
    const key = fresh();
    const r = await firma(["match", path, "--column", "A", "--no-cache", "--no-progress"], { key, baseUrl: sb.url });
    expect(r.code).toBe(1);
    expect(r.err).toContain("Niciun nume nu a primit răspuns");
    expect(existsSync(join(dir, "failing.matched.xlsx"))).toBe(false);
    // 60 names, each worth a call and a retry: the run gave up long before
    expect(sb.usage(key).calls).toBeLessThan(30);
  });

  it("an output that cannot be written: exit 1 before any call, nothing written", async () => {
    const path = workbookOf(names(), "nowhere.xlsx");
    const key = fresh();
    const r = await firma(["match", path, "--column", "A", "--out", join(dir, "no-such-folder", "x.xlsx"), "--no-cache"], {
      key,
      baseUrl: sb.url,
    });
    expect(r.code).toBe(1);
    expect(r.err).toContain("nu s-a cheltuit nimic");
    expect(sb.usage(key).calls).toBe(0);
  });

  it("occupied target cells: exit 1 before any call, the message says how many and where", async () => {
    const path = workbookOf(
      [
        ["Client", "Notă"],
        [messy(unique[0], 0), "de păstrat"],
        [messy(unique[1], 1), null],
      ],
      "busy.xlsx",
    );
    const key = fresh();
    const r = await firma(["match", path, "--column", "A", "--into", "B", "--no-cache"], { key, baseUrl: sb.url });
    expect(r.code).toBe(1);
    expect(r.err).toContain("2 celule din B1:D3");
    expect(sb.usage(key).calls).toBe(0);
  });
});

describe("firma match's help", () => {
  it("is listed by firma --help and has its own, in Romanian and in English", async () => {
    const top = await firma(["--help"]);
    expect(top.out).toMatch(/match \[opțiuni\] <names\.xlsx\|names\.csv>\s+găsește CUI-ul firmelor după nume/);
    const ro = await firma(["match", "--help"]);
    expect(ro.code).toBe(0);
    expect(ro.out).toContain("--county-column <column>");
    expect(ro.out).toContain("Coduri de ieșire:");
    expect(ro.out).toContain("CUI-ul se scrie doar când potrivirea e sigură");
    const en = await firma(["match", "--help", "--lang", "en"]);
    expect(en.out).toContain("find companies' CUIs by name");
    expect(en.out).toContain("Exit codes:");
    expect(en.out).toMatch(/--max-credits <n>\s+budget: no call past this many credits; the names\s+left are "not searched"/);
  });

  it("asks for the column when none is given", async () => {
    const r = await firma(["match", join(dir, "whatever.xlsx"), "--dry-run"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("--column B");
  });
});
