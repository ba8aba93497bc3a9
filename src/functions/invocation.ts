/**
 * One invocation of a custom function bridged to the Office-free evaluation (src/shared/evaluate.ts):
 * Excel's data types → plain arguments, its value preview → cache-only, the host's support for cards,
 * and the answer → what Excel takes (excel-results.ts).
 *
 * No cancellation: FIRMA's functions return a matrix, and "Only asynchronous custom functions which
 * return one value can use the @cancelable JSDoc tag"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs#cancel-a-function), so
 * Excel never cancels them. A cell edited or deleted while it waits keeps its place in the batch: its
 * CUI is fetched with the others (at most the batch it rides in, 1 credit per 100 CUIs) and cached,
 * and Excel drops the stale answer. docs/excel.md says what that costs.
 */
import type { FirmaEngine } from "../engine/engine";
import type { Completion } from "../engine/cells/wants";
import type { Lang } from "../shared/cells";
import { getEngine, readyEngine } from "../shared/engine-instance";
import { toCell } from "../shared/cells";
import { errorCell } from "../shared/eval-context";
import { EvalContext, evaluateNow } from "../shared/evaluate";
import { plainArgument } from "../shared/excel-values";
import { recordInvocation } from "../shared/invocations";
import { getSettings } from "../shared/settings";
import { toExcel } from "./excel-results";

/** Set in the constructor so that every context has one shape (the engine is known before evaluation). */
const NO_ENGINE = null as unknown as FirmaEngine;

/**
 * One invocation's evaluation context for evaluate(): the engine, the language, cache-only and the
 * value preview, cards, and Excel's completion of a lone cell. No cancel signal (see above). A
 * recalculation answered from the cache makes nothing else: no closure, no listener.
 */
class InvocationContext implements EvalContext {
  engine: FirmaEngine = NO_ENGINE;
  lang: Lang = "ro";
  cacheOnly = false;
  preview = false;
  cards = false;
  /** EvalContext.completion: set by perCui for a lone cell's read (one of COMPLETIONS). */
  completion: Completion | undefined = undefined;

  /** Excel's completion of this invocation's lone cell: made once per language, preview and kind, shared. */
  completionOf(financial: boolean): Completion {
    return excelCompletion(this.lang, this.preview, financial);
  }
}

/**
 * Excel's completion of a lone cell that waits: its value or failure as Excel takes it (what waitOne
 * and then toExcel made of it, in one step). It depends only on the language, the value preview and
 * whether the function is a financial one, so there is one of each, shared by every cell.
 */
class ExcelCompletion implements Completion {
  constructor(
    readonly lang: Lang,
    readonly preview: boolean,
    private readonly financial: boolean,
  ) {}

  value(v: unknown): any[][] {
    return toExcel([[toCell(v)]]);
  }

  /** toExcel throws the error, so the cell shows it with its message. */
  error(e: unknown): any[][] {
    return toExcel([[errorCell(e, this, this.financial)]]);
  }
}

/** Excel's completions of a language, by [preview][financial]. */
function completionsOf(lang: Lang): ExcelCompletion[][] {
  const of = (preview: boolean) => [new ExcelCompletion(lang, preview, false), new ExcelCompletion(lang, preview, true)];
  return [of(false), of(true)];
}

/** The completions, made once: no key string and no object per cell. */
const COMPLETIONS: Readonly<Record<Lang, ExcelCompletion[][]>> = { ro: completionsOf("ro"), en: completionsOf("en") };

function excelCompletion(lang: Lang, preview: boolean, financial: boolean): ExcelCompletion {
  return COMPLETIONS[lang][preview ? 1 : 0][financial ? 1 : 0];
}

/**
 * Bridges one invocation: Excel's data types → plain values (excel-values.ts: a card's CUI, a
 * formatted number's number, an error cell's error), the value preview → cache-only, the engine's
 * matrix → Excel's values and errors.
 */
export function run(name: string, excelArgs: unknown[], invocation?: CustomFunctions.Invocation): CellAnswer {
  // The arguments' array is the function's own (functions.ts): read in place, no copy per cell.
  const args = excelArgs;
  for (let i = 0; i < args.length; i++) args[i] = plainArgument(args[i]);
  recordInvocation(name, args); // evidence for the pane's refresh that Excel ran this cell (a no-op unless it watches)
  const ctx = new InvocationContext();
  if (inValuePreview(invocation)) ctx.preview = ctx.cacheOnly = true;
  if (name === "FISA") ctx.cards = supportsEntityValues();
  const engine = readyEngine();
  if (engine) return evaluateIn(ctx, engine, name, args);
  return evaluateLater(ctx, name, args);
}

/**
 * Whether Excel evaluates this call for its formula value preview ("select portions of a formula while
 * editing the cell to preview the values"), where every call would cost a credit: the preview then
 * answers from the cache only, and what is not there says Enter fetches it
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-formula-value-preview).
 * `isInValuePreview` is CustomFunctionsRuntime 1.5 (CustomFunctions.Invocation): an Excel without 1.5
 * has no such property, so a preview there cannot be told from Enter. FIRMA reads the property when it is
 * there, whatever the version Office reports (a preview it can see is never paid for), and does not
 * guess where it is absent: such a call is an ordinary one, fetched once and cached, so the Enter that
 * follows costs nothing and the preview costs what Enter would have (the guard and the budget hold it
 * as any call; docs/excel.md). The typings say string, the page a boolean: both are read.
 */
function inValuePreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  const preview = (invocation as { isInValuePreview?: unknown } | undefined)?.isInValuePreview;
  return preview === true || preview === "true";
}

/** The first calculation, while the engine loads (a closure in run() would cost a context per cell). */
function evaluateLater(ctx: InvocationContext, name: string, args: unknown[]): Promise<any[][]> {
  return getEngine().then((e) => evaluateIn(ctx, e, name, args));
}

/**
 * Whether custom functions may return entity values here: CustomFunctionsRuntime 1.4, asked at run
 * time (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts).
 * Not remembered: Office.context may not be ready at the first calculation. Without it, FISA gives the name.
 */
function supportsEntityValues(): boolean {
  try {
    return typeof Office !== "undefined" && !!Office.context?.requirements?.isSetSupported("CustomFunctionsRuntime", "1.4");
  } catch {
    return false;
  }
}

/**
 * What a function gives Excel: the matrix itself when the cache answered every cell (a lone error
 * the cache answered is thrown), else a promise of it. A custom function "can return a promise" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json-autogeneration,
 * "Promise"), and one that reaches the web "must" (custom-functions-web-reqs): the cells that wait for
 * the service do; office.js sets a result without `then` at once. The metadata has no field for it
 * (custom-functions-json: `result` is `dimensionality` and `type`), so the exported functions say
 * `@returns {any[][]}` and no TypeScript return type: the generator reads a union or an alias of one
 * as a scalar result, or refuses it (docs/excel.md).
 */
export type CellAnswer = any[][] | Promise<any[][]>;

/**
 * Evaluates with the engine ready; a result the cache answered in full needs no waiting and no
 * promise (a recalculation of cached cells). A lone error the cache answered (a company cached as not
 * found, a bad CUI) is thrown at once, as Microsoft's own example throws its CustomFunctions.Error from
 * a function that returns no promise (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors,
 * "Detect and throw an error"): the cell shows it with its message, and no rejected promise is made per cell.
 */
function evaluateIn(ctx: InvocationContext, engine: FirmaEngine, name: string, args: unknown[]): CellAnswer {
  ctx.engine = engine;
  ctx.lang = getSettings().language;
  let result: ReturnType<typeof evaluateNow>;
  try {
    result = evaluateNow(name, args, ctx);
  } catch (e) {
    return Promise.reject(e);
  }
  // A lone cell's promise from the engine settles with Excel's form already (ExcelCompletion; perCui left ctx.completion set).
  if (result instanceof Promise) return ctx.completion !== undefined ? (result as Promise<any[][]>) : result.then(toExcel);
  return toExcel(result); // throws a lone error
}
