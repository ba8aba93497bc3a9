/**
 * The one source of the functions' display texts, Romanian and English: descriptions, parameter names
 * and parameter descriptions, and with them the functions' names (FUNCTION_TEXTS), which have their one
 * home in function-ids.ts (the startup scripts read the names without these texts). The build
 * (scripts/localize-functions.js, run by webpack.config.js) takes the metadata CustomFunctionsMetadataPlugin
 * generates from the JSDoc of functions.ts (ids, parameter types, dimensionality, optional, options) and
 * writes from it
 *
 *   dist/functions.json      Romanian (the manifest's default, DefaultLocale ro-RO)
 *   dist/functions-en.json   English  (bt:Override Locale="en-US" / "en-GB" of the JSON.Url resource)
 *
 * so both files have the same ids and parameters and differ only in these texts. The build fails when
 * a function or a parameter of functions.ts is missing here (or is here but not there), and when the
 * JSDoc of functions.ts carries a description: these texts have no second copy there to drift. The
 * naming rules: function-ids.ts.
 *
 * Parameter `id`: the parameter's name in functions.ts (what the generator writes), to match them up.
 * This file must stay self-contained (no imports but function-ids.ts, itself self-contained, and type-only
 * ones, which transpiling erases): the build loads the two outside webpack.
 */
import { FUNCTION_NAMES, type FunctionId, type Texts } from "./function-ids";
import type { Lang } from "./messages";

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

/** A function's texts but its name (function-ids.ts). */
type Described = Omit<FunctionTexts, "name">;

/** A per-CUI function: one CUI or a range in, the same shape out. */
function perCui(ro: string, en: string, withYear = false): Described {
  return { description: { ro, en }, parameters: withYear ? [CUI, YEAR] : [CUI] };
}

/** Every function's texts but its name, by id: the same ids as function-ids.ts (the type says so). */
const DESCRIBED: Readonly<Record<FunctionId, Described>> = {
  ACTUALIZAT: perCui(
    "Când au fost aduse datele firmei (dată Excel; formatați celula ca dată și oră).",
    "When FIRMA fetched the company's data (an Excel date; format the cell as date and time).",
  ),
  DENUMIRE: perCui("Denumirea firmei.", "Company name."),
  STARE: perCui("Starea firmei (de ex. ACTIVA, RADIATA).", "Company status (e.g. ACTIVA, RADIATA)."),
  JUDET: perCui("Județul sediului social.", "County of the registered office."),
  LOCALITATE: perCui("Localitatea sediului social.", "Locality of the registered office."),
  ADRESA: perCui("Adresa sediului social.", "Address of the registered office."),
  CAEN: perCui("Codul CAEN principal (4 cifre).", "Main CAEN activity code (4 digits)."),
  TVA: perCui("ADEVĂRAT dacă firma este plătitoare de TVA.", "TRUE when the company is a VAT payer."),
  NRREG: perCui("Numărul de înregistrare la Registrul Comerțului (J../../....).", "Trade-registry number (J../../....)."),
  CA: perCui(
    "Cifra de afaceri în anul dat (lei). Nume scurt; același lucru ca FIRMA.CIFRA_AFACERI.",
    "Turnover (revenue) in the given year (lei). Same as FIRMA.REVENUE.",
    true,
  ),
  CIFRA_AFACERI: perCui("Cifra de afaceri în anul dat (lei).", "Revenue in the given year (lei).", true),
  PROFIT: perCui("Profitul net în anul dat (lei; negativ = pierdere).", "Net profit in the given year (lei; negative = loss).", true),
  ACTIVE: perCui("Activele totale în anul dat (lei).", "Total assets in the given year (lei).", true),
  DATORII: perCui("Datoriile totale în anul dat (lei).", "Total liabilities in the given year (lei).", true),
  ANGAJATI: perCui("Numărul de angajați în anul dat.", "Number of employees in the given year.", true),
  PROFIL: perCui(
    "Toate datele de identificare, pe un rând: CUI, denumire, stare, județ, localitate, adresă, CAEN, TVA, nr. reg. com.",
    "All identification data in one row: CUI, name, status, county, locality, address, CAEN, VAT, trade-registry number.",
  ),
  CAMP: {
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
    "Fișa firmei: denumirea în celulă; identificare, stare, adresă, CAEN, TVA și ultimul an financiar pe fișă (=A1.Stare).",
    "Company card: the name in the cell; identity, status, address, CAEN, VAT and the latest financial year on the card (=A1.Status).",
  ),
  FINANCIAR: perCui(
    "Toți indicatorii financiari ai unui an, pe un rând: an, cifra de afaceri, profit net, active, datorii, angajați.",
    "All financial figures of a year in one row: year, revenue, net profit, assets, liabilities, employees.",
    true,
  ),
  ISTORIC: {
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
  CAUTA: {
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
  INCARCA_FIRME: {
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
    description: {
      ro: "Județele, cu codul și numărul de firme active; primul rând este antetul.",
      en: "The counties, with code and number of active companies; the first row is a header.",
    },
    parameters: [],
  },
};

/** Every function's names (function-ids.ts) and texts, by id, in function-ids.ts's order. */
export const FUNCTION_TEXTS: Readonly<Record<string, FunctionTexts>> = Object.fromEntries(
  (Object.keys(FUNCTION_NAMES) as FunctionId[]).map((id) => [id, { name: FUNCTION_NAMES[id], ...DESCRIBED[id] }]),
);
