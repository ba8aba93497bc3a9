/**
 * Whether linked companies can be had here, asked each time, never remembered: the add-in must run as
 * its linked edition (manifest-legate.xml, whose metadata carries the load service: its page address
 * carries `legate=1`, scripts/deployment.js), and this Excel must have linked data domains for add-ins
 * (ExcelApi 1.19). Its own small module, in the startup scripts: the domain's code (linked-domain.ts)
 * is loaded only where this says yes. docs/excel.md, "Two manifests".
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values
 */

/** "ok", or why not: "edition" (manifest.xml's metadata has no load service), "excel" (no ExcelApi 1.19, or Excel on the web). */
export type LinkedSupport = "ok" | "edition" | "excel";

/** Whether this runtime's page was loaded by the linked edition's manifest. */
export function linkedEdition(search: string = typeof location !== "undefined" ? location.search : ""): boolean {
  try {
    return new URLSearchParams(search).get("legate") === "1";
  } catch {
    return false;
  }
}

/**
 * Excel on the web claims ExcelApi 1.19, yet "Linked entity cell values aren't supported in Excel on the
 * web" (the page): the platform is asked too, as understand-requirement-configuration advises (a manifest
 * cannot name a platform).
 */
export function linkedSupport(): LinkedSupport {
  let excel = false;
  try {
    excel =
      typeof Office !== "undefined" &&
      !!Office.context?.requirements?.isSetSupported("ExcelApi", "1.19") &&
      String(Office.context.platform) !== "OfficeOnline";
  } catch {
    excel = false;
  }
  if (!excel) return "excel";
  return linkedEdition() ? "ok" : "edition";
}

export function linkedEntitiesSupported(): boolean {
  return linkedSupport() === "ok";
}

/** The last registration's failure (Excel's error code and message), or null: the pane shows it. */
let registrationFailure: { code: string; message: string } | null = null;

export function lastRegistrationFailure(): { code: string; message: string } | null {
  return registrationFailure;
}

/**
 * Registers the Company domain where linked companies can be had, the domain's code loaded then (a chunk
 * of its own). A refusal is kept for the pane (lastRegistrationFailure) and written to the console.
 */
export async function registerWhereSupported(): Promise<boolean> {
  if (!linkedEntitiesSupported()) return false;
  const { registerCompanyDomain } = await import(/* webpackChunkName: "linked" */ "./linked-domain");
  const ok = await registerCompanyDomain((e) => {
    const err = e as { code?: unknown; message?: unknown };
    registrationFailure = { code: typeof err?.code === "string" ? err.code : "Error", message: String(err?.message ?? e) };
    console.warn(`FIRMA: Excel refused the Company data domain (${registrationFailure.code}): ${registrationFailure.message}`);
  });
  if (ok) registrationFailure = null;
  return ok;
}
