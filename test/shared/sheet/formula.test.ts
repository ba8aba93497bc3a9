import { analyzeFormula, shiftFormula, toXldudfForm, type FormulaArg } from "../../../src/shared/sheet/formula";

function args(formula: string): FormulaArg[] {
  const a = analyzeFormula(formula, "FIRMA");
  if (a.kind !== "call") throw new Error(`${formula}: ${a.kind}`);
  return a.call.args;
}
const box = (top: number, left: number, bottom = top, right = left) => ({
  top,
  left,
  bottom,
  right,
});

describe("analyzeFormula: which formulas are one FIRMA call", () => {
  test.each([
    ["_xldudf_FIRMA_DENUMIRE(A2)", "DENUMIRE", "xldudf"],
    ["FIRMA.DENUMIRE(A2)", "DENUMIRE", "typed"],
    ["firma.denumire(a2)", "DENUMIRE", "typed"],
    ["_XLDUDF_firma_ca(A2,2024)", "CA", "xldudf"],
    ["=FIRMA.CA(A2,2024)", "CA", "typed"],
    ["  FIRMA.ISTORIC(A2,2020,2025)  ", "ISTORIC", "typed"],
  ])("%s → %s (%s)", (f, name, form) => {
    const a = analyzeFormula(f, "FIRMA");
    expect(a.kind).toBe("call");
    if (a.kind === "call") {
      expect(a.call.name).toBe(name);
      expect(a.call.form).toBe(form);
    }
  });

  test.each([
    ["IFERROR(FIRMA.CA(A2,2024),0)", ["CA"]],
    ["FIRMA.CA(A2,2024)*1000", ["CA"]],
    ["-FIRMA.CA(A2,2024)", ["CA"]],
    ["FIRMA.CA(A2,2024)+FIRMA.CA(A3,2024)", ["CA", "CA"]],
    ["_xlfn.LET(_xlpm.x,A2,_xldudf_FIRMA_DENUMIRE(_xlpm.x))", ["DENUMIRE"]],
  ])("nested: %s", (f, names) => {
    expect(analyzeFormula(f, "FIRMA")).toEqual({ kind: "nested", names });
  });

  test.each([
    ["SUM(A1:A3)"],
    ['"FIRMA.DENUMIRE(A2)"'],
    ["CONTOSO.ADD(1,2)"],
    ["FIRMA(1)"],
    ["FIRMAX.DENUMIRE(A2)"],
    ["_xldudf_FIRMAX_DENUMIRE(A2)"],
    ["MyFIRMA.DENUMIRE(A2)"],
  ])("not a FIRMA formula: %s", (f) => {
    expect(analyzeFormula(f, "FIRMA").kind).toBe("none");
  });

  test("unreadable formula that mentions FIRMA → unparseable (reported, never guessed)", () => {
    expect(analyzeFormula('FIRMA.DENUMIRE("A2)', "FIRMA").kind).toBe("unparseable");
    expect(analyzeFormula('SUM("x)', "FIRMA").kind).toBe("none");
  });
});

describe("analyzeFormula: argument table", () => {
  test.each<[string, FormulaArg[]]>([
    // literals
    ["FIRMA.X(2024)", [{ kind: "literal", value: 2024, text: "2024" }]],
    [
      "FIRMA.X(1.5,.5,1E+3,2e-2)",
      [
        { kind: "literal", value: 1.5, text: "1.5" },
        { kind: "literal", value: 0.5, text: ".5" },
        { kind: "literal", value: 1000, text: "1E+3" },
        { kind: "literal", value: 0.02, text: "2e-2" },
      ],
    ],
    [
      "FIRMA.X(-5,+7)",
      [
        { kind: "literal", value: -5, text: "-5" },
        { kind: "literal", value: 7, text: "+7" },
      ],
    ],
    ['FIRMA.X("RO 14399840")', [{ kind: "literal", value: "RO 14399840", text: '"RO 14399840"' }]],
    [
      'FIRMA.X("a ""quoted"" word","")',
      [
        { kind: "literal", value: 'a "quoted" word', text: '"a ""quoted"" word"' },
        { kind: "literal", value: "", text: '""' },
      ],
    ],
    ['FIRMA.X("a,b;c)")', [{ kind: "literal", value: "a,b;c)", text: '"a,b;c)"' }]],
    [
      "FIRMA.X(TRUE,false)",
      [
        { kind: "literal", value: true, text: "TRUE" },
        { kind: "literal", value: false, text: "false" },
      ],
    ],
    ["FIRMA.X(#N/A)", [{ kind: "literal", value: { error: "#N/A", message: "" }, text: "#N/A" }]],
    [
      'FIRMA.X({2020,2021;2022,"x"})',
      [
        {
          kind: "array",
          value: [
            [2020, 2021],
            [2022, "x"],
          ],
          text: '{2020,2021;2022,"x"}',
        },
      ],
    ],
    // omitted arguments
    ["FIRMA.X()", []],
    [
      "FIRMA.X(A2,,2024)",
      [
        { kind: "ref", sheet: null, box: box(2, 1), single: true, text: "A2" },
        { kind: "missing", text: "" },
        { kind: "literal", value: 2024, text: "2024" },
      ],
    ],
    [
      "FIRMA.X( A2 , 2024 )",
      [
        { kind: "ref", sheet: null, box: box(2, 1), single: true, text: "A2" },
        { kind: "literal", value: 2024, text: "2024" },
      ],
    ],
    // references
    ["FIRMA.X($A$2)", [{ kind: "ref", sheet: null, box: box(2, 1), single: true, text: "$A$2" }]],
    [
      "FIRMA.X(a$2,$b3)",
      [
        { kind: "ref", sheet: null, box: box(2, 1), single: true, text: "a$2" },
        { kind: "ref", sheet: null, box: box(3, 2), single: true, text: "$b3" },
      ],
    ],
    ["FIRMA.X(A2:A10)", [{ kind: "ref", sheet: null, box: box(2, 1, 10, 1), single: false, text: "A2:A10" }]],
    ["FIRMA.X(B10:A2)", [{ kind: "ref", sheet: null, box: box(2, 1, 10, 2), single: false, text: "B10:A2" }]],
    ["FIRMA.X(Sheet2!A2)", [{ kind: "ref", sheet: "Sheet2", box: box(2, 1), single: true, text: "Sheet2!A2" }]],
    [
      "FIRMA.X(Foaie_2.x!$C$3:$D$4)",
      [
        {
          kind: "ref",
          sheet: "Foaie_2.x",
          box: box(3, 3, 4, 4),
          single: false,
          text: "Foaie_2.x!$C$3:$D$4",
        },
      ],
    ],
    ["FIRMA.X('My sheet'!A2)", [{ kind: "ref", sheet: "My sheet", box: box(2, 1), single: true, text: "'My sheet'!A2" }]],
    [
      "FIRMA.X('It''s (2024)'!B2:C3)",
      [
        {
          kind: "ref",
          sheet: "It's (2024)",
          box: box(2, 2, 3, 3),
          single: false,
          text: "'It''s (2024)'!B2:C3",
        },
      ],
    ],
    ["FIRMA.X('Județe'!A1)", [{ kind: "ref", sheet: "Județe", box: box(1, 1), single: true, text: "'Județe'!A1" }]],
    ["FIRMA.X(XFD1048576)", [{ kind: "ref", sheet: null, box: box(1048576, 16384), single: true, text: "XFD1048576" }]],
    // not evaluable
    ["FIRMA.X(TRIM(A2))", [{ kind: "unsupported", reason: "function", text: "TRIM(A2)" }]],
    ["FIRMA.X(_xldudf_FIRMA_CUI(A2))", [{ kind: "unsupported", reason: "function", text: "_xldudf_FIRMA_CUI(A2)" }]],
    ['FIRMA.X(A2&"")', [{ kind: "unsupported", reason: "expression", text: 'A2&""' }]],
    ["FIRMA.X(2023+1)", [{ kind: "unsupported", reason: "expression", text: "2023+1" }]],
    ["FIRMA.X(--A2)", [{ kind: "unsupported", reason: "expression", text: "--A2" }]],
    ["FIRMA.X(-A2)", [{ kind: "unsupported", reason: "expression", text: "-A2" }]],
    ["FIRMA.X((A2))", [{ kind: "unsupported", reason: "expression", text: "(A2)" }]],
    ["FIRMA.X(A1 B1)", [{ kind: "unsupported", reason: "expression", text: "A1 B1" }]],
    ["FIRMA.X(50%)", [{ kind: "unsupported", reason: "expression", text: "50%" }]],
    ["FIRMA.X(@A2:A5)", [{ kind: "unsupported", reason: "expression", text: "@A2:A5" }]],
    ["FIRMA.X(CUI_LISTA)", [{ kind: "unsupported", reason: "name", text: "CUI_LISTA" }]],
    ["FIRMA.X(Sheet1!CUI_LISTA)", [{ kind: "unsupported", reason: "name", text: "Sheet1!CUI_LISTA" }]],
    ["FIRMA.X(XFE1)", [{ kind: "unsupported", reason: "name", text: "XFE1" }]],
    ["FIRMA.X(A:A)", [{ kind: "unsupported", reason: "wholeColumnOrRow", text: "A:A" }]],
    ["FIRMA.X($2:$3)", [{ kind: "unsupported", reason: "wholeColumnOrRow", text: "$2:$3" }]],
    ["FIRMA.X([1]Sheet1!A1)", [{ kind: "unsupported", reason: "externalReference", text: "[1]Sheet1!A1" }]],
    ["FIRMA.X('[2]Foaie 1'!A1)", [{ kind: "unsupported", reason: "externalReference", text: "'[2]Foaie 1'!A1" }]],
    ["FIRMA.X(Sheet1:Sheet3!A1)", [{ kind: "unsupported", reason: "threeDReference", text: "Sheet1:Sheet3!A1" }]],
    ["FIRMA.X(Tabel1[CUI])", [{ kind: "unsupported", reason: "structuredReference", text: "Tabel1[CUI]" }]],
    ["FIRMA.X(Tabel1[[#This Row],[CUI]])", [{ kind: "unsupported", reason: "structuredReference", text: "Tabel1[[#This Row],[CUI]]" }]],
    ["FIRMA.X(A2#)", [{ kind: "unsupported", reason: "spillReference", text: "A2#" }]],
    ["FIRMA.X({1,A2})", [{ kind: "unsupported", reason: "arrayConstant", text: "{1,A2}" }]],
  ])("%s", (formula, expected) => {
    expect(args(formula)).toEqual(expected);
  });

  test("the file format separates arguments with ',' (';' is only the UI's list separator)", () => {
    // In a file, ';' only separates rows of an array constant: FIRMA.X(A2;2024) is not two arguments.
    const a = analyzeFormula("FIRMA.X(A2;2024)", "FIRMA");
    expect(a.kind).toBe("call");
    if (a.kind === "call") expect(a.call.args).toEqual([{ kind: "unsupported", reason: "expression", text: "A2;2024" }]);
  });
});

describe("shiftFormula (shared formulas) and toXldudfForm", () => {
  test("moves relative references only", () => {
    expect(shiftFormula("_xldudf_FIRMA_CA(A2,$B$1,B$1,$C2,'My s'!D3:E4,\"A2\",2024)", 3, 1)).toBe(
      "_xldudf_FIRMA_CA(B5,$B$1,C$1,$C5,'My s'!E6:F7,\"A2\",2024)",
    );
  });
  test("a reference moved off the sheet becomes #REF!", () => {
    expect(shiftFormula("FIRMA.CA(A2)", -5, 0)).toBe("FIRMA.CA(#REF!)");
  });
  test("typed calls become the stored form, strings and other functions untouched", () => {
    expect(toXldudfForm('=IFERROR(FIRMA.CA(A2,"FIRMA.X(1)"),firma.denumire(B2))', "FIRMA")).toBe(
      'IFERROR(_xldudf_FIRMA_CA(A2,"FIRMA.X(1)"),_xldudf_FIRMA_DENUMIRE(B2))',
    );
  });
});
