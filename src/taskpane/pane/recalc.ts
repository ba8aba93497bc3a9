/**
 * Making Excel run the FIRMA functions of some cells again, and waiting for them to finish: what a
 * refresh, the credit guard's "fill" and a saved key share.
 */
import type { CellsState } from "../excel";
import type { CellValues, FormulaCell } from "../refresh-plan";
import { expectRuns, notRun } from "../rerun";
import { closeWatch, openWatch } from "../../shared/invocations";
import type { PaneContext } from "./context";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * How long Excel gets to start running the functions after Range.calculate before the formulas it has
 * not run are entered again: RERUN_WAIT_MS, plus RERUN_PER_CELL_MS for each cell asked (a large sheet on
 * the web is slow to start); and RERUN_WAIT_MS after the latest run while runs keep coming.
 */
const RERUN_WAIT_MS = 5_000;
const RERUN_PER_CELL_MS = 1;
/** The longest the first runs are waited for, however many cells (then: as long as runs keep coming). */
const RERUN_WAIT_MAX_MS = 60_000;

/**
 * Makes Excel run the FIRMA functions of `cells` again: Range.calculate, then the evidence that it
 * did, cell by cell (rerun.ts: the invocations the functions record while the pane watches). No
 * page promises that Range.calculate re-runs a custom function whose arguments did not change, and
 * Excel on the web may be slow to start: the pane waits RERUN_WAIT_MS plus RERUN_PER_CELL_MS a cell
 * for the first runs, and as long as runs keep coming (RERUN_WAIT_MS after the latest), then enters
 * again only the formulas Excel did not run. `values`: what the cells' references hold (the scan).
 */
export async function rerun(ctx: PaneContext, cells: readonly FormulaCell[], values: CellValues): Promise<"calculate" | "reentered"> {
  const host = ctx.options.host!;
  if (cells.length === 0) return "calculate";
  const expected = expectRuns(cells, values);
  const watch = openWatch();
  try {
    await host.recalculate(cells);
    let deadline = Date.now() + Math.min(RERUN_WAIT_MAX_MS, RERUN_WAIT_MS + cells.length * RERUN_PER_CELL_MS);
    let seen = 0;
    for (;;) {
      if (watch.total >= cells.length && notRun(expected, watch).length === 0) return "calculate";
      if (Date.now() >= deadline) break;
      await sleep(Math.min(ctx.pollMs, 50));
      if (watch.total !== seen) {
        seen = watch.total;
        deadline = Math.max(deadline, Date.now() + RERUN_WAIT_MS);
      }
    }
    const left = notRun(expected, watch);
    if (left.length === 0) return "calculate";
    await host.reenter(left);
    return "reentered";
  } finally {
    closeWatch(watch);
  }
}

/** Waits (at most the refresh's timeout) until Excel has calculated `cells`; `progress` hears each look. */
export async function settle(ctx: PaneContext, cells: readonly FormulaCell[], progress?: (state: CellsState) => void): Promise<CellsState> {
  const host = ctx.options.host!;
  const deadline = Date.now() + ctx.timeoutMs;
  let state = await host.state(cells);
  while (state.busy > 0 && Date.now() < deadline) {
    progress?.(state);
    await sleep(ctx.pollMs);
    state = await host.state(cells);
  }
  return state;
}
