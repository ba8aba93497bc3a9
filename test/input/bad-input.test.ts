/**
 * Bad input through the functions: the BUILT bundle in the Excel runtime stand-in, against
 * the sandbox. Each input gives a value or a clear cell error (the exact Excel error code, and a
 * message that says what to do), and input refused locally costs nothing: the sandbox sees no call.
 * Loads the functions bundle of the present sources (test/support/builds.js).
 */
import { errorCell, ExcelStandIn, StandInError, StandInStorage } from "../support/excel-runtime";
import { startSandbox, Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

let sb: Sandbox;
/** An Excel with data types for custom functions (CustomFunctionsRuntime 1.4: Microsoft 365 since 2208, the web). */
const TODAYS_EXCEL = { requirementSets: { CustomFunctionsRuntime: "1.5" } };
let serial = 0;

beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

const LATEST = data.LATEST_YEAR;
/** Companies with figures for the latest two years. */
const [A, B, C, D] = data.sampleCuis(400, 700_000).filter((c) => [LATEST, LATEST - 1].every((y) => data.financialYear(c, y) !== null));
const name = (c: number) => data.company(c)!.denumire;
const revenue = (c: number, y = LATEST) => data.financialYear(c, y)!.cifra_afaceri;
const [MISSING] = data.missingCuis(1);
const WRONG_CONTROL = A % 10 === 9 ? A - 1 : A + 1;
const SLUG = `top-cifra-afaceri-${LATEST}-national`;

/** Every error message says what to do: one of these verbs (Romanian, the default language). */
const ACTION = /scrieți|verificați|alegeți|lăsați|încercați|copiați|folosiți|vedeți|introduceți|reîncercați|corectați|dați/i;

const CUI_INVALID = { code: "#VALUE!", message: /^CUI invalid .*Verificați codul/ };
/** An error cell as the CUI: its own error (one Excel accepts as an answer), saying where it comes from. */
const CUI_CELL_ERROR = (code: string, shown = code) => ({
  code: shown,
  message: new RegExp(`^Celula cu CUI-ul conține eroarea ${code.replace(/[?/!]/g, "\\$&")}: corectați acea celulă`),
});
const ARGUMENT_CELL_ERROR = { code: "#N/A", message: /^Un argument al funcției este eroarea #N\/A: corectați celula/ };
const CARD_WITHOUT_CUI = { code: "#VALUE!", message: /^Fișa „ACME SRL” nu are un CUI: dați CUI-ul firmei/ };
const CUI_EMPTY = { code: "#VALUE!", message: /^CUI lipsă: .*scrieți codul fiscal/ };
// The precise cause the engine found: the year typed (or the first year with data), and the latest year.
const YEAR_INVALID = {
  code: "#VALUE!",
  message: /^An invalid( \((„.+”|\d+)\))?: (scrieți un an cu 4 cifre|datele încep în 1990; scrieți un an din 1990)/,
};
const YEAR_LATER = { code: "#N/A", message: /^Nu există încă date pentru anul \d{4} \(ultimul an cu date: \d{4}\); lăsați anul gol/ };
const YEAR_PLAN = { code: "#N/A", message: /istoricul planului .*alegeți un an mai recent/ };
const SLUG_INVALID = { code: "#VALUE!", message: /^Identificator de top invalid: copiați unul din FIRMA\.TOPURI/ };
const LIMIT_INVALID = { code: "#VALUE!", message: /^Limită invalidă: scrieți un număr întreg de la 1 la 1000/ };
const FIELD_INVALID = { code: "#VALUE!", message: /^Câmp necunoscut: folosiți un nume/ };
const ARGUMENT_INVALID = { code: "#VALUE!", message: /^Argument invalid: vedeți Ajutor/ };

interface ErrorWant {
  code: string;
  message: RegExp;
}

interface Case {
  fn: string;
  args: unknown[];
  /** The whole result, a thrown cell error, or an error at [row, column] of a spilled result. */
  want: { value: unknown[][] } | { error: ErrorWant } | { errorAt: [number, number]; error: ErrorWant; rows?: number };
  /** Refused before any call: the sandbox must see none. */
  local?: boolean;
  plan?: "free" | "pro";
}

const err = (error: ErrorWant, local = true): Pick<Case, "want" | "local"> => ({ want: { error }, local });
const listErr = (error: ErrorWant, local = true): Pick<Case, "want" | "local"> => ({ want: { errorAt: [1, 0], error, rows: 2 }, local });
const val = (value: unknown[][]): Pick<Case, "want"> => ({ want: { value } });

const CASES: [string, Case][] = [
  // ---- CUIs --------------------------------------------------------------------------------
  ["CUI with RO prefix", { fn: "DENUMIRE", args: [`RO${A}`], ...val([[name(A)]]) }],
  ["CUI with lower-case ro prefix", { fn: "DENUMIRE", args: [`ro${A}`], ...val([[name(A)]]) }],
  [
    "CUI as text with spaces around and inside",
    { fn: "DENUMIRE", args: [` RO ${String(A).slice(0, 4)} ${String(A).slice(4)} `], ...val([[name(A)]]) },
  ],
  ["CUI as text", { fn: "DENUMIRE", args: [String(A)], ...val([[name(A)]]) }],
  ["CUI with leading zeros", { fn: "DENUMIRE", args: [`00${A}`], ...val([[name(A)]]) }],
  ["CUI with a wrong control digit", { fn: "DENUMIRE", args: [WRONG_CONTROL], ...err(CUI_INVALID) }],
  ["CUI with RO and a wrong control digit", { fn: "DENUMIRE", args: [`RO${WRONG_CONTROL}`], ...err(CUI_INVALID) }],
  ["CUI 0", { fn: "DENUMIRE", args: [0], ...err(CUI_INVALID) }],
  ["negative CUI", { fn: "DENUMIRE", args: [-A], ...err(CUI_INVALID) }],
  ["CUI of one digit", { fn: "DENUMIRE", args: [7], ...err(CUI_INVALID) }],
  ["CUI of more than 10 digits", { fn: "DENUMIRE", args: [12345678901], ...err(CUI_INVALID) }],
  ["CUI of more than 10 digits, as text", { fn: "DENUMIRE", args: ["RO123456789012"], ...err(CUI_INVALID) }],
  ["fractional CUI", { fn: "DENUMIRE", args: [A + 0.5], ...err(CUI_INVALID) }],
  ["CUI as words", { fn: "DENUMIRE", args: ["firma mea"], ...err(CUI_INVALID) }],
  ["RO alone", { fn: "DENUMIRE", args: ["RO"], ...err(CUI_INVALID) }],
  ["zeros only", { fn: "DENUMIRE", args: ["RO 0000"], ...err(CUI_INVALID) }],
  ["boolean TRUE as CUI", { fn: "DENUMIRE", args: [true], ...err(CUI_INVALID) }],
  ["boolean FALSE as CUI", { fn: "STARE", args: [false], ...err(CUI_INVALID) }],
  ["empty text as CUI", { fn: "DENUMIRE", args: [""], ...err(CUI_EMPTY) }],
  ["blank cell as CUI", { fn: "DENUMIRE", args: [[[null]]], ...err(CUI_EMPTY) }],
  ["spaces only as CUI", { fn: "JUDET", args: ["   "], ...err(CUI_EMPTY) }],
  // ---- data types and error cells (allowCustomDataForDataTypeAny, allowErrorForDataTypeAny) -----
  ["an error cell (#N/A) as CUI", { fn: "DENUMIRE", args: [errorCell("#N/A")], ...err(CUI_CELL_ERROR("#N/A")) }],
  [
    "an error cell (#VALUE!) as CUI, in a financial function",
    { fn: "CA", args: [errorCell("#VALUE!"), LATEST], ...err(CUI_CELL_ERROR("#VALUE!")) },
  ],
  [
    "#REF! as CUI: Excel takes no #REF! answer, so #VALUE! naming it",
    { fn: "STARE", args: [errorCell("#REF!")], ...err(CUI_CELL_ERROR("#REF!", "#VALUE!")) },
  ],
  [
    "#NAME? as CUI, in PROFIL's row",
    { fn: "PROFIL", args: [errorCell("#NAME?")], want: { errorAt: [0, 0], error: CUI_CELL_ERROR("#NAME?", "#VALUE!") }, local: true },
  ],
  [
    "a range with an error cell among CUIs: that cell only",
    { fn: "DENUMIRE", args: [[[A], [errorCell("#N/A")], [B]]], want: { errorAt: [1, 0], error: CUI_CELL_ERROR("#N/A") } },
  ],
  ["an error cell as the year: the whole answer", { fn: "CA", args: [A, errorCell("#N/A")], ...err(ARGUMENT_CELL_ERROR) }],
  ["an error cell as CAMP's field", { fn: "CAMP", args: [A, errorCell("#N/A")], ...err(ARGUMENT_CELL_ERROR) }],
  ["an error cell as the search text", { fn: "CAUTA", args: [errorCell("#N/A")], ...err(ARGUMENT_CELL_ERROR) }],
  [
    "a card without a CUI property",
    {
      fn: "DENUMIRE",
      args: [{ type: "Entity", text: "ACME SRL", properties: { Denumire: { type: "String", basicValue: "ACME SRL" } } }],
      ...err(CARD_WITHOUT_CUI),
    },
  ],
  [
    "a card whose CUI is not a number",
    {
      fn: "STARE",
      args: [{ type: "Entity", text: "ACME SRL", properties: { CUI: { type: "Boolean", basicValue: true } } }],
      ...err(CARD_WITHOUT_CUI),
    },
  ],
  [
    "an image as CUI",
    {
      fn: "DENUMIRE",
      args: [{ type: "WebImage", address: "https://example.invalid/a.png" }],
      ...err({ code: "#VALUE!", message: /^O valoare de tip WebImage nu este un CUI: dați CUI-ul/ }),
    },
  ],
  [
    "a card as CUI: its CUI property",
    { fn: "DENUMIRE", args: [{ type: "Entity", text: "X", properties: { CUI: { type: "Double", basicValue: A } } }], ...val([[name(A)]]) },
  ],
  ["a formatted number as CUI", { fn: "DENUMIRE", args: [{ type: "Double", basicValue: A, numberFormat: "0" }], ...val([[name(A)]]) }],
  [
    "a formatted number (older FormattedNumber) as CUI",
    { fn: "DENUMIRE", args: [{ type: "FormattedNumber", basicValue: A, numberFormat: "0" }], ...val([[name(A)]]) },
  ],
  ["a string data type as CUI", { fn: "DENUMIRE", args: [{ type: "String", basicValue: `RO${A}` }], ...val([[name(A)]]) }],
  [
    "a formatted number as the year",
    { fn: "CA", args: [A, { type: "Double", basicValue: LATEST, numberFormat: "0" }], ...val([[revenue(A)]]) },
  ],
  [
    "a well-formed CUI the service does not know",
    { fn: "DENUMIRE", args: [MISSING], ...err({ code: "#N/A", message: /^Firma nu a fost găsită .*verificați codul/ }, false) },
  ],
  ["bad CUI in a financial function", { fn: "CA", args: [WRONG_CONTROL, LATEST], ...err(CUI_INVALID) }],

  // ---- years -------------------------------------------------------------------------------
  ["year as text", { fn: "CA", args: [A, String(LATEST - 1)], ...val([[revenue(A, LATEST - 1)]]) }],
  ["year as text with spaces", { fn: "CA", args: [A, ` ${LATEST} `], ...val([[revenue(A)]]) }],
  ["year left empty: the latest", { fn: "CA", args: [A, ""], ...val([[revenue(A)]]) }],
  ["year as words", { fn: "CA", args: [A, "anul trecut"], ...err(YEAR_INVALID) }],
  ["year with a letter", { fn: "PROFIT", args: [A, `${LATEST}x`], ...err(YEAR_INVALID) }],
  ["year 1800", { fn: "CA", args: [A, 1800], ...err(YEAR_INVALID) }],
  ["year 3000", { fn: "CA", args: [A, 3000], ...err(YEAR_LATER) }],
  ["next year", { fn: "ANGAJATI", args: [A, LATEST + 1], ...err(YEAR_LATER) }],
  ["fractional year", { fn: "CA", args: [A, LATEST - 0.5], ...err(YEAR_INVALID) }],
  ["year 0", { fn: "CA", args: [A, 0], ...err(YEAR_INVALID) }],
  ["negative year", { fn: "CA", args: [A, -LATEST], ...err(YEAR_INVALID) }],
  ["year of five digits", { fn: "CA", args: [A, 20245], ...err(YEAR_INVALID) }],
  ["boolean as year", { fn: "CA", args: [A, true], ...err(YEAR_INVALID) }],
  ["year beyond the Free plan's history", { fn: "CA", args: [A, LATEST - 1], plan: "free", ...err(YEAR_PLAN) }],
  ["year beyond the Pro plan's history", { fn: "PROFIT", args: [A, LATEST - 5], plan: "pro", ...err(YEAR_PLAN) }],
  ["year inside the Pro plan's history", { fn: "CA", args: [A, LATEST - 1], plan: "pro", ...val([[revenue(A, LATEST - 1)]]) }],
  [
    "history over an invalid year",
    { fn: "ISTORIC", args: [A, "abc", LATEST], want: { errorAt: [0, 0], error: YEAR_INVALID }, local: true },
  ],
  ["ranking list of an invalid year", { fn: "TOPURI", args: ["anul ăsta"], ...listErr(YEAR_INVALID) }],

  // ---- ranking slugs and limits --------------------------------------------------------------
  ["empty slug", { fn: "TOP", args: [""], ...listErr(SLUG_INVALID) }],
  ["slug with ../", { fn: "TOP", args: ["../../v4/firme/14399840"], ...listErr(SLUG_INVALID) }],
  ["slug of 500 characters", { fn: "TOP", args: ["a".repeat(500)], ...listErr(SLUG_INVALID) }],
  ["slug with a query string", { fn: "TOP", args: [`${SLUG}?limit=1000`], ...listErr(SLUG_INVALID) }],
  ["boolean as slug", { fn: "TOP", args: [true], ...listErr(SLUG_INVALID) }],
  [
    "well-formed slug the service does not know",
    {
      fn: "TOP",
      args: ["top-nu-exista-2020"],
      ...listErr({ code: "#N/A", message: /^Topul nu există: alegeți unul din FIRMA\.TOPURI/ }, false),
    },
  ],
  ["ranking limit 0", { fn: "TOP", args: [SLUG, 0], ...listErr(LIMIT_INVALID) }],
  ["ranking limit 1001", { fn: "TOP", args: [SLUG, 1001], ...listErr(LIMIT_INVALID) }],
  ["fractional ranking limit", { fn: "TOP", args: [SLUG, 2.5], ...listErr(LIMIT_INVALID) }],
  ["search limit as words", { fn: "CAUTA", args: ["ab", null, null, null, "zece"], ...listErr(LIMIT_INVALID) }],
  ["negative search limit", { fn: "CAUTA", args: ["ab", null, null, null, -1], ...listErr(LIMIT_INVALID) }],

  // ---- field names -------------------------------------------------------------------------
  ["unknown field name", { fn: "CAMP", args: [A, "nu_exista"], ...err(FIELD_INVALID) }],
  ["empty field name", { fn: "CAMP", args: [A, ""], ...err(FIELD_INVALID) }],
  [
    "a profile field as a history's indicator",
    { fn: "ISTORIC", args: [A, LATEST - 1, LATEST, "denumire"], want: { errorAt: [0, 0], error: FIELD_INVALID }, local: true },
  ],
  [
    "a range of CUIs for a history",
    { fn: "ISTORIC", args: [[[A], [B]], LATEST - 1, LATEST], want: { errorAt: [0, 0], error: ARGUMENT_INVALID }, local: true },
  ],

  // ---- ranges ------------------------------------------------------------------------------
  ["range 1×1", { fn: "DENUMIRE", args: [[[A]]], ...val([[name(A)]]) }],
  ["range 1×N", { fn: "DENUMIRE", args: [[[A, B, C]]], ...val([[name(A), name(B), name(C)]]) }],
  [
    "range N×M",
    {
      fn: "DENUMIRE",
      args: [
        [
          [A, B],
          [C, D],
        ],
      ],
      ...val([
        [name(A), name(B)],
        [name(C), name(D)],
      ]),
    },
  ],
  [
    "range N×M with blanks",
    {
      fn: "DENUMIRE",
      args: [
        [
          [A, ""],
          [null, D],
        ],
      ],
      ...val([
        [name(A), ""],
        ["", name(D)],
      ]),
    },
  ],
  [
    "range of blanks only",
    {
      fn: "DENUMIRE",
      args: [
        [
          ["", null],
          ["  ", ""],
        ],
      ],
      ...val([
        ["", ""],
        ["", ""],
      ]),
      local: true,
    },
  ],
  [
    "range with the same company spelled three ways",
    { fn: "DENUMIRE", args: [[[A], [`RO${A}`], [` ${A} `]]], ...val([[name(A)], [name(A)], [name(A)]]) },
  ],
  [
    "range with an invalid CUI among valid ones",
    { fn: "CA", args: [[[A, WRONG_CONTROL, B]], LATEST], want: { errorAt: [0, 1], error: CUI_INVALID } },
  ],
  [
    "range of invalid CUIs only",
    { fn: "DENUMIRE", args: [[[WRONG_CONTROL], ["abc"], [0]]], want: { errorAt: [2, 0], error: CUI_INVALID }, local: true },
  ],
];

describe("bad input through the functions", () => {
  test("all the locally refused inputs at once, as a sheet full of them, cost nothing and each cell says what to do", async () => {
    const key = `demo-free-badsheet${++serial}`;
    const storage = new StandInStorage();
    storage.data.set("firma.apiKey", key);
    storage.data.set("firma.baseUrl", sb.url);
    storage.data.set("firma.batchWindowMs", "5");
    storage.data.set("firma.plan", "free"); // 10 calls a day: a leak would show at once
    const xl = new ExcelStandIn(storage, undefined, TODAYS_EXCEL);
    const local = CASES.filter(([, c]) => c.local && !("value" in c.want));
    expect(local.length).toBeGreaterThan(20);
    const results = await Promise.all(local.map(([, c]) => xl.call(c.fn, c.args)));
    const messages = results
      .flatMap((r) => (Array.isArray(r) ? r.flat() : [r]))
      .filter((v): v is StandInError => v instanceof StandInError)
      .map((e) => e.message);
    expect(messages.length).toBeGreaterThanOrEqual(local.length);
    for (const m of messages) expect(m).toMatch(ACTION);
    expect(sb.requests.filter((r) => r.key === key)).toHaveLength(0);
  });

  test.each(CASES)("%s", async (_label, c) => {
    const key = `demo-${c.plan ?? "enterprise"}-bad${++serial}`;
    const storage = new StandInStorage();
    storage.data.set("firma.apiKey", key);
    storage.data.set("firma.baseUrl", sb.url);
    storage.data.set("firma.batchWindowMs", "5");
    if (c.plan) storage.data.set("firma.plan", c.plan);
    const xl = new ExcelStandIn(storage, undefined, TODAYS_EXCEL);

    const got = await xl.call(c.fn, c.args);
    const LISTS = new Set(["CAUTA", "TOP", "TOPURI", "JUDETE", "ISTORIC"]);

    const w = c.want;
    if ("value" in w) {
      expect(got).toEqual(w.value);
    } else {
      let e: unknown = got;
      if ("errorAt" in w && LISTS.has(c.fn.toUpperCase())) {
        // A list or a history that fails answers one error in the formula's own cell (so IFERROR sees it).
        expect(Array.isArray(got)).toBe(false);
      } else if ("errorAt" in w) {
        expect(Array.isArray(got)).toBe(true);
        const m = got as unknown[][];
        if (w.rows !== undefined) expect(m).toHaveLength(w.rows);
        e = m[w.errorAt[0]][w.errorAt[1]];
      }
      expect(e).toBeInstanceOf(StandInError);
      const se = e as StandInError;
      expect({ code: se.code, message: se.message }).toEqual({ code: w.error.code, message: expect.stringMatching(w.error.message) });
      expect(se.message).toMatch(ACTION);
    }
    const calls = sb.requests.filter((r) => r.key === key).length;
    if (c.local) expect(calls).toBe(0);
    else expect(calls).toBeGreaterThan(0);
  });
});
