/**
 * Credit-minimal planning: which calls answer a set of wants with the fewest credits.
 * Pure functions, shared by the engine's fetches and by the cost estimates (pane, CLI --dry-run).
 */
import { chunk } from "../../api/chunk";
import { MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION } from "../../api/client";

/** The years a financial batch asks for: one, or a range (the client's `an` / `anDeLa`–`anPana`). */
export type YearSpec = { year: number } | { from: number; to: number };

export interface FinancialBatchCall {
  cuis: number[];
  years: YearSpec;
}

/** Years a call covers. */
export function yearsOf(spec: YearSpec): number[] {
  if ("year" in spec) return [spec.year];
  const out: number[] = [];
  for (let y = spec.to; y >= spec.from; y--) out.push(y);
  return out;
}

/**
 * Batch financial calls for `wants` (CUI → years wanted). Three candidate plans, the cheapest wins
 * (ties go to the one that moves the least data):
 *  - per year: one set of batches per distinct year;
 *  - one range: every CUI in batches over the whole span of years;
 *  - mixed: CUIs wanting several years in range batches, the rest per year, single-year CUIs
 *    filling the spare places of the range batches when their year is inside the range.
 */
export function planFinancialBatches(wants: ReadonlyMap<number, ReadonlySet<number>>, max = MAX_BATCH_FINANCIAL): FinancialBatchCall[] {
  if (wants.size === 0) return [];
  const perYear = (entries: [number, ReadonlySet<number>][]): FinancialBatchCall[] => {
    const byYear = new Map<number, number[]>();
    for (const [cui, years] of entries) for (const y of years) (byYear.get(y) ?? byYear.set(y, []).get(y)!).push(cui);
    return [...byYear.entries()]
      .sort((a, b) => b[0] - a[0])
      .flatMap(([year, cuis]) => chunk(cuis, max).map((c) => ({ cuis: c, years: { year } })));
  };
  const span = (entries: [number, ReadonlySet<number>][]): { from: number; to: number } => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const [, ys] of entries) for (const y of ys) ((lo = Math.min(lo, y)), (hi = Math.max(hi, y)));
    return { from: lo, to: hi };
  };
  const all = [...wants.entries()];
  const candidates: FinancialBatchCall[][] = [perYear(all)];
  const whole = span(all);
  if (whole.from !== whole.to) {
    candidates.push(
      chunk(
        all.map(([c]) => c),
        max,
      ).map((cuis) => ({ cuis, years: whole })),
    );
    const multi = all.filter(([, ys]) => ys.size > 1);
    const single = all.filter(([, ys]) => ys.size === 1);
    if (multi.length > 0 && single.length > 0) {
      const r = span(multi);
      const rangeCuis = multi.map(([c]) => c);
      const spare = (max - (rangeCuis.length % max)) % max;
      const inside = single.filter(([, ys]) => {
        const y = ys.values().next().value as number;
        return y >= r.from && y <= r.to;
      });
      const riders = inside.slice(0, spare);
      const riderSet = new Set(riders.map(([c]) => c));
      candidates.push([
        ...chunk([...rangeCuis, ...riders.map(([c]) => c)], max).map((cuis) => ({ cuis, years: r })),
        ...perYear(single.filter(([c]) => !riderSet.has(c))),
      ]);
    }
  }
  const weight = (p: FinancialBatchCall[]) => p.reduce((s, c) => s + c.cuis.length * yearsOf(c.years).length, 0);
  candidates.sort((a, b) => a.length - b.length || weight(a) - weight(b));
  return candidates[0];
}

export type IdentificationCall = { kind: "batch"; cuis: number[]; include: boolean } | { kind: "single"; cui: number };

/**
 * Calls for identification wants: `basic` CUIs need only what every batch item carries (name, status),
 * `extra` CUIs need more profile fields. `includeWorks`: whether batch items carry the other fields
 * when asked with `include` (O10); unknown is planned as if it does (the engine probes first).
 */
export function planIdentification(
  basic: readonly number[],
  extra: readonly number[],
  includeWorks: boolean | undefined,
  max = MAX_BATCH_IDENTIFICATION,
): IdentificationCall[] {
  if (includeWorks === false) {
    return [
      ...chunk(basic, max).map((cuis): IdentificationCall => ({ kind: "batch", cuis, include: false })),
      ...extra.map((cui): IdentificationCall => ({ kind: "single", cui })),
    ];
  }
  const include = extra.length > 0;
  return chunk([...extra, ...basic], max).map((cuis) => ({ kind: "batch", cuis, include }));
}

/** How many calls planIdentification() plans for that many `basic` and `extra` CUIs: counted, not planned. */
export function identificationCallCount(
  basic: number,
  extra: number,
  includeWorks: boolean | undefined,
  max = MAX_BATCH_IDENTIFICATION,
): number {
  return includeWorks === false ? Math.ceil(basic / max) + extra : Math.ceil((basic + extra) / max);
}
