/**
 * The one source of the functions' display texts, Romanian and English: names, descriptions,
 * parameter names and parameter descriptions. The build (scripts/localize-functions.js, run by
 * webpack.config.js) takes the metadata CustomFunctionsMetadataPlugin generates from the JSDoc of
 * functions.ts (ids, parameter types, dimensionality, optional, options) and writes from it
 *
 *   dist/functions.json      Romanian (the manifest's default, DefaultLocale ro-RO)
 *   dist/functions-en.json   English  (bt:Override Locale="en-US" / "en-GB" of the JSON.Url resource)
 *
 * so both files have the same ids and parameters and differ only in these texts. The build fails when
 * a function or a parameter of functions.ts is missing here (or is here but not there), and when the
 * JSDoc of functions.ts carries a description: these texts have no second copy there to drift.
 *
 * Rules (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-naming):
 * - the `id` (the key, the @customfunction id) is never localized and never changes;
 * - a `name` starts with a letter, has at least 3 characters: letters, digits, "_" and ".", uppercase
 *   like Excel's own functions, and is not the name of a built-in Excel function in any language;
 *   names are unique within a language (the namespace FIRMA is prefixed). The Romanian CA predates
 *   this table and is kept (2 characters: workbooks already use it); its English name is TURNOVER.
 *
 * Parameter `id`: the parameter's name in functions.ts (what the generator writes), to match them up.
 * This file must stay self-contained (no imports but type-only ones, which transpiling erases): the
 * build loads it outside webpack.
 */
import type { Lang } from "./messages";

export interface Texts {
  ro: string;
  en: string;
}

export interface ParameterTexts {
  /** The parameter's name in functions.ts. */
  id: string;
  name: Texts;
  description: Texts;
}

export interface FunctionTexts {
  name: Texts;
  description: Texts;
  parameters: ParameterTexts[];
}

/** The metadata languages: Romanian is the default file (functions.json), English the override. */
export const LANGUAGES = ["ro", "en"] as const satisfies readonly Lang[];

const CUI: ParameterTexts = {
  id: "cui",
  name: { ro: "cui", en: "cui" },
  description: {
    ro: "CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri.",
    en: "The company's CUI (tax id: digits, RO prefix optional) or a range of CUIs.",
  },
};

const ONE_CUI: ParameterTexts = {
  id: "cui",
  name: { ro: "cui", en: "cui" },
  description: { ro: "CUI-ul firmei.", en: "The company's CUI (tax id)." },
};

const YEAR: ParameterTexts = {
  id: "an",
  name: { ro: "an", en: "year" },
  description: {
    ro: "Anul financiar; implicit ultimul an disponibil.",
    en: "Financial year; default: the latest year available.",
  },
};

/** A per-CUI function: one CUI or a range in, the same shape out. */
function perCui(nameRo: string, nameEn: string, ro: string, en: string, withYear = false): FunctionTexts {
  return {
    name: { ro: nameRo, en: nameEn },
    description: { ro, en },
    parameters: withYear ? [CUI, YEAR] : [CUI],
  };
}

export const FUNCTION_TEXTS: Readonly<Record<string, FunctionTexts>> = {
  ACTUALIZAT: perCui(
    "ACTUALIZAT",
    "UPDATED",
    "Când au fost aduse datele firmei (dată Excel; formatați celula ca dată și oră).",
    "When FIRMA fetched the company's data (an Excel date; format the cell as date and time).",
  ),
  DENUMIRE: perCui("DENUMIRE", "NAME", "Denumirea firmei.", "Company name."),
  STARE: perCui("STARE", "STATUS", "Starea firmei (de ex. ACTIVA, RADIATA).", "Company status (e.g. ACTIVA, RADIATA)."),
  JUDET: perCui("JUDET", "COUNTY", "Județul sediului social.", "County of the registered office."),
  LOCALITATE: perCui("LOCALITATE", "LOCALITY", "Localitatea sediului social.", "Locality of the registered office."),
  // Not ADDRESS: that is a built-in Excel function (see CAUTA).
  ADRESA: perCui("ADRESA", "REGISTERED_ADDRESS", "Adresa sediului social.", "Address of the registered office."),
  CAEN: perCui("CAEN", "CAEN", "Codul CAEN principal (4 cifre).", "Main CAEN activity code (4 digits)."),
  TVA: perCui("TVA", "VAT", "ADEVĂRAT dacă firma este plătitoare de TVA.", "TRUE when the company is a VAT payer."),
  NRREG: perCui("NRREG", "REGNO", "Numărul de înregistrare la Registrul Comerțului (J../../....).", "Trade-registry number (J../../....)."),
  // CA is the short name of CIFRA_AFACERI (two ids, one figure). English: REVENUE for CIFRA_AFACERI and
  // TURNOVER (the British word for the same figure) for CA, so each id keeps its own, distinct name.
  CA: perCui(
    "CA",
    "TURNOVER",
    "Cifra de afaceri în anul dat (lei). Nume scurt; același lucru ca FIRMA.CIFRA_AFACERI.",
    "Turnover (revenue) in the given year (lei). Same as FIRMA.REVENUE.",
    true,
  ),
  CIFRA_AFACERI: perCui("CIFRA_AFACERI", "REVENUE", "Cifra de afaceri în anul dat (lei).", "Revenue in the given year (lei).", true),
  PROFIT: perCui(
    "PROFIT",
    "PROFIT",
    "Profitul net în anul dat (lei; negativ = pierdere).",
    "Net profit in the given year (lei; negative = loss).",
    true,
  ),
  ACTIVE: perCui("ACTIVE", "ASSETS", "Activele totale în anul dat (lei).", "Total assets in the given year (lei).", true),
  DATORII: perCui("DATORII", "LIABILITIES", "Datoriile totale în anul dat (lei).", "Total liabilities in the given year (lei).", true),
  ANGAJATI: perCui("ANGAJATI", "EMPLOYEES", "Numărul de angajați în anul dat.", "Number of employees in the given year.", true),
  PROFIL: perCui(
    "PROFIL",
    "PROFILE",
    "Toate datele de identificare, pe un rând: CUI, denumire, stare, județ, localitate, adresă, CAEN, TVA, nr. reg. com.",
    "All identification data in one row: CUI, name, status, county, locality, address, CAEN, VAT, trade-registry number.",
  ),
  CAMP: {
    name: { ro: "CAMP", en: "FIELD" },
    description: {
      ro: 'Un câmp oarecare, după nume (de ex. "adresa", "cifra_afaceri", "angajati").',
      en: 'Any field, by its name (e.g. "adresa", "cifra_afaceri", "angajati").',
    },
    parameters: [
      CUI,
      {
        id: "camp",
        name: { ro: "camp", en: "field" },
        description: {
          ro: "Numele câmpului: denumire, stare, judet, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
          en: "The field's name: denumire, stare, judet, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
        },
      },
      {
        id: "an",
        name: { ro: "an", en: "year" },
        description: {
          ro: "Anul, pentru câmpurile financiare; implicit ultimul an.",
          en: "Year, for the financial fields; default: the latest year.",
        },
      },
    ],
  },
  FISA: perCui(
    "FISA",
    "COMPANY_CARD",
    "Fișa firmei: denumirea în celulă; identificare, stare, adresă, CAEN, TVA și ultimul an financiar pe fișă (=A1.Stare).",
    "Company card: the name in the cell; identity, status, address, CAEN, VAT and the latest financial year on the card (=A1.Status).",
  ),
  FINANCIAR: perCui(
    "FINANCIAR",
    "FINANCIALS",
    "Toți indicatorii financiari ai unui an, pe un rând: an, cifra de afaceri, profit net, active, datorii, angajați.",
    "All financial figures of a year in one row: year, revenue, net profit, assets, liabilities, employees.",
    true,
  ),
  ISTORIC: {
    name: { ro: "ISTORIC", en: "HISTORY" },
    description: {
      ro: "Istoricul unui indicator pe ani, cel mai recent an primul: coloanele an și valoare.",
      en: "A figure's history by year, latest first: year and value columns.",
    },
    parameters: [
      ONE_CUI,
      { id: "an_de_la", name: { ro: "an_de_la", en: "from_year" }, description: { ro: "Primul an.", en: "First year." } },
      { id: "an_pana", name: { ro: "an_pana", en: "to_year" }, description: { ro: "Ultimul an.", en: "Last year." } },
      {
        id: "indicator",
        name: { ro: "indicator", en: "figure" },
        description: {
          ro: "cifra_afaceri (implicit), profit_net, active_totale, datorii_totale sau numar_angajati.",
          en: "cifra_afaceri (revenue, the default), profit_net, active_totale, datorii_totale or numar_angajati.",
        },
      },
    ],
  },
  // Not SEARCH: the naming page says to avoid names of built-in Excel functions, in any language.
  CAUTA: {
    name: { ro: "CAUTA", en: "SEARCH_COMPANIES" },
    description: {
      ro: "Caută firme după nume, CUI sau nr. de registru; primul rând este antetul.",
      en: "Searches companies by name, CUI or registry number; the first row is a header.",
    },
    parameters: [
      { id: "q", name: { ro: "text", en: "text" }, description: { ro: "Textul căutat.", en: "What to search for." } },
      { id: "judet", name: { ro: "judet", en: "county" }, description: { ro: "Codul sau numele județului.", en: "County code or name." } },
      { id: "caen", name: { ro: "caen", en: "caen" }, description: { ro: "Codul CAEN.", en: "CAEN activity code." } },
      { id: "stare", name: { ro: "stare", en: "status" }, description: { ro: "Starea, de ex. ACTIVA.", en: "Status, e.g. ACTIVA." } },
      {
        id: "limit",
        name: { ro: "limita", en: "limit" },
        description: { ro: "Câte rezultate (implicit 20).", en: "How many results (default 20)." },
      },
    ],
  },
  CUI: {
    name: { ro: "CUI", en: "TAXID" },
    description: {
      ro: "CUI-ul firmei după nume, doar dacă potrivirea e sigură.",
      en: "The company's CUI from its name, only when the match is sure.",
    },
    parameters: [
      {
        id: "nume",
        name: { ro: "nume", en: "name" },
        description: { ro: "Denumirea firmei sau o coloană.", en: "The company's name, or a column." },
      },
      { id: "judet", name: { ro: "judet", en: "county" }, description: { ro: "Codul sau numele județului.", en: "County code or name." } },
    ],
  },
  TOPURI: {
    name: { ro: "TOPURI", en: "RANKINGS" },
    description: {
      ro: "Lista topurilor disponibile; primul rând este antetul.",
      en: "The rankings available; the first row is a header.",
    },
    parameters: [
      { id: "an", name: { ro: "an", en: "year" }, description: { ro: "Anul.", en: "Year." } },
      {
        id: "categorie",
        name: { ro: "categorie", en: "category" },
        description: { ro: "De ex. cifra-afaceri, profit-net, angajati, active.", en: "E.g. cifra-afaceri, profit-net, angajati, active." },
      },
      {
        id: "scop",
        name: { ro: "scop", en: "scope" },
        description: { ro: "national, judet sau localitate.", en: "national, judet (county) or localitate (locality)." },
      },
    ],
  },
  TOP: {
    name: { ro: "TOP", en: "TOP" },
    description: {
      ro: "Un top: poziție, CUI, denumire, valoare, variație anuală %; primul rând este antetul.",
      en: "One ranking: position, CUI, name, value, annual change %; the first row is a header.",
    },
    parameters: [
      {
        id: "slug",
        name: { ro: "id_top", en: "ranking_id" },
        description: { ro: "Identificatorul topului (vezi FIRMA.TOPURI).", en: "The ranking's id (see FIRMA.RANKINGS)." },
      },
      {
        id: "limit",
        name: { ro: "limita", en: "limit" },
        description: { ro: "Câte poziții (implicit 10).", en: "How many positions (default 10)." },
      },
    ],
  },
  // Excel's load service for linked companies (the "Firmă" data type), not a formula function: Excel
  // calls it with a request naming many companies (src/shared/linked-company.ts).
  INCARCA_FIRME: {
    name: { ro: "INCARCA_FIRME", en: "LOAD_COMPANIES" },
    description: {
      ro: "Excel încarcă prin el firmele legate; nu pentru formule.",
      en: "Excel loads linked companies through it; not for formulas.",
    },
    parameters: [
      {
        id: "request",
        name: { ro: "cerere", en: "request" },
        description: { ro: "Cererea lui Excel.", en: "Excel's request." },
      },
    ],
  },
  JUDETE: {
    name: { ro: "JUDETE", en: "COUNTIES" },
    description: {
      ro: "Județele, cu codul și numărul de firme active; primul rând este antetul.",
      en: "The counties, with code and number of active companies; the first row is a header.",
    },
    parameters: [],
  },
};

/**
 * The functions Excel calls itself, not formulas: the linked entity load service ("They don't appear to end
 * users for usage in formulas": excel-data-types-linked-entity-cell-values). In the metadata and the help
 * pages; not in the formula table (function-table.ts), the pane's Help or the formula names read here.
 */
export const LOAD_SERVICES: readonly string[] = ["INCARCA_FIRME"];

const BY_NAME: ReadonlyMap<string, string> = new Map(
  Object.entries(FUNCTION_TEXTS).flatMap(([id, f]): [string, string][] =>
    LOAD_SERVICES.includes(id)
      ? []
      : [
          [id, id],
          [f.name.ro.toUpperCase(), id],
          [f.name.en.toUpperCase(), id],
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
