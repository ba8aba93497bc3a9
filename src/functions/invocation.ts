/**
 * One invocation of a custom function bridged to the Office-free evaluation (src/shared/evaluate.ts):
 * Excel's data types → plain arguments, its cancellation → a CancelSignal, its value preview →
 * cache-only, the host's support for cards, and the answer → what Excel takes (excel-results.ts).
 */
import type { CancelSignal } from "../api/types";
import type { FirmaEngine } from "../engine/engine";
import type { Lang } from "../shared/cells";
import { getEngine, readyEngine } from "../shared/engine-instance";
import { EvalContext, evaluateNow } from "../shared/evaluate";
import { plainArgument } from "../shared/excel-values";
import { recordInvocation } from "../shared/invocations";
import { getSettings } from "../shared/settings";
import { toExcel } from "./excel-results";

/**
 * An invocation's cancellation, a CancelSignal (src/api/types.ts): `aborted`, and
 * add/removeEventListener("abort"). A real AbortSignal is an EventTarget: about a kilobyte and a
 * few µs to make, for every cell that waits for the service (a fill of 10,000 cells made 10,000).
 * A listener added after the abort is not called, as with AbortSignal.
 */
class Cancellation implements CancelSignal {
  aborted = false;
  private listeners: (() => void)[] | null = null;

  addEventListener(type: string, listener: () => void): void {
    if (type === "abort" && !this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    const i = type === "abort" && this.listeners ? this.listeners.indexOf(listener) : -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners ?? [];
    this.listeners = null;
    for (const l of listeners) l();
  }
}

/**
 * One invocation's context for evaluate(): the engine, the language, and the cancellation signal,
 * made only when the engine asks for it, i.e. when a cell has to wait for the service: a
 * recalculation answered from the cache makes none.
 */
class InvocationContext implements EvalContext {
  engine!: FirmaEngine;
  lang: Lang = "ro";
  cacheOnly = false;
  preview = false;
  cards = false;
  private cancellation: Cancellation | null = null;
  private canceled = false;

  get signal(): CancelSignal {
    if (!this.cancellation) {
      this.cancellation = new Cancellation();
      if (this.canceled) this.cancellation.abort();
    }
    return this.cancellation;
  }

  cancel(): void {
    this.canceled = true;
    this.cancellation?.abort();
  }
}

/**
 * Bridges one invocation: Excel's data types → plain values (excel-values.ts: a card's CUI, a
 * formatted number's number, an error cell's error), cancellation → AbortSignal, the engine's matrix →
 * Excel's values and errors.
 */
export function run(name: string, excelArgs: unknown[], invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  const args = excelArgs.map(plainArgument);
  recordInvocation(name, args); // evidence for the pane's refresh that Excel ran this cell (a no-op unless it watches)
  const ctx = new InvocationContext();
  if (invocation) invocation.onCanceled = () => ctx.cancel();
  // Excel evaluates a formula while it is typed, for its value preview, with isInValuePreview set
  // (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-formula-value-preview;
  // CustomFunctions.Invocation.isInValuePreview). Every call costs a credit: the preview answers from
  // the cache only, and what is not there says Enter fetches it. The typings say string, the page a
  // boolean: both are read.
  const preview = (invocation as { isInValuePreview?: unknown } | undefined)?.isInValuePreview;
  if (preview === true || preview === "true") ctx.preview = ctx.cacheOnly = true;
  if (name === "FISA") ctx.cards = supportsEntityValues();
  const engine = readyEngine();
  return engine ? evaluateIn(ctx, engine, name, args) : getEngine().then((e) => evaluateIn(ctx, e, name, args));
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

/** Evaluates with the engine ready; a result the cache answered in full needs no waiting. */
function evaluateIn(ctx: InvocationContext, engine: FirmaEngine, name: string, args: unknown[]): Promise<any[][]> {
  ctx.engine = engine;
  ctx.lang = getSettings().language;
  try {
    const result = evaluateNow(name, args, ctx);
    return result instanceof Promise ? result.then(toExcel) : Promise.resolve(toExcel(result));
  } catch (e) {
    return Promise.reject(e);
  }
}
