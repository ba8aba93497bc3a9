/**
 * fast-formula-parser made to compute as Excel does, on the instances this module creates only
 * (the library's module and prototypes stay as they ship).
 *
 * The parsing and the ~280 Excel functions are fast-formula-parser's (MIT licence, © Lester
 * (Dishu) Lyu, https://github.com/LesterLyu/fast-formula-parser; MIT fits this project's use:
 * keep its copyright notice, which ships in node_modules/fast-formula-parser/LICENSE). Where it
 * differs from Excel, `ExcelParser` corrects it: text comparison ignores case ("a"="A" is TRUE),
 * an empty cell compares equal to "" and FALSE (in the operators and in COUNTIF, SUMIF and
 * AVERAGEIF's criteria), a number joined with & reads as Excel writes it (15 significant digits),
 * ROUND rounds the decimal number shown (2.675 → 2.68), a reference to a cell holding an error
 * gives that error, and UPPER, VALUE, MIN, MAX, SUBSTITUTE, which it lacks or computes otherwise,
 * are Excel's.
 */
import FormulaParser, { Criteria, FormulaError, FormulaHelpers, Types, type FunctionArg, type ParserConfig } from "fast-formula-parser";
import { Infix } from "fast-formula-parser/formulas/operators";

/** A number as Excel turns it into text (`=1/3&""`): at most 15 significant digits, "1E-07" style exponents. */
export function excelNumberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const s = Math.abs(n) >= 1e15 ? n.toExponential(14).replace(/\.?0+e/, "e") : String(Number(n.toPrecision(15)));
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  return m ? `${m[1]}E${m[2]}${m[3].padStart(2, "0")}` : s;
}

// ---- the operators ---------------------------------------------------------------------------

const first = (v: unknown, isArray: boolean): unknown => (isArray && Array.isArray(v) ? (v as unknown[][])[0]?.[0] : v);

/** `=`, `<>`, `<` …: an empty cell equals "" and FALSE as well as 0; text compares without regard to case. */
function excelCompare(a0: unknown, op: string, b0: unknown, isArray1: boolean, isArray2: boolean): unknown {
  let a = first(a0, isArray1);
  let b = first(b0, isArray2);
  if (a == null && typeof b === "string") a = "";
  if (b == null && typeof a === "string") b = "";
  if (a == null && typeof b === "boolean") a = false;
  if (b == null && typeof a === "boolean") b = false;
  if (typeof a === "string" && typeof b === "string") {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  return Infix.compareOp(a, op, b, false, false);
}

/** `&`: a number as Excel writes it. */
function excelConcat(a0: unknown, op: string, b0: unknown, isArray1: boolean, isArray2: boolean): unknown {
  const text = (v: unknown) => (typeof v === "number" ? excelNumberText(v) : v);
  return Infix.concatOp(text(first(a0, isArray1)), op, text(first(b0, isArray2)), false, false);
}

const EXCEL_INFIX: Readonly<Record<string, typeof excelCompare>> = {
  "=": excelCompare,
  "<>": excelCompare,
  "<": excelCompare,
  ">": excelCompare,
  "<=": excelCompare,
  ">=": excelCompare,
  "&": excelConcat,
};

// ---- the functions ---------------------------------------------------------------------------

function numbersOf(args: FunctionArg[]): number[] {
  const out: number[] = [];
  for (const a of args) {
    if (a.omitted) continue;
    if (a.isArray || Array.isArray(a.value)) {
      for (const v of (a.value as unknown[][]).flat()) {
        if (v instanceof FormulaError) throw v;
        if (typeof v === "number") out.push(v); // text, booleans and blanks in a range are ignored, as in Excel
      }
    } else if (a.isCellRef && typeof a.value !== "number" && !(a.value instanceof FormulaError)) {
      continue; // a referenced cell holding text or nothing is ignored too
    } else {
      out.push(FormulaHelpers.accept(a, Types.NUMBER) as number);
    }
  }
  return out;
}

/** The test a COUNTIF/SUMIF/AVERAGEIF criterion makes of a value, comparing as Excel does. */
function criterionTest(criteria: FunctionArg): (value: unknown) => boolean {
  const c = Criteria.parse(FormulaHelpers.accept(criteria));
  if (c.op === "wc") return (value) => c.match === (c.value as RegExp).test(value as string);
  return (value) => Boolean(excelCompare(value, c.op, c.value, Array.isArray(value), criteria.isArray));
}

/** SUMIF and AVERAGEIF: the numbers of `values` (or of `range`) whose cell in `range` meets the criterion. */
function numbersWhere(context: FormulaParser, range: unknown, criteria: unknown, values: unknown): number[] {
  const [keys, numbers] = FormulaHelpers.retrieveRanges(context, range, values) as unknown[][][];
  const meets = criterionTest(FormulaHelpers.retrieveArg(context, criteria));
  const out: number[] = [];
  keys.forEach((row, r) =>
    row.forEach((value, c) => {
      const n = numbers[r][c];
      if (typeof n === "number" && meets(value)) out.push(n);
    }),
  );
  return out;
}

/** Functions fast-formula-parser lacks or computes differently from Excel. */
const EXCEL_FUNCTIONS: Record<string, (...args: FunctionArg[]) => unknown> = {
  UPPER: (text) => String(FormulaHelpers.accept(text, Types.STRING)).toUpperCase(),
  VALUE: (text) => {
    const v = FormulaHelpers.accept(text, null);
    if (v instanceof FormulaError) return v;
    if (typeof v === "number") return v;
    if (v == null) return 0;
    if (typeof v !== "string") return FormulaError.VALUE;
    const s = v.trim();
    const pct = s.endsWith("%");
    const n = Number((pct ? s.slice(0, -1) : s).replace(/,(?=\d{3}(?:\D|$))/g, ""));
    if (s === "" || !Number.isFinite(n)) return FormulaError.VALUE;
    return pct ? n / 100 : n;
  },
  MIN: (...args) => {
    const ns = numbersOf(args);
    return ns.length ? Math.min(...ns) : 0;
  },
  MAX: (...args) => {
    const ns = numbersOf(args);
    return ns.length ? Math.max(...ns) : 0;
  },
  SUBSTITUTE: (text, oldText, newText, instance) => {
    const s = String(FormulaHelpers.accept(text, Types.STRING));
    const o = String(FormulaHelpers.accept(oldText, Types.STRING));
    const n = String(FormulaHelpers.accept(newText, Types.STRING));
    if (o === "") return s;
    if (!instance || instance.omitted) return s.split(o).join(n);
    const k = FormulaHelpers.accept(instance, Types.NUMBER) as number;
    if (k < 1) return FormulaError.VALUE;
    let at = -1;
    for (let i = 0; i < k; i++) {
      at = s.indexOf(o, at + 1);
      if (at < 0) return s;
    }
    return s.slice(0, at) + n + s.slice(at + o.length);
  },
  ROUND: (number, digits) => {
    const x = FormulaHelpers.accept(number, Types.NUMBER) as number;
    const d = Math.trunc(FormulaHelpers.accept(digits, Types.NUMBER) as number);
    // rounds the decimal number Excel shows (15 digits), not the binary one: ROUND(2.675,2) = 2.68
    const m = Math.pow(10, Math.abs(d));
    const scaled = Number((Math.abs(x) * (d >= 0 ? m : 1 / m)).toPrecision(15));
    const r = Math.round(scaled);
    const out = d >= 0 ? r / m : r * m;
    return x < 0 ? -out : out;
  },
  COUNTIF: (range, criteria) => {
    const rows = FormulaHelpers.accept(range, Types.ARRAY, undefined, false, true) as unknown[][];
    const meets = criterionTest(criteria);
    let n = 0;
    for (const row of rows) for (const value of row) if (meets(value)) n++;
    return n;
  },
};

/** Functions that take the parser and their arguments unread (references), as the library calls them. */
const EXCEL_CONTEXT_FUNCTIONS: ParserConfig["functionsNeedContext"] = {
  SUMIF: (context, range, criteria, sumRange) => numbersWhere(context, range, criteria, sumRange).reduce((s, n) => s + n, 0),
  AVERAGEIF: (context, range, criteria, averageRange) => {
    const ns = numbersWhere(context, range, criteria, averageRange);
    if (ns.length === 0) throw FormulaError.DIV0;
    return ns.reduce((s, n) => s + n, 0) / ns.length;
  },
};

// ---- the parser ------------------------------------------------------------------------------

/** fast-formula-parser computing as Excel does (see the module comment); `config.functions` are added to Excel's. */
export class ExcelParser extends FormulaParser {
  constructor(config: ParserConfig) {
    super({
      ...config,
      functions: { ...EXCEL_FUNCTIONS, ...config.functions },
      functionsNeedContext: { ...EXCEL_CONTEXT_FUNCTIONS, ...config.functionsNeedContext },
    });
    // The operators are applied by this instance's own helper object: its infix step is replaced
    // here, for this parser only (an error operand still wins first, as in the library).
    const utils = this.utils;
    const libraryInfix = utils._applyInfix.bind(utils);
    utils._applyInfix = (res1, infix, res2) => {
      const op = EXCEL_INFIX[infix];
      if (!op || utils.isFormulaError(res1.val) || utils.isFormulaError(res2.val)) return libraryInfix(res1, infix, res2);
      return op(res1.val, infix, res2.val, res1.isArray, res2.isArray);
    };
  }

  /** A reference to a cell holding an error gives that error (the library gives #VALUE!). */
  override checkFormulaResult(result: unknown, allowReturnArray = false): unknown {
    if (allowReturnArray && result && typeof result === "object" && "ref" in result) {
      const v = this.retrieveRef(result);
      if (v instanceof FormulaError || v === null || typeof v !== "object") return v;
      return super.checkFormulaResult(v, true);
    }
    return super.checkFormulaResult(result, allowReturnArray);
  }
}
