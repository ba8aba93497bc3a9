/**
 * Which ExcelApi requirement sets this Excel has, asked at run time (docs/excel.md), and what the
 * pane may offer with them (`hostSupport`).
 */
import type { HostSupport } from "./workbook-host";

/** The ExcelApi sets the pane's calls need, with the members that need them (docs/excel.md). */
export const EXCEL_API = {
  /** Worksheet.getUsedRangeOrNullObject, WorksheetCollection.getItemOrNullObject */
  usedRange: "1.4",
  /** Range.calculate */
  calculate: "1.6",
  /** Worksheet.getRangeByIndexes */
  byIndexes: "1.7",
  /** RangeAreas.calculate */
  areas: "1.9",
  /** Range.getSpillingToRangeOrNullObject */
  spill: "1.12",
  /** Range.getDependents */
  dependents: "1.15",
  /** Range.valuesAsJson: a freeze that keeps every value's type, cards included */
  valuesAsJson: "1.16",
} as const;

/** `Office.context.requirements.isSetSupported` for ExcelApi, as the pane asks it at run time. */
export type ExcelApiCheck = (version: string) => boolean;

export const officeCheck: ExcelApiCheck = (version) => {
  // https://learn.microsoft.com/office/dev/add-ins/develop/specify-api-requirements-runtime
  // (the version as a string: "1.10" is not the number 1.1)
  const req = typeof Office !== "undefined" ? Office.context?.requirements : undefined;
  return !!req && req.isSetSupported("ExcelApi", version);
};

/** What the pane may offer in an Excel that has the sets `hasExcelApi` says it has. */
export function hostSupport(hasExcelApi: ExcelApiCheck): HostSupport {
  const missing = (...versions: string[]) => {
    const v = versions.find((x) => !hasExcelApi(x));
    return v ? `ExcelApi ${v}` : null;
  };
  return {
    refresh: missing(EXCEL_API.usedRange, EXCEL_API.calculate, EXCEL_API.byIndexes),
    freeze: missing(EXCEL_API.usedRange, EXCEL_API.byIndexes, EXCEL_API.spill),
    freezeKeepsCards: hasExcelApi(EXCEL_API.valuesAsJson),
  };
}
