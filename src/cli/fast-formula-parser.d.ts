/**
 * Types for the parts of fast-formula-parser (MIT, https://github.com/LesterLyu/fast-formula-parser)
 * that src/cli/excel-parser.ts and src/cli/excel-formulas.ts use; the package ships none.
 */
declare module "fast-formula-parser" {
  export interface CellRef {
    sheet: string;
    row: number;
    col: number;
  }
  export interface RangeRef {
    sheet: string;
    from: { row: number; col: number };
    to: { row: number; col: number };
  }
  /** An argument as a function receives it (references already read). */
  export interface FunctionArg {
    value: unknown;
    isArray: boolean;
    isRangeRef?: boolean;
    isCellRef?: boolean;
    omitted?: boolean;
  }
  export interface ParserConfig {
    functions?: Record<string, (...args: FunctionArg[]) => unknown>;
    /** Called with the parser and, for the functions the library reads no reference for (SUMIF, AVERAGEIF …), the references as parsed. */
    functionsNeedContext?: Record<string, (context: FormulaParser, ...args: unknown[]) => unknown>;
    onVariable?: (name: string, sheet: string) => CellRef | RangeRef | null;
    onCell?: (ref: CellRef) => unknown;
    onRange?: (ref: RangeRef) => unknown[][];
  }
  export class FormulaError extends Error {
    /** Returns the shared instance of a code when only the code is given. */
    constructor(error: string, msg?: string, details?: unknown);
    readonly error: string;
    readonly details: unknown;
    equals(err: unknown): boolean;
    static readonly DIV0: FormulaError;
    static readonly NA: FormulaError;
    static readonly NAME: FormulaError;
    static readonly NULL: FormulaError;
    static readonly NUM: FormulaError;
    static readonly REF: FormulaError;
    static readonly VALUE: FormulaError;
  }
  export const FormulaHelpers: {
    accept(param: FunctionArg | undefined, type?: number | null, defValue?: unknown, flat?: boolean, allowSingleValue?: boolean): unknown;
    /** Two ranges' values, the second extended to the first's size (SUMIF's sum range). */
    retrieveRanges(context: FormulaParser, range1: unknown, range2: unknown): unknown[];
    retrieveArg(context: FormulaParser, arg: unknown): FunctionArg;
  };
  /** A COUNTIF-style criterion: a comparison, or a wildcard pattern (`op` "wc", `value` a RegExp). */
  export const Criteria: {
    parse(criteria: unknown): { op: string; value: unknown; match?: boolean };
  };
  /** An operand as the parser's helpers hand it to an operator. */
  export interface Operand {
    val: unknown;
    isArray: boolean;
  }
  /** The helper object each parser instance owns (grammar/utils.js). */
  export interface ParserUtils {
    isFormulaError(value: unknown): boolean;
    _applyInfix(res1: Operand, infix: string, res2: Operand): unknown;
  }
  export const Types: Record<string, number>;
  class FormulaParser {
    constructor(config?: ParserConfig, isTest?: boolean);
    functions: Record<string, (...args: never[]) => unknown>;
    readonly utils: ParserUtils;
    parse(formula: string, position: CellRef, allowReturnArray?: boolean): unknown;
    checkFormulaResult(result: unknown, allowReturnArray?: boolean): unknown;
    retrieveRef(valueOrRef: unknown): unknown;
    static FormulaError: typeof FormulaError;
  }
  export default FormulaParser;
}

declare module "fast-formula-parser/formulas/operators" {
  type Op = (value1: unknown, infix: string, value2: unknown, isArray1: boolean, isArray2: boolean) => unknown;
  export const Infix: { compareOp: Op; concatOp: Op; mathOp: Op };
}
