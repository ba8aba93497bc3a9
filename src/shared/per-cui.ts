/**
 * Per-CUI functions over one CUI or a range: the answer keeps the argument's shape (or is one row per
 * CUI), with an error only in the cells that need one, and cells the engine's cache answers come
 * back at once, without a promise.
 */
import { NOT_FOUND } from "../engine/engine";
import { Cell, cellError, Matrix, Scalar, toCell } from "./cells";
import { asMatrix, isBlank } from "./coercion";
import { errorCell, inputCell, type EvalContext } from "./eval-context";

/**
 * How a per-CUI function reads one CUI: the engine's one read (a value at once from its cache, the
 * engine's NOT_FOUND for a company or year cached as not found, else a promise of the value; toCell
 * makes the cell). NOT_FOUND is compared by identity, which holds: the add-in's two entries share one
 * webpack runtime and so one engine module (docs/architecture.md, "One engine in the add-in"), and
 * the CLI runs in one Node process.
 */
export interface PerCui {
  /** The raw value for one CUI: at once, NOT_FOUND, or a promise; bad input throws. */
  read(ctx: EvalContext, cui: unknown, args: unknown[]): unknown;
  /**
   * read() is an engine field read with `ctx` as its ReadOptions: a lone cell's read then takes the
   * host's completion (EvalContext.completionOf), and its promise settles in the host's form.
   */
  completes?: boolean;
}

const oneCell = (x: unknown): Matrix => [[toCell(x)]];

/**
 * Applies `get` to every CUI of a value or range, keeping the shape. A blank inside a range gives
 * an empty cell (a column with trailing blanks stays clean); a lone blank says the CUI is missing.
 * `get.read` answers a cell at once from the engine's cache; only the other cells wait, and when
 * none has to, the matrix comes back without a promise (a recalculation of cached cells then costs
 * no promise, no timer and no cancellation signal per cell). `args` are the function's arguments,
 * handed to `get` (made once per function, not per call).
 */
export function perCui(input: unknown, args: unknown[], ctx: EvalContext, financial: boolean, get: PerCui): Matrix | Promise<Matrix> {
  // No closure in this function: V8 would make its context at every call, cached cells included.
  // One CUI, the usual cell (a value, or a 1×1 range): the same steps as a range's without the
  // bookkeeping, and a lone value is not wrapped in a matrix first.
  let v: unknown = input;
  if (Array.isArray(input)) {
    const m = asMatrix(input);
    if (m.length !== 1 || m[0].length !== 1) return perCuiRange(m, args, ctx, financial, get);
    v = m[0][0];
  }
  if (isBlank(v)) return [[cellError("empty_cui", ctx.lang)]];
  if (typeof v === "object") {
    const bad = inputCell(v, ctx.lang);
    if (bad) return [[bad]];
  }
  // A host that completes its cells: the engine's promise is the cell's, with no promise chained per cell.
  const completion = get.completes && ctx.completionOf ? ctx.completionOf(financial) : undefined;
  if (completion) ctx.completion = completion;
  let x: unknown;
  try {
    x = get.read(ctx, v, args);
  } catch (e) {
    if (completion) ctx.completion = undefined;
    return [[errorCell(e, ctx, financial)]];
  }
  // The read's promise, completed: ctx.completion stays set, telling the host so.
  if (x instanceof Promise) return completion ? (x as Promise<Matrix>) : waitOne(x, ctx, financial);
  if (completion) ctx.completion = undefined;
  // A company or year cached as not found: its cell error (shared, cells.ts), nothing thrown.
  if (x === NOT_FOUND) return [[errorCell(x, ctx, financial)]];
  return [[toCell(x)]];
}

/** A lone cell that waits for the service: its value, or the error that says what happened. */
function waitOne(x: Promise<unknown>, ctx: EvalContext, financial: boolean): Promise<Matrix> {
  return x.then(oneCell, (e): Matrix => [[errorCell(e, ctx, financial)]]);
}

function perCuiRange(m: unknown[][], args: unknown[], ctx: EvalContext, financial: boolean, get: PerCui): Matrix | Promise<Matrix> {
  const out: Cell[][] = [];
  let waiting: Promise<void>[] | null = null;
  for (const row of m) {
    const cells: Cell[] = [];
    out.push(cells);
    for (const v of row) {
      if (isBlank(v)) {
        cells.push(""); // a blank inside a range stays empty
        continue;
      }
      const bad = typeof v === "object" ? inputCell(v, ctx.lang) : null;
      if (bad) {
        cells.push(bad);
        continue;
      }
      let x: unknown;
      try {
        x = get.read(ctx, v, args);
        if (!(x instanceof Promise)) {
          cells.push(x === NOT_FOUND ? errorCell(x, ctx, financial) : toCell(x));
          continue;
        }
      } catch (e) {
        cells.push(errorCell(e, ctx, financial));
        continue;
      }
      cells.push("");
      (waiting ??= []).push(fillLater(cells, cells.length - 1, x, ctx, financial));
    }
  }
  if (waiting === null) return out;
  return waiting.length === 1 ? waiting[0].then(() => out) : Promise.all(waiting).then(() => out);
}

/** A range's cell that waits: filled in place when its answer comes. */
function fillLater(cells: Cell[], at: number, x: Promise<unknown>, ctx: EvalContext, financial: boolean): Promise<void> {
  return x.then(
    (y) => void (cells[at] = toCell(y)),
    (e) => void (cells[at] = errorCell(e, ctx, financial)),
  );
}

/** One row per CUI (a range is read row by row). */
export async function rowPerCui(
  input: unknown,
  ctx: EvalContext,
  financial: boolean,
  width: number,
  one: (cui: unknown) => Promise<Scalar[]>,
): Promise<Matrix> {
  const cuis = asMatrix(input)
    .flat()
    .filter((v, _i, all) => all.length === 1 || !isBlank(v));
  return Promise.all(
    cuis.map(async (v): Promise<Cell[]> => {
      try {
        if (isBlank(v)) return [cellError("empty_cui", ctx.lang), ...Array<Cell>(width - 1).fill("")];
        const bad = inputCell(v, ctx.lang);
        if (bad) return [bad, ...Array<Cell>(width - 1).fill("")];
        return await one(v);
      } catch (e) {
        return [errorCell(e, ctx, financial), ...Array<Cell>(width - 1).fill("")];
      }
    }),
  );
}
