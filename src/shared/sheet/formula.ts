/**
 * FIRMA formula analysis: where a formula (as the .xlsx file stores it, tokenized by tokenizer.ts)
 * calls the add-in's namespace, and whether it is one call whose arguments are literals or
 * references to cells and ranges — the shape whose arguments the pane's estimate and the CLI read
 * from the cells (sheet/arguments.ts). A formula of another shape (a FIRMA call nested in Excel's
 * functions or operators, an argument computed by an expression) is "nested" or has an
 * "unsupported" argument here; the CLI's formula engine evaluates such formulas whole.
 *
 * Two spellings of a namespace call are recognized, case-insensitively:
 *   `_xldudf_FIRMA_DENUMIRE(A2)` — what Excel writes when the add-in was loaded;
 *   `FIRMA.DENUMIRE(A2)`         — a formula typed while the add-in was not loaded (#NAME?).
 * Inside the argument list, a nested function, an operator, a defined name, a whole column, a 3-D or
 * external reference, a structured reference or the spill operator is an argument this analysis
 * does not read, with its reason (NotEvaluableReason).
 *
 * The tokenizer and the rewriting (formula-rewrite.ts) stay importable from here.
 */
import { CellError, CellValue } from "./cell-values";
import { Box } from "./a1";
import { matchNamespaceFunction, tokenize, type Token } from "./tokenizer";

export { FormulaSyntaxError, matchNamespaceFunction, tokenize, type RefToken, type Token, type TokenKind } from "./tokenizer";
export { shiftFormula, toXldudfForm } from "./formula-rewrite";

/** Why an argument (or a whole formula) cannot be evaluated outside Excel. */
export type NotEvaluableReason =
  | "syntax"
  | "nested"
  | "function"
  | "expression"
  | "name"
  | "wholeColumnOrRow"
  | "externalReference"
  | "threeDReference"
  | "structuredReference"
  | "spillReference"
  | "arrayConstant"
  | "unknownSheet"
  | "circular"
  | "rangeTooLarge";

export type FormulaArg =
  /** Omitted: `F(A1,,2)`. Custom functions receive null. */
  | { kind: "missing"; text: string }
  | { kind: "literal"; value: CellValue; text: string }
  /** `{1,2;3,4}`: rows of literals. */
  | { kind: "array"; value: CellValue[][]; text: string }
  /** A cell or a rectangular range; `sheet` null means the formula's own sheet. */
  | { kind: "ref"; sheet: string | null; box: Box; single: boolean; text: string }
  | { kind: "unsupported"; reason: NotEvaluableReason; text: string };

export interface NamespaceCall {
  /** Function name without the namespace, upper-case: "DENUMIRE". */
  name: string;
  /** How the call is spelled in the file. */
  form: "xldudf" | "typed";
  /** The function token as written, e.g. "_xldudf_FIRMA_DENUMIRE". */
  written: string;
  args: FormulaArg[];
}

export type FormulaAnalysis =
  /** The whole formula is one namespace call. */
  | { kind: "call"; call: NamespaceCall }
  /** The formula mentions the namespace, but not as the one outer call. */
  | { kind: "nested"; names: string[] }
  /** The formula mentions the namespace but cannot be tokenized. */
  | { kind: "unparseable"; message: string }
  | { kind: "none" };

function unquoteString(text: string): string {
  return text.slice(1, -1).replace(/""/g, '"');
}

function literalOf(tokens: Token[]): CellValue | undefined {
  if (tokens.length === 1) {
    const t = tokens[0];
    if (t.kind === "str") return unquoteString(t.text);
    if (t.kind === "num") return Number(t.text);
    if (t.kind === "bool") return t.text.toUpperCase() === "TRUE";
    if (t.kind === "err") return { error: t.text.toUpperCase(), message: "" } as CellError;
    if (t.kind === "ref" && t.ref?.area === "refError") return { error: "#REF!", message: "" };
  }
  if (tokens.length === 2 && tokens[0].kind === "op" && (tokens[0].text === "-" || tokens[0].text === "+") && tokens[1].kind === "num") {
    const n = Number(tokens[1].text);
    return tokens[0].text === "-" ? (n === 0 ? 0 : -n) : n;
  }
  return undefined;
}

function trimWs(tokens: Token[]): Token[] {
  let a = 0;
  let b = tokens.length;
  while (a < b && tokens[a].kind === "ws") a++;
  while (b > a && tokens[b - 1].kind === "ws") b--;
  return tokens.slice(a, b);
}

function classifyArg(tokens: Token[], formula: string): FormulaArg {
  const t = trimWs(tokens);
  const text = t.length ? formula.slice(t[0].start, t[t.length - 1].end) : "";
  if (t.length === 0) return { kind: "missing", text };
  const lit = literalOf(t);
  if (lit !== undefined) return { kind: "literal", value: lit, text };
  if (t.length === 1 && t[0].kind === "ref") {
    const r = t[0].ref!;
    if (r.external) return { kind: "unsupported", reason: "externalReference", text };
    if (r.threeD) return { kind: "unsupported", reason: "threeDReference", text };
    if (r.area === "name") return { kind: "unsupported", reason: "name", text };
    if (r.area === "cols" || r.area === "rows") return { kind: "unsupported", reason: "wholeColumnOrRow", text };
    const a = r.a!;
    const b = r.b ?? a;
    const box: Box = {
      top: Math.min(a.row, b.row),
      left: Math.min(a.col, b.col),
      bottom: Math.max(a.row, b.row),
      right: Math.max(a.col, b.col),
    };
    return { kind: "ref", sheet: r.sheet, box, single: r.area === "cell", text };
  }
  if (t[0].kind === "lbrace" && t[t.length - 1].kind === "rbrace") {
    const rows: CellValue[][] = [[]];
    let cur: Token[] = [];
    const flush = (): boolean => {
      const v = literalOf(trimWs(cur));
      if (v === undefined) return false;
      rows[rows.length - 1].push(v);
      cur = [];
      return true;
    };
    for (const tok of t.slice(1, -1)) {
      if (tok.kind === "comma") {
        if (!flush()) return { kind: "unsupported", reason: "arrayConstant", text };
      } else if (tok.kind === "semi") {
        if (!flush()) return { kind: "unsupported", reason: "arrayConstant", text };
        rows.push([]);
      } else cur.push(tok);
    }
    if (!flush()) return { kind: "unsupported", reason: "arrayConstant", text };
    if (rows.some((r) => r.length !== rows[0].length)) return { kind: "unsupported", reason: "arrayConstant", text };
    return { kind: "array", value: rows, text };
  }
  if (t.some((x) => x.kind === "func")) return { kind: "unsupported", reason: "function", text };
  if (t.some((x) => x.kind === "struct")) return { kind: "unsupported", reason: "structuredReference", text };
  if (t.some((x, i) => x.kind === "op" && x.text === "#" && i > 0)) return { kind: "unsupported", reason: "spillReference", text };
  if (t.length === 1 && t[0].kind === "name") return { kind: "unsupported", reason: "name", text };
  return { kind: "unsupported", reason: "expression", text };
}

/**
 * Looks at one formula (as stored in `<f>`, a leading "=" tolerated) for calls of `namespace`.
 */
export function analyzeFormula(formula: string, namespace: string): FormulaAnalysis {
  const body = formula.startsWith("=") ? formula.slice(1) : formula;
  let tokens: Token[];
  try {
    tokens = tokenize(body);
  } catch (e) {
    const ns = namespace.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`(?:_xldudf_${ns}_|\\b${ns}\\.)[A-Za-z0-9_.]+\\s*\\(`, "i").test(body)) {
      return { kind: "unparseable", message: (e as Error).message };
    }
    return { kind: "none" };
  }
  const calls = tokens.filter((t) => t.kind === "func" && matchNamespaceFunction(t.text, namespace));
  if (calls.length === 0) return { kind: "none" };
  const names = calls.map((t) => matchNamespaceFunction(t.text, namespace)!.name);
  const t = trimWs(tokens);
  const head = t[0];
  if (!(head && head.kind === "func" && t[1]?.kind === "lparen" && calls.includes(head))) return { kind: "nested", names };
  // find the parenthesis that closes the call; it must be the last token
  let depth = 0;
  let close = -1;
  for (let k = 1; k < t.length; k++) {
    if (t[k].kind === "lparen") depth++;
    else if (t[k].kind === "rparen") {
      depth--;
      if (depth === 0) {
        close = k;
        break;
      }
    }
  }
  if (close < 0) return { kind: "unparseable", message: "unbalanced parentheses" };
  if (close !== t.length - 1) return { kind: "nested", names };
  const args: FormulaArg[] = [];
  let cur: Token[] = [];
  let d = 0;
  const inner = t.slice(2, close);
  for (const tok of inner) {
    if (tok.kind === "lparen" || tok.kind === "lbrace") d++;
    else if (tok.kind === "rparen" || tok.kind === "rbrace") d--;
    if (tok.kind === "comma" && d === 0) {
      args.push(classifyArg(cur, body));
      cur = [];
    } else cur.push(tok);
  }
  // `F()` has no argument; `F(,)` has two missing ones
  if (inner.length > 0 || args.length > 0) args.push(classifyArg(cur, body));
  const m = matchNamespaceFunction(head.text, namespace)!;
  return { kind: "call", call: { name: m.name, form: m.form, written: head.text, args } };
}
