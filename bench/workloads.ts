/**
 * The benchmark's sheets (W1–W6), the answer each cell should show, and the fewest calls
 * the service's documented limits allow for a sheet.
 */
import { prng } from "../test/fixtures/build-workbook";
import { parseCui } from "../src/api/cui";
import { MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION } from "../src/api/client";
import * as data from "../sandbox/dataset";

/** One cell: FIRMA.<fn>(args…). args[0] is the CUI as the cell holds it, args[1] the year for financial functions. */
export interface Cell {
  fn: string;
  args: unknown[];
}

export interface Sheet {
  id: string;
  title: string;
  cells: Cell[];
}

export const PROFILE_FIELD: Readonly<Record<string, keyof data.Company>> = {
  DENUMIRE: "denumire",
  STARE: "stare",
  JUDET: "judet",
  LOCALITATE: "localitate",
  CAEN: "caen_principal",
};
export const FINANCIAL_FIELD: Readonly<Record<string, keyof data.FinancialYear>> = {
  CA: "cifra_afaceri",
  PROFIT: "profit_net",
  ACTIVE: "active_totale",
  DATORII: "datorii_totale",
  ANGAJATI: "numar_angajati",
};

export const LATEST = data.LATEST_YEAR;

/** W1: 1,000 distinct CUIs × DENUMIRE. */
export function w1(): Sheet {
  return {
    id: "W1",
    title: "1,000 distinct CUIs × DENUMIRE",
    cells: data.sampleCuis(1000, 100_000).map((c) => ({ fn: "DENUMIRE", args: [c] })),
  };
}

/** W2: 200 CUIs × CA for the 5 latest years. */
export function w2(): Sheet {
  const cuis = data.sampleCuis(200, 110_000);
  const years = [0, 1, 2, 3, 4].map((i) => LATEST - i);
  return {
    id: "W2",
    title: "200 CUIs × CA × 5 years (1,000 cells)",
    cells: cuis.flatMap((c) => years.map((y) => ({ fn: "CA", args: [c, y] }))),
  };
}

export const W3_COLUMNS = ["DENUMIRE", "STARE", "JUDET", "CAEN", "CA", "PROFIT", "ANGAJATI"] as const;

/** Invalid CUIs as users type them: wrong control digit, too long, text, zero, negative, fractional. */
function invalidCui(i: number, valid: number): unknown {
  const kinds = [
    () => valid + (valid % 10 === 9 ? -1 : 1), // wrong control digit
    () => `RO${valid + (valid % 10 === 9 ? -1 : 1)}`,
    () => "12345678901",
    () => "n/a",
    () => 0,
    () => -valid,
    () => valid + 0.5,
    () => "RO 1234 5678 99",
  ];
  return kinds[i % kinds.length]();
}

/**
 * W3: a portfolio of 2,000 rows × DENUMIRE, STARE, JUDET, CAEN, CA, PROFIT, ANGAJATI for one year;
 * 10 % of the rows repeat an earlier row's company (some spelled "RO…"), 2 % hold an invalid CUI.
 */
export function w3(rows = 2000): Sheet {
  const random = prng(3);
  const duplicates = Math.round(rows * 0.1);
  const invalid = Math.round(rows * 0.02);
  const distinct = data.sampleCuis(rows - duplicates - invalid, 120_000);
  const column: unknown[] = distinct.map((c, i) => (i % 10 === 3 ? `RO${c}` : c));
  for (let i = 0; i < duplicates; i++) {
    const c = distinct[Math.floor(random() * distinct.length)];
    column.push(i % 3 === 0 ? `RO${c}` : i % 3 === 1 ? ` ${c} ` : c);
  }
  for (let i = 0; i < invalid; i++) column.push(invalidCui(i, distinct[i]));
  for (let i = column.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [column[i], column[j]] = [column[j], column[i]];
  }
  const cells = column.flatMap((cui) => W3_COLUMNS.map((fn): Cell => ({ fn, args: fn in FINANCIAL_FIELD ? [cui, LATEST] : [cui] })));
  return { id: "W3", title: `portfolio: ${rows.toLocaleString("en")} rows × 7 functions, 10 % duplicate and 2 % invalid CUIs`, cells };
}

/** W5: 10,000 distinct CUIs × DENUMIRE. */
export function w5(): Sheet {
  return {
    id: "W5",
    title: "10,000 distinct CUIs × DENUMIRE",
    cells: data.sampleCuis(10_000, 200_000).map((c) => ({ fn: "DENUMIRE", args: [c] })),
  };
}

export const W6_COLUMNS = ["DENUMIRE", "STARE", "JUDET", "LOCALITATE", "CAEN", "CA", "PROFIT", "ACTIVE", "DATORII", "ANGAJATI"] as const;

/** W6: 10,000 rows × 10 functions = 100,000 cells (their answers fill the cache's 20,000 entries exactly). */
export function w6(): Sheet {
  const cuis = data.sampleCuis(10_000, 300_000);
  return {
    id: "W6",
    title: "100,000 cached cells (10,000 rows × 10 functions), recalculated",
    cells: cuis.flatMap((c) => W6_COLUMNS.map((fn): Cell => ({ fn, args: fn in FINANCIAL_FIELD ? [c, LATEST] : [c] }))),
  };
}

// ---- what a cell should show ------------------------------------------------------------------

export type Expected = { value: unknown } | { error: "#VALUE!" | "#N/A" };

export function expected(cell: Cell): Expected {
  const p = parseCui(cell.args[0]);
  if (!p.ok) return { error: "#VALUE!" };
  if (cell.fn in PROFILE_FIELD) {
    const c = data.company(p.cui);
    return c ? { value: c[PROFILE_FIELD[cell.fn]] ?? "" } : { error: "#N/A" };
  }
  const year = (cell.args[1] as number | undefined) ?? LATEST;
  const f = data.financialYear(p.cui, year);
  return f ? { value: f[FINANCIAL_FIELD[cell.fn]] ?? "" } : { error: "#N/A" };
}

/** What a strategy's cell returned, reduced to a value or an error code. */
export type Shown = { value: unknown } | { error: string };

export interface Tally {
  /** The expected value, or the expected error (invalid CUI, not found). */
  ok: number;
  /** Another value than the dataset's: another company's value, or garbage. */
  wrong: number;
  /** An error where a value was due, or the wrong error. */
  failed: number;
  /** What the failed cells said, by error code or message, with counts. */
  failures: Record<string, number>;
}

export function tally(cells: readonly Cell[], shown: readonly Shown[]): Tally {
  const t: Tally = { ok: 0, wrong: 0, failed: 0, failures: {} };
  cells.forEach((cell, i) => {
    const want = expected(cell);
    const got = shown[i];
    if ("value" in got && "value" in want) {
      if (got.value === want.value) t.ok++;
      else t.wrong++;
    } else if ("error" in got && "error" in want && got.error === want.error) {
      t.ok++;
    } else if ("value" in got) {
      t.wrong++;
    } else {
      t.failed++;
      t.failures[got.error] = (t.failures[got.error] ?? 0) + 1;
    }
  });
  return t;
}

// ---- the fewest calls the service allows ------------------------------------------------------

export interface Minimum {
  calls: number;
  /** How it was computed, e.g. "⌈1000/100⌉". */
  formula: string;
}

/**
 * The fewest calls that can answer a sheet, from the spec's limits: each call costs 1 credit whatever
 * it carries; batch identification carries at most 100 CUIs, batch financial at most 50 (for one year
 * or a range of years). So identification needs ⌈P/100⌉ calls for P distinct valid CUIs with a profile
 * cell, and financial data ⌈F/50⌉ for F distinct valid CUIs with a financial cell (a range call covers
 * all their years). Invalid CUIs need no call. This assumes batch items can carry every field the
 * sheet shows (`include`, O10; full financial items, O17), which the sandbox does.
 */
export function apiMinimum(cells: readonly Cell[]): Minimum {
  const profile = new Set<number>();
  const financial = new Set<number>();
  for (const c of cells) {
    const p = parseCui(c.args[0]);
    if (!p.ok) continue;
    (c.fn in FINANCIAL_FIELD ? financial : profile).add(p.cui);
  }
  const parts: string[] = [];
  let calls = 0;
  if (profile.size > 0) {
    calls += Math.ceil(profile.size / MAX_BATCH_IDENTIFICATION);
    parts.push(`⌈${profile.size}/${MAX_BATCH_IDENTIFICATION}⌉`);
  }
  if (financial.size > 0) {
    calls += Math.ceil(financial.size / MAX_BATCH_FINANCIAL);
    parts.push(`⌈${financial.size}/${MAX_BATCH_FINANCIAL}⌉`);
  }
  return { calls, formula: parts.length > 0 ? parts.join(" + ") : "0" };
}

/** The time the fewest calls need at least: waves of `concurrency` calls, each waiting `latencyMs`. */
export function latencyBound(calls: number, concurrency: number, latencyMs: number): number {
  return Math.ceil(calls / concurrency) * latencyMs;
}
