/**
 * What a FIRMA call would ask the engine for, without asking: the requests the estimate counts (task
 * pane, CLI --dry-run) and the prefetch plans. Arguments are read as the functions read them, and
 * one a function refuses costs nothing.
 */
import type { FinancialField, ProfileField } from "../api/types";
import type { CellRequest } from "../engine/engine";
import { asMatrix, isBlank } from "./coercion";
import { FINANCIAL_FUNCTIONS, FINANCIAL_ORDER, fieldByName, isProfileField, PROFILE_FUNCTIONS } from "./fields";
import { listSpec } from "./list-functions";
import { matchRequests } from "../engine/engine";

/**
 * What a call would ask the engine for, for cost estimates (task pane, CLI --dry-run).
 * Lists count one call per page of 100.
 */
export function cellRequests(name: string, args: unknown[]): CellRequest[] {
  const n = name.toUpperCase();
  const cuis = () =>
    asMatrix(args[0])
      .flat()
      .filter((v) => !isBlank(v));
  const profile = (field: ProfileField) => cuis().map((cui): CellRequest => ({ kind: "profile", cui, field }));
  const financial = (field: FinancialField) => cuis().map((cui): CellRequest => ({ kind: "financial", cui, year: args[1] ?? null, field }));
  if (n in PROFILE_FUNCTIONS) return profile(PROFILE_FUNCTIONS[n]);
  if (n in FINANCIAL_FUNCTIONS) return financial(FINANCIAL_FUNCTIONS[n]);
  switch (n) {
    case "CAMP": {
      let f: ProfileField | FinancialField;
      try {
        f = fieldByName(args[1]);
      } catch {
        return [];
      }
      return isProfileField(f)
        ? profile(f)
        : cuis().map((cui): CellRequest => ({ kind: "financial", cui, year: args[2] ?? null, field: f as FinancialField }));
    }
    case "PROFIL":
      return profile("adresa");
    case "ACTUALIZAT":
      return profile("denumire");
    case "FISA":
      return [...profile("adresa"), ...FINANCIAL_ORDER.flatMap(financial)];
    case "FINANCIAR":
      return FINANCIAL_ORDER.flatMap(financial);
    case "ISTORIC": {
      // The field as the function reads it (fieldByName: any case, diacritics, English names); one it refuses costs nothing.
      let field: ProfileField | FinancialField = "cifra_afaceri";
      try {
        if (!isBlank(args[3])) field = fieldByName(args[3]);
      } catch {
        return [];
      }
      if (isProfileField(field)) return [];
      return cuis().map((cui): CellRequest => ({ kind: "history", cui, from: args[1], to: args[2], field: field as FinancialField }));
    }
    case "CAUTA":
    case "TOP":
    case "TOPURI":
    case "JUDETE": {
      // The list the function will ask for, as the engine keys it, so that the estimate knows it is cached.
      try {
        const list = listSpec(n, args);
        return [{ kind: "list", calls: Math.ceil(("limit" in list ? list.limit : 1) / 100), list }];
      } catch {
        return []; // invalid arguments: refused locally, nothing to pay
      }
    }
    case "CUI": {
      // One search per name (cached: free), and its folded form where it has diacritics: an upper bound.
      const counties = asMatrix(args[1]).flat();
      const names = asMatrix(args[0]).flat();
      return matchRequests(names.map((name, i) => ({ name, county: counties.length === 1 ? counties[0] : counties[i] })));
    }
    default:
      return [];
  }
}
