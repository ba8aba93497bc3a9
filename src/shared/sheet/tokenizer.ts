/**
 * The tokenizer of formulas as the .xlsx file stores them (no leading "=", English function names,
 * "," between arguments, "." as decimal point — whatever the UI locale): strings, numbers, booleans,
 * errors, references (with their sheet, 3-D and external prefixes, ranges, whole columns and rows),
 * names, structured references, operators and punctuation; and whether a function token is a call
 * of a namespace (matchNamespaceFunction). formula.ts analyses the tokens,
 * formula-rewrite.ts rewrites them.
 */
import { ALL_ERROR_CODES } from "./cell-values";
import { MAX_COLS, MAX_ROWS, ParsedCellRef, lettersToCol, parseCellRef } from "./a1";

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

/** Matches a function token against a namespace; returns the bare name and the spelling. */
export function matchNamespaceFunction(fn: string, namespace: string): { name: string; form: "xldudf" | "typed" } | null {
  const u = fn.toUpperCase();
  const ns = namespace.toUpperCase();
  if (u.startsWith(ns + ".") && u.length > ns.length + 1) return { name: u.slice(ns.length + 1), form: "typed" };
  const x = "_XLDUDF_" + ns + "_";
  if (u.startsWith(x) && u.length > x.length) return { name: u.slice(x.length), form: "xldudf" };
  return null;
}
