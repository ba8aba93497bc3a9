/**
 * Making Excel calculate FIRMA cells again: the cells themselves (`recalculate`), their formulas
 * entered again when that did not run the functions (`reenter`), and afterwards the cells that
 * depend on them (`recalculateDependents`). Nothing else in any open workbook is calculated.
 */
import { MAX_ACTIONS, readAreas, writeAreas, type Write } from "./blocks";
import { addressOf, runAreas } from "./cell-areas";
import type { FormulaCell } from "./refresh-plan";

/**
 * How a refresh makes Excel run the FIRMA functions again (docs/excel.md, "Refresh"): no Microsoft
 * page promises that any calculate method re-runs a non-volatile custom function whose arguments
 * did not change. `Range.calculate()` on the FIRMA cells only (ExcelApi 1.6, "Calculates a range of
 * cells on a worksheet") is what the office-js issues show doing it (office-js #576, #3108), and it
 * touches no other cell or workbook; `Worksheet.calculate(true)` (Excel-Custom-Functions #298)
 * would re-run every volatile formula of the sheet, `Application.calculate` every open workbook.
 * Because no page promises it, the pane checks that the functions did run (engine.lookups()) and
 * otherwise calls reenter().
 */
export function recalculate(cells: readonly FormulaCell[]): Promise<void> {
  if (cells.length === 0) return Promise.resolve();
  return Excel.run(async (context) => {
    // At most MAX_ACTIONS ranges a sync: the request of a scattered selection stays small (blocks.ts).
    const runs = runAreas(cells);
    for (let i = 0; i < runs.length; i += MAX_ACTIONS) {
      for (const a of runs.slice(i, i + MAX_ACTIONS)) context.workbook.worksheets.getItem(a.sheet).getRange(addressOf(a)).calculate();
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per block, each under the web's limit
      await context.sync();
    }
  });
}

/**
 * The same formulas entered again (`Range.formulas`, ExcelApi 1.1): Excel calculates a formula that
 * is entered, as when the user presses Enter. Only the FIRMA cells' runs are written; a spill's
 * anchor keeps its formula, so the spill comes back.
 */
export function reenter(cells: readonly FormulaCell[]): Promise<void> {
  if (cells.length === 0) return Promise.resolve();
  return Excel.run(async (context) => {
    // Read, then written back, in blocks under the web's limit (blocks.ts).
    const writes: Write[] = [];
    await readAreas(context, runAreas(cells), ["formulas"], (area, range) =>
      writes.push({ area, property: "formulas", data: range.formulas }),
    );
    await writeAreas(context, writes);
  });
}

/**
 * The cells that depend on refreshed FIRMA cells, recalculated once those have their new values.
 * `Range.calculate` is not documented to recalculate dependents, and office-js #5063/#6885 report
 * that it (and RangeAreas.calculate) reaches only direct ones; `Range.getDependents()` (ExcelApi
 * 1.15) returns every dependent cell, on any sheet, and `RangeAreas.calculate()` (1.9) calculates
 * exactly those — the workaround #5063 was given. The caller checks that this Excel has both sets.
 */
export function recalculateDependents(cells: readonly FormulaCell[]): Promise<number> {
  if (cells.length === 0) return Promise.resolve(0);
  return Excel.run(async (context) => {
    // Each run's dependents, as areas per sheet with their cell counts (not their addresses: a long
    // column's would weigh megabytes).
    const found: Excel.WorkbookRangeAreas[] = [];
    for (const a of runAreas(cells)) {
      const deps = context.workbook.worksheets.getItem(a.sheet).getRange(addressOf(a)).getDependents();
      deps.areas.load("items/cellCount");
      // getDependents throws ItemNotFound when a range has no dependents (the API reference), and
      // a failed sync fails every call in it: one sync per run, so one run without dependents
      // does not hide the others'.
      try {
        // eslint-disable-next-line office-addins/no-context-sync-in-loop
        await context.sync();
        found.push(deps);
      } catch (e) {
        if ((e as { code?: unknown }).code !== "ItemNotFound") throw e;
      }
    }
    let count = 0;
    let pending = 0;
    for (const deps of found)
      for (const areas of deps.areas.items) {
        areas.calculate();
        count += areas.cellCount;
        // At most MAX_ACTIONS calculations a sync (blocks.ts).
        if (++pending >= MAX_ACTIONS) {
          pending = 0;
          // eslint-disable-next-line office-addins/no-context-sync-in-loop
          await context.sync();
        }
      }
    await context.sync();
    return count;
  });
}
