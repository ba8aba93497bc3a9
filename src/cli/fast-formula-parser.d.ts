/**
 * Types for the parts of fast-formula-parser (MIT, https://github.com/LesterLyu/fast-formula-parser)
 * that src/cli/evaluate-formula.ts uses; the package ships none.
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
    functionsNeedContext?: Record<string, (context: FormulaParser, ...args: FunctionArg[]) => unknown>;
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
  };
  export const Types: Record<string, number>;
  class FormulaParser {
    constructor(config?: ParserConfig, isTest?: boolean);
    functions: Record<string, (...args: never[]) => unknown>;
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
