/**
 * Which of the cells a refresh asked Excel to calculate did Excel run? Pure: the pane hands it the
 * cells, the values their references point at, and the invocations the functions recorded
 * (src/shared/invocations.ts); it answers with the cells still without evidence.
 *
 * A cell whose FIRMA call could be read (refresh-plan.ts readFormula) is matched by function and
 * arguments, one invocation per cell; a formula that nests its call or computes its arguments is
 * matched by function name only, once the invocations of that name cover every cell that has it.
 */
import { functionId } from "../shared/function-ids";
import { invocationKey, type InvocationWatch } from "../shared/invocations";
import { readFormula, type CellValues, type FormulaCell } from "./refresh-plan";

export interface RerunEvidence {
  /** Cells matched by their call: key → the cells with that key. */
  byKey: Map<string, FormulaCell[]>;
  /** Cells matched by name: function id ("?" when none is found) → the cells. */
  byName: Map<string, FormulaCell[]>;
  /** How many cells of each function id there are in all (keyed or not). */
  perName: Map<string, number>;
  cells: number;
}

const FIRST_CALL = /\bFIRMA\.([\p{L}_][\p{L}\p{N}_.]*)\s*\(/iu;

export function expectRuns(cells: readonly FormulaCell[], values: CellValues): RerunEvidence {
  const out: RerunEvidence = { byKey: new Map(), byName: new Map(), perName: new Map(), cells: cells.length };
  const push = <K>(m: Map<K, FormulaCell[]>, k: K, c: FormulaCell) => (m.get(k) ?? m.set(k, []).get(k)!).push(c);
  for (const c of cells) {
    const f = readFormula(c, values);
    let name: string;
    if (f.kind === "call") {
      name = f.name;
      push(out.byKey, invocationKey(f.name, f.args), c);
    } else {
      const m = FIRST_CALL.exec(c.formula);
      name = (m && functionId(m[1])) ?? "?";
      push(out.byName, name, c);
    }
    out.perName.set(name, (out.perName.get(name) ?? 0) + 1);
  }
  return out;
}

/** The cells Excel has not (yet) been seen to run. */
export function notRun(e: RerunEvidence, watch: InvocationWatch): FormulaCell[] {
  const left: FormulaCell[] = [];
  for (const [key, cells] of e.byKey) {
    const seen = watch.byKey.get(key) ?? 0;
    if (seen < cells.length) left.push(...cells.slice(seen));
  }
  for (const [name, cells] of e.byName) {
    if ((watch.byName.get(name) ?? 0) < (e.perName.get(name) ?? 0)) left.push(...cells);
  }
  return left;
}
