import { XMLValidator } from "fast-xml-parser";
import { buildWorkbook, demoSpec, FIRMA_ADDIN_ID, type BuildSpec } from "../fixtures/build-workbook";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { WritablePackage } from "../../src/cli/writable-package";
import { parseCui } from "../../src/api/cui";
import { cellXml, fixtureBytes, sameBytes, unzipText } from "./helpers";

describe("buildWorkbook: Excel's own form", () => {
  const spec: BuildSpec = {
    sheets: [
      {
        name: "Firme",
        columnWidths: [12, 30],
        rows: [
          [
            { value: "CUI", style: "header" },
            { value: "Denumire", style: "header" },
            { value: "CA 2024", style: "header" },
          ],
          [
            14399840,
            { formula: "=FIRMA.DENUMIRE(A2)", cached: "DANTE INTERNATIONAL SA" },
            { formula: "=FIRMA.CA(A2,2024)", cached: 123456 },
          ],
          ["RO14399840", { formula: "=FIRMA.DENUMIRE(A3)", form: "typed" }, { formula: "=FIRMA.CA(A3,2024)", form: "plain", cached: 1 }],
          [null, { formula: "=FIRMA.DENUMIRE(A4)" }, true],
          [
            { error: "#N/A" },
            {
              formula: "=FIRMA.ISTORIC(A2,2023,2024)",
              cached: [
                ["An", "CA"],
                [2023, 1],
                [2024, 2],
              ],
            },
          ],
        ],
      },
      { name: "Foaie 2", rows: [["a & b <c>"], [" spaced "]] },
    ],
  };
  const bytes = buildWorkbook(spec);
  const parts = unzipText(bytes);

  test("the parts Excel writes, each declared in [Content_Types].xml", () => {
    expect([...parts.keys()]).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/workbook.xml",
      "xl/_rels/workbook.xml.rels",
      "xl/worksheets/sheet1.xml",
      "xl/worksheets/sheet2.xml",
      "xl/styles.xml",
      "xl/sharedStrings.xml",
      "xl/metadata.xml",
      "xl/webextensions/taskpanes.xml",
      "xl/webextensions/_rels/taskpanes.xml.rels",
      "xl/webextensions/webextension1.xml",
      "docProps/core.xml",
      "docProps/app.xml",
    ]);
    const ct = parts.get("[Content_Types].xml")!;
    for (const name of parts.keys()) {
      if (name.endsWith(".rels") || name === "[Content_Types].xml") continue;
      expect(ct).toContain(`PartName="/${name}"`);
    }
  });

  test("every part is well-formed XML", () => {
    for (const [name, xml] of parts) expect([name, XMLValidator.validate(xml)]).toEqual([name, true]);
  });

  test('formula cells as Excel stores them: _xldudf_ with cm="1", typed form with #NAME?, plain, spill', () => {
    const s1 = parts.get("xl/worksheets/sheet1.xml")!;
    expect(cellXml(s1, "B2")).toBe(
      '<c r="B2" t="str" cm="1"><f t="array" ref="B2">_xldudf_FIRMA_DENUMIRE(A2)</f><v>DANTE INTERNATIONAL SA</v></c>',
    );
    expect(cellXml(s1, "C2")).toBe('<c r="C2" cm="1"><f t="array" ref="C2">_xldudf_FIRMA_CA(A2,2024)</f><v>123456</v></c>');
    expect(cellXml(s1, "B3")).toBe('<c r="B3" t="e" cm="1"><f t="array" aca="1" ref="B3" ca="1">FIRMA.DENUMIRE(A3)</f><v>#NAME?</v></c>');
    expect(cellXml(s1, "C3")).toBe('<c r="C3"><f>_xldudf_FIRMA_CA(A3,2024)</f><v>1</v></c>');
    expect(cellXml(s1, "B4")).toBe('<c r="B4" t="e" cm="1"><f t="array" ref="B4">_xldudf_FIRMA_DENUMIRE(A4)</f><v>#N/A</v></c>');
    expect(cellXml(s1, "B5")).toBe(
      '<c r="B5" t="str" cm="1"><f t="array" ref="B5:C7">_xldudf_FIRMA_ISTORIC(A2,2023,2024)</f><v>An</v></c>',
    );
    expect(cellXml(s1, "C5")).toBe('<c r="C5" t="str"><v>CA</v></c>');
    expect(cellXml(s1, "C7")).toBe('<c r="C7"><v>2</v></c>');
    expect(cellXml(s1, "A4")).toBeNull();
    expect(cellXml(s1, "A1")).toBe('<c r="A1" s="1" t="s"><v>0</v></c>');
    expect(s1).toContain('<dimension ref="A1:C7"/>');
  });

  test("the same cells as in the real Excel file, for the fixture's own formulas", () => {
    const fx = unzipText(fixtureBytes());
    const mine = unzipText(
      buildWorkbook({
        namespace: "CONTOSO",
        sheets: [
          {
            name: "Typed",
            rows: [
              [
                { formula: "=CONTOSO.ADD(1,2)", form: "typed" },
                { formula: '=CONTOSO.GET("test")', form: "typed" },
              ],
            ],
          },
          {
            name: "Loaded",
            rows: [
              [
                { formula: "=CONTOSO.ADD(1,2)", cached: 3 },
                { formula: '=CONTOSO.GET("test")', cached: "test" },
              ],
            ],
          },
        ],
      }),
    );
    for (const ref of ["A1", "B1"]) {
      expect(cellXml(mine.get("xl/worksheets/sheet1.xml")!, ref)).toBe(cellXml(fx.get("xl/worksheets/sheet2.xml")!, ref));
      expect(cellXml(mine.get("xl/worksheets/sheet2.xml")!, ref)).toBe(cellXml(fx.get("xl/worksheets/sheet3.xml")!, ref));
    }
    // the add-in binding lists the same custom function ids
    const ids = (x: string) => [...x.matchAll(/<we:customFunctionIds>([^<]*)</g)].map((m) => m[1]);
    expect(ids(mine.get("xl/webextensions/webextension1.xml")!)).toEqual(ids(fx.get("xl/webextensions/webextension1.xml")!));
  });

  test('metadata.xml makes cm="1" a dynamic array (as the reader understands Excel\'s)', () => {
    const wb = Workbook.open(bytes);
    const f = wb.findFormulas("FIRMA");
    expect(f.map((x) => [x.address, x.dynamic, x.formulaType])).toEqual([
      ["B2", true, "array"],
      ["C2", true, "array"],
      ["B3", true, "array"],
      ["C3", false, "normal"],
      ["B4", true, "array"],
      ["B5", true, "array"],
    ]);
  });

  test("add-in binding: FIRMA's id, task pane, the custom function ids used", () => {
    const we = parts.get("xl/webextensions/webextension1.xml")!;
    expect(we).toContain(`<we:reference id="${FIRMA_ADDIN_ID}"`);
    expect([...we.matchAll(/<we:customFunctionIds>([^<]*)</g)].map((m) => m[1])).toEqual([
      "_xldudf_FIRMA_CA",
      "_xldudf_FIRMA_DENUMIRE",
      "_xldudf_FIRMA_ISTORIC",
    ]);
    expect(parts.get("_rels/.rels")).toContain('Target="xl/webextensions/taskpanes.xml"');
    expect(parts.get("xl/webextensions/taskpanes.xml")).toContain('r:id="rId1"');
    expect(parts.get("xl/webextensions/_rels/taskpanes.xml.rels")).toContain('Target="webextension1.xml"');
  });

  test("constants: shared strings (escaped, spaces kept), numbers, booleans, errors; values read back", () => {
    const sst = parts.get("xl/sharedStrings.xml")!;
    expect(sst).toContain('count="6" uniqueCount="6"');
    expect(sst).toContain("<si><t>a &amp; b &lt;c&gt;</t></si>");
    expect(sst).toContain('<si><t xml:space="preserve"> spaced </t></si>');
    const wb = Workbook.open(bytes);
    expect(wb.getValue("Firme", "A2")).toBe(14399840);
    expect(wb.getValue("Firme", "A3")).toBe("RO14399840");
    expect(wb.getValue("Firme", "C4")).toBe(true);
    expect(wb.getValue("Firme", "A5")).toEqual({ error: "#N/A", message: "" });
    expect(wb.getValue("Firme", "B2")).toBe("DANTE INTERNATIONAL SA");
    expect(wb.getValue("Foaie 2", "A1")).toBe("a & b <c>");
    expect(wb.getValue("Foaie 2", "A2")).toBe(" spaced ");
  });

  test("deterministic, and a no-change round trip through the package is byte-identical", () => {
    expect(sameBytes(buildWorkbook(spec), bytes)).toBe(true);
    expect(sameBytes(WritablePackage.open(bytes).toBytes(), bytes)).toBe(true);
  });

  test("rejects overlapping spills and constants inside a spill", () => {
    expect(() =>
      buildWorkbook({
        sheets: [{ name: "S", rows: [[{ formula: "=FIRMA.ISTORIC(1)", cached: [[1], [2]] }], ["x"]] }],
      }),
    ).toThrow(/inside the spill|overlaps/);
    expect(() =>
      buildWorkbook({
        sheets: [
          {
            name: "S",
            rows: [[{ formula: "=FIRMA.ISTORIC(1)", cached: [[1, 2]] }, { formula: "=FIRMA.ISTORIC(2)" }]],
          },
        ],
      }),
    ).toThrow(/overlaps/);
  });

  test("no add-in binding when asked", () => {
    const p = unzipText(buildWorkbook({ addin: false, sheets: [{ name: "S", rows: [[1]] }] }));
    expect([...p.keys()].some((k) => k.includes("webextensions"))).toBe(false);
    expect(p.has("xl/metadata.xml")).toBe(false);
  });
});

describe("demoSpec: the load-test workbook", () => {
  const bytes = buildWorkbook(demoSpec());
  const wb = Workbook.open(bytes);
  const found = wb.findFormulas("FIRMA");

  test("500 rows × 5 FIRMA columns + one spilled ISTORIC, all single calls", () => {
    expect(found).toHaveLength(500 * 5 + 1);
    expect(found.every((f) => f.call !== undefined && f.dynamic)).toBe(true);
    const ist = found.filter((f) => f.call?.name === "ISTORIC");
    expect(ist.map((f) => [f.address, f.ref])).toEqual([["H2", "H2:J4"]]);
    expect(wb.getValue("Firme", "I3")).toEqual({ error: "#N/A", message: "" });
  });

  test("CUIs: duplicates, invalid ones and blanks among valid ones", () => {
    const cuis = Array.from({ length: 500 }, (_, i) => wb.getValue("Firme", `A${i + 2}`));
    const blanks = cuis.filter((c) => c === null).length;
    const parsed = cuis.filter((c) => c !== null).map((c) => parseCui(c));
    const valid = parsed.filter((p) => p.ok) as Array<{ ok: true; cui: number }>;
    const invalid = parsed.filter((p) => !p.ok).length;
    const distinct = new Set(valid.map((p) => p.cui)).size;
    expect(blanks).toBeGreaterThanOrEqual(10);
    expect(invalid).toBeGreaterThanOrEqual(10);
    expect(valid.length - distinct).toBeGreaterThanOrEqual(50);
    expect(valid.length).toBeGreaterThan(400);
  });
});
