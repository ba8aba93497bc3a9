/**
 * LibreOffice opens what `firma match` writes: the .matched.xlsx of a run on the sandbox, re-saved by
 * LibreOffice as .xlsx, keeps the three columns' types (the CUI a number, the official name and the
 * confidence text), and an official name that begins with "=" stays text. Skipped (with the reason in
 * the test name) when `soffice` is not installed: `apt-get install -y libreoffice-calc`.
 */
import { spawnSync } from "child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook } from "../fixtures/build-workbook";
import { firma } from "../support/cli";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { hasSoffice } from "./helpers";

const available = hasSoffice();
const suite = available ? describe : describe.skip;
const title = available
  ? "LibreOffice opens a .matched.xlsx"
  : "LibreOffice opens a .matched.xlsx — SKIPPED: soffice is not installed (apt-get install -y libreoffice-calc)";

const sb = sandboxPerFile(() => ({ overrides: {} }));

suite(title, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "firma-match-lo-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the CUI a number, the name and the confidence text, a name beginning with = still text", async () => {
    const res = await fetch(`${sb.url}/v4/firme/search?q=dacia%20trans%20botosani&limit=5`, {
      headers: { "X-API-Key": "demo-enterprise-lo" },
    });
    const [company] = ((await res.json()) as { data: { cui: number; denumire: string }[] }).data;
    // a company the registry renamed to a name that looks like a formula (the sandbox's override)
    const { data } = (await (
      await fetch(`${sb.url}/v4/firme/search?q=prima%20trans%2091&limit=5`, { headers: { "X-API-Key": "demo-enterprise-lo" } })
    ).json()) as {
      data: { cui: number }[];
    };
    const renamed = data[0].cui;
    sb.config.overrides = { [renamed]: { denumire: "=1+2 ZORILOR SRL" } };
    const input = join(dir, "nume.xlsx");
    writeFileSync(
      input,
      buildWorkbook({
        sheets: [{ name: "Nume", rows: [["Firmă"], [`sc ${company.denumire.toLowerCase()}`], ["=1+2 Zorilor S.R.L."], ["Qwzxy Nimeni"]] }],
        addin: false,
      }),
    );
    const r = await firma(["match", input, "--column", "A", "--no-cache", "--no-progress"], { key: "demo-pro-lo", baseUrl: sb.url });
    expect(r.code).toBe(0);
    const out = join(dir, "lo");
    mkdirSync(out);
    const lo = spawnSync(
      "soffice",
      [
        `-env:UserInstallation=file://${join(dir, "profile")}`,
        "--headless",
        "--convert-to",
        "xlsx",
        "--outdir",
        out,
        join(dir, "nume.matched.xlsx"),
      ],
      { encoding: "utf8", timeout: 150_000 },
    );
    expect(lo.status).toBe(0);
    const wb = Workbook.open(readFileSync(join(out, "nume.matched.xlsx")));
    const v = (a: string) => wb.getValue("Nume", a);
    expect([v("B1"), v("C1"), v("D1")]).toEqual(["CUI", "Denumire oficială", "Potrivire"]);
    expect(v("B2")).toBe(company.cui); // a number, as LibreOffice saved it
    expect(wb.getCell("Nume", "B2")!.t ?? "n").toBe("n");
    expect([v("C2"), v("D2")]).toEqual([company.denumire, "sigur"]);
    expect([v("B3"), v("C3"), v("D3")]).toEqual([renamed, "=1+2 ZORILOR SRL", "sigur"]);
    expect(wb.getCell("Nume", "C3")!.f).toBeUndefined(); // text, not a formula LibreOffice computed
    expect([v("B4"), v("C4"), v("D4")]).toEqual([null, null, "negăsit"]);
  });
});
