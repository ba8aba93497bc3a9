/**
 * Evaluating a FIRMA function without Office: the add-in's functions.ts wraps evaluateNow for Excel,
 * and the CLI (`firma refresh`) evaluates workbooks with evaluate. Per-CUI functions take one CUI or a
 * range and answer in the same shape, an error only in the cells that need one.
 *
 * The parts, one idea each: the function table (function-table.ts) over the field tables (fields.ts),
 * per-CUI evaluation (per-cui.ts), the company card (company-card.ts) and the list functions
 * (list-functions.ts); argument coercion (coercion.ts); what a call would ask for, for the estimate
 * (estimate-requests.ts). They stay importable from here.
 */
import { inputErrorCell, Matrix } from "./cells";
import type { EvalContext } from "./eval-context";
import { firstErrorInput, UnreadableInput } from "./excel-values";
import { FUNCTIONS } from "./function-table";
import { LIST_FUNCTIONS } from "./list-functions";

export type { EvalContext } from "./eval-context";
export { asMatrix } from "./coercion";
export { cellRequests } from "./estimate-requests";
export { FINANCIAL_FUNCTIONS, PROFILE_FUNCTIONS } from "./fields";
export { excelDate, FUNCTIONS } from "./function-table";
export { headers } from "./headers";
export { LIST_FUNCTIONS } from "./list-functions";

const OWN = Object.prototype.hasOwnProperty;

/** Evaluates FIRMA.<name>(args…). Unknown names give #NAME?. */
export async function evaluate(name: string, args: unknown[], ctx: EvalContext): Promise<Matrix> {
  return evaluateNow(name, args, ctx);
}

/** evaluate(), but a result the cache answered in full comes back at once, without a promise. */
export function evaluateNow(name: string, args: unknown[], ctx: EvalContext): Matrix | Promise<Matrix> {
  // Excel's functions give their names in capitals already: no new string per cell for them. Own
  // properties only: "toString" is no function of FIRMA's.
  let n = name;
  let impl = OWN.call(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!impl) {
    n = name.toUpperCase();
    impl = OWN.call(FUNCTIONS, n) ? FUNCTIONS[n] : undefined;
  }
  if (!impl) return [[{ error: "#NAME?", message: `FIRMA.${name}?` }]];
  // An error in an argument other than the CUI (a year, a field name…) is the whole answer, as Excel
  // gives for a function that takes no errors; a CUI's error stays in its own cell (perCui).
  for (let i = LIST_FUNCTIONS.has(n) ? 0 : 1; i < args.length; i++) {
    const a = args[i];
    if (a === null || typeof a !== "object") continue;
    const err = firstErrorInput([a]);
    if (err) return [[inputErrorCell(err.code, ctx.lang, false)]];
    if (a instanceof UnreadableInput) args = shownAt(args, i, a.shown); // named in the argument's own message
  }
  return impl(args, ctx);
}

/** The arguments with the one at `i` replaced (no closure in evaluateNow: it runs for every cell). */
function shownAt(args: unknown[], i: number, shown: string): unknown[] {
  const copy = args.slice();
  copy[i] = shown;
  return copy;
}
