/**
 * A stand-in for Excel's custom-functions runtime, for tests and benchmarks: it loads the BUILT
 * functions bundle (dist/runtime.js, shared.js and functions.js) in a fresh JavaScript context with the globals Excel's
 * shared runtime gives (CustomFunctions, OfficeRuntime.storage, fetch, timers), records what the
 * bundle associates, and invokes functions the way Excel does: metadata decides whether an
 * argument arrives as a matrix, omitted optional arguments arrive as null, and cancelable
 * functions get an invocation object whose onCanceled the test can fire.
 *
 * It is as strict as Microsoft's pages, not as lenient as what FIRMA needs:
 *  - Data types go in and out only with `allowCustomDataForDataTypeAny: true` in functions.json and
 *    CustomFunctionsRuntime 1.4 ("To enable data types for custom functions, manually add the
 *    allowCustomDataForDataTypeAny property … and set it to true",
 *    https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts;
 *    https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets).
 *    Otherwise an object answered is #VALUE! ("the entity displays as a #VALUE! error" where data types
 *    are not supported, https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-concepts),
 *    and a data-type cell passed in arrives as its basic value (an entity's is the #VALUE! error).
 *  - An error cell passed to an `any` parameter reaches the function only with
 *    `allowErrorForDataTypeAny: true`, as an ErrorCellValue; without it Excel answers with the error and
 *    the function is not called (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors#errors-as-custom-function-inputs).
 *  - `CustomFunctions.ErrorCode` has the seven codes of the reference; an answer of #NAME? or #REF!
 *    ("supported as a custom function input error, but not as a custom function output error") is
 *    refused (#VALUE!, recorded in `violations`), and only #VALUE! and #N/A keep their message
 *    ("The #VALUE! and #N/A errors also support custom error messages",
 *    https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors).
 *  - A function whose id or name breaks the naming page's rules does not load (#NAME?), FIRMA.CA aside as
 *    the one named exception; an entity answered is held to the entity-card page (excel-rules.ts);
 *    errors reach only `any` parameters, as ErrorCellValue only where data types are on; a range for a
 *    scalar parameter, which no page defines, is #VALUE!; `recalculate` cancels and re-invokes in any
 *    order; OfficeRuntime.storage has its 10 MB, its quota error and reads that fail (standin-storage.ts).
 */
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";
import {
  atLeast,
  cellValueProblems,
  ERROR_CODES,
  errorCellValue,
  MESSAGE_ERRORS,
  namingProblems,
  optionProblems,
  OUTPUT_ERRORS,
} from "./excel-rules";
import { StandInStorage } from "./standin-storage";

export { StandInStorage } from "./standin-storage";

const { ensureBuildSync } = require("./builds") as { ensureBuildSync(kind: "local"): string };
/**
 * The functions bundle the stand-in loads: FIRMA_DIST when set (the bench sets dist/, which
 * `npm run bench` builds first), else the production build for https://localhost:3000/ of the
 * present sources (test/support/builds.js; the slow project's globalSetup makes it).
 */
export const DIST: string = process.env.FIRMA_DIST ? path.resolve(process.env.FIRMA_DIST) : ensureBuildSync("local");

export interface FunctionMeta {
  id: string;
  name: string;
  description?: string;
  parameters: { name: string; type?: string; dimensionality?: string; optional?: boolean; description?: string }[];
  result: { type?: string; dimensionality?: string };
  options?: { cancelable?: boolean; stream?: boolean };
}

/** Excel's error object as the bundle creates it. */
export class StandInError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

const OUTPUT = new Set(OUTPUT_ERRORS);
const MESSAGES = new Set(MESSAGE_ERRORS);

/** A cell that holds an Excel error, as a test passes it to `call` (the stand-in hands it on by Excel's rules). */
export function errorCell(code: string): { type: "Error"; errorType: string; basicValue: string } {
  const { type, errorType, basicValue } = errorCellValue(code);
  return { type, errorType, basicValue };
}

/** A cell value JSON object (a data type: entity, formatted number, error…). */
function isCellValue(v: unknown): v is { type: string; basicValue?: unknown; basicType?: string } {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof StandInError) &&
    typeof (v as { type?: unknown }).type === "string"
  );
}

export interface Invocation {
  onCanceled?: () => void;
  /**
   * Set by Excel when it evaluates a formula for its value preview, while the formula is typed
   * (CustomFunctions.Invocation.isInValuePreview, CustomFunctionsRuntime 1.5:
   * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-formula-value-preview).
   */
  isInValuePreview?: boolean;
}

export interface StandInOptions {
  /**
   * The requirement sets this Excel supports, name → highest version ("CustomFunctionsRuntime" →
   * "1.4"), answered by Office.context.requirements.isSetSupported. Left out: no Office global, as
   * when office.js has not told the functions anything.
   */
  requirementSets?: Record<string, string>;
  /** The metadata file read (its flags decide what Excel passes and accepts). @default "functions.json" */
  metadataFile?: string;
  /**
   * The browser's IndexedDB (an IDBFactory, e.g. fake-indexeddb's), for a runtime that is a browser page
   * (the shared runtime: WebView2, WKWebView, the browser of Excel on the web), with the Blob and
   * CompressionStream that page has too. Left out: no `indexedDB` global, as in the JavaScript-only
   * runtime, so the bundle keeps its answers in OfficeRuntime.storage alone. Pass the same factory to a
   * second stand-in to reopen the workbook over the same browser storage.
   */
  indexedDB?: unknown;
  /**
   * Refuse a cancelable function whose result is a matrix, the stricter reading of custom-functions-web-reqs
   * ("Only asynchronous custom functions which return one value can use the @cancelable JSDoc tag"; see
   * excel-rules.ts optionProblems). Off by default: the page says it of streaming functions. @default false
   */
  cancelableReturnsOneValue?: boolean;
}

/** The order in which Excel cancels a cell's old call and starts its new one (`recalculate`). */
export type CancelOrder = "cancelFirst" | "invokeFirst" | "together";

/**
 * `f` over every cell of a value or a range (rows of cells, or a row that is one value), keeping the
 * shape. `f` is a method called on `self`: no closure per call (the bench invokes 100,000 cells).
 */
function eachCell(v: unknown[], f: (this: ExcelStandIn, x: unknown, id?: string) => unknown, self: ExcelStandIn, id: string): unknown[] {
  const rows: unknown[] = new Array(v.length);
  for (let r = 0; r < v.length; r++) {
    const row: unknown = v[r];
    if (Array.isArray(row)) {
      const cells: unknown[] = new Array(row.length);
      for (let c = 0; c < row.length; c++) cells[c] = f.call(self, row[c], id);
      rows[r] = cells;
    } else rows[r] = f.call(self, row, id);
  }
  return rows;
}

/** Whether every cell of a matrix (rows of cells, or a row that is one value) is a plain value, which shows as it is. */
function plainMatrix(v: unknown[]): boolean {
  for (let r = 0; r < v.length; r++) {
    const row: unknown = v[r];
    if (Array.isArray(row)) {
      for (let c = 0; c < row.length; c++) if (typeof row[c] === "object" && row[c] !== null) return false;
    } else if (typeof row === "object" && row !== null) return false;
  }
  return true;
}

export class ExcelStandIn {
  readonly associated = new Map<string, (...args: unknown[]) => unknown>();
  readonly metadata: FunctionMeta[];
  private readonly metaById: Map<string, FunctionMeta>;
  readonly context: vm.Context;
  /** The metadata's top-level flags. */
  readonly allowCustomData: boolean;
  readonly allowErrors: boolean;
  /** Answers Excel refused (an output error it does not accept, an object where data types are off, a bad entity). */
  readonly violations: string[] = [];
  /**
   * Functions Excel would not load, id → why (the naming page's rules, options that cannot go together):
   * calling one answers #NAME?, as a formula naming no function does. FIRMA.CA loads only as the named
   * exception of excel-rules.ts NAMING_EXCEPTIONS, listed in `exceptions`.
   */
  readonly notLoaded = new Map<string, string[]>();
  readonly exceptions: string[] = [];
  /** Calls whose outcome no page defines (a range for a scalar parameter), so that a test can see it relied on one. */
  readonly unspecified: string[] = [];
  private readonly dataTypes: boolean;

  constructor(
    readonly storage = new StandInStorage(),
    dist = DIST,
    options: StandInOptions = {},
  ) {
    const file = path.join(dist, "functions.js");
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: not a build of the add-in`);
    const json = JSON.parse(fs.readFileSync(path.join(dist, options.metadataFile ?? "functions.json"), "utf8"));
    this.metadata = json.functions;
    this.metaById = new Map(this.metadata.map((f) => [f.id, f]));
    for (const f of this.metadata) {
      const problems = [...namingProblems(f), ...optionProblems(f, options.cancelableReturnsOneValue)];
      if (problems.length > 0) this.notLoaded.set(f.id, problems);
      else if (namingProblems(f, []).length > 0) this.exceptions.push(f.id);
    }
    this.allowCustomData = json.allowCustomDataForDataTypeAny === true;
    this.allowErrors = json.allowErrorForDataTypeAny === true;
    // Data types need the flag and CustomFunctionsRuntime 1.4 (the manifest asks 1.3: an Excel may have less).
    this.dataTypes = this.allowCustomData && atLeast(options.requirementSets?.CustomFunctionsRuntime ?? "1.3", "1.4");
    const associated = this.associated;
    const sandboxGlobals = {
      CustomFunctions: {
        associate(id: string | Record<string, (...a: unknown[]) => unknown>, fn?: (...a: unknown[]) => unknown) {
          if (typeof id === "string") associated.set(id, fn!);
          else for (const [k, f] of Object.entries(id)) associated.set(k, f);
        },
        Error: StandInError,
        // ErrorCode arrives after the bundle has run, as in office.js (see below).
      } as Record<string, unknown>,
      OfficeRuntime: { storage },
      fetch,
      AbortController,
      AbortSignal,
      URL,
      URLSearchParams,
      Headers,
      Response,
      TextDecoder,
      TextEncoder,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      console,
      Intl,
    };
    const sets = options.requirementSets;
    const office = sets && {
      context: {
        requirements: { isSetSupported: (name: string, version = "1.1") => name in sets && atLeast(sets[name], version) },
      },
    };
    // A browser page's storage: only when asked, so that the default runtime stays the one without it.
    const browser = options.indexedDB
      ? { indexedDB: options.indexedDB, Blob, CompressionStream, DecompressionStream, ReadableStream, WritableStream, TransformStream }
      : {};
    this.context = vm.createContext({ ...sandboxGlobals, ...browser, ...(office ? { Office: office } : {}) });
    (this.context as Record<string, unknown>).globalThis = this.context;
    (this.context as Record<string, unknown>).self = this.context;
    (this.context as Record<string, unknown>).window = this.context;
    // As the page loads them: the one webpack runtime, the modules shared with the pane, then the
    // functions entry (webpack.config.js). The pane's entry is left out: no DOM here.
    for (const f of ["runtime.js", "shared.js", "functions.js"]) {
      const script = path.join(dist, f);
      vm.runInContext(fs.readFileSync(script, "utf8"), this.context, { filename: script });
    }
    sandboxGlobals.CustomFunctions.ErrorCode = ERROR_CODES;
  }

  meta(id: string): FunctionMeta {
    const m = this.metaById.get(id);
    if (!m) throw new Error(`FIRMA.${id} is not in functions.json`);
    return m;
  }

  /**
   * Calls FIRMA.<id> as Excel would with these arguments (a missing trailing optional → null;
   * a scalar for a matrix parameter → [[scalar]]; data types and error cells, given as cell value
   * JSON such as errorCell("#N/A"), handed on by the metadata's flags). Resolves to the value as the
   * cell shows it, or the StandInError thrown or answered.
   */
  call(id: string, args: unknown[], invocation: Invocation = {}): Promise<unknown> {
    const fn = this.associated.get(id);
    if (!fn) return Promise.reject(new Error(`FIRMA.${id} was not associated by the bundle`));
    return this.invokeAs(id, fn, args, invocation);
  }

  /**
   * Runs `fn` the way `call` runs FIRMA.<id>: FIRMA.<id>'s metadata shapes the arguments, and the answer
   * is shown by the same rules. The bench passes its baselines' functions here, so that every strategy
   * pays the same invocation work. Per-call work allocates no closure and no async frame (the bench
   * invokes 100,000 cells): a function's answer, plain or a promise, is shown by handlers made once per function.
   */
  invokeAs(id: string, fn: (...args: unknown[]) => unknown, args: unknown[], invocation: Invocation = {}): Promise<unknown> {
    const m = this.metaById.get(id);
    if (!m) return Promise.reject(new Error(`FIRMA.${id} is not in functions.json`));
    if (this.notLoaded.has(id)) return Promise.resolve(new StandInError("#NAME?"));
    const params = m.parameters;
    const shaped: unknown[] = new Array(params.length);
    this.refused = null;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      let v = i < args.length ? args[i] : null;
      if (v === undefined || v === null) {
        if (!p.optional) return Promise.reject(new Error(`FIRMA.${id}: ${p.name} is required`));
        shaped[i] = null;
        continue;
      }
      if (p.dimensionality !== "matrix" && Array.isArray(v)) {
        // A one-cell reference is its cell. A larger range for a scalar parameter: no page says what Excel
        // does ("Excel will pass a range of cell data as a two-dimensional array" is said of matrix
        // parameters, custom-functions-parameter-options). The stand-in picks no cell: it hands the range on
        // as it is, for the function to refuse, and records that the test relied on what no page defines.
        const one = v.length === 1 && (!Array.isArray(v[0]) || v[0].length === 1);
        if (one) v = Array.isArray(v[0]) ? v[0][0] : v[0];
        else this.unspecified.push(`FIRMA.${id}: a range passed to the scalar parameter ${p.name}`);
      }
      // "All parameters with the type any or any[][] can accept errors as input values" (custom-functions-json).
      this.errorsReach = this.allowErrors && (p.type === undefined || p.type === "any");
      const handed = Array.isArray(v) ? eachCell(v, this.pass, this, id) : this.pass(v);
      shaped[i] = p.dimensionality === "matrix" && !Array.isArray(handed) ? [[handed]] : handed;
    }
    // An error argument Excel does not hand on: Excel answers with it, the function is not called.
    const refused = this.refused as StandInError | null;
    if (refused) return Promise.resolve(refused);
    if (m.options?.cancelable) shaped.push(invocation);
    const h = this.handlers(id);
    let answer: unknown;
    try {
      answer = fn(...shaped);
    } catch (e) {
      return e instanceof StandInError ? Promise.resolve(h.ok(e)) : Promise.reject(e);
    }
    // A plain answer is taken as it is, a promise when it settles (office.js takes both: a result without `then` is set at once).
    if (answer !== null && typeof (answer as { then?: unknown }).then === "function")
      return (answer as Promise<unknown>).then(h.ok, h.fail);
    return Promise.resolve(h.ok(answer));
  }

  /**
   * Cancels `old` (a cell's previous invocation) and calls FIRMA.<id> again for the same cell, in `order`:
   * "The ordering between the cancellation of the old function call and the new invocation is not
   * guaranteed … the new invocation may fire before, after, or at the same time as the onCanceled callback
   * for the old call" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs#cancel-a-function).
   * "together": the new call and the cancellation in one turn, the call first.
   */
  async recalculate(id: string, args: unknown[], old: Invocation, order: CancelOrder, next: Invocation = {}): Promise<unknown> {
    const cancel = () => old.onCanceled?.();
    if (order === "cancelFirst") {
      cancel();
      return this.call(id, args, next);
    }
    const p = this.call(id, args, next);
    if (order === "together") cancel();
    else await new Promise((r) => setTimeout(r, 0)).then(cancel);
    return p;
  }

  /** The error argument that answers the call being shaped (set by pass()). */
  private refused: StandInError | null = null;
  /** Whether the parameter being shaped takes error inputs (allowErrorForDataTypeAny and type any). */
  private errorsReach = false;
  private readonly shownBy = new Map<string, { ok: (v: unknown) => unknown; fail: (e: unknown) => unknown }>();

  /** How FIRMA.<id>'s answer is shown, made once per function. */
  private handlers(id: string): { ok: (v: unknown) => unknown; fail: (e: unknown) => unknown } {
    let h = this.shownBy.get(id);
    if (!h) {
      const ok = (v: unknown): unknown => this.shown(id, v);
      const fail = (e: unknown): unknown => {
        if (e instanceof StandInError) return this.shown(id, e);
        throw e;
      };
      h = { ok, fail };
      this.shownBy.set(id, h);
    }
    return h;
  }

  /**
   * One argument as Excel hands it on: without data types a cell gives its basic value; an entity's is
   * #VALUE! (EntityCellValue.basicValue). An error reaches the function only where errorsReach; as "a
   * data types error object" (an ErrorCellValue) only where data types are on
   * (custom-functions-data-types-concepts: "custom functions only support the errors included in the
   * CustomFunctions.Error object"), else as a CustomFunctions.Error: no page promises the JSON there.
   */
  private pass(v: unknown, _id?: string): unknown {
    if (!isCellValue(v)) return v;
    const code =
      v.type === "Error" ? String(v.basicValue) : v.type === "Entity" && !this.dataTypes ? String(v.basicValue ?? "#VALUE!") : null;
    if (code === null) return this.dataTypes ? v : v.basicValue;
    if (!this.errorsReach) {
      this.refused ??= new StandInError(code);
      return null;
    }
    return this.dataTypes ? (v.type === "Error" ? v : errorCell(code)) : new StandInError(code);
  }

  private shownCell(v: unknown, id?: string): unknown {
    return this.shown(id!, v);
  }

  /** An answer as the cell shows it: objects only where data types are on, output errors Excel accepts, messages where Excel shows them. */
  private shown(id: string, v: unknown): unknown {
    // A matrix of plain values shows as it is: no copy (the bench shows 100,000 of them).
    if (Array.isArray(v)) return plainMatrix(v) ? v : eachCell(v, this.shownCell, this, id);
    if (v instanceof StandInError) {
      if (!OUTPUT.has(v.code)) {
        this.violations.push(`FIRMA.${id} answered ${v.code}, which Excel does not accept as an output`);
        return new StandInError("#VALUE!");
      }
      return MESSAGES.has(v.code) ? v : new StandInError(v.code);
    }
    if (typeof v === "object" && v !== null) {
      const problems = this.dataTypes ? cellValueProblems(v) : ["data types are off"];
      if (problems.length > 0) {
        this.violations.push(`FIRMA.${id} answered an object where Excel shows #VALUE!: ${problems.join("; ")}`);
        return new StandInError("#VALUE!");
      }
    }
    return v;
  }
}
