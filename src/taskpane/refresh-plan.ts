/**
 * From the FIRMA formulas of a workbook (or a selection) to the requests a refresh would make,
 * for the cost estimate shown before anything is spent. Pure: the Excel adapter (excel.ts) reads
 * the cells, this module reads the formulas.
 *
 * Formulas come from Excel's `range.formulas` in the en-US form ("=FIRMA.DENUMIRE(A2)", ","
 * between arguments); they are read with the formula tokenizer the CLI uses (src/shared/sheet/formula.ts,
 * pure). An argument is resolved when it is a literal, an array constant, or a reference to cells
 * (their current values: constants, or what other formulas show now). A formula whose FIRMA call
 * is nested in a larger formula, or whose arguments compute something, cannot be estimated.
 */
import { MAX_ARGUMENT_CELLS, resolveArg, wholeLines, type CellValues } from "../shared/sheet/arguments";
import { analyzeFormula } from "../shared/sheet/formula";
import type { CellRequest } from "../engine/engine";
import { cellRequests, LIST_FUNCTIONS } from "../shared/evaluate";
import { functionId } from "../shared/function-ids";

export const NAMESPACE = "FIRMA";

export { LIST_FUNCTIONS, MAX_ARGUMENT_CELLS, type CellValues };

/** One formula cell as the adapter read it; rows and columns are 1-based. */
export interface FormulaCell {
  sheet: string;
  row: number;
  col: number;
  formula: string;
  /** What the cell shows now ("#BUSY!" while Excel calculates it). */
  value: unknown;
  /** The cell shows an error value. */
  error: boolean;
}

export type FormulaKind =
  /** One FIRMA call whose arguments could all be resolved. */
  | { kind: "call"; name: string; args: unknown[] }
  /** A FIRMA formula that is refreshed but cannot be estimated. */
  | { kind: "unestimable" };

export interface RefreshPlan {
  /** Every FIRMA formula in scope. */
  formulas: FormulaCell[];
  /** The cells the refresh recalculates: all of `formulas` but the list formulas left out. */
  toRecalculate: FormulaCell[];
  /** What the estimable ones ask the engine for. */
  requests: CellRequest[];
  unestimable: number;
  /** List formulas left out of `requests` (a selection refresh keeps them as cached). */
  listsLeftOut: number;
}

/** True when a formula mentions the namespace at all (a cheap filter before tokenizing). */
export function mentionsFirma(formula: unknown): formula is string {
  return typeof formula === "string" && formula.startsWith("=") && /\bFIRMA\./i.test(formula);
}

/** What a FIRMA formula is, with its arguments resolved to values when it can be estimated. */
export function readFormula(cell: FormulaCell, values: CellValues): FormulaKind {
  const a = analyzeFormula(cell.formula, NAMESPACE);
  if (a.kind !== "call") return { kind: "unestimable" };
  // Excel may give the formula with the English names (FIRMA.NAME) or the Romanian ones.
  const id = functionId(a.call.name);
  if (id === undefined) return { kind: "unestimable" };
  const args: unknown[] = [];
  for (const arg of a.call.args) {
    const r = resolveArg(arg, cell, values);
    if (!r.ok) return { kind: "unestimable" };
    args.push(r.value);
  }
  return { kind: "call", name: id, args };
}

/** Sheets the formulas refer to (other than their own), so the adapter can read their values. */
export function referencedSheets(cells: readonly FormulaCell[]): string[] {
  const out = new Map<string, string>();
  for (const cell of cells) {
    const a = analyzeFormula(cell.formula, NAMESPACE);
    if (a.kind !== "call") continue;
    for (const arg of a.call.args) {
      const sheet =
        arg.kind === "ref"
          ? arg.sheet
          : arg.kind === "unsupported" && arg.reason === "wholeColumnOrRow"
            ? wholeLines(arg.text)?.sheet
            : null;
      if (sheet && sheet.toLowerCase() !== cell.sheet.toLowerCase()) out.set(sheet.toLowerCase(), sheet);
    }
  }
  return [...out.values()];
}

/**
 * The requests of the formulas in scope. `includeLists: false` (a selection refresh) leaves list
 * functions out, neither estimated nor recalculated: their cached answers cannot be marked stale
 * one by one, so they stay as they are (and cost nothing).
 */
export function planRefresh(cells: readonly FormulaCell[], values: CellValues, options: { includeLists: boolean }): RefreshPlan {
  const requests: CellRequest[] = [];
  const toRecalculate: FormulaCell[] = [];
  let unestimable = 0;
  let listsLeftOut = 0;
  for (const cell of cells) {
    const f = readFormula(cell, values);
    if (f.kind === "unestimable") {
      unestimable++;
      toRecalculate.push(cell);
      continue;
    }
    if (!options.includeLists && LIST_FUNCTIONS.has(f.name)) {
      listsLeftOut++;
      continue;
    }
    requests.push(...cellRequests(f.name, f.args));
    toRecalculate.push(cell);
  }
  return { formulas: [...cells], toRecalculate, requests, unestimable, listsLeftOut };
}

/** Cells that are still being calculated show one of these. */
export function isBusyValue(v: unknown): boolean {
  return v === "#BUSY!" || v === "#GETTING_DATA";
}
