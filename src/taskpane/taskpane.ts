/**
 * The task pane's entry point. `Office.onReady` only wires the DOM: inside Excel the pane gets the
 * workbook adapter (excel.ts); opened in a plain browser (host null) it gets none, and shows the
 * key and usage parts while saying that refresh and freeze need Excel. The logic is in pane.ts.
 */
import { useOfficeStorage } from "../office/storage";
import { ExcelWorkbook } from "./excel";
import { startPane } from "./pane";

useOfficeStorage();

export { startPane } from "./pane";

if (typeof Office !== "undefined") {
  Office.onReady((info) => {
    const inExcel = info.host === Office.HostType.Excel;
    const displayLanguage = (Office.context as { displayLanguage?: string } | undefined)?.displayLanguage ?? null;
    void startPane(document, { host: inExcel ? new ExcelWorkbook() : null, displayLanguage });
  });
}
