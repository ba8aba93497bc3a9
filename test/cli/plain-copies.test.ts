/**
 * Plain copies for people without FIRMA. `--values-only` writes a copy whose FIRMA
 * formulas are replaced by their values (LibreOffice, converting it headless, shows the names, not
 * #NAME?); `--csv` writes the sheet of FIRMA cells as CSV; `--values-only` refuses --in-place.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, BuildCell } from "../fixtures/build-workbook";
import * as cli from "../support/cli";
import * as data from "../../sandbox/dataset";
import { startSandbox, Sandbox } from "../../sandbox/server";
import { hasSoffice, toCsv, unzipText } from "./helpers";

let sb: Sandbox;
let dir: string;
const CUIS = data.sampleCuis(20, 720_000);

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-plain-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

function book(name: string): string {
  const rows: BuildCell[][] = [["CUI", "Denumire", "Eticheta"]];
  CUIS.forEach((c, i) =>
    rows.push([c, { formula: `=FIRMA.DENUMIRE(A${i + 2})` }, { formula: `=IFERROR(FIRMA.JUDET(A${i + 2}),"-")`, cached: "?" }]),
  );
  const f = join(dir, name);
  writeFileSync(f, buildWorkbook({ sheets: [{ name: "Firme", rows }] }));
  return f;
}

/** `firma …` with this file's key, against the sandbox, without a cache or the progress bar. */
const firma = (args: string[]) => cli.firma(args, { args: ["--no-cache", "--no-progress"], key: "demo-enterprise-plain", baseUrl: sb.url });

test("--values-only: no FIRMA formula is left, each cell holds its value", async () => {
  const f = book("v.xlsx");
  const r = await firma(["refresh", f, "--values-only"]);
  expect(r.code).toBe(0);
  const sheet = unzipText(readFileSync(join(dir, "v.values.xlsx"))).get("xl/worksheets/sheet1.xml")!;
  expect(sheet).not.toMatch(/FIRMA/);
  expect(sheet).not.toMatch(/<f[ >]/);
  expect(sheet).toContain(data.company(CUIS[0])!.denumire.replace(/&/g, "&amp;"));
});

const lo = hasSoffice() ? test : test.skip;
lo(
  "a values-only copy opens in LibreOffice with the names (no #NAME?)",
  () => {
    book("lo.xlsx");
    const copy = join(dir, "lo.values.xlsx");
    return firma(["refresh", join(dir, "lo.xlsx"), "--values-only"]).then(() => {
      mkdirSync(join(dir, "lo"), { recursive: true });
      const csv = toCsv(join(dir, "lo"), "copy.xlsx", readFileSync(copy));
      const rows = [...csv.values()][0] ?? [];
      const text = rows.map((r) => r.join(",")).join("\n");
      expect(text).not.toMatch(/#NAME\?/);
      expect(text).toContain(data.company(CUIS[1])!.denumire.split(",")[0]);
    });
  },
  180_000,
);

test("--csv writes the FIRMA cells' sheet: header, CUIs, names, wrapped results", async () => {
  const f = book("c.xlsx");
  const csv = join(dir, "c.csv");
  const r = await firma(["refresh", f, "--csv", csv]);
  expect(r.code).toBe(0);
  const lines = readFileSync(csv, "utf8")
    .replace(/^\ufeff/, "")
    .trim()
    .split(/\r\n/);
  expect(lines[0]).toBe("CUI,Denumire,Eticheta");
  expect(lines).toHaveLength(21);
  const c = data.company(CUIS[2])!;
  const q = (s: string) => (/[",]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  expect(lines[3]).toBe(`${CUIS[2]},${q(c.denumire)},${q(c.judet)}`);
});

test("--values-only with --in-place is refused: the original's formulas would be lost", async () => {
  const f = book("i.xlsx");
  const before = readFileSync(f);
  const r = await firma(["refresh", f, "--values-only", "--in-place"]);
  expect(r.code).toBe(1);
  expect(r.all).toMatch(/--values-only .* --in-place/);
  expect(Buffer.compare(readFileSync(f), before)).toBe(0);
});

test("--csv to a place that cannot be written is refused before any credit, naming --csv (not --out)", async () => {
  const before = sb.usage("demo-enterprise-plain").total;
  const r = await firma(["refresh", book("n.xlsx"), "--csv", join(dir, "no-such-dir", "n.csv")]);
  expect(r.code).toBe(1);
  expect(r.all).toMatch(/no-such-dir.*--csv\./s);
  expect(r.all).not.toMatch(/--out/);
  expect(sb.usage("demo-enterprise-plain").total).toBe(before);
});

test("a sheet's CSV that cannot be written after the calls: the workbook is written, exit 2, and the message says what was spent and that, without a cache, a second run pays again; no temporary file is left", async () => {
  const rows: BuildCell[][] = [
    ["CUI", "Denumire"],
    ...CUIS.slice(0, 3).map((c, i): BuildCell[] => [c, { formula: `=FIRMA.DENUMIRE(A${i + 2})` }]),
  ];
  const f = join(dir, "two.xlsx");
  writeFileSync(
    f,
    buildWorkbook({
      sheets: [
        { name: "Firme", rows },
        { name: "Altele", rows },
      ],
    }),
  );
  // The path named passes the check before any call; the per-sheet file is a folder.
  mkdirSync(join(dir, "two.Altele.csv"));
  const before = sb.usage("demo-enterprise-plain").total;
  const r = await firma(["refresh", f, "--csv", join(dir, "two.csv"), "--lang", "en", "--json"]);
  const spent = sb.usage("demo-enterprise-plain").total - before;
  expect(r.code).toBe(2); // partial: the workbook and the other sheet's CSV are written
  expect(readFileSync(join(dir, "two.refreshed.xlsx")).length).toBeGreaterThan(0);
  expect(readFileSync(join(dir, "two.Firme.csv"), "utf8")).toContain("Denumire");
  expect(spent).toBeGreaterThan(0);
  expect(r.all).toContain(`Cannot write ${join(dir, "two.Altele.csv")}`);
  expect(r.all).toContain(`The refresh spent ${spent} credit`);
  expect(r.all).toMatch(/without a cache \(--no-cache\), running again spends them again\. Choose another place with --csv\./);
  expect(r.all).not.toMatch(/nothing was spent/);
  expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  // --json says it too: partial, and which copy is missing
  const json = JSON.parse(r.all.trim().split("\n").pop()!);
  expect(json).toMatchObject({ outcome: "partial", exitCode: 2, creditsSpent: spent, failedCopies: [join(dir, "two.Altele.csv")] });
});
