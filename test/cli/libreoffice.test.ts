/**
 * An independent consumer reads what we write: LibreOffice converts a generated workbook and a
 * patched one to CSV. Skipped (with the reason in the test name) when `soffice` is not installed:
 * `apt-get install -y libreoffice-calc`.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, demoSpec } from "../fixtures/build-workbook";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { patchWorkbook } from "../../src/cli/patch";
import { WritablePackage, openWritable } from "../../src/cli/writable-package";
import { fixtureBytes, hasSoffice, toCsv } from "./helpers";

const available = hasSoffice();
if (!available) {
  process.stderr.write("\n[test/cli/libreoffice] SKIPPED: soffice is not installed (apt-get install -y libreoffice-calc)\n\n");
}
const suite = available ? describe : describe.skip;
const title = available
  ? "LibreOffice reads the workbooks we write"
  : "LibreOffice reads the workbooks we write — SKIPPED: soffice is not installed (apt-get install -y libreoffice-calc)";

suite(title, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "firma-lo-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("a generated workbook converts to CSV; constants come through", () => {
    const bytes = buildWorkbook(demoSpec({ rows: 40 }));
    const sheets = toCsv(dir, "demo.xlsx", bytes);
    const rows = sheets.get("Firme");
    expect(rows).toBeDefined();
    expect(rows![0].slice(0, 6)).toEqual(["CUI", "Denumire", "Stare", "Județ", "Cifra de afaceri 2024", "Profit net 2024"]);
    expect(rows!.length).toBe(41);
    const wb = Workbook.open(bytes);
    for (let r = 2; r <= 41; r++) {
      const v = wb.getValue("Firme", `A${r}`);
      expect(rows![r - 1][0]).toBe(v === null ? "" : String(v));
      expect(rows![r - 1][1]).not.toBe(""); // a formula cell is there
    }
  }, 180_000);

  test("a patched Excel-saved workbook (values, a grown spill with inserted cells and rows) still loads", () => {
    const pkg = WritablePackage.open(fixtureBytes());
    pkg.write("xl/worksheets/sheet3.xml", pkg.readText("xl/worksheets/sheet3.xml").replace(/CONTOSO/g, "FIRMA"));
    const wb = openWritable(pkg.toBytes());
    const report = patchWorkbook(wb, [
      { sheet: "Correct", address: "A1", value: "SC Exemplu SRL" },
      {
        sheet: "Correct",
        address: "B1",
        value: [
          ["An", "CA"],
          [2023, 1],
          [2024, 2],
        ],
      },
    ]);
    expect(report.outcomes.map((o) => o.status)).toEqual(["written", "written"]);
    const sheets = toCsv(dir, "patched.xlsx", wb.pkg.toBytes());
    expect([...sheets.keys()].sort()).toEqual(["Correct", "Protected", "Unprotected"]);
    // LibreOffice recalculates formulas of unknown functions (#NAME?), but it must see the 3×3 block
    expect(sheets.get("Correct")!.length).toBe(3);
    expect(sheets.get("Correct")![0].length).toBe(3);
  }, 180_000);
});
