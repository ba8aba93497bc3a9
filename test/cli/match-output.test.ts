/**
 * `firma match` on a stand-in of the engine's matcher (the contract's two methods, answering from a
 * fixed table): what the workbook, the CSV and the JSON get for each confidence, the checks made
 * before any credit, and the CSV files as spreadsheet programs save them. The real matcher, on the
 * sandbox over loopback, is test/cli/match.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook } from "../fixtures/build-workbook";
import { runMatch, type MatchFlags } from "../../src/cli/match-run";
import type { MatchEngine, MatchOutcome, NameInput, MatchRunOptions } from "../../src/cli/match-types";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { cellXml, unzipText } from "./helpers";

/** The stand-in: a name's outcome by its text; one credit per distinct searched name, under maxCredits. */
function standIn(answers: Record<string, MatchOutcome>): MatchEngine & { calls: number; seen: NameInput[][] } {
  const problem = (i: NameInput): MatchOutcome | null =>
    i.name === null || i.name === undefined
      ? { confidence: "not_searched", candidates: [], problem: { kind: "empty" } }
      : typeof i.name !== "string"
        ? { confidence: "not_searched", candidates: [], problem: { kind: "not_text" } }
        : i.county === "Atlantis"
          ? { confidence: "not_searched", candidates: [], problem: { kind: "unknown_county", detail: "Atlantis" } }
          : null;
  const engine = {
    calls: 0,
    seen: [] as NameInput[][],
    ready: async () => {},
    persist: async () => {},
    matchEstimate(inputs: readonly NameInput[]) {
      const valid = inputs.filter((i) => !problem(i));
      const distinct = new Set(valid.map((i) => String(i.name).toUpperCase())).size;
      return { min: distinct, max: distinct * 2, distinct, cached: 0, invalid: inputs.length - valid.length };
    },
    async match(inputs: readonly NameInput[], options: MatchRunOptions = {}) {
      engine.seen.push([...inputs]);
      let credits = 0;
      const done = new Map<string, MatchOutcome>();
      const outcomes = inputs.map((i) => {
        const p = problem(i);
        if (p) return p;
        const key = String(i.name).toUpperCase();
        if (done.has(key)) return done.get(key)!;
        if (options.maxCredits !== undefined && credits >= options.maxCredits)
          return { confidence: "not_searched", candidates: [], stoppedBy: "budget" } as MatchOutcome;
        credits++;
        engine.calls++;
        const o = answers[String(i.name)] ?? { confidence: "not_found", candidates: [] };
        done.set(key, o);
        return o;
      });
      return { outcomes, credits, uncertain: 0 };
    },
  };
  return engine;
}

const ANSWERS: Record<string, MatchOutcome> = {
  "SC Alfa SRL": { confidence: "sure", cui: 14399840, officialName: "ALFA SRL", candidates: [{ cui: 14399840, denumire: "ALFA SRL" }] },
  "beta s.r.l.": { confidence: "likely", cui: 1000008, candidates: [{ cui: 1000008, denumire: "BETA CONSTRUCT SRL", judet: "Cluj" }] },
  Gama: {
    confidence: "ambiguous",
    candidates: [
      { cui: 1000016, denumire: "GAMA SRL", judet: "Iași" },
      { cui: 1000024, denumire: "GAMA SA", judet: "Alba" },
    ],
  },
  "=HYPERLINK(1)": { confidence: "sure", cui: 1000032, officialName: "=cmd|' /C calc'!A0", candidates: [] },
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "firma-match-"));
});

const flags = (more: Partial<MatchFlags> = {}): MatchFlags => ({
  header: true,
  cache: false,
  progress: false,
  key: "k",
  baseUrl: "http://127.0.0.1:9",
  ...more,
});

async function run(file: string, more: Partial<MatchFlags>, engine = standIn(ANSWERS)) {
  let out = "";
  let err = "";
  const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, env: {} };
  const code = await runMatch(file, flags(more), io, () => engine);
  return { code, out, err, engine };
}

function book(rows: unknown[][], name = "names.xlsx"): string {
  const path = join(dir, name);
  writeFileSync(path, buildWorkbook({ sheets: [{ name: "Clienți", rows: rows as never }], addin: false }));
  return path;
}

const ROWS = [
  ["Nume", "Oraș"],
  ["SC Alfa SRL", "Bacău"],
  ["beta s.r.l.", "Cluj"],
  ["Gama", "Iași"],
  ["Nimeni", "Arad"],
  [null, "Arad"],
  [12345, "Arad"],
  ["SC Alfa SRL", "Bacău"],
];

describe("the workbook's three columns", () => {
  it("writes the CUI as a number and the official name as text only for sure rows; the others get their confidence alone", async () => {
    const path = book(ROWS);
    const r = await run(path, { column: "Nume" });
    expect(r.code).toBe(0);
    const wb = Workbook.open(readFileSync(join(dir, "names.matched.xlsx")));
    const v = (a: string) => wb.getValue("Clienți", a);
    // C, D, E: right of the used range (A:B); a header row because the input has one
    expect([v("C1"), v("D1"), v("E1")]).toEqual(["CUI", "Denumire oficială", "Potrivire"]);
    expect([v("C2"), v("D2"), v("E2")]).toEqual([14399840, "ALFA SRL", "sigur"]);
    expect([v("C3"), v("D3")]).toEqual([null, null]); // likely: no CUI, no name
    expect(v("E3")).toMatch(/^probabil: de verificat/);
    expect([v("C4"), v("D4")]).toEqual([null, null]);
    expect(v("E4")).toMatch(/^ambiguu: 2 candidați/);
    expect([v("C5"), v("D5"), v("E5")]).toEqual([null, null, "negăsit"]);
    expect(v("E6")).toBe("necăutat: celulă goală");
    expect(v("E7")).toBe("necăutat: nu e un nume (un număr sau o valoare fără text)");
    expect([v("C8"), v("E8")]).toEqual([14399840, "sigur"]); // the duplicate: the same answer
    // the input's own cells are as they were
    expect([v("A2"), v("B4"), v("A7")]).toEqual(["SC Alfa SRL", "Iași", 12345]);
    // the summary counts each confidence and lists what to check with its candidates
    expect(r.err).toMatch(/sigure: 2, probabile: 1, ambigue: 1, negăsite: 1, necăutate: 2/);
    expect(r.err).toContain("1000008 BETA CONSTRUCT SRL (Cluj)");
    expect(r.err).toContain("1000016 GAMA SRL (Iași)");
    expect(r.err).toMatch(/names\.matched\.xlsx/);
    expect(r.engine.calls).toBe(4); // a duplicate is asked once
  });

  it("writes text as inline strings, a formula-like official name included, so that no program runs it", async () => {
    const path = book([["Nume"], ["=HYPERLINK(1)"]]);
    expect((await run(path, { column: "A" })).code).toBe(0);
    const xml = unzipText(readFileSync(join(dir, "names.matched.xlsx"))).get("xl/worksheets/sheet1.xml")!;
    expect(cellXml(xml, "B2")).toMatch(/^<c r="B2"><v>1000032<\/v><\/c>$/);
    expect(cellXml(xml, "C2")).toContain('t="inlineStr"');
    expect(cellXml(xml, "C2")).not.toContain("<f>");
    expect(Workbook.open(readFileSync(join(dir, "names.matched.xlsx"))).getValue("Clienți", "C2")).toBe("=cmd|' /C calc'!A0");
  });

  it("writes in English with --lang en, and without a header row with --no-header", async () => {
    const path = book([["SC Alfa SRL"], ["Nimeni"]]);
    expect((await run(path, { column: "A", header: false, lang: "en" })).code).toBe(0);
    const wb = Workbook.open(readFileSync(join(dir, "names.matched.xlsx")));
    // no header row: the first name's answer in row 1
    expect([wb.getValue("Clienți", "B1"), wb.getValue("Clienți", "D1"), wb.getValue("Clienți", "D2")]).toEqual([
      14399840,
      "sure",
      "not found",
    ]);
  });

  it("stops before any credit when a target cell is not empty, naming how many and where; --force writes over values", async () => {
    const path = book([
      ["Nume", null, null, "x"],
      ["SC Alfa SRL", null, null, "old"],
      ["Gama", null, null, null],
    ]);
    const r = await run(path, { column: "A", into: "C" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("2 celule din C1:E3");
    expect(r.err).toContain("prima D1");
    expect(r.engine.calls).toBe(0);
    expect(existsSync(join(dir, "names.matched.xlsx"))).toBe(false);
    const forced = await run(path, { column: "A", into: "C", force: true });
    expect(forced.code).toBe(0);
    const wb = Workbook.open(readFileSync(join(dir, "names.matched.xlsx")));
    expect([wb.getValue("Clienți", "C2"), wb.getValue("Clienți", "D2")]).toEqual([14399840, "ALFA SRL"]);
    expect(wb.getValue("Clienți", "D3")).toBeNull(); // ambiguous: nothing left of an old value
  });

  it("never writes over a formula, even with --force", async () => {
    const path = book([["Nume", { formula: "=1+1", form: "plain", cached: 2 }], ["SC Alfa SRL"]]);
    const r = await run(path, { column: "A", into: "B", force: true });
    expect(r.code).toBe(1);
    expect(r.err).toContain("au formule, prima B1");
    expect(r.engine.calls).toBe(0);
  });
});

describe("the checks made before any credit", () => {
  it("names a column that does not exist, with the header's columns", async () => {
    const r = await run(book(ROWS), { column: "Denumire" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("Coloana „Denumire” nu există");
    expect(r.err).toContain("A «Nume», B «Oraș»");
    expect(r.engine.calls).toBe(0);
  });

  it("refuses a column with no name in it (the wrong column), before any credit", async () => {
    const r = await run(book(ROWS), { column: "C" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("Coloana C din");
    expect(r.engine.calls).toBe(0);
  });

  it("names a sheet that does not exist, with the workbook's sheets", async () => {
    const r = await run(book(ROWS), { column: "A", sheet: "Furnizori" });
    expect(r.code).toBe(1);
    expect(r.err).toContain("nu are foaia „Furnizori”");
    expect(r.err).toContain("„Clienți”");
  });

  it("refuses an empty file, a header alone, and a file that is neither .xlsx nor .csv", async () => {
    writeFileSync(join(dir, "empty.csv"), "");
    expect((await run(join(dir, "empty.csv"), { column: "A" })).err).toContain("nu are niciun nume de căutat");
    expect((await run(book([["Nume"]]), { column: "A" })).code).toBe(1);
    writeFileSync(join(dir, "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const png = await run(join(dir, "photo.png"), { column: "A" });
    expect(png.code).toBe(1);
    expect(png.err).toContain("nu este un registru .xlsx și nici un fișier .csv");
    writeFileSync(join(dir, "fake.xlsx"), "not a zip");
    expect((await run(join(dir, "fake.xlsx"), { column: "A" })).err).toContain("nu este o arhivă ZIP");
  });

  it("refuses an output in a folder that does not exist, before any credit", async () => {
    const r = await run(book(ROWS), { column: "A", out: join(dir, "no", "such", "out.xlsx") });
    expect(r.code).toBe(1);
    expect(r.err).toContain("nu s-a cheltuit nimic");
    expect(r.engine.calls).toBe(0);
  });

  it("--dry-run prints the estimate as a range and spends nothing", async () => {
    const r = await run(book(ROWS), { column: "A", dryRun: true, json: true });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/între 4 și 8 credite/);
    expect(r.err).toContain("1 repetate, 2 greșite");
    expect(r.engine.calls).toBe(0);
    expect(JSON.parse(r.out).estimate).toEqual({ min: 4, max: 8, distinct: 4, cached: 0, invalid: 2 });
    expect(existsSync(join(dir, "names.matched.xlsx"))).toBe(false);
  });
});

describe("a budget reached mid-run", () => {
  it("leaves the rest not searched, exits 2 and still writes what was matched", async () => {
    const path = book(ROWS);
    const r = await run(path, { column: "A", maxCredits: 2, json: true });
    expect(r.code).toBe(2);
    const j = JSON.parse(r.out);
    expect(j.counts).toEqual({ sure: 2, likely: 1, ambiguous: 0, not_found: 0, not_searched: 4 });
    expect(j.rows[2]).toMatchObject({ row: 4, name: "Gama", confidence: "not_searched", stoppedBy: "budget" });
    expect(j.rows[1].candidates[0].cui).toBe(1000008); // the candidates of a likely row are in --json
    const wb = Workbook.open(readFileSync(join(dir, "names.matched.xlsx")));
    expect(wb.getValue("Clienți", "E4")).toBe("necăutat: bugetul de credite s-a atins (--max-credits)");
    expect(r.err).toContain("Parțial");
  });
});

describe("CSV in and out", () => {
  const win1250 = (text: string) => {
    // the code points of Windows-1250 for ș ț ă î â Ș Ț Ă Î Â (comma-below ș/ț as Romanian Windows types them: ş ţ, 0xBA 0xFE)
    const table: Record<string, number> = { ş: 0xba, ţ: 0xfe, ă: 0xe3, î: 0xee, â: 0xe2, Ş: 0xaa, Ţ: 0xde, Ă: 0xc3, Î: 0xce, Â: 0xc2 };
    return Buffer.from([...text].map((c) => table[c] ?? c.charCodeAt(0)));
  };

  it("reads Romanian Excel's CSV (; separators, Windows-1250) and writes the input's columns then cui, official_name, confidence", async () => {
    const path = join(dir, "clienţi.csv");
    writeFileSync(path, win1250('Denumire;Judeţ;Notă\r\nSC Alfa SRL;Bacău;"a;b"\r\nGama;Iaşi;\r\n=HYPERLINK(1);Braşov;x\r\n'));
    const r = await run(path, { column: "denumire", countyColumn: "judet" });
    expect(r.code).toBe(0);
    expect(r.err).toContain("windows-1250");
    expect(r.engine.seen[0]).toEqual([
      { name: "SC Alfa SRL", county: "Bacău" },
      { name: "Gama", county: "Iaşi" },
      { name: "=HYPERLINK(1)", county: "Braşov" },
    ]);
    const out = readFileSync(join(dir, "clienţi.matched.csv"), "utf8");
    expect(out.split("\r\n")).toEqual([
      "\ufeffDenumire,Judeţ,Notă,cui,official_name,confidence",
      "SC Alfa SRL,Bacău,a;b,14399840,ALFA SRL,sure",
      "Gama,Iaşi,,,,ambiguous",
      "\"'=HYPERLINK(1)\",Braşov,x,1000032,\"'=cmd|' /C calc'!A0\",sure",
      "",
    ]);
  });

  it("reads a UTF-8 CSV with a BOM and , separators, and a one-column file", async () => {
    const path = join(dir, "a.csv");
    writeFileSync(path, "\ufeffDenumire,Oraș\nSC Alfa SRL,Bacău\n");
    const r = await run(path, { column: "A", json: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).rows[0]).toMatchObject({ name: "SC Alfa SRL", confidence: "sure", cui: 14399840 });
    const one = join(dir, "one.csv");
    writeFileSync(one, "Gama\nNimeni\n");
    const r1 = await run(one, { column: "A", header: false, json: true });
    expect(JSON.parse(r1.out).counts).toMatchObject({ ambiguous: 1, not_found: 1 });
  });

  it("refuses --into and --force for a CSV input", async () => {
    const path = join(dir, "a.csv");
    writeFileSync(path, "Denumire\nGama\n");
    expect((await run(path, { column: "A", into: "C" })).code).toBe(1);
  });

  it("writes --csv beside the workbook for an .xlsx input", async () => {
    const path = book(ROWS);
    const r = await run(path, { column: "A", csv: join(dir, "out.csv") });
    expect(r.code).toBe(0);
    const lines = readFileSync(join(dir, "out.csv"), "utf8").split("\r\n");
    expect(lines[0]).toBe("\ufeffNume,Oraș,cui,official_name,confidence");
    expect(lines[1]).toBe("SC Alfa SRL,Bacău,14399840,ALFA SRL,sure");
    expect(lines[2]).toBe("beta s.r.l.,Cluj,,,likely");
    expect(lines[6]).toBe("12345,Arad,,,not_searched");
  });
});
