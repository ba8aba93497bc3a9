/**
 * Annual financial figures, generated in closed form for any (company, year): a company has a size
 * class, a scale, a growth rate, a margin and a few ratios; each year adds the economy's nominal
 * index, a ramp-up in the first years and its own noise. Money in whole lei (O25).
 */
import { withControlDigit } from "../src/api/cui";
import { hash, rng } from "./random";
import { existingBase, foundingYear, SALT, sizeClass, stareOf } from "./space";

const { max, min, round } = Math; // module constants: fast under Jest (see random.ts)

/** The dataset holds no financial year before this one. */
export const FIRST_YEAR = 2010;

export interface FinancialYear {
  cui: number;
  an: number;
  cifra_afaceri: number;
  profit_net: number;
  active_totale: number;
  datorii_totale: number;
  numar_angajati: number;
}

/** Nominal index of the economy, 2016 = 1 (prices and growth); years after the table grow 5% a year. */
// prettier-ignore
const ECONOMY: Record<number, number> = {
  2010: 0.74, 2011: 0.79, 2012: 0.82, 2013: 0.87, 2014: 0.91, 2015: 0.95, 2016: 1.0, 2017: 1.08,
  2018: 1.17, 2019: 1.27, 2020: 1.22, 2021: 1.4, 2022: 1.63, 2023: 1.83, 2024: 1.97, 2025: 2.08,
};
const LAST_INDEXED = 2025;

function economy(year: number): number {
  return ECONOMY[year] ?? ECONOMY[LAST_INDEXED] * 1.05 ** (year - LAST_INDEXED);
}

/** Revenue range at maturity, 2016 lei, per size class (micro, small, medium, large). */
const REVENUE_SCALE: ReadonlyArray<readonly [number, number]> = [
  [15_000, 800_000],
  [800_000, 8_000_000],
  [8_000_000, 50_000_000],
  [50_000_000, 2_500_000_000],
];

interface Traits {
  founded: number;
  micro: boolean;
  dormant: boolean;
  scale: number;
  growth: number;
  margin: number;
  revenuePerEmployee: number;
  assetRatio: number;
  debtRatio: number;
}

function traits(base: number): Traits {
  const r = rng(hash(base, SALT.finance));
  const size = sizeClass(base);
  const [lo, hi] = REVENUE_SCALE[size];
  return {
    founded: foundingYear(base),
    micro: size === 0,
    dormant: size === 0 && r() < 0.05,
    scale: lo * (hi / lo) ** r(),
    growth: -0.06 + 0.18 * r(),
    margin: -0.04 + 0.18 * r(),
    revenuePerEmployee: 90_000 + 310_000 * r(),
    assetRatio: 0.25 + 1.2 * r(),
    debtRatio: 0.15 + 0.95 * r(),
  };
}

/** Which years a company filed: from its founding (not before FIRST_YEAR), one gap for a few. */
export interface Filing {
  first: number;
  /** Last year filed by a closed or inactive company; open-ended (9999) for the others. */
  lastFiled: number;
  /** A year left out (0 for none). */
  missing: number;
}

export function filing(base: number): Filing {
  const h = hash(base, SALT.filing);
  const founded = foundingYear(base);
  const stare = stareOf(base);
  const closed = stare === "RADIATA" || stare === "DIZOLVATA" || stare === "INACTIVA";
  const first = max(FIRST_YEAR, founded);
  return {
    first,
    lastFiled: closed ? max(founded, min(2024, founded + 1 + (h % 14))) : 9999,
    missing: (h >>> 4) % 40 === 0 ? first + 1 + ((h >>> 10) % 5) : 0,
  };
}

export function hasRecord(f: Filing, year: number, latest: number): boolean {
  return year >= f.first && year <= min(f.lastFiled, latest) && year !== f.missing;
}

function figures(base: number, cui: number, t: Traits, year: number): FinancialYear {
  const n = rng(hash(base, SALT.year + year * 131));
  const age = year - t.founded;
  const ramp = age <= 0 ? 0.35 : age === 1 ? 0.7 : 1;
  const revenue = t.dormant ? 0 : round(t.scale * economy(year) * (1 + t.growth) ** (year - 2016) * ramp * (0.85 + 0.3 * n()));
  const profit = t.dormant ? -round(500 + 4000 * n()) : round(revenue * (t.margin + (n() - 0.55) * 0.12));
  const employees = round(revenue / t.revenuePerEmployee);
  const assets = round(max(revenue, 20_000) * t.assetRatio * (0.9 + 0.2 * n()));
  return {
    cui,
    an: year,
    cifra_afaceri: revenue,
    profit_net: profit,
    active_totale: assets,
    datorii_totale: round(assets * t.debtRatio * (0.85 + 0.3 * n())),
    numar_angajati: t.micro ? min(9, employees) : employees,
  };
}

/** The figures of one year for an existing base, or null when the company has none for it. */
export function yearOf(base: number, year: number, latest: number, cui = withControlDigit(base)): FinancialYear | null {
  return hasRecord(filing(base), year, latest) ? figures(base, cui, traits(base), year) : null;
}

/** The figures of one year, or null (unknown company, or no filing that year). */
export function financialYear(cui: number, year: number, latest: number): FinancialYear | null {
  const base = existingBase(cui);
  return base === null ? null : yearOf(base, year, latest, cui);
}

/** Every year filed up to `latest`, latest first; empty for an unknown company. */
export function financials(cui: number, latest: number): FinancialYear[] {
  const base = existingBase(cui);
  if (base === null) return [];
  const f = filing(base);
  const t = traits(base);
  const out: FinancialYear[] = [];
  for (let year = latest; year >= f.first; year--) if (hasRecord(f, year, latest)) out.push(figures(base, cui, t, year));
  return out;
}
