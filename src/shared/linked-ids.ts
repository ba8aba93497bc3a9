/**
 * The ids that name FIRMA's linked companies: small enough for the startup scripts, so that a cell
 * holding a linked company reads as its CUI (excel-values.ts) without loading the linked chunk
 * (linked-company.ts, which re-exports them).
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values
 */

/** "You must specify a serviceId of 268436224 for any linked entity cell values you return" (the page). */
export const ADDIN_SERVICE_ID = 268436224;
/** The domain's id: no "!", and never changed once published (the page's best practices). */
export const COMPANY_DOMAIN_ID = "firma-company";
