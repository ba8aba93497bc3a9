/**
 * Whether this Excel has linked data domains for add-ins (ExcelApi 1.19), and this build the load
 * service (FIRMA_LINKED_ENTITIES): asked each time, never remembered. Its own small module, in the
 * startup scripts: the domain's code (linked-domain.ts) is loaded only where this says yes.
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values
 */
export function linkedEntitiesSupported(): boolean {
  if (typeof FIRMA_LINKED_ENTITIES === "boolean" && !FIRMA_LINKED_ENTITIES) return false; // built without the load service
  try {
    return typeof Office !== "undefined" && !!Office.context?.requirements?.isSetSupported("ExcelApi", "1.19");
  } catch {
    return false;
  }
}

/** Registers the Company domain where this Excel has it, the domain's code loaded then (a chunk of its own). */
export async function registerWhereSupported(): Promise<boolean> {
  if (!linkedEntitiesSupported()) return false;
  const { registerCompanyDomain } = await import(/* webpackChunkName: "linked" */ "./linked-domain");
  return registerCompanyDomain();
}
