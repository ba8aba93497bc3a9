import { WritablePackage, openWritable } from "../../src/cli/writable-package";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { patchWorkbook, type CellResult } from "../../src/cli/patch";
import { buildWorkbook } from "../fixtures/build-workbook";
import { cellXml, fixtureBytes, handMadeWorkbook, rawEntries, sameBytes, unzipText } from "./helpers";

/** The fixture with its CONTOSO functions renamed to FIRMA (sheets and add-in binding), as Excel would store FIRMA's. */
function derivedFirmaWorkbook(): Uint8Array {
  const pkg = WritablePackage.open(fixtureBytes());
  for (const part of [
    "xl/worksheets/sheet1.xml",
    "xl/worksheets/sheet2.xml",
    "xl/worksheets/sheet3.xml",
    "xl/webextensions/webextension1.xml",
  ]) {
    pkg.write(part, pkg.readText(part).replace(/CONTOSO/g, "FIRMA"));
  }
  return pkg.toBytes();
}

function patch(bytes: Uint8Array, results: CellResult[]) {
  const wb = openWritable(bytes);
  const report = patchWorkbook(wb, results);
  const out = wb.pkg.toBytes();
  return { report, out, wb: openWritable(out) };
}

describe("patch on a FIRMA workbook derived from the real Excel file", () => {
  const derived = derivedFirmaWorkbook();

  test("the derived workbook has FIRMA formulas in both forms", () => {
    const f = Workbook.open(derived).findFormulas("FIRMA");
    expect(f.map((x) => `${x.sheet}!${x.address} ${x.formula}`)).toEqual([
      "Protected!A1 FIRMA.ADD(1,2)",
      'Protected!B1 FIRMA.GET("test")',
      "Unprotected!A1 FIRMA.ADD(1,2)",
      'Unprotected!B1 FIRMA.GET("test")',
      "Correct!A1 _xldudf_FIRMA_ADD(1,2)",
      'Correct!B1 _xldudf_FIRMA_GET("test")',
    ]);
  });

  test("one value: only that cell's <v> and t change; every other part is identical (content and compressed bytes)", () => {
    const { report, out, wb } = patch(derived, [{ sheet: "Correct", address: "A1", value: "SC Exemplu & Fiii SRL" }]);
    expect(report.outcomes).toEqual([{ sheet: "Correct", address: "A1", status: "written", range: "A1", notes: [] }]);
    expect(report.changedParts).toEqual(["xl/worksheets/sheet3.xml"]);

    const before = unzipText(derived);
    const after = unzipText(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [name, text] of before) if (name !== "xl/worksheets/sheet3.xml") expect(after.get(name)).toBe(text);

    const oldCell = '<c r="A1" cm="1"><f t="array" ref="A1">_xldudf_FIRMA_ADD(1,2)</f><v>3</v></c>';
    const newCell = '<c r="A1" t="str" cm="1"><f t="array" ref="A1">_xldudf_FIRMA_ADD(1,2)</f><v>SC Exemplu &amp; Fiii SRL</v></c>';
    const s3 = before.get("xl/worksheets/sheet3.xml")!;
    expect(s3).toContain(oldCell);
    expect(after.get("xl/worksheets/sheet3.xml")).toBe(s3.replace(oldCell, newCell));

    const rawBefore = rawEntries(derived);
    const rawAfter = rawEntries(out);
    for (const [name, raw] of rawBefore) if (name !== "xl/worksheets/sheet3.xml") expect(sameBytes(rawAfter.get(name)!, raw)).toBe(true);

    expect(wb.getValue("Correct", "A1")).toBe("SC Exemplu & Fiii SRL");
    expect(wb.findFormulas("FIRMA")).toHaveLength(6);
  });

  test('a typed-form cell (#NAME?) takes a number: t="e" goes, everything else stays', () => {
    const { out } = patch(derived, [{ sheet: "Protected", address: "A1", value: 3 }]);
    const s1 = unzipText(out).get("xl/worksheets/sheet1.xml")!;
    expect(cellXml(s1, "A1")).toBe('<c r="A1" cm="1"><f t="array" aca="1" ref="A1" ca="1">FIRMA.ADD(1,2)</f><v>3</v></c>');
    // the sheet protection and the neighbour are untouched
    expect(s1.replace(cellXml(s1, "A1")!, "")).toBe(
      unzipText(derived)
        .get("xl/worksheets/sheet1.xml")!
        .replace(cellXml(unzipText(derived).get("xl/worksheets/sheet1.xml")!, "A1")!, ""),
    );
  });

  test("the same values as saved → the file comes back byte for byte", () => {
    const original = fixtureBytes();
    const { out, report } = patch(original, [
      { sheet: "Correct", address: "A1", value: 3 },
      { sheet: "Correct", address: "B1", value: "test" },
      {
        sheet: "Protected",
        address: "A1",
        value: { error: "#NAME?", message: "Funcție necunoscută" },
      },
    ]);
    expect(report.changedParts).toEqual([]);
    expect(sameBytes(out, original)).toBe(true);
  });

  test.each<[string, unknown, string]>([
    [
      "text with markup",
      "a<b>&c",
      '<c r="B1" t="str" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>a&lt;b&gt;&amp;c</v></c>',
    ],
    [
      "text with a CR and a literal _x escape",
      "r\r\n_x0041_",
      '<c r="B1" t="str" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>r_x000D_\n_x005F_x0041_</v></c>',
    ],
    [
      "Romanian text",
      "Întreprindere Științifică",
      '<c r="B1" t="str" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>Întreprindere Științifică</v></c>',
    ],
    ["integer", 14399840, '<c r="B1" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>14399840</v></c>'],
    ["fraction", 0.1 + 0.2, '<c r="B1" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>0.30000000000000004</v></c>'],
    ["large number", 1e21, '<c r="B1" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>1E+21</v></c>'],
    ["negative zero", -0, '<c r="B1" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>0</v></c>'],
    ["NaN", NaN, '<c r="B1" t="e" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>#NUM!</v></c>'],
    ["true", true, '<c r="B1" t="b" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>1</v></c>'],
    ["false", false, '<c r="B1" t="b" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>0</v></c>'],
    [
      "#N/A",
      { error: "#N/A", message: "CUI inexistent" },
      '<c r="B1" t="e" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>#N/A</v></c>',
    ],
    [
      "#BUSY! (stored as #VALUE!)",
      { error: "#BUSY!", message: "" },
      '<c r="B1" t="e" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>#VALUE!</v></c>',
    ],
    ["null (Excel shows 0)", null, '<c r="B1" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>0</v></c>'],
    ["1×1 array", [["x"]], '<c r="B1" t="str" cm="1"><f t="array" ref="B1">_xldudf_FIRMA_GET("test")</f><v>x</v></c>'],
  ])("value encoding: %s", (_label, value, expected) => {
    const { out, wb } = patch(derived, [{ sheet: "Correct", address: "B1", value: value as CellResult["value"] }]);
    expect(cellXml(unzipText(out).get("xl/worksheets/sheet3.xml")!, "B1")).toBe(expected);
    // and it reads back
    const v = wb.getValue("Correct", "B1");
    if (typeof value === "string") expect(v).toBe(value);
    if (typeof value === "number" && Number.isFinite(value)) expect(v).toBe(value === 0 ? 0 : value);
  });

  test("modern error codes are reported in the notes", () => {
    const { report } = patch(derived, [{ sheet: "Correct", address: "B1", value: { error: "#BUSY!", message: "" } }]);
    expect(report.outcomes[0].notes.join(" ")).toContain("#BUSY!");
  });

  test("a cell without a formula, an unknown sheet or address is skipped, nothing written", () => {
    const { report, out } = patch(derived, [
      { sheet: "Correct", address: "C5", value: 1 },
      { sheet: "Nope", address: "A1", value: 1 },
      { sheet: "Correct", address: "1A", value: 1 },
    ]);
    expect(report.outcomes.map((o) => o.status)).toEqual(["skipped", "skipped", "skipped"]);
    expect(sameBytes(out, derived)).toBe(true);
  });
});

describe("spills (dynamic-array formulas)", () => {
  /** L2 =ISTORIC spilling L2:L4; N2 a constant to the right; row 6 exists further down. */
  function book(extraRow3 = "", extraSheet = ""): Uint8Array {
    return handMadeWorkbook({
      metadata: true,
      sheets: [
        {
          name: "S",
          dimension: "A2:L7",
          sheetData:
            '<row r="2" spans="1:14"><c r="A2"><v>14399840</v></c><c r="L2" cm="1"><f t="array" ref="L2:L4">_xldudf_FIRMA_ISTORIC(A2,2020,2022)</f><v>2020</v></c><c r="N2" t="inlineStr"><is><t>notă</t></is></c></row>' +
            `<row r="3" spans="12:12"><c r="L3"><v>2021</v></c>${extraRow3}</row>` +
            '<row r="4" spans="12:12"><c r="L4"><v>2022</v></c></row>' +
            '<row r="7"><c r="A7"><v>1</v></c></row>',
          extra: extraSheet,
        },
      ],
    });
  }

  test("a bigger spill: ref grows, missing cells are inserted in row and column order, rows too", () => {
    const bytes = book();
    const { report, out, wb } = patch(bytes, [
      {
        sheet: "S",
        address: "L2",
        value: [
          [2020, "a"],
          [2021, "b"],
          [2022, "c"],
          [2023, "d"],
          [2024, true],
        ],
      },
    ]);
    expect(report.outcomes[0]).toMatchObject({ status: "written", range: "L2:M6" });
    const xml = unzipText(out).get("xl/worksheets/sheet1.xml")!;
    expect(xml).toContain(
      '<row r="2" spans="1:14"><c r="A2"><v>14399840</v></c><c r="L2" cm="1"><f t="array" ref="L2:M6">_xldudf_FIRMA_ISTORIC(A2,2020,2022)</f><v>2020</v></c><c r="M2" t="str"><v>a</v></c><c r="N2" t="inlineStr"><is><t>notă</t></is></c></row>',
    );
    expect(xml).toContain('<row r="3" spans="12:13"><c r="L3"><v>2021</v></c><c r="M3" t="str"><v>b</v></c></row>');
    expect(xml).toContain('<row r="4" spans="12:13"><c r="L4"><v>2022</v></c><c r="M4" t="str"><v>c</v></c></row>');
    expect(xml).toContain(
      '<row r="4" spans="12:13"><c r="L4"><v>2022</v></c><c r="M4" t="str"><v>c</v></c></row><row r="5" spans="12:13"><c r="L5"><v>2023</v></c><c r="M5" t="str"><v>d</v></c></row><row r="6" spans="12:13"><c r="L6"><v>2024</v></c><c r="M6" t="b"><v>1</v></c></row><row r="7">',
    );
    expect(xml).toContain('<dimension ref="A2:M7"/>');
    expect(wb.getValue("S", "M6")).toBe(true);
    expect(wb.getValue("S", "N2")).toBe("notă");
    expect(wb.findFormulas("FIRMA")[0].ref).toBe("L2:M6");
  });

  test("a smaller spill: ref shrinks, the cells it left are cleared", () => {
    const { report, out, wb } = patch(book(), [{ sheet: "S", address: "L2", value: [[2023], [2024]] }]);
    expect(report.outcomes[0]).toMatchObject({ status: "written", range: "L2:L3" });
    const xml = unzipText(out).get("xl/worksheets/sheet1.xml")!;
    expect(xml).toContain('<f t="array" ref="L2:L3">');
    expect(xml).toContain('<row r="4" spans="12:12"></row>');
    expect(wb.getValue("S", "L2")).toBe(2023);
    expect(wb.getValue("S", "L3")).toBe(2024);
    expect(wb.getValue("S", "L4")).toBeNull();
  });

  test("a scalar where there was a spill: ref becomes the cell", () => {
    const { out, wb } = patch(book(), [{ sheet: "S", address: "L2", value: { error: "#N/A", message: "fără date" } }]);
    expect(unzipText(out).get("xl/worksheets/sheet1.xml")!).toContain('<c r="L2" t="e" cm="1"><f t="array" ref="L2">');
    expect(wb.getValue("S", "L3")).toBeNull();
  });

  test("same size: only values change, ref as written", () => {
    const bytes = book();
    const { out } = patch(bytes, [{ sheet: "S", address: "L2", value: [[2020], [2021], [2099]] }]);
    const before = unzipText(bytes).get("xl/worksheets/sheet1.xml")!;
    const after = unzipText(out).get("xl/worksheets/sheet1.xml")!;
    expect(after).toBe(before.replace('<c r="L4"><v>2022</v></c>', '<c r="L4"><v>2099</v></c>'));
  });

  test("blocked by a value outside the old spill: #SPILL! (stored #VALUE!), nothing overwritten, old spill cleared", () => {
    const { report, out, wb } = patch(book('<c r="M3"><v>99</v></c>'), [
      {
        sheet: "S",
        address: "L2",
        value: [
          [1, 2],
          [3, 4],
        ],
      },
    ]);
    expect(report.outcomes[0]).toMatchObject({ status: "spill", range: "L2", blockedBy: ["M3"] });
    expect(report.outcomes[0].notes.join(" ")).toContain("#SPILL!");
    const xml = unzipText(out).get("xl/worksheets/sheet1.xml")!;
    expect(cellXml(xml, "L2")).toBe(
      '<c r="L2" t="e" cm="1"><f t="array" ref="L2">_xldudf_FIRMA_ISTORIC(A2,2020,2022)</f><v>#VALUE!</v></c>',
    );
    expect(wb.getValue("S", "M3")).toBe(99);
    expect(wb.getValue("S", "L3")).toBeNull();
    expect(wb.getValue("S", "M2")).toBeNull();
  });

  test("blocked by a merged range", () => {
    const { report } = patch(book("", '<mergeCells count="1"><mergeCell ref="M5:N6"/></mergeCells>'), [
      {
        sheet: "S",
        address: "L2",
        value: [
          [1, 1],
          [1, 1],
          [1, 1],
          [1, 1],
        ],
      },
    ]);
    expect(report.outcomes[0]).toMatchObject({ status: "spill", blockedBy: ["M5:N6"] });
  });

  test("an empty cell that only has a style does not block; it keeps its style", () => {
    const { report, out } = patch(book('<c r="M3" s="2"/>'), [
      {
        sheet: "S",
        address: "L2",
        value: [
          [1, "x"],
          [2, "y"],
        ],
      },
    ]);
    expect(report.outcomes[0]).toMatchObject({ status: "written", range: "L2:M3" });
    expect(unzipText(out).get("xl/worksheets/sheet1.xml")!).toContain('<c r="M3" s="2" t="str"><v>y</v></c>');
  });

  test("a cleared cell with a style keeps the style", () => {
    const bytes = book().slice();
    const wb0 = openWritable(bytes);
    wb0.pkg.write("xl/worksheets/sheet1.xml", wb0.pkg.readText("xl/worksheets/sheet1.xml").replace('<c r="L4">', '<c r="L4" s="5">'));
    const { out } = patch(wb0.pkg.toBytes(), [{ sheet: "S", address: "L2", value: [[1], [2]] }]);
    expect(unzipText(out).get("xl/worksheets/sheet1.xml")!).toContain('<row r="4" spans="12:12"><c r="L4" s="5"/></row>');
  });

  test("spilling past the sheet edge is blocked", () => {
    const bytes = handMadeWorkbook({
      metadata: true,
      sheets: [
        {
          name: "S",
          sheetData: '<row r="1048575"><c r="A1048575" cm="1"><f t="array" ref="A1048575">_xldudf_FIRMA_ISTORIC(1)</f><v>0</v></c></row>',
        },
      ],
    });
    const { report } = patch(bytes, [{ sheet: "S", address: "A1048575", value: [[1], [2], [3]] }]);
    expect(report.outcomes[0]).toMatchObject({ status: "spill", blockedBy: ["edge"] });
  });

  test("results apply in order: a later spill is blocked by an earlier one's new cells", () => {
    const bytes = handMadeWorkbook({
      metadata: true,
      sheets: [
        {
          name: "S",
          sheetData:
            '<row r="1"><c r="A1" cm="1"><f t="array" ref="A1">_xldudf_FIRMA_ISTORIC(1)</f><v>0</v></c><c r="B1"><v>0</v></c><c r="C1" cm="1"><f t="array" ref="C1">_xldudf_FIRMA_ISTORIC(2)</f><v>0</v></c></row>' +
            '<row r="3"><c r="A3" cm="1"><f t="array" ref="A3">_xldudf_FIRMA_ISTORIC(3)</f><v>0</v></c></row>',
        },
      ],
    });
    const { report, wb } = patch(bytes, [
      { sheet: "S", address: "C1", value: [[1], [2]] },
      { sheet: "S", address: "A3", value: [[1, 2, 3]] },
      { sheet: "S", address: "A1", value: [[1], [2]] },
    ]);
    expect(report.outcomes.map((o) => [o.address, o.status, o.blockedBy])).toEqual([
      ["C1", "written", undefined],
      ["A3", "written", undefined],
      ["A1", "written", undefined],
    ]);
    const r2 = patchWorkbook(wb, [
      {
        sheet: "S",
        address: "A1",
        value: [
          [1, 2, 3],
          [4, 5, 6],
        ],
      },
    ]);
    // B1 holds a constant, C1 and C2 belong to another formula; B2 is free
    expect(r2.outcomes[0]).toMatchObject({ status: "spill", blockedBy: ["B1", "C1", "C2"] });
  });

  test("legacy array formula (no dynamic metadata): fixed range, #N/A beyond the result", () => {
    const bytes = handMadeWorkbook({
      sheets: [
        {
          name: "S",
          sheetData:
            '<row r="2"><c r="B2"><f t="array" ref="B2:B4">_xldudf_FIRMA_ISTORIC(1)</f><v>0</v></c></row><row r="3"><c r="B3"><v>0</v></c></row><row r="4"><c r="B4"><v>0</v></c></row>',
        },
      ],
    });
    const { report, wb } = patch(bytes, [{ sheet: "S", address: "B2", value: [[7], [8]] }]);
    expect(report.outcomes[0]).toMatchObject({ status: "written", range: "B2:B4" });
    expect([wb.getValue("S", "B2"), wb.getValue("S", "B3"), wb.getValue("S", "B4")]).toEqual([7, 8, { error: "#N/A", message: "" }]);
    expect(wb.findFormulas("FIRMA")[0].ref).toBe("B2:B4");
  });

  test("ordinary formula with an array result: top-left value, with a note", () => {
    const bytes = handMadeWorkbook({
      sheets: [
        {
          name: "S",
          sheetData: '<row r="1"><c r="A1"><f>_xldudf_FIRMA_ISTORIC(1)</f><v>0</v></c></row>',
        },
      ],
    });
    const { report, wb } = patch(bytes, [
      {
        sheet: "S",
        address: "A1",
        value: [
          ["An", "CA"],
          [2020, 5],
        ],
      },
    ]);
    expect(report.outcomes[0].status).toBe("written");
    expect(report.outcomes[0].notes.length).toBe(1);
    expect(wb.getValue("S", "A1")).toBe("An");
    expect(wb.getValue("S", "B1")).toBeNull();
  });

  test("empty or ragged arrays are errors, never half-written", () => {
    const { wb, report } = patch(book(), [{ sheet: "S", address: "L2", value: [[1, 2], [3]] }]);
    expect(wb.getValue("S", "L2")).toEqual({ error: "#VALUE!", message: "" });
    expect(report.outcomes[0].notes.length).toBeGreaterThan(0);
    const r2 = patch(book(), [{ sheet: "S", address: "L2", value: [] }]);
    expect(r2.wb.getValue("S", "L2")).toEqual({ error: "#VALUE!", message: "" });
  });

  test("a generated workbook's spilled ISTORIC is refreshed, the rest of the sheet untouched", () => {
    const bytes = buildWorkbook({
      sheets: [
        {
          name: "Firme",
          rows: [
            ["CUI", "Istoric"],
            [
              14399840,
              {
                formula: "=FIRMA.ISTORIC(A2,2020,2021)",
                cached: [
                  ["An", "CA"],
                  [2020, 1],
                  [2021, 2],
                ],
              },
            ],
            [],
            [],
            ["după"],
          ],
        },
      ],
    });
    const { report, out, wb } = patch(bytes, [
      {
        sheet: "Firme",
        address: "B2",
        value: [
          ["An", "CA"],
          [2020, 10],
          [2021, 20],
          [2022, 30],
        ],
      },
    ]);
    expect(report.outcomes[0]).toMatchObject({ status: "written", range: "B2:C5" });
    const before = unzipText(bytes).get("xl/worksheets/sheet1.xml")!;
    const after = unzipText(out).get("xl/worksheets/sheet1.xml")!;
    expect(after).toBe(
      before
        .replace('ref="B2:C4"', 'ref="B2:C5"')
        .replace('<c r="C3"><v>1</v></c>', '<c r="C3"><v>10</v></c>')
        .replace('<c r="C4"><v>2</v></c>', '<c r="C4"><v>20</v></c>')
        .replace(
          '<row r="5" spans="1:1" x14ac:dyDescent="0.2"><c r="A5" t="s"><v>2</v></c></row>',
          '<row r="5" spans="1:3" x14ac:dyDescent="0.2"><c r="A5" t="s"><v>2</v></c><c r="B5"><v>2022</v></c><c r="C5"><v>30</v></c></row>',
        ),
    );
    expect(wb.getValue("Firme", "A5")).toBe("după");
    expect(wb.getValue("Firme", "C5")).toBe(30);
  });
});
