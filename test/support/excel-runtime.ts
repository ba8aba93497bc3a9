/**
 * A stand-in for Excel's custom-functions runtime, for tests and benchmarks: it loads the BUILT
 * functions bundle (dist/runtime.js, shared.js and functions.js) in a fresh JavaScript context with the globals Excel's
 * shared runtime gives (CustomFunctions, OfficeRuntime.storage, fetch, timers), records what the
 * bundle associates, and invokes functions the way Excel does: metadata decides whether an
 * argument arrives as a matrix, omitted optional arguments arrive as null, and cancelable
 * functions get an invocation object whose onCanceled the test can fire.
 */
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";

export const DIST = path.resolve(__dirname, "../../dist");

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

const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
};

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
  readonly context: vm.Context;

  constructor(
    readonly storage = new StandInStorage(),
    dist = DIST,
    options: StandInOptions = {},
  ) {
    const file = path.join(dist, "functions.js");
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first`);
    this.metadata = JSON.parse(fs.readFileSync(path.join(dist, "functions.json"), "utf8")).functions;
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
    this.context = vm.createContext({ ...sandboxGlobals, ...(office ? { Office: office } : {}) });
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
    const m = this.metadata.find((f) => f.id === id);
    if (!m) throw new Error(`FIRMA.${id} is not in functions.json`);
    return m;
  }

  /**
   * Calls FIRMA.<id> as Excel would with these arguments (a missing trailing optional → null;
   * a scalar for a matrix parameter → [[scalar]]). Resolves to the value, or the StandInError thrown.
   */
  async call(id: string, args: unknown[], invocation: Invocation = {}): Promise<unknown> {
    const m = this.meta(id);
    const fn = this.associated.get(id);
    if (!fn) throw new Error(`FIRMA.${id} was not associated by the bundle`);
    const shaped = m.parameters.map((p, i) => {
      const v = i < args.length ? args[i] : null;
      if (v === undefined || v === null) {
        if (!p.optional) throw new Error(`FIRMA.${id}: ${p.name} is required`);
        return null;
      }
      return p.dimensionality === "matrix" && !Array.isArray(v) ? [[v]] : v;
    });
    if (m.options?.cancelable) shaped.push(invocation);
    try {
      return await fn(...shaped);
    } catch (e) {
      if (e instanceof StandInError) return e;
      throw e;
    }
  }
}
