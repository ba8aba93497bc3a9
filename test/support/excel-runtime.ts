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
 */
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";

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

/** CustomFunctions.ErrorCode: its seven members (https://learn.microsoft.com/javascript/api/custom-functions-runtime/customfunctions.errorcode). */
const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
};
/** What a custom function may answer with (the other two codes are input errors only). */
const OUTPUT_ERRORS = new Set(["#VALUE!", "#N/A", "#DIV/0!", "#NUM!", "#NULL!"]);
/** The errors whose custom message Excel shows. */
const MESSAGE_ERRORS = new Set(["#VALUE!", "#N/A"]);
/** Excel.CellValueType (https://learn.microsoft.com/javascript/api/excel/excel.cellvaluetype). */
const CELL_VALUE_TYPES = new Set([
  "Array",
  "Boolean",
  "Double",
  "Empty",
  "Entity",
  "Error",
  "ExternalCodeServiceObject",
  "FormattedNumber",
  "Function",
  "LinkedEntity",
  "LocalImage",
  "NotAvailable",
  "Reference",
  "String",
  "WebImage",
]);
/** ErrorCellValue.errorType by code (https://learn.microsoft.com/javascript/api/excel/excel.errorcelltype). */
const ERROR_TYPES: Record<string, string> = {
  "#DIV/0!": "Div0",
  "#N/A": "NotAvailable",
  "#NAME?": "Name",
  "#NULL!": "Null",
  "#NUM!": "Num",
  "#REF!": "Ref",
  "#VALUE!": "Value",
  "#SPILL!": "Spill",
  "#CALC!": "Calc",
  "#BUSY!": "Busy",
};

/** A cell that holds an Excel error, as a test passes it to `call` (the stand-in hands it on by Excel's rules). */
export function errorCell(code: keyof typeof ERROR_TYPES | string): { type: "Error"; errorType: string; basicValue: string } {
  return { type: "Error", errorType: ERROR_TYPES[code] ?? "Value", basicValue: code };
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

/** Storage shaped like OfficeRuntime.storage; `data` can be carried over to simulate reopening. */
export class StandInStorage {
  constructor(readonly data = new Map<string, string>()) {}
  async getItem(k: string) {
    return this.data.has(k) ? this.data.get(k)! : null;
  }
  async setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  async removeItem(k: string) {
    this.data.delete(k);
  }
  async getItems(keys: string[]) {
    return Object.fromEntries(keys.map((k) => [k, this.data.get(k) ?? null]));
  }
  async setItems(items: Record<string, string>) {
    for (const [k, v] of Object.entries(items)) this.data.set(k, v);
  }
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
}

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

/** Whether version `have` is at least `want` ("1.10" > "1.4"). */
function atLeast(have: string, want: string): boolean {
  const a = have.split(".").map(Number);
  const b = want.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
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
  /** Answers Excel refused (an output error it does not accept, an object where data types are off). */
  readonly violations: string[] = [];
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
    const params = m.parameters;
    const shaped: unknown[] = new Array(params.length);
    this.refused = null;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      const v = i < args.length ? args[i] : null;
      if (v === undefined || v === null) {
        if (!p.optional) return Promise.reject(new Error(`FIRMA.${id}: ${p.name} is required`));
        shaped[i] = null;
        continue;
      }
      const handed = Array.isArray(v) ? eachCell(v, this.pass, this, id) : this.pass(v);
      shaped[i] = p.dimensionality === "matrix" && !Array.isArray(handed) ? [[handed]] : handed;
    }
    // An error argument without allowErrorForDataTypeAny: Excel answers with it, the function is not called.
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

  /** The error argument that answers the call being shaped (set by pass()). */
  private refused: StandInError | null = null;
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

  /** One argument as Excel hands it on: without data types a cell gives its basic value; an entity's is #VALUE! (EntityCellValue.basicValue). */
  private pass(v: unknown, _id?: string): unknown {
    if (!isCellValue(v)) return v;
    const value = this.dataTypes
      ? v
      : v.type === "Entity"
        ? errorCell(String(v.basicValue ?? "#VALUE!"))
        : v.type === "Error"
          ? v
          : v.basicValue;
    if (isCellValue(value) && value.type === "Error" && !this.allowErrors) this.refused ??= new StandInError(String(value.basicValue));
    return value;
  }

  /**
   * A matrix answered, as the cells show it. Excel takes the values when the function answers; where
   * every value shows as it is (the usual answer), the matrix is handed on as the function gave it, and
   * only a matrix with a value Excel changes is copied: a fill of 500,000 cells made two arrays per cell
   * for nothing (bench W7: ~40 MB of its heap's peak).
   */
  private shownRows(id: string, v: unknown[]): unknown[] {
    let out: unknown[] | null = null;
    for (let r = 0; r < v.length; r++) {
      const row: unknown = v[r];
      let shownRow: unknown;
      if (Array.isArray(row)) {
        let cells: unknown[] | null = null;
        for (let c = 0; c < row.length; c++) {
          const x = this.shown(id, row[c]);
          if (cells === null && x !== row[c]) cells = row.slice(0, c);
          if (cells !== null) cells.push(x);
        }
        shownRow = cells ?? row;
      } else shownRow = this.shown(id, row);
      if (out === null && shownRow !== row) out = v.slice(0, r);
      if (out !== null) out.push(shownRow);
    }
    return out ?? v;
  }

  /** An answer as the cell shows it: objects only where data types are on, output errors Excel accepts, messages where Excel shows them. */
  private shown(id: string, v: unknown): unknown {
    if (Array.isArray(v)) return this.shownRows(id, v);
    if (v instanceof StandInError) {
      if (!OUTPUT_ERRORS.has(v.code)) {
        this.violations.push(`FIRMA.${id} answered ${v.code}, which Excel does not accept as an output`);
        return new StandInError("#VALUE!");
      }
      return MESSAGE_ERRORS.has(v.code) ? v : new StandInError(v.code);
    }
    if (typeof v === "object" && v !== null) {
      if (!this.dataTypes || !isCellValue(v) || !CELL_VALUE_TYPES.has(v.type)) {
        this.violations.push(`FIRMA.${id} answered an object where Excel shows #VALUE!`);
        return new StandInError("#VALUE!");
      }
    }
    return v;
  }
}
