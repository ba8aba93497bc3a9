/**
 * The "Firmă" / "Company" linked data domain, registered by the linked edition (manifest-legate.xml, which
 * requires ExcelApi 1.19) where linked-support.ts says linked companies can be had (not on the web).
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values
 *
 * Refresh modes (Excel.LinkedEntityDataDomainCreateOptions.supportedRefreshModes): "Manual ... is always
 * supported even if not specified", and "If the refresh mode was not saved in the workbook, the first
 * value in the array is set as the default". FIRMA lists only the mode the user chose in Settings, so a
 * mode saved in a workbook cannot turn on refreshes the user did not choose: "manual" (the default)
 * lists nothing, "onLoad" lists OnLoad and sets it. "onLoad: Refreshes data when the data domain is
 * registered, which typically happens when the add-in loads" (the page): the add-in's load, not the
 * workbook's. FIRMA does not set itself to load with the document, so a workbook opened without FIRMA
 * running spends nothing. No periodic mode: credits are money.
 */
import { ADDIN_SERVICE_ID, COMPANY_DOMAIN_ID, DATA_PROVIDER, domainName, LOAD_FUNCTION_ID } from "../shared/linked-company";
import type { Lang } from "../shared/cells";
import { getSettings, loadSettings, type LinkedRefresh } from "../shared/settings";
import { linkedEntitiesSupported } from "./linked-support";

export { ADDIN_SERVICE_ID, linkedEntitiesSupported };

/** Excel.LinkedEntityDataDomainRefreshMode's values, as strings (the enum object may be absent from an older office.js). */
const MANUAL = "Manual";
const ON_LOAD = "OnLoad";

/** The create options for the user's language and refresh choice. */
export function domainOptions(lang: Lang, refresh: LinkedRefresh): Excel.LinkedEntityDataDomainCreateOptions {
  return {
    dataProvider: DATA_PROVIDER,
    id: COMPANY_DOMAIN_ID,
    name: domainName(lang),
    loadFunctionId: LOAD_FUNCTION_ID,
    supportedRefreshModes: (refresh === "onLoad" ? [ON_LOAD, MANUAL] : [MANUAL]) as Excel.LinkedEntityDataDomainRefreshMode[],
  };
}

/**
 * Registers the domain (or, when it is there already, brings it to the user's refresh choice: the
 * supported modes are fixed at creation, so a change of them deletes and adds it again, in one batch).
 * Returns false where ExcelApi 1.19 is missing; a failure is reported to `onError` and answers false.
 */
export async function registerCompanyDomain(onError: (e: unknown) => void = () => {}): Promise<boolean> {
  if (!linkedEntitiesSupported()) return false;
  try {
    // The settings as now saved: loadSettings() resolves to what its first read found (it reads once),
    // so a choice saved since (Settings, "on load") is in getSettings(), not in its answer.
    await loadSettings().catch(() => undefined);
    const settings = getSettings();
    const want = settings.linkedRefresh;
    await Excel.run(async (context) => {
      const domains = context.workbook.linkedEntityDataDomains;
      const existing = domains.getItemOrNullObject(COMPANY_DOMAIN_ID);
      // eslint-disable-next-line office-addins/no-navigational-load -- an array of strings (ExcelApi 1.19), not a navigation property
      existing.load("supportedRefreshModes");
      await context.sync();
      const hasOnLoad = !existing.isNullObject && existing.supportedRefreshModes.some((m) => String(m) === ON_LOAD);
      if (!existing.isNullObject && hasOnLoad === (want === "onLoad")) {
        existing.refreshMode = want === "onLoad" ? ON_LOAD : MANUAL;
      } else {
        if (!existing.isNullObject) existing.delete();
        domains.add(domainOptions(settings.language, want));
        if (want === "onLoad") domains.getItem(COMPANY_DOMAIN_ID).refreshMode = ON_LOAD;
      }
      await context.sync();
    });
    return true;
  } catch (e) {
    onError(e);
    return false;
  }
}
