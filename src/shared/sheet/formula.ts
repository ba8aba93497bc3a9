/**
 * Formulas as the .xlsx file stores them (no leading "=", English function names, "," between
 * arguments, "." as decimal point — whatever the UI locale), and the one shape the CLI can
 * evaluate without Excel: a single call of the add-in's namespace whose arguments are literals
 * or references to cells and ranges.
 *
 * Two spellings of a namespace call are recognized, case-insensitively:
 *   `_xldudf_FIRMA_DENUMIRE(A2)` — what Excel writes when the add-in was loaded;
 *   `FIRMA.DENUMIRE(A2)`         — a formula typed while the add-in was not loaded (#NAME?).
 * Anything else inside the argument list (a nested function, an operator, a defined name, a
 * whole column, a 3-D or external reference, a structured reference, the spill operator) is
 * reported as not evaluable: the CLI never guesses what Excel would compute.
 */
import { ALL_ERROR_CODES, CellError, CellValue } from "./cell-values";
import { Box, MAX_COLS, MAX_ROWS, ParsedCellRef, colToLetters, lettersToCol, parseCellRef } from "./a1";
import { t, type Lang, type MessageKey } from "../messages";

export type TokenKind =
  | "ws"
  | "str"
  | "num"
  | "bool"
  | "err"
  | "ref"
  | "func"
  | "name"
  | "struct"
  | "op"
  | "lparen"
  | "rparen"
  | "comma"
  | "semi"
  | "lbrace"
  | "rbrace";

export interface RefToken {
  /** Sheet name as meant (quotes removed, '' unescaped); null when the reference has no sheet. */
  sheet: string | null;
  /** The sheet prefix exactly as written, including "!" ("" when none). */
  prefix: string;
  /** `[1]Sheet1!A1`: a reference into another workbook. */
  external: boolean;
  /** `Sheet1:Sheet3!A1`: a reference across several sheets. */
  threeD: boolean;
  area: "cell" | "range" | "cols" | "rows" | "refError" | "name";
  /** Text after the prefix. */
  areaText: string;
  a?: ParsedCellRef;
  b?: ParsedCellRef;
  /** For "cols": first/last column; for "rows": first/last row (with their `$` flags). */
  lo?: { n: number; abs: boolean };
  hi?: { n: number; abs: boolean };
}

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  ref?: RefToken;
}

export class FormulaSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "FormulaSyntaxError";
  }
}

const NAME_CHARS = "A-Za-z0-9_.\\\\?\\u00A1-\\uFFFF";
const RE_WS = /[ \t\r\n]+/y;
const RE_STR = /"(?:[^"]|"")*"/y;
const RE_ERR = new RegExp(
  `(?:${ALL_ERROR_CODES.map((c) => c.replace(/[.*+?^${}()|[\]\\/!]/g, "\\$&"))
    .sort((a, b) => b.length - a.length)
    .join("|")})`,
  "iy",
);
const RE_PREFIX_QUOTED = /'((?:[^']|'')+)'!/y;
const RE_PREFIX_PLAIN = new RegExp(`(\\[[^\\]]+\\])?([${NAME_CHARS}]*(?::[${NAME_CHARS}]+)?)!`, "y");
const NOT_NAME_AFTER = `(?![${NAME_CHARS}(\\[!])`;
const RE_CELL_AREA = new RegExp(`(\\$?[A-Za-z]{1,3}\\$?[0-9]{1,7})(?::(\\$?[A-Za-z]{1,3}\\$?[0-9]{1,7}))?${NOT_NAME_AFTER}`, "y");
const RE_COL_AREA = new RegExp(`(\\$?)([A-Za-z]{1,3}):(\\$?)([A-Za-z]{1,3})${NOT_NAME_AFTER}`, "y");
const RE_ROW_AREA = new RegExp(`(\\$?)([0-9]{1,7}):(\\$?)([0-9]{1,7})${NOT_NAME_AFTER}`, "y");
const RE_REF_ERROR = /#REF!/iy;
const RE_NUM = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const RE_NAME = new RegExp(`[A-Za-z_\\\\\\u00A1-\\uFFFF][${NAME_CHARS}]*`, "y");

function stickyMatch(re: RegExp, s: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(s);
}

/** Reads an area (cell, range, whole columns/rows, #REF!) at `at`; null when there is none. */
function readArea(s: string, at: number): { len: number; ref: Omit<RefToken, "sheet" | "prefix" | "external" | "threeD"> } | null {
  let m = stickyMatch(RE_CELL_AREA, s, at);
  if (m) {
    const a = parseCellRef(m[1]);
    const b = m[2] ? parseCellRef(m[2]) : undefined;
    if (a && (m[2] === undefined || b)) {
      return {
        len: m[0].length,
        ref: { area: m[2] ? "range" : "cell", areaText: m[0], a, b: b ?? undefined },
      };
    }
  }
  m = stickyMatch(RE_COL_AREA, s, at);
  if (m) {
    const c1 = lettersToCol(m[2]);
    const c2 = lettersToCol(m[4]);
    if (c1 >= 1 && c1 <= MAX_COLS && c2 >= 1 && c2 <= MAX_COLS) {
      return {
        len: m[0].length,
        ref: {
          area: "cols",
          areaText: m[0],
          lo: { n: c1, abs: m[1] === "$" },
          hi: { n: c2, abs: m[3] === "$" },
        },
      };
    }
  }
  m = stickyMatch(RE_ROW_AREA, s, at);
  if (m) {
    const r1 = Number(m[2]);
    const r2 = Number(m[4]);
    if (r1 >= 1 && r1 <= MAX_ROWS && r2 >= 1 && r2 <= MAX_ROWS) {
      return {
        len: m[0].length,
        ref: {
          area: "rows",
          areaText: m[0],
          lo: { n: r1, abs: m[1] === "$" },
          hi: { n: r2, abs: m[3] === "$" },
        },
      };
    }
  }
  m = stickyMatch(RE_REF_ERROR, s, at);
  if (m) return { len: m[0].length, ref: { area: "refError", areaText: m[0] } };
  return null;
}

/** Splits a file-format formula into tokens; throws `FormulaSyntaxError` on what it cannot read. */
export function tokenize(formula: string): Token[] {
  const s = formula;
  const out: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, len: number, ref?: RefToken) => {
    out.push({ kind, text: s.slice(i, i + len), start: i, end: i + len, ref });
    i += len;
  };
  while (i < s.length) {
    const ch = s[i];
    let m: RegExpExecArray | null;
    if ((m = stickyMatch(RE_WS, s, i))) {
      push("ws", m[0].length);
      continue;
    }
    if (ch === '"') {
      m = stickyMatch(RE_STR, s, i);
      if (!m) throw new FormulaSyntaxError("unterminated string", i);
      push("str", m[0].length);
      continue;
    }
    // Sheet-qualified reference or name.
    let prefix: RegExpExecArray | null = null;
    let quoted = false;
    if (ch === "'") {
      prefix = stickyMatch(RE_PREFIX_QUOTED, s, i);
      if (!prefix) throw new FormulaSyntaxError("unterminated quoted sheet name", i);
      quoted = true;
    } else if (/[A-Za-z0-9_\\[\u00A1-\uFFFF]/.test(ch)) {
      prefix = stickyMatch(RE_PREFIX_PLAIN, s, i);
    }
    if (prefix) {
      const after = i + prefix[0].length;
      let inner = quoted ? prefix[1].replace(/''/g, "'") : (prefix[1] ?? "") + prefix[2];
      let external = false;
      const ext = /^\[[^\]]+\]/.exec(inner);
      if (ext) {
        external = true;
        inner = inner.slice(ext[0].length);
      }
      const threeD = /:/.test(inner);
      const area = readArea(s, after);
      if (area) {
        push("ref", prefix[0].length + area.len, {
          sheet: inner,
          prefix: prefix[0],
          external,
          threeD,
          ...area.ref,
        });
        continue;
      }
      const nm = stickyMatch(RE_NAME, s, after);
      if (nm) {
        const text = prefix[0] + nm[0];
        push("ref", text.length, {
          sheet: inner,
          prefix: prefix[0],
          external,
          threeD,
          area: "name",
          areaText: nm[0],
        });
        continue;
      }
      throw new FormulaSyntaxError("reference expected after sheet name", after);
    }
    if (ch === "#") {
      m = stickyMatch(RE_ERR, s, i);
      if (m) {
        push("err", m[0].length);
        continue;
      }
      push("op", 1); // spill operator (A1#)
      continue;
    }
    const area = readArea(s, i);
    if (area) {
      push("ref", area.len, {
        sheet: null,
        prefix: "",
        external: false,
        threeD: false,
        ...area.ref,
      });
      continue;
    }
    if ((m = stickyMatch(RE_NUM, s, i))) {
      push("num", m[0].length);
      continue;
    }
    if ((m = stickyMatch(RE_NAME, s, i))) {
      const len = m[0].length;
      const nextCh = s[i + len];
      if (nextCh === "(") {
        push("func", len);
      } else if (nextCh === "[") {
        // structured reference: Table1[Column], Table1[[#This Row],[Col]]
        let depth = 0;
        let k = i + len;
        for (; k < s.length; k++) {
          if (s[k] === "'") {
            k++; // escaped character inside a structured reference
            continue;
          }
          if (s[k] === "[") depth++;
          else if (s[k] === "]") {
            depth--;
            if (depth === 0) break;
          }
        }
        if (depth !== 0) throw new FormulaSyntaxError("unterminated structured reference", i);
        push("struct", k + 1 - i);
      } else if (/^(TRUE|FALSE)$/i.test(m[0])) {
        push("bool", len);
      } else {
        push("name", len);
      }
      continue;
    }
    if (ch === "[") {
      // table-relative structured reference: [@Col]
      const close = s.indexOf("]", i);
      if (close < 0) throw new FormulaSyntaxError("unterminated structured reference", i);
      push("struct", close + 1 - i);
      continue;
    }
    const two = s.slice(i, i + 2);
    if (two === "<>" || two === "<=" || two === ">=") {
      push("op", 2);
      continue;
    }
    if ("+-*/^&=<>%@:!".includes(ch)) {
      push("op", 1);
      continue;
    }
    if (ch === "(") push("lparen", 1);
    else if (ch === ")") push("rparen", 1);
    else if (ch === ",") push("comma", 1);
    else if (ch === ";") push("semi", 1);
    else if (ch === "{") push("lbrace", 1);
    else if (ch === "}") push("rbrace", 1);
    else throw new FormulaSyntaxError(`unexpected character ${JSON.stringify(ch)}`, i);
  }
  return out;
}

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

/**
 * Why a formula cannot be evaluated without Excel, from the catalogs (`formula.reason.<reason>`): in
 * the language given, or both (Romanian / English) where the caller does not know the reader's.
 */
export function describeReason(reason: NotEvaluableReason, lang?: Lang): string {
  const key = `formula.reason.${reason}` as MessageKey;
  return lang ? t(lang, key) : `${t("ro", key)} / ${t("en", key)}`;
}

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

/** Matches a function token against a namespace; returns the bare name and the spelling. */
export function matchNamespaceFunction(fn: string, namespace: string): { name: string; form: "xldudf" | "typed" } | null {
  const u = fn.toUpperCase();
  const ns = namespace.toUpperCase();
  if (u.startsWith(ns + ".") && u.length > ns.length + 1) return { name: u.slice(ns.length + 1), form: "typed" };
  const x = "_XLDUDF_" + ns + "_";
  if (u.startsWith(x) && u.length > x.length) return { name: u.slice(x.length), form: "xldudf" };
  return null;
}

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

/**
 * The formula of a cell that shares a formula (`<f t="shared" si=".."/>`): the master's
 * formula with every relative reference moved by (dRow, dCol). Returns null when the master's
 * formula cannot be tokenized. A reference moved off the sheet becomes #REF!, as in Excel.
 */
export function shiftFormula(formula: string, dRow: number, dCol: number): string | null {
  let tokens: Token[];
  try {
    tokens = tokenize(formula);
  } catch {
    return null;
  }
  let out = "";
  let last = 0;
  for (const t of tokens) {
    if (t.kind !== "ref" || !t.ref) continue;
    const r = t.ref;
    if (r.external) continue; // external references are kept as written
    let area: string | null = null;
    const cell = (c: ParsedCellRef): string | null => {
      const row = c.rowAbs ? c.row : c.row + dRow;
      const col = c.colAbs ? c.col : c.col + dCol;
      if (row < 1 || row > MAX_ROWS || col < 1 || col > MAX_COLS) return null;
      return `${c.colAbs ? "$" : ""}${colToLetters(col)}${c.rowAbs ? "$" : ""}${row}`;
    };
    if (r.area === "cell" || r.area === "range") {
      const a = cell(r.a!);
      const b = r.b ? cell(r.b) : "";
      area = a === null || b === null ? "#REF!" : r.b ? `${a}:${b}` : a;
    } else if (r.area === "cols" || r.area === "rows") {
      const move = (x: { n: number; abs: boolean }): string | null => {
        const n = x.abs ? x.n : x.n + (r.area === "cols" ? dCol : dRow);
        const max = r.area === "cols" ? MAX_COLS : MAX_ROWS;
        if (n < 1 || n > max) return null;
        return (x.abs ? "$" : "") + (r.area === "cols" ? colToLetters(n) : String(n));
      };
      const lo = move(r.lo!);
      const hi = move(r.hi!);
      area = lo === null || hi === null ? "#REF!" : `${lo}:${hi}`;
    } else continue;
    out += formula.slice(last, t.start) + r.prefix + area;
    last = t.end;
  }
  return out + formula.slice(last);
}

/**
 * Rewrites the namespace calls of a formula typed in the UI form (`FIRMA.DENUMIRE(A2)`) into
 * the form Excel stores for a loaded add-in (`_xldudf_FIRMA_DENUMIRE(A2)`). Strings and other
 * functions are left alone; a leading "=" is dropped.
 */
export function toXldudfForm(formula: string, namespace: string): string {
  const body = formula.startsWith("=") ? formula.slice(1) : formula;
  const tokens = tokenize(body);
  let out = "";
  let last = 0;
  for (const t of tokens) {
    if (t.kind !== "func") continue;
    const m = matchNamespaceFunction(t.text, namespace);
    if (!m || m.form !== "typed") continue;
    out += body.slice(last, t.start) + `_xldudf_${namespace.toUpperCase()}_${m.name.replace(/\./g, "_")}`;
    last = t.end;
  }
  return out + body.slice(last);
}
