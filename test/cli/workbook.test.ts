import { Workbook, type StoredFormula } from "../../src/shared/xlsx/workbook";
import { fixtureBytes, handMadeWorkbook } from "./helpers";

describe("Workbook on the real Excel-saved fixture", () => {
  const wb = Workbook.open(fixtureBytes());

  test("sheets resolved through workbook.xml and its rels", () => {
    expect(wb.workbookPart).toBe("xl/workbook.xml");
    expect(wb.sheets.map((s) => [s.name, s.part])).toEqual([
      ["Protected", "xl/worksheets/sheet1.xml"],
      ["Unprotected", "xl/worksheets/sheet2.xml"],
      ["Correct", "xl/worksheets/sheet3.xml"],
    ]);
    expect(wb.sheet("correct")?.name).toBe("Correct");
  });

  test("CONTOSO formulas found in both forms, arguments parsed", () => {
    const found = wb.findFormulas("CONTOSO");
    const summary = found.map((f) => [f.sheet, f.address, f.formula, f.call?.form, f.call?.name, f.dynamic, f.ref, f.cached]);
    expect(summary).toEqual([
      ["Protected", "A1", "CONTOSO.ADD(1,2)", "typed", "ADD", true, "A1", { error: "#NAME?", message: "" }],
      ["Protected", "B1", 'CONTOSO.GET("test")', "typed", "GET", true, "B1", { error: "#NAME?", message: "" }],
      ["Unprotected", "A1", "CONTOSO.ADD(1,2)", "typed", "ADD", true, "A1", { error: "#NAME?", message: "" }],
      ["Unprotected", "B1", 'CONTOSO.GET("test")', "typed", "GET", true, "B1", { error: "#NAME?", message: "" }],
      ["Correct", "A1", "_xldudf_CONTOSO_ADD(1,2)", "xldudf", "ADD", true, "A1", 3],
      ["Correct", "B1", '_xldudf_CONTOSO_GET("test")', "xldudf", "GET", true, "B1", "test"],
    ]);
    expect(found[4].call!.args).toEqual([
      { kind: "literal", value: 1, text: "1" },
      { kind: "literal", value: 2, text: "2" },
    ]);
  });

  test("Excel's file format separates arguments with ',' whatever the UI locale", () => {
    for (const f of wb.findFormulas("CONTOSO")) {
      if (f.call!.args.length > 1) {
        expect(f.formula).toContain(",");
        expect(f.formula).not.toContain(";");
      }
    }
  });

  test("case-insensitive namespace; no FIRMA formulas in this workbook", () => {
    expect(wb.findFormulas("contoso")).toHaveLength(6);
    expect(wb.findFormulas("FIRMA")).toEqual([]);
  });

  test("cell values by address", () => {
    expect(wb.getValue("Correct", "A1")).toBe(3);
    expect(wb.getValue("Correct", "$B$1")).toBe("test");
    expect(wb.getValue("Protected", "A1")).toEqual({ error: "#NAME?", message: "" });
    expect(wb.getValue("Correct", "Z99")).toBeNull();
  });
});

describe("Workbook: values of every kind", () => {
  const bytes = handMadeWorkbook({
    sstXml:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">' +
      "<si><t>14399840</t></si>" +
      '<si><r><rPr><b/></rPr><t>Bold</t></r><r><t xml:space="preserve"> and plain</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></si>' +
      "<si><t>a &amp; b &lt;c&gt; _x000D_ _x005F_x0041_</t></si>" +
      "<si><t/></si></sst>",
    sheets: [
      {
        name: "Date",
        sheetData:
          '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>' +
          '<row r="2"><c r="A2"><v>14399840</v></c><c r="B2"><v>-1.5E-3</v></c><c r="C2" t="n"><v>42</v></c><c r="D2" s="3"/></row>' +
          '<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="b"><v>0</v></c><c r="C3" t="e"><v>#DIV/0!</v></c><c r="D3" t="inlineStr"><is><t>inline</t></is></c></row>' +
          '<row r="5"><c r="A5" t="str"><f>TRIM(" x ")</f><v>x</v></c><c r="B5" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row>' +
          // cells without r attributes (allowed) follow on from the previous one
          '<row r="6"><c><v>1</v></c><c><v>2</v></c><c r="E6"><v>5</v></c><c><v>6</v></c></row>',
      },
    ],
  });
  const wb = Workbook.open(bytes);
  test.each<[string, unknown]>([
    ["A1", "14399840"],
    ["B1", "Bold and plain"],
    ["C1", "a & b <c> \r _x0041_"],
    ["D1", ""],
    ["A2", 14399840],
    ["B2", -0.0015],
    ["C2", 42],
    ["D2", null],
    ["A3", true],
    ["B3", false],
    ["C3", { error: "#DIV/0!", message: "" }],
    ["D3", "inline"],
    ["A5", "x"],
    ["B5", "inline"],
    ["A6", 1],
    ["B6", 2],
    ["E6", 5],
    ["F6", 6],
    ["A4", null],
  ])("%s", (addr, expected) => {
    expect(wb.getValue("Date", addr)).toEqual(expected);
  });
});

describe("Workbook: FIRMA formulas and their arguments", () => {
  const bytes = handMadeWorkbook({
    metadata: true,
    sharedStrings: ["CUI", "RO14399840", "Alt"],
    sheets: [
      {
        name: "Firme",
        sheetData:
          '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' +
          '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="str" cm="1"><f t="array" ref="B2">_xldudf_FIRMA_DENUMIRE(A2)</f><v>OLD</v></c>' +
          '<c r="C2" cm="1"><f t="array" ref="C2">_xldudf_FIRMA_CA(A2,2024)</f><v>1</v></c>' +
          '<c r="D2"><f>_xldudf_FIRMA_CA($A$2,2023)</f><v>2</v></c>' +
          '<c r="E2" t="e" cm="1"><f t="array" aca="1" ref="E2" ca="1">FIRMA.STARE(A2)</f><v>#NAME?</v></c>' +
          '<c r="F2" cm="1"><f t="array" ref="F2">_xldudf_FIRMA_CA(\'Alte date\'!B2,Date!A1)</f><v>0</v></c>' +
          '<c r="G2" cm="1"><f t="array" ref="G2">_xldudf_FIRMA_CAEN(A2:A3)</f><v>0</v></c>' +
          '<c r="H2" cm="1"><f t="array" ref="H2">IFERROR(_xldudf_FIRMA_CA(A2,2024),0)</f><v>0</v></c>' +
          '<c r="I2" cm="1"><f t="array" ref="I2">_xldudf_FIRMA_CA(TRIM(A2),2024)</f><v>0</v></c>' +
          '<c r="J2" cm="1"><f t="array" ref="J2">_xldudf_FIRMA_CA(Lipsa!A2,2024)</f><v>0</v></c>' +
          '<c r="K2" cm="1"><f t="array" ref="K2">_xldudf_FIRMA_CA(K2,2024)</f><v>0</v></c>' +
          '<c r="L2" cm="1"><f t="array" ref="L2:L4">_xldudf_FIRMA_ISTORIC(A2,2020,2022)</f><v>2020</v></c>' +
          '<c r="M2"><f>SUM(1,2)</f><v>3</v></c>' +
          '<c r="N2" cm="1"><f t="array" ref="N2">_xldudf_FIRMA_DENUMIRE(L3)</f><v>0</v></c></row>' +
          '<row r="3"><c r="A3" t="s"><v>2</v></c><c r="C3"><f t="shared" ref="C3:C5" si="0">_xldudf_FIRMA_CA(A3,2024)</f><v>0</v></c><c r="L3"><v>2021</v></c></row>' +
          '<row r="4"><c r="C4"><f t="shared" si="0"/><v>0</v></c><c r="L4"><v>2022</v></c></row>' +
          '<row r="5"><c r="C5"><f t="shared" si="0"/></c></row>',
      },
      {
        name: "Alte date",
        sheetData: '<row r="2"><c r="B2"><v>14399840</v></c></row>',
      },
      { name: "Date", sheetData: '<row r="1"><c r="A1" t="b"><v>1</v></c></row>' },
    ],
  });
  const wb = Workbook.open(bytes);
  const found = wb.findFormulas("FIRMA");
  const at = (a: string): StoredFormula => {
    const f = found.find((x) => x.sheet === "Firme" && x.address === a);
    if (!f) throw new Error(`no FIRMA formula at ${a}`);
    return f;
  };

  test("found: array and plain, both spellings, shared children; not other formulas", () => {
    expect(found.map((f) => f.address)).toEqual(["B2", "C2", "D2", "E2", "F2", "G2", "H2", "I2", "J2", "K2", "L2", "N2", "C3", "C4", "C5"]);
    expect(at("D2").formulaType).toBe("normal");
    expect(at("D2").dynamic).toBe(false);
    expect(at("B2").dynamic).toBe(true);
    expect(at("E2").call?.form).toBe("typed");
    expect(at("C4").formula).toBe("_xldudf_FIRMA_CA(A4,2024)");
    expect(at("C5").formula).toBe("_xldudf_FIRMA_CA(A5,2024)");
    expect(at("C5").cached).toBeNull();
  });

  test("a call inside a larger formula, or with computed arguments, is found all the same", () => {
    expect(at("H2").call).toBeUndefined();
    expect(at("I2").call?.name).toBe("CA");
    expect(at("K2").call?.name).toBe("CA");
  });

  test("unknown addresses and sheets", () => {
    expect(() => wb.getValue("Nope", "A1")).toThrow(/Nope/);
    expect(() => wb.getValue("Firme", "1A")).toThrow(RangeError);
  });
});

describe("Workbook: prefixed SpreadsheetML (x:c) is read too", () => {
  test("x: prefix", () => {
    const bytes = handMadeWorkbook({
      sheets: [
        {
          name: "S",
          prefix: "x:",
          sheetData:
            '<x:row r="1"><x:c r="A1"><x:v>7</x:v></x:c><x:c r="B1"><x:f>_xldudf_FIRMA_DENUMIRE(A1)</x:f><x:v>0</x:v></x:c></x:row>',
        },
      ],
    });
    const wb = Workbook.open(bytes);
    expect(wb.getValue("S", "A1")).toBe(7);
    const f = wb.findFormulas("FIRMA");
    expect(f.map((x) => [x.address, x.call?.name])).toEqual([["B1", "DENUMIRE"]]);
  });
});
