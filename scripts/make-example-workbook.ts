/**
 * Writes an example workbook in Excel's own form for the FIRMA add-in (see test/fixtures/build-workbook.ts).
 *
 *   npx tsx scripts/make-example-workbook.ts                          # examples/firma-exemplu.xlsx, 20 rows
 *   npx tsx scripts/make-example-workbook.ts out.xlsx --rows 500      # the load-test shape
 *   npx tsx scripts/make-example-workbook.ts out.xlsx --typed         # formulas as typed without the add-in
 *
 * The output is deterministic: the same options give byte-identical files.
 */
import { mkdirSync, writeFileSync } from "fs";
import { dirname, resolve } from "path";
import { buildWorkbook, demoSpec, type BuildSheet } from "../test/fixtures/build-workbook";
import { EXAMPLE_CUI, sampleCuis } from "../sandbox/dataset";

function main(argv: string[]): void {
  let out = resolve(__dirname, "..", "examples", "firma-exemplu.xlsx");
  let rows = 20;
  let form: "xldudf" | "typed" = "xldudf";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--rows") rows = Number(argv[++i]);
    else if (a === "--typed") form = "typed";
    else if (a === "-h" || a === "--help") {
      console.log("usage: make-example-workbook [out.xlsx] [--rows N] [--typed]");
      return;
    } else out = resolve(a);
  }
  if (!Number.isInteger(rows) || rows < 1) throw new Error("--rows must be a positive integer");
  // companies the sandbox knows, so that `npm run demo` fills real values
  const spec = demoSpec({ rows, form, cuis: [EXAMPLE_CUI, ...sampleCuis(Math.max(8, Math.ceil(rows / 2)), 0)] });
  const readme: BuildSheet = {
    name: "Citește-mă",
    columnWidths: [100],
    rows: [
      [{ value: "FIRMA — registru de exemplu / example workbook", style: "header" }],
      [
        "Coloana A are coduri fiscale (CUI): valide, repetate, invalide și goale. / Column A holds tax ids (CUI): valid, repeated, invalid and blank.",
      ],
      [
        "Coloanele B–F și H folosesc funcțiile FIRMA; valorile salvate sunt #N/A până la prima actualizare. / Columns B–F and H use FIRMA functions; saved values are #N/A until the first refresh.",
      ],
      ["Actualizare fără Excel: firma refresh firma-exemplu.xlsx / Refresh without Excel: firma refresh firma-exemplu.xlsx"],
    ],
  };
  spec.sheets.push(readme);
  const bytes = buildWorkbook(spec);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`${out}: ${bytes.length} bytes, ${rows} rows`);
}

main(process.argv.slice(2));
