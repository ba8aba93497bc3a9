/**
 * The company fields the functions read: which function reads which field of the service's record,
 * the order of the PROFIL and FINANCIAR rows, and the names FIRMA.CAMP and FIRMA.ISTORIC accept for a
 * field (fieldByName).
 */
import type { FinancialField, ProfileField } from "../api/types";
import { LocalInputError } from "../engine/local-errors";

/** Per-field functions: name → field of the service's record. */
export const PROFILE_FUNCTIONS: Readonly<Record<string, ProfileField>> = {
  DENUMIRE: "denumire",
  STARE: "stare",
  JUDET: "judet",
  LOCALITATE: "localitate",
  ADRESA: "adresa",
  CAEN: "caen_principal",
  TVA: "platitor_tva",
  NRREG: "j_cod",
};

export const FINANCIAL_FUNCTIONS: Readonly<Record<string, FinancialField>> = {
  CA: "cifra_afaceri",
  CIFRA_AFACERI: "cifra_afaceri",
  PROFIT: "profit_net",
  ACTIVE: "active_totale",
  DATORII: "datorii_totale",
  ANGAJATI: "numar_angajati",
};

/** The profile's fields in the order of FIRMA.PROFIL's row (after the CUI). */
export const PROFILE_ORDER: readonly ProfileField[] = [
  "denumire",
  "stare",
  "judet",
  "localitate",
  "adresa",
  "caen_principal",
  "platitor_tva",
  "j_cod",
];
/** The financial fields in the order of FIRMA.FINANCIAR's row (after the year) and of the card. */
export const FINANCIAL_ORDER: readonly FinancialField[] = [
  "cifra_afaceri",
  "profit_net",
  "active_totale",
  "datorii_totale",
  "numar_angajati",
];

/** Names CAMP accepts: the service's field names, the function names, and a few plain words. */
const FIELD_ALIASES: Readonly<Record<string, ProfileField | FinancialField>> = {
  ...Object.fromEntries(PROFILE_ORDER.map((f) => [f, f])),
  ...Object.fromEntries(FINANCIAL_ORDER.map((f) => [f, f])),
  ...Object.fromEntries(Object.entries(PROFILE_FUNCTIONS).map(([k, v]) => [k.toLowerCase(), v])),
  ...Object.fromEntries(Object.entries(FINANCIAL_FUNCTIONS).map(([k, v]) => [k.toLowerCase(), v])),
  nume: "denumire",
  name: "denumire",
  status: "stare",
  county: "judet",
  city: "localitate",
  address: "adresa",
  vat: "platitor_tva",
  j: "j_cod",
  nr_reg_com: "j_cod",
  revenue: "cifra_afaceri",
  profit_net: "profit_net",
  employees: "numar_angajati",
  angajati: "numar_angajati",
  locality: "localitate",
  caen_code: "caen_principal",
  vat_payer: "platitor_tva",
  trade_register: "j_cod",
  net_profit: "profit_net",
  assets: "active_totale",
  total_assets: "active_totale",
  liabilities: "datorii_totale",
  total_liabilities: "datorii_totale",
  stare_firma: "stare",
};

/** The field a name means; an unknown name throws LocalInputError("invalid_field"). */
export function fieldByName(v: unknown): ProfileField | FinancialField {
  // As users write them: any case, spaces or dots for underscores, and with diacritics (județ, angajați).
  const key =
    typeof v === "string"
      ? v
          .trim()
          .toLowerCase()
          .normalize("NFD")
          .replace(/[\u0300-\u036f]/g, "")
          .replace(/[\s.]+/g, "_")
      : "";
  const f = FIELD_ALIASES[key];
  if (!f) throw new LocalInputError("invalid_field", `unknown field ${String(v)}`);
  return f;
}

export function isProfileField(f: string): f is ProfileField {
  return (PROFILE_ORDER as readonly string[]).includes(f);
}
