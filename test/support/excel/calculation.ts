/**
 * Calculation in the browser stand-in. It does only what Microsoft's pages promise (docs/excel.md,
 * "Refresh"): a calculate method calculates the cells it is given; a formula entered through the API is
 * calculated; a FIRMA result arriving after `Range.calculate` does not recalculate the cells that depend
 * on it (no page says it does; office-js #5063 and #6885 report it does not), while Excel's full
 * calculation (`S.calculateAll`, as on opening) calculates everything, dependents after their precedents.
 *
 * While a FIRMA cell calculates it shows "#BUSY!", as in Excel. Its arguments are read from the sheet
 * (formulas.ts argValue) and handed to the function by the one custom-functions runtime
 * (functions-runtime.ts: metadata, error inputs, data types, answers Excel refuses, cancellation).
 */
import { ALL, colLetters, inBox, k, one, overlaps, rc, type Box } from "./a1";
import { cellAt } from "./cells";
import { argValue, evaluatePlain, FIRMA_CALL, refsOf, splitArgs } from "./formulas";
import { cancelAround, StandInError, type Invocation } from "./functions-runtime";
import { S, type FormulaCell, type Sheet } from "./state";
import { clearSpill, setResult } from "./writes";

/** The formula cells of `box`. */
export function formulaCellsIn(sheet: Sheet, box: Box): FormulaCell[] {
  const out: FormulaCell[] = [];
  // A small box is looked up cell by cell (a calculate on one run of a large sheet must not scan it all).
  if ((box.bottom - box.top + 1) * (box.right - box.left + 1) < sheet.cells.size) {
    for (let r = box.top; r <= box.bottom; r++)
      for (let c = box.left; c <= box.right; c++) {
        const cell = sheet.cells.get(k(r, c));
        if (cell && cell.formula !== null) out.push({ sheet, r, c, cell });
      }
    return out;
  }
  for (const [key, cell] of sheet.cells) {
    if (cell.formula === null) continue;
    const [r, c] = rc(key);
    if (inBox(box, r, c)) out.push({ sheet, r, c, cell });
  }
  return out;
}

/**
 * Every cell that depends on `targets` ([{ sheet, box }]), directly or through other cells, on any
 * sheet — what Range.getDependents returns ("all the dependent cells of a specified range in the
 * same worksheet or across multiple worksheets", ExcelApi 1.15,
 * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-getdependents-member(1)).
 */
export function dependentsOf(targets: { sheet: Sheet; box: Box }[]): FormulaCell[] {
  const all: FormulaCell[] = [];
  for (const sheet of S.sheets.values()) all.push(...formulaCellsIn(sheet, ALL));
  const seen = new Set<unknown>();
  const out: FormulaCell[] = [];
  let frontier = targets;
  while (frontier.length > 0) {
    const next: { sheet: Sheet; box: Box }[] = [];
    const hits = frontierIndex(frontier);
    for (const x of all) {
      if (seen.has(x.cell)) continue;
      const hit = refsOf(x.cell.formula!, x.sheet).some(hits);
      if (!hit) continue;
      seen.add(x.cell);
      out.push(x);
      next.push({
        sheet: x.sheet,
        box: x.cell.spill ? { top: x.r, left: x.c, bottom: x.cell.spill.bottom, right: x.cell.spill.right } : one(x.r, x.c),
      });
    }
    frontier = next;
  }
  return out;
}

/**
 * Whether a reference meets the frontier: single cells looked up by key, larger boxes compared one by
 * one (a settled wave of 14,000 cells is one frontier, not 14,000 scans of the sheet).
 */
function frontierIndex(frontier: { sheet: Sheet; box: Box }[]): (ref: { sheet: Sheet; box: Box }) => boolean {
  const singles = new Map<Sheet, Set<string>>();
  const boxes: { sheet: Sheet; box: Box }[] = [];
  for (const f of frontier) {
    if (f.box.top === f.box.bottom && f.box.left === f.box.right) {
      const set = singles.get(f.sheet) ?? new Set<string>();
      set.add(k(f.box.top, f.box.left));
      singles.set(f.sheet, set);
    } else boxes.push(f);
  }
  return (ref) => {
    if (boxes.some((f) => f.sheet === ref.sheet && overlaps(f.box, ref.box))) return true;
    const set = singles.get(ref.sheet);
    if (!set) return false;
    const b = ref.box;
    if ((b.bottom - b.top + 1) * (b.right - b.left + 1) > set.size) {
      for (const key of set) {
        const [r, c] = rc(key);
        if (inBox(b, r, c)) return true;
      }
      return false;
    }
    for (let r = b.top; r <= b.bottom; r++) for (let c = b.left; c <= b.right; c++) if (set.has(k(r, c))) return true;
    return false;
  };
}

/**
 * Excel recalculates what depends on a settled cell once its result is in; the cells that settle in one
 * turn are propagated together, after it (one look over the sheet's formulas per wave, not per cell).
 */
let wave: { targets: { sheet: Sheet; box: Box }[]; done: Promise<void> } | null = null;
function propagateWave(target: { sheet: Sheet; box: Box }): Promise<void> {
  if (!wave) {
    const w: { targets: { sheet: Sheet; box: Box }[]; done: Promise<void> } = { targets: [], done: Promise.resolve() };
    w.done = new Promise<void>((resolve) =>
      setTimeout(() => {
        wave = null;
        try {
          calculateCells(dependentsOf(w.targets).filter((x) => !FIRMA_CALL.test(x.cell.formula!)));
        } finally {
          resolve();
        }
      }, 0),
    );
    wave = w;
  }
  wave.targets.push(target);
  return wave.done;
}

/**
 * Starts calculating one FIRMA cell. With `propagate` (Excel's full calculation), the cells that
 * depend on it are calculated once its result is in.
 */
function calculateCell(sheet: Sheet, r: number, c: number, propagate: boolean): void {
  const cell = cellAt(sheet, r, c);
  if (!cell || cell.formula === null) return;
  const formula = cell.formula;
  const m = FIRMA_CALL.exec(formula);
  if (!m) return;
  const id = m[1].toUpperCase();
  const rt = S.runtime;
  const fn = rt.associated.get(id);
  const meta = rt.meta(id);
  // A function not associated, or not in the metadata, is unknown to Excel (#NAME?); so is one the naming
  // page's rules keep from loading (the runtime's shape(); FIRMA.CA loads as the one named exception).
  if (!fn || !meta) {
    setResult(sheet, r, c, formula, new StandInError("#NAME?", ""));
    return;
  }
  const texts = m[2].trim() === "" ? [] : splitArgs(m[2]);
  const raw: unknown[] = [];
  for (let i = 0; i < meta.parameters.length; i++) {
    const a = i < texts.length ? argValue(texts[i], sheet) : { value: null };
    if (a === undefined) {
      setResult(sheet, r, c, formula, new StandInError("#VALUE!", "stand-in: argument not supported"));
      return;
    }
    raw.push(a.value);
  }
  // The runtime hands the arguments on by the metadata and its flags, or answers instead of calling:
  // an error argument reaches only a parameter of type any, and only with allowErrorForDataTypeAny ("All
  // parameters with the type any or any[][] can accept errors as input values", custom-functions-json);
  // otherwise it is the answer and the function is not called
  // (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors#errors-as-custom-function-inputs).
  // A required argument left out: Excel would not take the formula; the stand-in passes null.
  const args = rt.shape(id, raw, true);
  if (args instanceof StandInError) {
    setResult(sheet, r, c, formula, new StandInError(args.code, ""));
    return;
  }
  const previous = cell.invocation;
  const invocation: Invocation = meta.options && meta.options.cancelable ? { onCanceled: null } : {};
  cell.invocation = invocation;
  clearSpill(sheet, k(r, c));
  Object.assign(cell, { value: "#BUSY!", error: { code: "#BUSY!", message: "" } });
  S.calls.push({ id, args: JSON.parse(JSON.stringify(args)) });
  // The old call's answer is not shown; S.cancelOrder plays each order of its cancellation and the new call.
  const cancelPrevious = () => {
    // Excel calls onCanceled only for a cancelable function (custom-functions-web-reqs#cancel-a-function).
    if (meta.options?.cancelable && previous && typeof previous.onCanceled === "function") previous.onCanceled();
  };
  const { result: p } = cancelAround(S.cancelOrder, cancelPrevious, () => rt.run(id, fn, args, invocation));
  const current = () => {
    const now = cellAt(sheet, r, c);
    return !!now && now.invocation === invocation;
  };
  const done = p
    .then(
      (result) => current() && setResult(sheet, r, c, formula, result),
      // Anything else thrown: "By default, Excel returns #VALUE! for unhandled errors" (custom-functions-errors).
      (e) => current() && setResult(sheet, r, c, formula, new StandInError("#VALUE!", String(e))),
    )
    .then(() => {
      if (!propagate) return;
      const anchor = cellAt(sheet, r, c);
      const box = anchor && anchor.spill ? { top: r, left: c, bottom: anchor.spill.bottom, right: anchor.spill.right } : one(r, c);
      return propagateWave({ sheet, box });
    });
  S.pending.add(done);
  done.finally(() => S.pending.delete(done));
}

/**
 * Calculates the given formula cells: FIRMA calls start; plain formulas are evaluated, each after those
 * of the set it refers to (Excel calculates a range's cells in their dependency order).
 */
export function calculateCells(list: FormulaCell[]): void {
  const plain: FormulaCell[] = [];
  const seen = new Set<string>();
  for (const x of list) {
    const cell = cellAt(x.sheet, x.r, x.c);
    const id = `${x.sheet.name}!${k(x.r, x.c)}`;
    if (!cell || cell.formula === null || seen.has(id)) continue;
    seen.add(id);
    if (FIRMA_CALL.test(cell.formula)) {
      if (x.byCalculate && !S.calculateReruns) continue;
      if (x.byCalculate && S.calculateRerunsOnly && !S.calculateRerunsOnly(x.sheet.name, x.r, x.c)) continue;
      if (x.byCalculate && S.calculateDelayMs > 0) setTimeout(() => calculateCell(x.sheet, x.r, x.c, !!x.propagate), S.calculateDelayMs);
      else calculateCell(x.sheet, x.r, x.c, !!x.propagate);
    } else plain.push({ sheet: x.sheet, r: x.r, c: x.c, cell });
  }
  const waiting = new Set(plain);
  while (waiting.size > 0) {
    let ready = [...waiting].filter((x) =>
      refsOf(x.cell.formula!, x.sheet).every(
        (ref) => ![...waiting].some((y) => y !== x && y.sheet === ref.sheet && inBox(ref.box, y.r, y.c)),
      ),
    );
    if (ready.length === 0) ready = [...waiting]; // a circular reference: in any order
    for (const x of ready) {
      waiting.delete(x);
      const result = evaluatePlain(x.cell.formula!, x.sheet);
      if (result !== undefined) setResult(x.sheet, x.r, x.c, x.cell.formula!, result.value);
      S.plainCalculations.push(`${x.sheet.name}!${colLetters(x.c)}${x.r}`);
    }
  }
}

/** Excel's calculation of every formula (as when a workbook is opened or calculated in full). */
export function calculateAll(): void {
  const list: FormulaCell[] = [];
  for (const sheet of S.sheets.values()) list.push(...formulaCellsIn(sheet, ALL).map((x) => ({ ...x, propagate: true })));
  calculateCells(list);
}
