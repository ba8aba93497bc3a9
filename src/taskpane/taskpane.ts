/**
 * The task pane's entry point. `Office.onReady` only wires the DOM: inside Excel the pane gets the
 * workbook adapter (excel.ts); opened in a plain browser (host null) it gets none, and shows the
 * key and usage parts while saying that refresh and freeze need Excel. The logic is in pane.ts.
 */
import { useOfficeStorage } from "../office/storage";
import { ExcelWorkbook } from "./excel";
import { startPane } from "./pane";
import { applyTheme, type OfficeThemeLike } from "./theme";

useOfficeStorage();

export { startPane } from "./pane";

if (typeof Office !== "undefined") {
  Office.onReady((info) => {
    const inExcel = info.host === Office.HostType.Excel;
    const context = Office.context as { displayLanguage?: string; officeTheme?: OfficeThemeLike } | undefined;
    const displayLanguage = context?.displayLanguage ?? null;
    // The Office theme (light, dark): theme.ts. Read when the pane opens: the event that reports a
    // change of theme (Office.EventType.OfficeThemeChanged) exists in Outlook only (Mailbox 1.14).
    let theme: OfficeThemeLike | null = null;
    try {
      theme = context?.officeTheme ?? null;
    } catch {
      /* an Office without themes: the system's light or dark choice applies */
    }
    applyTheme(document, theme);
    void startPane(document, { host: inExcel ? new ExcelWorkbook() : null, displayLanguage });
  });
}
