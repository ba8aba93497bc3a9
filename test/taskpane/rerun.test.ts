/**
 * The refresh's evidence that Excel ran its cells (src/taskpane/rerun.ts, src/shared/invocations.ts):
 * a cell is matched by function and arguments as the functions receive them, one invocation each; a
 * formula whose call cannot be read is matched by its function's name once those cover every cell.
 */
import { closeWatch, invocationKey, openWatch, recordInvocation } from "../../src/shared/invocations";
import { expectRuns, notRun } from "../../src/taskpane/rerun";
import type { CellValues, FormulaCell } from "../../src/taskpane/refresh-plan";

const values: CellValues = {
  hasSheet: () => true,
  valueAt: (_s, r, c) => (c === 1 ? 14399840 + r : ""),
};
const cell = (formula: string, row: number, col = 2): FormulaCell => ({ sheet: "Foaie1", row, col, formula, value: "x", error: false });

describe("which cells Excel ran", () => {
  test("the key is the same for what the pane reads and what Excel passes: a lone value or a 1×1 range, omitted trailing arguments, empty cells", () => {
    expect(invocationKey("CA", [14399842])).toBe(invocationKey("CA", [[[14399842]], null]));
    expect(invocationKey("DENUMIRE", [[[1], [""]]])).toBe(invocationKey("DENUMIRE", [[[1], [null]]]));
    expect(invocationKey("CA", [1, 2024])).not.toBe(invocationKey("CA", [1, 2023]));
    expect(invocationKey("ca", [1])).toBe(invocationKey("CA", [1]));
  });

  test("each cell needs its own run; duplicates need one each; nothing is recorded while no watch is open", () => {
    const cells = [
      cell("=FIRMA.DENUMIRE(A2)", 2),
      cell("=FIRMA.DENUMIRE(A3)", 3),
      cell("=FIRMA.DENUMIRE(A3)", 4),
      cell("=FIRMA.CA(A2, 2024)", 5),
    ];
    const e = expectRuns(cells, values);
    recordInvocation("DENUMIRE", [[[14399842]]]); // before the watch: not counted
    const w = openWatch();
    expect(notRun(e, w)).toEqual(cells);
    recordInvocation("DENUMIRE", [[[14399842]]]);
    recordInvocation("DENUMIRE", [[[14399843]]]);
    recordInvocation("CA", [[[14399842]], 2024]);
    expect(notRun(e, w)).toEqual([cells[2]]); // A3's second cell has not run
    recordInvocation("DENUMIRE", [[[14399843]]]);
    expect(notRun(e, w)).toEqual([]);
    closeWatch(w);
    recordInvocation("DENUMIRE", [[[14399842]]]);
    expect(w.total).toBe(4);
  });

  test("a nested call is matched by name (English names too), and only once every cell of that name has run", () => {
    const cells = [cell('=IFERROR(FIRMA.DENUMIRE(TRIM(A2)),"-")', 2), cell('=FIRMA.NAME(A3)&""', 3), cell("=FIRMA.DENUMIRE(A4)", 4)];
    const e = expectRuns(cells, values);
    const w = openWatch();
    recordInvocation("DENUMIRE", [[[14399844]]]);
    recordInvocation("DENUMIRE", [[["x"]]]);
    expect(notRun(e, w)).toEqual([cells[0], cells[1]]); // 2 runs of DENUMIRE for 3 cells
    recordInvocation("DENUMIRE", [[["y"]]]);
    expect(notRun(e, w)).toEqual([]);
    closeWatch(w);
  });
});
