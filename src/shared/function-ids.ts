/**
 * Every function's id and its names, Romanian and English, and the id behind a name as a formula spells
 * it (`functionId`): the part of the functions' table the startup scripts need (the pane reads FIRMA
 * formulas with it: refresh-plan.ts, rerun.ts). The descriptions and the parameters' texts, which only the
 * pane's Help and the build read, are in function-names.ts, which takes its names from here: each text has
 * one home.
 *
 * Rules (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-naming):
 * - the `id` (the key, the @customfunction id) is never localized and never changes;
 * - a `name` starts with a letter, has at least 3 characters: letters, digits, "_" and ".", uppercase
 *   like Excel's own functions, and is not the name of a built-in Excel function in any language;
 *   names are unique within a language (the namespace FIRMA is prefixed). The Romanian CA predates
 *   this table and is kept (2 characters: workbooks already use it); its English name is TURNOVER.
 *
 * This file must stay self-contained (no imports but type-only ones, which transpiling erases): the
 * build loads it, with function-names.ts, outside webpack (scripts/localize-functions.js).
 */

export interface Texts {
  ro: string;
  en: string;
}

const NAMES = {
  ACTUALIZAT: { ro: "ACTUALIZAT", en: "UPDATED" },
  DENUMIRE: { ro: "DENUMIRE", en: "NAME" },
  STARE: { ro: "STARE", en: "STATUS" },
  JUDET: { ro: "JUDET", en: "COUNTY" },
  LOCALITATE: { ro: "LOCALITATE", en: "LOCALITY" },
  // Not ADDRESS: that is a built-in Excel function (see CAUTA).
  ADRESA: { ro: "ADRESA", en: "REGISTERED_ADDRESS" },
  CAEN: { ro: "CAEN", en: "CAEN" },
  TVA: { ro: "TVA", en: "VAT" },
  NRREG: { ro: "NRREG", en: "REGNO" },
  // CA is the short name of CIFRA_AFACERI (two ids, one figure). English: REVENUE for CIFRA_AFACERI and
  // TURNOVER (the British word for the same figure) for CA, so each id keeps its own, distinct name.
  CA: { ro: "CA", en: "TURNOVER" },
  CIFRA_AFACERI: { ro: "CIFRA_AFACERI", en: "REVENUE" },
  PROFIT: { ro: "PROFIT", en: "PROFIT" },
  ACTIVE: { ro: "ACTIVE", en: "ASSETS" },
  DATORII: { ro: "DATORII", en: "LIABILITIES" },
  ANGAJATI: { ro: "ANGAJATI", en: "EMPLOYEES" },
  PROFIL: { ro: "PROFIL", en: "PROFILE" },
  CAMP: { ro: "CAMP", en: "FIELD" },
  FISA: { ro: "FISA", en: "COMPANY_CARD" },
  FINANCIAR: { ro: "FINANCIAR", en: "FINANCIALS" },
  ISTORIC: { ro: "ISTORIC", en: "HISTORY" },
  // Not SEARCH: the naming page says to avoid names of built-in Excel functions, in any language.
  CAUTA: { ro: "CAUTA", en: "SEARCH_COMPANIES" },
  CUI: { ro: "CUI", en: "TAXID" },
  TOPURI: { ro: "TOPURI", en: "RANKINGS" },
  TOP: { ro: "TOP", en: "TOP" },
  // Excel's load service for linked companies (the "Firmă" data type), not a formula function: Excel
  // calls it with a request naming many companies (src/shared/linked-company.ts).
  INCARCA_FIRME: { ro: "INCARCA_FIRME", en: "LOAD_COMPANIES" },
  JUDETE: { ro: "JUDETE", en: "COUNTIES" },
} satisfies Record<string, Texts>;

/** A function's id (the @customfunction id): never localized, never changed. */
export type FunctionId = keyof typeof NAMES;

/** Each function's name in each language, by id (function-names.ts's FUNCTION_TEXTS has the same ids, in this order). */
export const FUNCTION_NAMES: Readonly<Record<FunctionId, Texts>> = NAMES;

/**
 * The functions Excel calls itself, not formulas: the linked entity load service ("They don't appear to end
 * users for usage in formulas": excel-data-types-linked-entity-cell-values). In the metadata and the help
 * pages; not in the formula table (function-table.ts), the pane's Help or the formula names read here.
 */
export const LOAD_SERVICES: readonly string[] = ["INCARCA_FIRME"];

const BY_NAME: ReadonlyMap<string, string> = new Map(
  Object.entries(FUNCTION_NAMES).flatMap(([id, name]): [string, string][] =>
    LOAD_SERVICES.includes(id)
      ? []
      : [
          [id, id],
          [name.ro.toUpperCase(), id],
          [name.en.toUpperCase(), id],
        ],
  ),
);

/**
 * The function id behind a name as a formula may spell it: the id, the Romanian or the English
 * name, any case (an English Excel may hand the pane `=FIRMA.NAME(A2)`, a Romanian one
 * `=FIRMA.DENUMIRE(A2)`). Undefined for a name that is not FIRMA's.
 */
export function functionId(name: string): string | undefined {
  return BY_NAME.get(name.toUpperCase());
}
