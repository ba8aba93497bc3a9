/**
 * One evaluation of a FIRMA function: its context (engine, language, cache-only, value preview,
 * cards, and the cancel signal and completion it reads with), and how a failure or an argument that
 * is not a CUI becomes the cell that says so.
 */
import type { FirmaEngine, ReadOptions } from "../engine/engine";
import { kindOf } from "../engine/failures";
import type { Completion } from "../engine/cells/wants";
import { CellError, cellError, inputErrorCell, Lang, Matrix, toCellError } from "./cells";
import { ErrorInput, UnreadableInput } from "./excel-values";
import { t } from "./messages";

/**
 * One evaluation's context. It is also the ReadOptions the engine's reads receive (its `cacheOnly`,
 * `signal` and `completion`), passed as it is: no object per call. Three roles, three objects where
 * the host has them: this evaluation context, its cancel signal (`signal`, a CancelSignal) and a
 * cell's completion (`completion`, a Completion: `completionOf`).
 */
export interface EvalContext extends ReadOptions {
  engine: FirmaEngine;
  lang: Lang;
  /** Answer from the cache only, this evaluation alone (the engine-wide mode of the CLI is the engine's own). */
  cacheOnly?: boolean;
  /**
   * Excel's value preview (functions.ts): cache-only, and what is not cached shows the preview
   * placeholder, "press Enter to fetch", rather than a failure.
   */
  preview?: boolean;
  /** The host shows entity values (FIRMA.FISA's card); otherwise FISA answers the company's name. */
  cards?: boolean;
  /**
   * The host completes a lone cell that waits for the service itself (the add-in: the matrix Excel
   * takes, or the error thrown): the completion of a cell of this evaluation, by whether the function
   * is a financial one (its "not found" names the year). Absent (the CLI, the server): perCui chains
   * its own promise.
   */
  completionOf?(financial: boolean): Completion;
  /**
   * The completion of this evaluation's one read (perCui sets it from completionOf for a lone cell
   * whose read completes, and leaves it set only when the promise it hands back is that read's, which
   * then settles in the host's form); undefined otherwise.
   */
  completion?: Completion;
}

/** A failure as the cell shows it; in a value preview, "not cached" is the placeholder that says Enter fetches. */
export function errorCell(e: unknown, ctx: Pick<EvalContext, "lang" | "preview">, financial = false): CellError {
  if (ctx.preview && kindOf(e) === "not_cached") return cellError("preview", ctx.lang, "not_cached");
  return toCellError(e, ctx.lang, financial);
}

/**
 * A CUI argument that is not a CUI to look up (excel-values.ts): a cell holding an error answers with
 * it; a card without a CUI or another data type is #VALUE! naming it. Null for anything else. Free.
 */
export function inputCell(v: unknown, lang: Lang): CellError | null {
  if (v instanceof ErrorInput) return inputErrorCell(v.code, lang, true);
  if (v instanceof UnreadableInput) {
    const key = v.what === "card" ? "cell.invalidCui.card" : "cell.invalidCui.dataType";
    const e: CellError = { error: "#VALUE!", message: t(lang, key, { input: v.shown }) };
    Object.defineProperty(e, "cause", { value: "invalid_cui", enumerable: false });
    return e;
  }
  return null;
}

/** A FIRMA function's evaluation: its arguments (as a host hands them) → a matrix of cells, at once when it can. */
export type Impl = (args: unknown[], ctx: EvalContext) => Matrix | Promise<Matrix>;
