/**
 * Excel's custom-functions runtime, the one copy both stand-ins use: the Node runtime
 * (test/support/excel-runtime.ts, the built bundle in a vm context) and the browser stand-in's
 * calculation (calculation.ts, the pane's page). It keeps what the bundle associates and the metadata
 * of functions.json, shapes arguments by that metadata, holds answers to what Excel accepts, and plays
 * the order of a recalculated cell's cancellation. It is as strict as Microsoft's pages, not as lenient
 * as what FIRMA needs:
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
 *    the one named exception; an entity answered is held to the entity-card page (rules.ts); a range for
 *    a scalar parameter, which no page defines, is handed on as it is and recorded in `unspecified`.
 */
import {
  atLeast,
  cellValueProblems,
  codeOfErrorCell,
  errorCellValue,
  MESSAGE_ERRORS,
  namingProblems,
  optionProblems,
  OUTPUT_ERRORS,
} from "./rules";

/** Excel's error object (CustomFunctions.Error), as the bundle creates it and as the runtime answers with it. */
export class StandInError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export interface FunctionMeta {
  id: string;
  name: string;
  description?: string;
  parameters: { name: string; type?: string; dimensionality?: string; optional?: boolean; description?: string }[];
  result: { type?: string; dimensionality?: string };
  options?: { cancelable?: boolean; stream?: boolean; linkedEntityLoadService?: boolean };
}

/** functions.json: the functions and the top-level flags that decide what Excel passes and accepts. */
export interface FunctionsJson {
  functions: FunctionMeta[];
  allowCustomDataForDataTypeAny?: unknown;
  allowErrorForDataTypeAny?: unknown;
}

export type CustomFunction = (...args: unknown[]) => unknown;

export interface Invocation {
  onCanceled?: (() => void) | null;
  /**
   * Set by Excel when it evaluates a formula for its value preview, while the formula is typed
   * (CustomFunctions.Invocation.isInValuePreview, CustomFunctionsRuntime 1.5:
   * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-formula-value-preview).
   */
  isInValuePreview?: boolean;
}

/** The order in which Excel cancels a cell's old call and starts its new one. */
export type CancelOrder = "cancelFirst" | "invokeFirst" | "together";

/** How a caller wants a shown answer (the Node runtime: as it is; the browser's `call`: a matrix). */
export type Presenter = (shown: unknown) => unknown;
const asShown: Presenter = (v) => v;

interface Handlers {
  ok(v: unknown): unknown;
  fail(e: unknown): unknown;
}

/** A cell that holds an Excel error, as a test passes it to `call` (the runtime hands it on by Excel's rules). */
export function errorCell(code: string): { type: "Error"; errorType: string; basicValue: string } {
  const { type, errorType, basicValue } = errorCellValue(code);
  return { type, errorType, basicValue };
}

/** A cell value JSON object (a data type: entity, formatted number, error…). */
function isCellValue(v: unknown): v is { type: string; basicValue?: unknown; basicType?: string; errorType?: string } {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof StandInError) &&
    typeof (v as { type?: unknown }).type === "string"
  );
}

/**
 * `f` over every cell of a value or a range (rows of cells, or a row that is one value), keeping the
 * shape. `f` is a method called on `self`: no closure per call (the bench invokes 100,000 cells).
 */
function eachCell(
  v: unknown[],
  f: (this: FunctionsRuntime, x: unknown, id?: string) => unknown,
  self: FunctionsRuntime,
  id: string,
): unknown[] {
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

/**
 * Runs `invoke` and cancels a cell's old call around it, in `order`: "The ordering between the
 * cancellation of the old function call and the new invocation is not guaranteed … the new invocation
 * may fire before, after, or at the same time as the onCanceled callback for the old call"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs#cancel-a-function).
 * "together": the new call and the cancellation in one turn, the call first; "invokeFirst": the
 * cancellation a turn later. `cancelled` resolves once the cancellation has fired.
 */
export function cancelAround<T>(order: CancelOrder, cancel: () => void, invoke: () => T): { result: T; cancelled: Promise<void> } {
  if (order === "cancelFirst") cancel();
  const result = invoke();
  if (order === "invokeFirst") return { result, cancelled: new Promise<void>((r) => setTimeout(() => r(cancel()), 0)) };
  if (order === "together") cancel();
  return { result, cancelled: Promise.resolve() };
}

export class FunctionsRuntime {
  /** What the bundle associated (CustomFunctions.associate), id → function. */
  readonly associated = new Map<string, CustomFunction>();
  metadata: FunctionMeta[] = [];
  private metaById = new Map<string, FunctionMeta>();
  /** The metadata's top-level flags. */
  allowCustomData = false;
  allowErrors = false;
  /** Answers Excel refused (an output error it does not accept, an object where data types are off, a bad entity). */
  readonly violations: string[] = [];
  /**
   * Functions Excel would not load, id → why (the naming page's rules, options that cannot go together):
   * calling one answers #NAME?, as a formula naming no function does. FIRMA.CA loads only as the named
   * exception of rules.ts NAMING_EXCEPTIONS, listed in `exceptions`.
   */
  readonly notLoaded = new Map<string, string[]>();
  readonly exceptions: string[] = [];
  /** Calls whose outcome no page defines (a range for a scalar parameter), so that a test can see it relied on one. */
  readonly unspecified: string[] = [];

  /** `version`: the CustomFunctionsRuntime set this Excel supports, asked each time (a test may change it). */
  constructor(private readonly version: () => string) {}

  /** Whether this Excel's invocations can say they are a value preview (CustomFunctionsRuntime 1.5). */
  get valuePreview(): boolean {
    return atLeast(this.version(), "1.5");
  }

  private versionSeen: string | null = null;
  private dataTypesThen = false;
  /** Data types need the metadata's flag and CustomFunctionsRuntime 1.4 (the manifest asks 1.3: an Excel may have less). */
  get dataTypes(): boolean {
    const v = this.version();
    if (v !== this.versionSeen) {
      this.versionSeen = v;
      this.dataTypesThen = atLeast(v, "1.4");
    }
    return this.allowCustomData && this.dataTypesThen;
  }

  /**
   * Reads functions.json: what loads (the naming page; options that cannot go together, and a
   * cancelable function that returns a matrix: rules.ts optionProblems).
   */
  load(json: FunctionsJson): void {
    this.metadata = json.functions;
    this.metaById = new Map(this.metadata.map((f) => [f.id, f]));
    for (const f of this.metadata) {
      const problems = [...namingProblems(f), ...optionProblems(f)];
      if (problems.length > 0) this.notLoaded.set(f.id, problems);
      else if (namingProblems(f, []).length > 0) this.exceptions.push(f.id);
    }
    this.allowCustomData = json.allowCustomDataForDataTypeAny === true;
    this.allowErrors = json.allowErrorForDataTypeAny === true;
  }

  /** CustomFunctions.associate: one id and its function, or an object of them. */
  associate(id: string | Record<string, CustomFunction>, fn?: CustomFunction): void {
    if (typeof id === "string") this.associated.set(id, fn!);
    else for (const [name, f] of Object.entries(id)) this.associated.set(name, f);
  }

  meta(id: string): FunctionMeta | undefined {
    return this.metaById.get(id);
  }

  /**
   * The arguments FIRMA.<id> receives for `args` as the caller has them (a value, a range as rows of
   * cells, data types and error cells as cell value JSON; null or undefined: omitted): an omitted
   * optional argument → null; a scalar for a matrix parameter → [[scalar]]; a one-cell range for a scalar
   * parameter → its cell; data types and errors handed on by the metadata's flags (pass()). Returns the
   * StandInError Excel answers with instead of calling the function (a function that did not load: #NAME?;
   * an error argument it does not hand on). Throws for an omitted required argument, unless
   * `missingAsNull` (a formula the stand-in calculates: Excel would not have taken it).
   */
  shape(id: string, args: readonly unknown[], missingAsNull = false): unknown[] | StandInError {
    const m = this.metaById.get(id);
    if (!m) throw new Error(`FIRMA.${id} is not in functions.json`);
    if (this.notLoaded.has(id)) return new StandInError("#NAME?");
    const params = m.parameters;
    const shaped: unknown[] = new Array(params.length);
    this.refused = null;
    this.dataTypesNow = this.dataTypes;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      let v = i < args.length ? args[i] : null;
      if (v === undefined || v === null) {
        if (!p.optional && !missingAsNull) throw new Error(`FIRMA.${id}: ${p.name} is required`);
        shaped[i] = null;
        continue;
      }
      if (p.dimensionality !== "matrix" && Array.isArray(v)) {
        // A one-cell reference is its cell. A larger range for a scalar parameter: no page says what Excel
        // does ("Excel will pass a range of cell data as a two-dimensional array" is said of matrix
        // parameters, custom-functions-parameter-options). The stand-in picks no cell: it hands the range on
        // as it is, for the function to refuse, and records that the test relied on what no page defines.
        const single = v.length === 1 && (!Array.isArray(v[0]) || v[0].length === 1);
        if (single) v = Array.isArray(v[0]) ? v[0][0] : v[0];
        else this.unspecified.push(`FIRMA.${id}: a range passed to the scalar parameter ${p.name}`);
      }
      // "All parameters with the type any or any[][] can accept errors as input values" (custom-functions-json).
      this.errorsReach = this.allowErrors && (p.type === undefined || p.type === "any");
      const handed = Array.isArray(v) ? eachCell(v, this.pass, this, id) : this.pass(v);
      shaped[i] = p.dimensionality === "matrix" && !Array.isArray(handed) ? [[handed]] : handed;
    }
    // An error argument Excel does not hand on: Excel answers with it, the function is not called.
    const refused = this.refused as StandInError | null;
    return refused ?? shaped;
  }

  /**
   * Runs `fn` with arguments shape() made and `invocation` last ("Every custom function is automatically
   * passed an invocation argument as the last input parameter, even if it's not explicitly declared",
   * custom-functions-parameter-options#invocation-parameter); below CustomFunctionsRuntime 1.5 it has no
   * `isInValuePreview` (CustomFunctions.Invocation: "[ API set: CustomFunctionsRuntime 1.5 ]"). Shows its
   * answer by the rules of shown(), through `present`. A function may answer with its value or a
   * promise of it (custom-functions-json-autogeneration, "Promise"); a CustomFunctions.Error thrown or
   * rejected is the answer; anything else thrown rejects, as an unhandled error (Excel shows #VALUE!).
   * Per call it allocates no closure and no async frame (the bench invokes 100,000 cells): the
   * handlers are made once per function and presenter.
   */
  run(id: string, fn: CustomFunction, shaped: unknown[], invocation: Invocation = {}, present: Presenter = asShown): Promise<unknown> {
    if (invocation.isInValuePreview !== undefined && !this.valuePreview) {
      const older = { ...invocation }; // the caller's object is left as it is
      delete older.isInValuePreview;
      invocation = older;
    }
    shaped.push(invocation);
    const h = this.handlers(id, present);
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
  /** Whether the parameter being shaped takes error inputs (allowErrorForDataTypeAny and type any). */
  private errorsReach = false;
  /** Whether data types are on for the call being shaped. */
  private dataTypesNow = false;
  private readonly handlersBy = new Map<Presenter, Map<string, Handlers>>();

  /** How FIRMA.<id>'s answer is shown and presented, made once per function and presenter. */
  private handlers(id: string, present: Presenter): Handlers {
    let byId = this.handlersBy.get(present);
    if (!byId) this.handlersBy.set(present, (byId = new Map()));
    let h = byId.get(id);
    if (!h) {
      const ok = (v: unknown): unknown => present(this.shown(id, v));
      const fail = (e: unknown): unknown => {
        if (e instanceof StandInError) return present(this.shown(id, e));
        throw e;
      };
      h = { ok, fail };
      byId.set(id, h);
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
      v.type === "Error" ? codeOfErrorCell(v) : v.type === "Entity" && !this.dataTypesNow ? String(v.basicValue ?? "#VALUE!") : null;
    if (code === null) return this.dataTypesNow ? v : v.basicValue;
    if (!this.errorsReach) {
      this.refused ??= new StandInError(code);
      return null;
    }
    return this.dataTypesNow ? (v.type === "Error" ? v : errorCell(code)) : new StandInError(code);
  }

  private shownCell(v: unknown, id?: string): unknown {
    return this.shown(id!, v);
  }

  /** An answer as the cell shows it: objects only where data types are on, output errors Excel accepts, messages where Excel shows them. */
  shown(id: string, v: unknown): unknown {
    // A matrix of plain values shows as it is: no copy (the bench shows 100,000 of them).
    if (Array.isArray(v)) return plainMatrix(v) ? v : eachCell(v, this.shownCell, this, id);
    if (v instanceof StandInError) {
      if (!OUTPUT_ERRORS.includes(v.code)) {
        this.violations.push(`FIRMA.${id} answered ${v.code}, which Excel does not accept as an output`);
        return new StandInError("#VALUE!");
      }
      return MESSAGE_ERRORS.includes(v.code) ? v : new StandInError(v.code);
    }
    // A linked entity load service's answer is no cell: Excel's linked entities take it (linked-entities.ts
    // holds it to excel-data-types-linked-entity-cell-values and excel.linkedentityloadserviceresult).
    if (this.metaById.get(id)?.options?.linkedEntityLoadService) return v;
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
