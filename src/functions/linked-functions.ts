/**
 * Excel's load service for linked companies (the "Firmă" / "Company" data type): Excel calls it with a
 * request naming many companies and their cultures, and takes them back in the request's order
 * (src/shared/linked-company.ts, through the one engine). Not a formula function ("They don't appear to
 * end users for usage in formulas"); neither volatile nor streaming, which load services do not support
 * (https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values).
 * Its texts are in src/shared/function-names.ts, as every function's.
 *
 * Two editions share this bundle (docs/excel.md, "Two manifests"): only the linked one's metadata
 * (functions-legate.json) names INCARCA_FIRME. The build appends this file's `CustomFunctions.associate`
 * call to it (CustomFunctionsMetadataPlugin), at load time as Excel needs (an association made later
 * fails the first call); in the default edition nothing of an id its metadata lacks should reach Excel,
 * so within this module `CustomFunctions` is Office's only where the page is the linked edition's.
 */
import { linkedEdition } from "../office/linked-support";
import { loadService } from "./linked-service";

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- used by the association the build appends
const CustomFunctions: { associate(id: string, f: (...args: never[]) => unknown): void } =
  linkedEdition() && typeof globalThis.CustomFunctions !== "undefined" ? globalThis.CustomFunctions : { associate: () => undefined };

/**
 * @customfunction INCARCA_FIRME
 * @linkedEntityLoadService
 * @param request
 * @returns {any}
 */
export function incarcaFirme(request: any) {
  return loadService(request);
}
