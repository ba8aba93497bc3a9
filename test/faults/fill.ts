/** Helpers of the fault tests (not a test file): a fill of cells through evaluate(), and what each cell should show. */
import { FirmaEngine } from "../../src/engine/engine";
import { Cell, isCellError } from "../../src/shared/cells";
import { evaluate } from "../../src/shared/evaluate";
import type { Sandbox } from "../../sandbox/server";
import * as data from "../../sandbox/dataset";

export interface FillCell {
  fn: "DENUMIRE" | "CA";
  cui: number;
  year?: number;
}

/** n companies × DENUMIRE and CA for the latest year: 2n cells, n distinct CUIs. */
export function sheet(n: number, offset: number): FillCell[] {
  return data.sampleCuis(n, offset).flatMap((cui): FillCell[] => [
    { fn: "DENUMIRE", cui },
    { fn: "CA", cui, year: data.LATEST_YEAR },
  ]);
}

/** Fewest calls for such a sheet (spec limits): ⌈n/100⌉ identification + ⌈n/50⌉ financial. */
export function minimumCalls(cells: readonly FillCell[]): number {
  const p = new Set(cells.filter((c) => c.fn === "DENUMIRE").map((c) => c.cui)).size;
  const f = new Set(cells.filter((c) => c.fn === "CA").map((c) => c.cui)).size;
  return Math.ceil(p / 100) + Math.ceil(f / 50);
}

/** The dataset's value for a cell, or null when the service has none (the cell then says "not found"). */
export function datasetValue(c: FillCell): unknown {
  if (c.fn === "DENUMIRE") return data.company(c.cui)?.denumire ?? null;
  return data.financialYear(c.cui, c.year ?? data.LATEST_YEAR)?.cifra_afaceri ?? null;
}

export interface Filled {
  shown: Cell[];
  /** Per cell: ms from its invocation until it settled. */
  settleMs: number[];
}

/** Invokes every cell at once, each as its own invocation (one CUI, as a 1×1 range), as Excel does. */
export async function fill(engine: FirmaEngine, cells: readonly FillCell[]): Promise<Filled> {
  const settleMs: number[] = new Array(cells.length);
  const shown = await Promise.all(
    cells.map(async (c, i) => {
      const t0 = performance.now();
      const m = await evaluate(c.fn, c.fn === "CA" ? [[[c.cui]], c.year ?? null] : [[[c.cui]]], { engine, lang: "en" });
      settleMs[i] = performance.now() - t0;
      return m[0][0];
    }),
  );
  return { shown, settleMs };
}

export interface Verdict {
  right: number;
  notFound: number;
  /** Cells that show another value than the dataset's for their own CUI. */
  wrong: number;
  /** Error cells other than "not found", by message. */
  errors: Record<string, number>;
}

const NOT_FOUND = /not found|No financial data/;

export function verdict(cells: readonly FillCell[], shown: readonly Cell[]): Verdict {
  const v: Verdict = { right: 0, notFound: 0, wrong: 0, errors: {} };
  cells.forEach((c, i) => {
    const s = shown[i];
    const want = datasetValue(c);
    if (isCellError(s)) {
      if (NOT_FOUND.test(s.message)) v.notFound++;
      else v.errors[`${s.error} ${s.message}`] = (v.errors[`${s.error} ${s.message}`] ?? 0) + 1;
    } else if (s === want) {
      v.right++;
    } else {
      v.wrong++;
    }
  });
  return v;
}

/** Waits until the sandbox has seen no new call of this key for `quietMs` (calls a fill left running). */
export async function drained(sb: Sandbox, key: string, quietMs: number): Promise<void> {
  let last = -1;
  for (;;) {
    const n = sb.requests.filter((r) => r.key === key).length;
    if (n === last) return;
    last = n;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

/** A Markdown table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}
