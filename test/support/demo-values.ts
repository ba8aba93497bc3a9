/**
 * What a refreshed demo workbook (test/fixtures/build-workbook.ts's demoSpec: CUIs in A, DENUMIRE,
 * STARE, JUDET, CA and PROFIT of 2024 in B to F) should show, by the sandbox's dataset.
 */
import { parseCui } from "../../src/api/cui";
import type { Workbook } from "../../src/shared/xlsx/workbook";
import * as data from "../../sandbox/dataset";
import type { BuildValue } from "../fixtures/build-workbook";

/** The demo workbook's FIRMA columns, B to F. */
export const DEMO_COLUMNS = ["DENUMIRE", "STARE", "JUDET", "CA", "PROFIT"];

/** What the dataset says a cell of the demo workbook should show: its value, or the Excel error. */
export function demoOracle(column: string, cuiCell: unknown): BuildValue {
  const p = parseCui(cuiCell);
  if (!p.ok) return { error: "#VALUE!" };
  const c = data.company(p.cui);
  if (!c) return { error: "#N/A" };
  const f = data.financialYear(p.cui, 2024);
  switch (column) {
    case "DENUMIRE":
      return c.denumire;
    case "STARE":
      return c.stare;
    case "JUDET":
      return c.judet;
    case "CA":
      return f ? f.cifra_afaceri : { error: "#N/A" };
    case "PROFIT":
      return f ? f.profit_net : { error: "#N/A" };
  }
  throw new Error(column);
}

/** Expects every FIRMA cell of sheet Firme, rows 2 to `lastRow`, to show what the dataset says (errors by their kind). */
export function expectDemoValues(refreshed: Workbook, input: Workbook, lastRow: number): void {
  for (let r = 2; r <= lastRow; r++) {
    const cui = input.getValue("Firme", `A${r}`);
    DEMO_COLUMNS.forEach((col, i) => {
      const addr = `${"BCDEF"[i]}${r}`;
      const want = demoOracle(col, cui);
      const got = refreshed.getValue("Firme", addr);
      if (typeof want === "object" && want !== null)
        expect([addr, (got as { error?: string })?.error]).toEqual([addr, (want as { error: string }).error]);
      else expect([addr, got]).toEqual([addr, want]);
    });
  }
}
