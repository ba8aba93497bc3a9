/**
 * A stand-in for Excel's custom-functions runtime, for tests and benchmarks: it loads the BUILT
 * functions bundle (dist/runtime.js, shared.js and functions.js) in a fresh JavaScript context with the globals Excel's
 * shared runtime gives (CustomFunctions, OfficeRuntime.storage, fetch, timers), records what the
 * bundle associates, and invokes functions the way Excel does: metadata decides whether an
 * argument arrives as a matrix, omitted optional arguments arrive as null, and every function gets an
 * invocation object last (its onCanceled fired only for a cancelable function, which FIRMA has none of).
 *
 * The rules (arguments, error inputs, data types, answers Excel refuses, what loads, the order of a
 * recalculated cell's cancellation) are the one custom-functions runtime's, test/support/excel/functions-runtime.ts,
 * which the browser stand-in uses too; its header cites the pages. Here: `recalculate` cancels and
 * re-invokes in any order, and OfficeRuntime.storage has its 10 MB, its quota error and reads that fail
 * (standin-storage.ts).
 */
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";
import {
  cancelAround,
  FunctionsRuntime,
  StandInError,
  type CancelOrder,
  type CustomFunction,
  type FunctionMeta,
  type FunctionsJson,
  type Invocation,
} from "./excel/functions-runtime";
import { atLeast, ERROR_CODES } from "./excel/rules";
import { StandInStorage } from "./standin-storage";
import { manifestUrls, type Manifest } from "./manifest-urls";

export { StandInStorage } from "./standin-storage";

const { ensureBuildSync } = require("./builds") as { ensureBuildSync(kind: "local"): string };
/**
 * The functions bundle the stand-in loads: FIRMA_DIST when set (the bench sets dist/, which
 * `npm run bench` builds first), else the production build for https://localhost:3000/ of the
 * present sources (test/support/builds.js; the slow project's globalSetup makes it).
 */
export const DIST: string = process.env.FIRMA_DIST ? path.resolve(process.env.FIRMA_DIST) : ensureBuildSync("local");

export { errorCell, StandInError, type CancelOrder, type FunctionMeta, type Invocation } from "./excel/functions-runtime";

export interface StandInOptions {
  /**
   * The requirement sets this Excel supports, name → highest version ("CustomFunctionsRuntime" →
   * "1.4"), answered by Office.context.requirements.isSetSupported. Left out: no Office global, as
   * when office.js has not told the functions anything.
   */
  requirementSets?: Record<string, string>;
  /** The metadata file read (its flags decide what Excel passes and accepts). @default "functions.json", or the manifest's */
  metadataFile?: string;
  /**
   * The manifest Excel loaded the add-in by (in `dist`): its metadata file is read, and the runtime's page
   * address (`location`) is its Taskpane.Url, as Excel opens it. @default none: functions.json, taskpane.html
   */
  manifest?: Manifest;
  /**
   * The browser's IndexedDB (an IDBFactory, e.g. fake-indexeddb's), for a runtime that is a browser page
   * (the shared runtime: WebView2, WKWebView, the browser of Excel on the web), with the Blob and
   * CompressionStream that page has too. Left out: no `indexedDB` global, as in the JavaScript-only
   * runtime, so the bundle keeps its answers in OfficeRuntime.storage alone. Pass the same factory to a
   * second stand-in to reopen the workbook over the same browser storage.
   */
  indexedDB?: unknown;
  /**
   * The page is served by this origin (`firma serve`), and it and its /v4 answers come over `protocol`, as
   * the page's Navigation and Resource Timing say (`nextHopProtocol`): the add-in then keeps as many calls in flight as
   * that page would (src/engine/credits/lanes.ts: 120 over "h2" to its own origin, else 6). Left out:
   * the page is at https://localhost:3000/ and no timing is known, so 6.
   */
  servedBy?: { origin: string; protocol: string };
}

export class ExcelStandIn {
  /** The custom-functions runtime (test/support/excel/functions-runtime.ts): registry, metadata, rules. */
  readonly runtime: FunctionsRuntime;
  readonly associated: Map<string, CustomFunction>;
  readonly metadata: FunctionMeta[];
  readonly context: vm.Context;
  /** The metadata's top-level flags. */
  readonly allowCustomData: boolean;
  readonly allowErrors: boolean;
  /** Answers Excel refused (an output error it does not accept, an object where data types are off, a bad entity). */
  readonly violations: string[];
  /**
   * Functions Excel would not load, id → why (the naming page's rules, options that cannot go together):
   * calling one answers #NAME?, as a formula naming no function does. FIRMA.CA loads only as the named
   * exception of rules.ts NAMING_EXCEPTIONS, listed in `exceptions`.
   */
  readonly notLoaded: Map<string, string[]>;
  readonly exceptions: string[];
  /** Calls whose outcome no page defines (a range for a scalar parameter), so that a test can see it relied on one. */
  readonly unspecified: string[];

  constructor(
    readonly storage = new StandInStorage(),
    dist = DIST,
    options: StandInOptions = {},
  ) {
    const file = path.join(dist, "functions.js");
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: not a build of the add-in`);
    const loaded = options.manifest ? manifestUrls(dist, options.manifest) : { page: "taskpane.html", metadata: "functions.json" };
    const json = JSON.parse(fs.readFileSync(path.join(dist, options.metadataFile ?? loaded.metadata), "utf8")) as FunctionsJson;
    // Data types need the flag and CustomFunctionsRuntime 1.4 (the manifest asks 1.3: an Excel may have less).
    const cfRuntime = options.requirementSets?.CustomFunctionsRuntime ?? "1.3";
    const rt = (this.runtime = new FunctionsRuntime(() => cfRuntime));
    rt.load(json);
    this.associated = rt.associated;
    this.metadata = rt.metadata;
    this.allowCustomData = rt.allowCustomData;
    this.allowErrors = rt.allowErrors;
    this.violations = rt.violations;
    this.notLoaded = rt.notLoaded;
    this.exceptions = rt.exceptions;
    this.unspecified = rt.unspecified;
    const sandboxGlobals = {
      CustomFunctions: {
        associate(id: string | Record<string, CustomFunction>, fn?: CustomFunction) {
          rt.associate(id, fn);
        },
        Error: StandInError,
        // ErrorCode arrives after the bundle has run, as in office.js (see below).
      } as Record<string, unknown>,
      OfficeRuntime: { storage },
      // The shared runtime is a page: its address, as the manifest names it.
      location: new URL(loaded.page, options.servedBy ? `${options.servedBy.origin}/` : "https://localhost:3000/"),
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
      // Chunks the bundle loads when first needed (webpack's script loader: a script element added to
      // the head), as a page loads them: read from the build and run in this runtime, then onload.
      document: chunkLoader(dist, () => this.context),
    };
    const sets = options.requirementSets;
    const office = sets && {
      context: {
        requirements: { isSetSupported: (name: string, version = "1.1") => name in sets && atLeast(sets[name], version) },
      },
    };
    // The page's Navigation Timing (its own load, from its origin) and Resource Timing: an entry for its
    // origin's /v4 answers once the first has come.
    const served = options.servedBy;
    let answered = false;
    const timing = served && {
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const r = await fetch(input, init);
        if ((input instanceof Request ? input.url : String(input)).startsWith(`${served.origin}/v4/`)) answered = true;
        return r;
      },
      performance: {
        now: () => performance.now(),
        getEntriesByType: (type: string) =>
          type === "navigation"
            ? [{ name: `${served.origin}/${loaded.page}`, nextHopProtocol: served.protocol, transferSize: 2_300, type: "navigate" }]
            : type === "resource" && answered
              ? [{ name: `${served.origin}/v4/`, nextHopProtocol: served.protocol }]
              : [],
      },
    };
    // A browser page's storage: only when asked, so that the default runtime stays the one without it.
    const browser = options.indexedDB
      ? { indexedDB: options.indexedDB, Blob, CompressionStream, DecompressionStream, ReadableStream, WritableStream, TransformStream }
      : {};
    this.context = vm.createContext({ ...sandboxGlobals, ...browser, ...(timing ?? {}), ...(office ? { Office: office } : {}) });
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
    const m = this.runtime.meta(id);
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
   * invokes 100,000 cells): the runtime's handlers are made once per function.
   */
  invokeAs(id: string, fn: (...args: unknown[]) => unknown, args: unknown[], invocation: Invocation = {}): Promise<unknown> {
    let shaped: unknown[] | StandInError;
    try {
      shaped = this.runtime.shape(id, args);
    } catch (e) {
      return Promise.reject(e);
    }
    // A function that did not load (#NAME?), or an error argument Excel does not hand on: Excel answers with it.
    if (shaped instanceof StandInError) return Promise.resolve(shaped);
    return this.runtime.run(id, fn, shaped, invocation);
  }

  /**
   * Cancels `old` (a cell's previous invocation) and calls FIRMA.<id> again for the same cell, in `order`
   * (functions-runtime.ts cancelAround: "The ordering between the cancellation of the old function call
   * and the new invocation is not guaranteed", custom-functions-web-reqs#cancel-a-function). Resolves
   * once the cancellation has fired and the new call has settled.
   */
  async recalculate(id: string, args: unknown[], old: Invocation, order: CancelOrder, next: Invocation = {}): Promise<unknown> {
    const { result, cancelled } = cancelAround(
      order,
      // Excel calls onCanceled only for a cancelable function (custom-functions-web-reqs#cancel-a-function).
      () => (this.runtime.meta(id)?.options?.cancelable ? old.onCanceled?.() : undefined),
      () => this.call(id, args, next),
    );
    await cancelled;
    return result;
  }
}

/** The little of `document` webpack's script loader uses, loading its chunks from `dist` into the runtime. */
function chunkLoader(dist: string, context: () => vm.Context) {
  interface Script {
    src?: string;
    onload?: ((e: unknown) => void) | null;
    onerror?: ((e: unknown) => void) | null;
  }
  return {
    createElement: (): Script & Record<string, unknown> => ({ setAttribute() {}, getAttribute: () => null }),
    getElementsByTagName: () => [],
    head: {
      appendChild(s: Script) {
        setTimeout(() => {
          try {
            const file = path.join(dist, String(s.src));
            vm.runInContext(fs.readFileSync(file, "utf8"), context(), { filename: file });
            s.onload?.({ type: "load", target: s });
          } catch {
            s.onerror?.({ type: "error", target: s });
          }
        });
      },
    },
  };
}
