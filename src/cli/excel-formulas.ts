/**
 * The CLI's Excel formula engine: a cell's whole formula evaluated as Excel would, without Excel,
 * so that formulas as people write them work — FIRMA calls wrapped in or combined with Excel's
 * functions and operators (`IFERROR(FIRMA.DENUMIRE(A2),"-")`, `FIRMA.CA(A2,2023)/1000`,
 * `FIRMA.DENUMIRE(TRIM(A2))`…) and arguments that reference other formula cells, evaluated in turn
 * (a cycle falls back to the value the file holds). What each FIRMA function means is
 * src/shared/evaluate.ts's; the parsing and Excel's functions are fast-formula-parser's, made to
 * compute as Excel does in `excel-parser.ts`.
 *
 * Everything runs synchronously: a FIRMA call is answered by a lookup (the answers of the engine,
 * fetched beforehand in one plan) or is PENDING. A pass with no answers lists the calls whose
 * arguments are known (what the engine estimates and prefetches); `evaluateAll` then repeats
 * passes, asking for the calls still missing, until every formula has its value (a call whose
 * arguments come from another FIRMA call needs a second round).
 */
import { FormulaError, type CellRef, type FunctionArg, type RangeRef } from "fast-formula-parser";
import { ExcelParser } from "./excel-parser";
import { CellError, Cell, Matrix, isCellError } from "../shared/cells";
import { cellKey } from "../shared/sheet/a1";
import { FormulaSyntaxError, matchNamespaceFunction, tokenize } from "../shared/sheet/formula";
import { ReadValue } from "../shared/sheet/cell-values";
import { type Lang } from "../shared/messages/node";
import { formulaReason, functionReason, syntaxReason } from "./messages";
import { Workbook } from "../shared/xlsx/workbook";

export interface FirmaCall {
  /** Bare function name, upper-case: "DENUMIRE". */
  name: string;
  /** Arguments as the functions of src/shared/evaluate.ts take them (null = omitted or empty). */
  args: unknown[];
}

export type FirmaAnswer = Cell | Matrix;

/** A lookup's answer when the call's value is not known yet. */
export const PENDING: unique symbol = Symbol("firma.pending");

export type FirmaLookup = (call: FirmaCall) => FirmaAnswer | typeof PENDING;

export type Outcome =
  /** The value Excel would compute; `firmaErrors`: the errors FIRMA calls gave on the way (even if caught by IFERROR). */
  | { kind: "value"; value: Cell | Matrix; firmaErrors: CellError[] }
  /** A FIRMA call it needs has no answer yet. */
  | { kind: "pending" }
  | { kind: "unevaluable"; reason: string };

export interface FormulaJob {
  sheet: string;
  row: number;
  col: number;
  /** As stored in the file (a leading "=" tolerated). */
  formula: string;
}

/** The key of a call: same name and arguments, same answer. */
export function callKey(call: FirmaCall): string {
  return call.name + JSON.stringify(call.args);
}

// ---- the evaluator --------------------------------------------------------------------------

/** What one evaluation gathered: the FIRMA errors met, and whether a call had no answer yet. */
interface Frame {
  errors: CellError[];
  pending: boolean;
}

interface Memo {
  value: unknown;
  frame: Frame;
}

/** The value standing for a FIRMA call not answered yet (an error, so that it propagates). */
const PENDING_VALUE = new FormulaError("#N/A", "FIRMA: not answered yet");

/** The outcome of every formula still waiting for an answer (one object: a first pass has one per formula). */
const PENDING_OUTCOME: Outcome = Object.freeze({ kind: "pending" });

const NOT_IMPLEMENTED = /Function (\S+) is not implemented/;

export class FormulaEvaluator {
  private readonly parsers: ExcelParser[] = [];
  private depth = 0;
  private readonly memo = new Map<string, Memo>();
  private readonly inProgress = new Set<string>();
  private readonly frames: Frame[] = [];
  private lookup: FirmaLookup = () => PENDING;
  /** Matrices FIRMA calls gave, by the array handed to the parser: a result that is one of them is written as the engine made it. */
  private originals = new WeakMap<object, Matrix>();
  /** Namespace functions met so far ("FIRMA.DENUMIRE", "_XLDUDF_FIRMA_DENUMIRE" → "DENUMIRE"). */
  private readonly namespaceFunctions = new Map<string, string>();

  constructor(
    private readonly wb: Workbook,
    private readonly namespace = "FIRMA",
    /** The language of the reasons a formula cannot be computed (the report, --verbose). */
    private readonly lang: Lang = "ro",
  ) {}

  /** One pass over `jobs`, FIRMA calls answered by `lookup`. */
  pass(jobs: readonly FormulaJob[], lookup: FirmaLookup): Outcome[] {
    this.memo.clear();
    this.originals = new WeakMap();
    this.lookup = lookup;
    const outcomes = jobs.map((j) => this.evaluateJob(j));
    this.memo.clear(); // a pass's values of the cells it read are not the next one's: not kept while the answers are fetched
    return outcomes;
  }

  /** The FIRMA calls the formulas make whose arguments are known without any answer (phase 1, for the estimate and the prefetch). */
  collect(jobs: readonly FormulaJob[]): { calls: FirmaCall[]; outcomes: Outcome[] } {
    const calls = new Map<string, FirmaCall>();
    const outcomes = this.pass(jobs, (call) => {
      calls.set(callKey(call), call);
      return PENDING;
    });
    return { calls: [...calls.values()], outcomes };
  }

  /**
   * Evaluates every job: passes over the formulas, `answer` asked each time for the calls still
   * missing, until none is (at most `maxRounds` rounds of asking; then what still waits is unevaluable).
   */
  async evaluateAll(
    jobs: readonly FormulaJob[],
    answer: (calls: FirmaCall[], round: number) => Promise<FirmaAnswer[]>,
    maxRounds = 4,
  ): Promise<{ outcomes: Outcome[]; rounds: number; calls: number }> {
    const answers = new Map<string, FirmaAnswer>();
    for (let round = 0; ; round++) {
      const wanted = new Map<string, FirmaCall>();
      const outcomes = this.pass(jobs, (call) => {
        const k = callKey(call);
        const a = answers.get(k);
        if (a !== undefined) return a;
        wanted.set(k, call);
        return PENDING;
      });
      if (wanted.size === 0 || round >= maxRounds) {
        const final = outcomes.map((o): Outcome =>
          o.kind === "pending"
            ? {
                kind: "unevaluable",
                reason: formulaReason(this.lang, "chained"),
              }
            : o,
        );
        return { outcomes: final, rounds: round, calls: answers.size };
      }
      const list = [...wanted.values()];
      const got = await answer(list, round);
      list.forEach((c, i) => answers.set(callKey(c), got[i]));
    }
  }

  private parser(): ExcelParser {
    let p = this.parsers[this.depth];
    if (!p) {
      p = new ExcelParser({
        onCell: (ref: CellRef) => this.cellValue(ref.sheet, ref.row, ref.col),
        onRange: (ref: RangeRef) => this.rangeValues(ref),
        onVariable: () => null,
      });
      for (const [fn, bare] of this.namespaceFunctions) p.functions[fn] = this.firmaFunction(bare);
      this.parsers[this.depth] = p;
    }
    return p;
  }

  private firmaFunction(bare: string) {
    return (...args: FunctionArg[]) => this.callFirma(bare, args);
  }

  /** Why the formula cannot be evaluated here, before trying; registers the namespace functions it calls. */
  private precheck(body: string): string | null {
    let tokens;
    try {
      tokens = tokenize(body);
    } catch (e) {
      return syntaxReason(this.lang, (e as FormulaSyntaxError).message);
    }
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.kind === "name") return formulaReason(this.lang, "name");
      if (t.kind === "struct") return formulaReason(this.lang, "structuredReference");
      if (t.kind === "ref") {
        const r = t.ref!;
        if (r.external) return formulaReason(this.lang, "externalReference");
        if (r.threeD) return formulaReason(this.lang, "threeDReference");
        if (r.area === "name") return formulaReason(this.lang, "name");
        if (r.sheet !== null && !this.wb.sheet(r.sheet)?.part) return formulaReason(this.lang, "unknownSheet");
      }
      if (t.kind === "op" && t.text === "#") return formulaReason(this.lang, "spillReference");
      if (t.kind === "op" && t.text === "@") return formulaReason(this.lang, "intersection");
      if (t.kind === "func") {
        const m = matchNamespaceFunction(t.text, this.namespace);
        const u = t.text.toUpperCase();
        if (m && !this.namespaceFunctions.has(u)) {
          this.namespaceFunctions.set(u, m.name);
          for (const p of this.parsers) p.functions[u] = this.firmaFunction(m.name);
        }
      }
    }
    return null;
  }

  private evaluateJob(job: FormulaJob): Outcome {
    const body = job.formula.startsWith("=") ? job.formula.slice(1) : job.formula;
    const problem = this.precheck(body);
    if (problem) return { kind: "unevaluable", reason: problem };
    const frame: Frame = { errors: [], pending: false };
    this.frames.push(frame);
    let res: unknown;
    try {
      res = this.parser().parse(body, { sheet: this.wb.sheet(job.sheet)!.name, row: job.row, col: job.col }, true);
    } catch (e) {
      return { kind: "unevaluable", reason: this.failure(e) };
    } finally {
      this.frames.pop();
    }
    if (frame.pending) return PENDING_OUTCOME;
    return { kind: "value", value: this.toResult(res, frame.errors), firmaErrors: frame.errors };
  }

  private failure(e: unknown): string {
    const msg = e instanceof Error ? e.message : String(e);
    const m = NOT_IMPLEMENTED.exec(msg);
    if (m) return functionReason(this.lang, m[1]);
    return syntaxReason(this.lang, msg.split("\n")[0]);
  }

  /** A FIRMA function called by the parser. */
  private callFirma(bare: string, args: FunctionArg[]): unknown {
    const frame = this.frames[this.frames.length - 1];
    const plain = args.map((a) => (a.omitted ? null : toPlain(a.value)));
    if (plain.some(holdsPending)) {
      frame.pending = true;
      return PENDING_VALUE;
    }
    // An argument that is an error (not a range holding one) is the result, as Excel does for a
    // function whose parameters do not take errors.
    const err = args.find((a) => !a.omitted && a.value instanceof FormulaError);
    if (err) return err.value;
    const answer = this.lookup({ name: bare, args: plain });
    if (answer === PENDING) {
      frame.pending = true;
      return PENDING_VALUE;
    }
    const cells = Array.isArray(answer) ? answer.flat() : [answer];
    for (const c of cells) if (isCellError(c)) frame.errors.push(c);
    if (!Array.isArray(answer)) return toParser(answer);
    if (answer.length === 1 && answer[0].length === 1) return toParser(answer[0][0]);
    const m = answer.map((row) => row.map(toParser));
    this.originals.set(m, answer);
    return m;
  }

  /** The value of the cell a formula refers to: its formula's, evaluated here when it can be, else the value the file holds. */
  private cellValue(sheetName: string, row: number, col: number): unknown {
    const info = this.wb.sheet(sheetName);
    if (!info?.part) return FormulaError.REF;
    const region = this.wb.arrayAt(info.name, row, col);
    if (region) {
      const r = region.anchor.row;
      const c = region.anchor.col;
      const v = this.formulaValue(info.name, r, c, true);
      if (v !== undefined) {
        if (!Array.isArray(v)) return r === row && c === col ? v : this.saved(info.name, row, col);
        const x = (v as unknown[][])[row - r]?.[col - c];
        return x === undefined ? this.saved(info.name, row, col) : x;
      }
      return this.saved(info.name, row, col);
    }
    const v = this.formulaValue(info.name, row, col, false);
    return v === undefined ? this.saved(info.name, row, col) : v;
  }

  private rangeValues(ref: RangeRef): unknown[][] {
    const info = this.wb.sheet(ref.sheet);
    if (!info?.part) return [[FormulaError.REF]];
    // whole columns and rows: only as far as the sheet has cells
    const sheet = this.wb.parseSheet(info.name);
    const lastRow = sheet.rows.length ? sheet.rows[sheet.rows.length - 1].r : 0;
    const lastCol = Math.max(0, ...sheet.rows.map((r) => (r.cells.length ? r.cells[r.cells.length - 1].col : 0)));
    const bottom = Math.min(ref.to.row, Math.max(lastRow, ref.from.row));
    const right = Math.min(ref.to.col, Math.max(lastCol, ref.from.col));
    const out: unknown[][] = [];
    for (let r = ref.from.row; r <= bottom; r++) {
      const line: unknown[] = [];
      for (let c = ref.from.col; c <= right; c++) line.push(this.cellValue(info.name, r, c));
      out.push(line);
    }
    return out;
  }

  /** A referenced cell's formula evaluated (memoized, with a cycle guard); undefined when it has none or it cannot be evaluated here. */
  private formulaValue(sheet: string, row: number, col: number, asArray: boolean): unknown {
    const key = `${sheet}!${row},${col}`;
    const parent = this.frames[this.frames.length - 1];
    const hit = this.memo.get(key);
    if (hit) {
      merge(parent, hit.frame);
      return hit.value;
    }
    if (this.inProgress.has(key)) return undefined; // circular: the value the file holds
    const formula = this.wb.formulaAt(sheet, row, col);
    if (formula === null) return undefined;
    if (this.precheck(formula) !== null) return undefined;
    const frame: Frame = { errors: [], pending: false };
    this.frames.push(frame);
    this.inProgress.add(key);
    this.depth++;
    let value: unknown;
    try {
      value = this.parser().parse(formula, { sheet, row, col }, asArray);
    } catch {
      value = undefined;
    } finally {
      this.depth--;
      this.inProgress.delete(key);
      this.frames.pop();
    }
    if (value === undefined) return undefined;
    if (value === null) value = 0; // a formula pointing at an empty cell shows 0
    this.memo.set(key, { value, frame });
    if (parent) merge(parent, frame);
    return value;
  }

  private saved(sheet: string, row: number, col: number): unknown {
    const parsed = this.wb.parseSheet(sheet);
    const v: ReadValue = this.wb.valueOf(parsed.cells.get(cellKey(row, col)), parsed);
    if (v === null) return null;
    if (typeof v === "object") return new FormulaError(v.error.toUpperCase());
    return v;
  }

  /** The parser's result as a cell value (or matrix); an error of a FIRMA call comes back with its message. */
  private toResult(res: unknown, errors: CellError[]): Cell | Matrix {
    if (Array.isArray(res)) {
      const original = this.originals.get(res);
      if (original) return original;
      return (res as unknown[][]).map((row) => row.map((v) => this.toResult(v, errors) as Cell));
    }
    if (res instanceof FormulaError) {
      const code = res.error;
      return errors.find((e) => e.error === code) ?? { error: code as CellError["error"], message: "" };
    }
    if (res === null || res === undefined) return 0;
    if (typeof res === "number") return res === 0 ? 0 : res;
    if (typeof res === "string" || typeof res === "boolean") return res;
    return { error: "#VALUE!", message: "" };
  }
}

function merge(into: Frame | undefined, from: Frame): void {
  if (!into) return;
  into.errors.push(...from.errors);
  into.pending ||= from.pending;
}

/** A parser value as the FIRMA functions take it: errors as { error, message }. */
function toPlain(v: unknown): unknown {
  if (v === PENDING_VALUE) return v;
  if (v instanceof FormulaError) return { error: v.error, message: "" };
  if (Array.isArray(v)) return v.map(toPlain);
  return v;
}

function holdsPending(v: unknown): boolean {
  return v === PENDING_VALUE || (Array.isArray(v) && v.some(holdsPending));
}

function toParser(c: Cell): unknown {
  return isCellError(c) ? new FormulaError(c.error) : c;
}
