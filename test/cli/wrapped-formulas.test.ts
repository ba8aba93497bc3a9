/**
 * Formulas as people write them: FIRMA calls wrapped in or combined with
 * Excel's functions and operators, and arguments that are formulas or references to formula
 * cells, refreshed by the CLI against the sandbox. Each written value is what Excel computes
 * from the sandbox's truth; the credits stay the minimum of one plan.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { buildWorkbook, BuildCell, BuildValue, FormulaSpec } from "../fixtures/build-workbook";
import { FormulaEvaluator } from "../../src/cli/excel-formulas";
import { excelNumberText } from "../../src/cli/excel-parser";
import { firma } from "../support/cli";
import { refreshWorkbook, RefreshReport } from "../../src/cli/refresh";
import { Workbook } from "../../src/shared/xlsx/workbook";
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
let dir: string;
let n = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "firma-wrapped-"));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refresh(input: Uint8Array, key: string, maxCredits?: number): Promise<RefreshReport> {
  const engine = new FirmaEngine({ baseUrl: sb.url, apiKey: () => key, store: new MemoryStore(), plan: () => null });
  return refreshWorkbook(input, { engine, lang: "ro", maxCredits });
}

type Expected = BuildValue;
const NA: Expected = { error: "#N/A" };

/** Excel's ROUND: half away from zero, on the decimal number shown (15 significant digits). */
function excelRound(x: number, digits: number): number {
  const m = 10 ** digits;
  return (Math.sign(x) * Math.round(Number((Math.abs(x) * m).toPrecision(15)))) / m;
}

/** The columns: header, formula (`{r}` = the row), form, and what Excel shows for a CUI. */
const COLUMNS: Array<{ col: string; formula: string; form?: FormulaSpec["form"]; expect: (cui: number) => Expected }> = [
  {
    col: "B",
    formula: '=IFERROR(FIRMA.DENUMIRE(A{r}),"-")',
    expect: (cui) => data.company(cui)?.denumire ?? "-",
  },
  {
    col: "C",
    formula: "=FIRMA.CA(A{r},2023)/1000",
    form: "plain",
    expect: (cui) => {
      const f = data.company(cui) && data.financialYear(cui, 2023);
      return f ? f.cifra_afaceri / 1000 : NA;
    },
  },
  {
    col: "D",
    formula: "=UPPER(FIRMA.JUDET(A{r}))",
    expect: (cui) => data.company(cui)?.judet.toUpperCase() ?? NA,
  },
  {
    col: "E",
    formula: "=FIRMA.DENUMIRE(TRIM(K{r}))",
    expect: (cui) => data.company(cui)?.denumire ?? NA,
  },
  {
    col: "F",
    formula: "=ROUND(FIRMA.PROFIT(A{r})/FIRMA.CA(A{r}),2)",
    expect: (cui) => {
      const f = data.company(cui) && data.financialYear(cui, data.LATEST_YEAR);
      if (!f) return NA;
      if (f.cifra_afaceri === 0) return { error: "#DIV/0!" };
      return excelRound(f.profit_net / f.cifra_afaceri, 2);
    },
  },
  {
    col: "H",
    formula: "=FIRMA.DENUMIRE(G{r})",
    form: "plain",
    expect: (cui) => data.company(cui)?.denumire ?? NA,
  },
  {
    col: "I",
    formula: '=IF(FIRMA.STARE(A{r})="ACTIVA","da","nu")',
    expect: (cui) => {
      const c = data.company(cui);
      return c ? (c.stare === "ACTIVA" ? "da" : "nu") : NA;
    },
  },
  {
    col: "J",
    formula: '=FIRMA.DENUMIRE(A{r})&" ("&FIRMA.JUDET(A{r})&")"',
    expect: (cui) => {
      const c = data.company(cui);
      return c ? `${c.denumire} (${c.judet})` : NA;
    },
  },
  {
    col: "L",
    formula: "=_xlfn.IFNA(FIRMA.CA(A{r},2023),0)",
    form: "plain",
    expect: (cui) => (data.company(cui) && data.financialYear(cui, 2023)?.cifra_afaceri) || 0,
  },
  {
    // a FIRMA cell (M) read by another FIRMA formula: its value in this run, not the stale one
    col: "N",
    formula: '=FIRMA.DENUMIRE(A{r})&"/"&LOWER(M{r})',
    expect: (cui) => {
      const c = data.company(cui);
      return c ? `${c.denumire}/${c.judet.toLowerCase()}` : NA;
    },
  },
  {
    // the argument is a FIRMA call's result: answered in a second round, from the same profile
    col: "O",
    formula: '=FIRMA.JUDET(IF(FIRMA.STARE(A{r})<>"",A{r},""))',
    expect: (cui) => data.company(cui)?.judet ?? NA,
  },
  {
    // the argument is computed from a FIRMA call's result: known only in a second round
    col: "P",
    formula: "=FIRMA.JUDET(A{r}&MID(FIRMA.STARE(A{r}),100,1))",
    expect: (cui) => data.company(cui)?.judet ?? NA,
  },
];

const CUIS = [data.EXAMPLE_CUI, ...data.sampleCuis(30, 52000), ...data.missingCuis(3)];

function spec(cuis: number[]): Uint8Array {
  const header: BuildCell[] = ["CUI"];
  const rows: BuildCell[][] = [header];
  cuis.forEach((cui, i) => {
    const r = i + 2;
    const row: BuildCell[] = [];
    row[0] = cui;
    row[6] = { formula: `=A${r}`, form: "plain", cached: 0 }; // G: a plain formula feeding H
    row[10] = ` ${cui} `; // K: the CUI as text with spaces, for TRIM
    row[12] = { formula: `=FIRMA.JUDET(A${r})` }; // M: read by N
    for (const c of COLUMNS) {
      const col = c.col.charCodeAt(0) - 65;
      row[col] = { formula: c.formula.replace(/\{r\}/g, String(r)), form: c.form, cached: c.form === "plain" ? "stale" : undefined };
    }
    rows.push(row);
  });
  return buildWorkbook({ sheets: [{ name: "Firme", rows }] });
}

describe("wrapped formulas (values equal to what Excel would compute)", () => {
  const input = spec(CUIS);
  const key = `demo-enterprise-wrapped${++n}`;
  let report: RefreshReport;
  let wb: Workbook;

  beforeAll(async () => {
    report = await refresh(input, key);
    wb = Workbook.open(report.output!);
  });

  test("every wrapped formula is evaluated; none is skipped", () => {
    expect(report.skipped).toEqual([]);
    expect(report.formulas).toBe(CUIS.length * (COLUMNS.length + 1));
    expect(report.evaluated).toBe(report.formulas);
    expect(report.rounds).toBe(1); // column P's calls, in a second round
  });

  for (const c of COLUMNS) {
    test(`${c.col}: ${c.formula.replace(/\{r\}/g, "2")}`, () => {
      CUIS.forEach((cui, i) => {
        const addr = `${c.col}${i + 2}`;
        const want = c.expect(cui);
        const got = wb.getValue("Firme", addr);
        if (typeof want === "object" && want !== null)
          expect([addr, cui, (got as { error?: string })?.error]).toEqual([addr, cui, (want as { error: string }).error]);
        else expect([addr, cui, got]).toEqual([addr, cui, want]);
      });
    });
  }

  test("the credits are the minimum of one plan: ⌈distinct/100⌉ + ⌈distinct/50⌉", () => {
    const distinct = new Set(CUIS).size;
    const minimum = Math.ceil(distinct / 100) + Math.ceil(distinct / 50);
    expect(sb.usage(key).total).toBe(minimum);
    expect(report.credits).toBe(minimum);
  });

  test("the same formulas as single calls cost the same credits (wrapping adds no call)", async () => {
    const plainKey = `demo-enterprise-wrapped${++n}`;
    const rows: BuildCell[][] = [["CUI"]];
    CUIS.forEach((cui, i) =>
      rows.push([
        cui,
        { formula: `=FIRMA.DENUMIRE(A${i + 2})` },
        { formula: `=FIRMA.CA(A${i + 2},2023)` },
        { formula: `=FIRMA.PROFIT(A${i + 2})` },
      ]),
    );
    const r = await refresh(buildWorkbook({ sheets: [{ name: "Firme", rows }] }), plainKey);
    expect(r.credits).toBe(report.credits);
  });
});

describe("what the evaluator cannot compute", () => {
  test("is named by cell, the rest is written, and the run is partial (exit code 2)", async () => {
    const key = `demo-enterprise-wrapped${++n}`;
    const f = join(dir, "unevaluable.xlsx");
    const cui = data.EXAMPLE_CUI;
    writeFileSync(
      f,
      buildWorkbook({
        sheets: [
          {
            name: "Firme",
            rows: [
              [cui, { formula: '=IFERROR(FIRMA.DENUMIRE(A1),"-")' }],
              [cui, { formula: "=FIRMA.DENUMIRE(_xlfn.XLOOKUP(1,{1},A2:A2))", form: "plain", cached: "old" }],
              [cui, { formula: "=FIRMA.DENUMIRE(Companie)", form: "plain", cached: "old" }],
            ],
          },
        ],
      }),
    );
    const outFile = join(dir, "unevaluable.out.xlsx");
    const { code, all: out } = await firma(["refresh", f, "--key", key, "--base-url", sb.url, "--no-cache", "--out", outFile, "--verbose"]);
    expect(code).toBe(2);
    expect(out).toMatch(/Firme!B2 .*XLOOKUP.*— funcția XLOOKUP nu poate fi calculată fără Excel$/m);
    expect(out).toMatch(/Firme!B3 .*— formula folosește un nume definit$/m);
    expect(out).not.toMatch(/cannot be computed|defined name/); // one language: Romanian here (no LANG)

    // in English with --lang en: the reasons too
    const { all: en } = await firma(["refresh", f, "--no-cache", "--out", outFile, "--verbose", "--lang", "en"], { key, baseUrl: sb.url });
    expect(en).toMatch(/Firme!B2 .*— the function XLOOKUP cannot be computed without Excel$/m);
    expect(en).toMatch(/Firme!B3 .*— the formula uses a defined name$/m);
    expect(en).not.toMatch(/fără Excel|nume definit/);
    const wb = Workbook.open(readFileSync(outFile));
    expect(wb.getValue("Firme", "B1")).toBe(data.company(cui)!.denumire);
    expect(wb.getValue("Firme", "B2")).toBe("old");
    expect(wb.getValue("Firme", "B3")).toBe("old");
  });
});

describe("an array result in an ordinary formula (LibreOffice, a library)", () => {
  test("the top-left value is written and the cell is reported with the result's size", async () => {
    const cui = data.EXAMPLE_CUI;
    const input = buildWorkbook({
      sheets: [{ name: "Firme", rows: [[cui, { formula: '=IFERROR(FIRMA.PROFIL(A1),"-")', form: "plain", cached: "old" }]] }],
    });
    const r = await refresh(input, `demo-enterprise-wrapped${++n}`);
    expect(r.arraysInOneCell).toEqual([{ sheet: "Firme", address: "B1", size: "1×9" }]);
    expect(Workbook.open(r.output!).getValue("Firme", "B1")).toBe(cui);
  });
});

describe("a FIRMA call that got no answer", () => {
  test("keeps the cell's value even under IFERROR (budget reached)", async () => {
    const key = `demo-enterprise-wrapped${++n}`;
    const cuis = data.sampleCuis(3, 53000);
    const input = buildWorkbook({
      sheets: [
        {
          name: "Firme",
          rows: cuis.map((cui, i) => [cui, { formula: `=IFERROR(FIRMA.CA(A${i + 1},2023),"-")`, form: "plain", cached: "old" }]),
        },
      ],
    });
    const r = await refresh(input, key, 0);
    expect(r.kept.budget_reached).toBe(3);
    const wb = Workbook.open(r.output!);
    for (let i = 1; i <= 3; i++) expect(wb.getValue("Firme", `B${i}`)).toBe("old");
  });
});

describe("the evaluator on its own (Excel's rules where fast-formula-parser differs)", () => {
  const wb = Workbook.open(
    buildWorkbook({
      sheets: [
        {
          name: "S",
          rows: [
            ["Acme", null, 2.675, { formula: "=A1", form: "plain", cached: "x" }, { formula: "=D1", form: "plain", cached: 0 }],
            [
              { formula: "=B2", form: "plain", cached: 5 },
              { formula: "=A2", form: "plain", cached: 7 },
            ],
          ],
        },
      ],
    }),
  );
  const ev = new FormulaEvaluator(wb);
  const one = (formula: string) => {
    const [o] = ev.pass([{ sheet: "S", row: 10, col: 10, formula }], () => "n/a");
    return o.kind === "value" ? o.value : o;
  };

  test.each([
    ['"acme"=A1', true],
    ['B1=""', true],
    ["B1=0", true],
    ["ROUND(C1,2)", 2.68],
    ['1/3&""', "0.333333333333333"],
    ['2^0.5&""', "1.4142135623731"],
    ['1E-7&""', "1E-07"],
    ["B1", 0],
    ["UPPER(E1)", "ACME"],
    ['VALUE(" 12 ")', 12],
    ["MAX(1,C1,-2)", 2.675],
    ['SUBSTITUTE("a-b-c","-","+")', "a+b+c"],
    ['IFERROR(1/0,"z")', "z"],
  ])("%s → %p", (f, want) => {
    expect(one(f)).toEqual(want);
  });

  test("a circular reference falls back to the value the file holds", () => {
    expect(one("A2")).toBe(5);
  });

  test("excelNumberText", () => {
    expect(excelNumberText(1234567890123456800)).toBe("1.23456789012346E+18");
    expect(excelNumberText(-0.1 - 0.2)).toBe("-0.3");
    expect(excelNumberText(1e15)).toBe("1E+15");
    expect(excelNumberText(123456789012345)).toBe("123456789012345");
  });
});
