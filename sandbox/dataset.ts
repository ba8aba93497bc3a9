/**
 * The sandbox's dataset: about 1.42 million generated companies, each computed on demand from its
 * CUI (nothing is built at start). Same CUI, same data, on every run.
 */
import { latestYearAt } from "./clock";
import { financials as financialsUpTo, financialYear as financialYearUpTo, FinancialYear } from "./finance";

export { company, companyByJCode } from "./profile";
export type { Company } from "./profile";
export { FIRST_YEAR } from "./finance";
export type { FinancialYear } from "./finance";
export { EXAMPLE_CUI, missingCuis, sampleCuis, STARI } from "./space";
export { COUNTIES } from "./romania";

/** The latest complete financial year today (O19); the server's `latestYear` setting may differ. */
export const LATEST_YEAR = latestYearAt(Date.now());

/** Every financial year of a company, latest first (empty for an unknown CUI). */
export function financials(cui: number, latest = LATEST_YEAR): FinancialYear[] {
  return financialsUpTo(cui, latest);
}

/** One financial year of a company, or null. */
export function financialYear(cui: number, year: number, latest = LATEST_YEAR): FinancialYear | null {
  return financialYearUpTo(cui, year, latest);
}
