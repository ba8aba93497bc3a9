/**
 * The browser stand-in's workbook and settings: one state per page (the bundle runs once in it, and
 * `window.__firmaStandIn` is this object, with the test API browser.ts adds). Tests set its settings
 * before or while the pane runs (harness.ts PaneOptions, page.evaluate); the rest records what the
 * add-in did, for the tests to check.
 */
import type { Box } from "./a1";
import { FunctionsRuntime, StandInError, type CancelOrder, type FunctionMeta, type Invocation } from "./functions-runtime";
import { LinkedEntityWorkbook } from "./linked-entities";
import { PAYLOAD_LIMIT_BYTES } from "./rules";

/** A data type a cell holds (an entity card), as its cell value JSON. */
export interface RichValue {
  type: string;
  basicType?: string;
  basicValue?: unknown;
  text?: unknown;
  properties?: Record<string, { basicValue?: unknown }>;
  [key: string]: unknown;
}

/**
 * A cell: a formula (or null) and what it shows: `value`, `error` ({ code, message }), and `rich`, the
 * cell value JSON of a data type it holds (an entity card). `text`: the cell has the text format "@".
 * `spill`: the anchor of a spilled result, where it ends; `spillFrom`: a spilled cell, its anchor's key.
 * `format`: the cell carries formatting. `invocation`: the FIRMA call it waits for.
 */
export interface Cell {
  formula: string | null;
  value: unknown;
  error: { code: string; message: string } | null;
  rich: RichValue | null;
  spillFrom: string | null;
  spill: { bottom: number; right: number } | null;
  format: boolean;
  text: boolean;
  numberFormat: unknown;
  invocation?: Invocation;
}

export interface Sheet {
  name: string;
  /** "r,c" → cell */
  cells: Map<string, Cell>;
}

/** A formula cell found in a sheet, and how it is to be calculated. */
export interface FormulaCell {
  sheet: Sheet;
  r: number;
  c: number;
  cell: Cell;
  /** Calculated by a calculate method (S.calculateReruns and its kin apply). */
  byCalculate?: boolean;
  /** Excel's full calculation: the cells that depend on it are calculated once its result is in. */
  propagate?: boolean;
}

export function createState() {
  const state = {
    /** lower-case name → sheet */
    sheets: new Map<string, Sheet>(),
    order: [] as string[],
    active: null as string | null,
    selection: null as { sheet: string; box: Box } | null,
    meta: null as FunctionMeta[] | null,
    metaPromise: null as Promise<void> | null,
    /**
     * The metadata file the add-in's manifest names (its JSON.Url), relative to the page: Excel loads the
     * functions by it. manifest.xml's is functions.json; the linked edition's (manifest-legate.xml)
     * functions-legate.json. The harness sets it from the manifest it opens the page by.
     */
    metadataFile: "functions.json",
    pending: new Set<Promise<unknown>>(),
    /** Every FIRMA function call made by calculation: { id, args }. */
    calls: [] as { id: string; args: unknown[] }[],
    /** Excel API workbook.settings and Office.context.document.settings (one store, as in Excel). */
    documentSettings: new Map<string, string>(),
    customXmlParts: [] as string[],
    displayLanguage: "ro-RO",
    host: "Excel" as string | null,
    /** The newest ExcelApi requirement set this Excel supports ("1.17": Excel on the web today). */
    excelApi: "1.17",
    /**
     * Office.context.platform (Office.PlatformType: "PC", "Mac", "OfficeOnline"…). Excel on the web claims
     * ExcelApi 1.19 yet has no linked data domains: "This class isn't supported in Excel on the web"
     * (https://learn.microsoft.com/javascript/api/excel/excel.linkedentitydatadomaincollection).
     */
    platform: "PC",
    /**
     * The CustomFunctionsRuntime requirement set. Data types (FISA's card, cards as arguments) need 1.4
     * and allowCustomDataForDataTypeAny in functions.json
     * (https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets).
     */
    customFunctionsRuntime: "1.3",
    /**
     * Excel on the web's payload limit for a request's answer: "Excel on the web has a payload size
     * limit for requests and responses of 5MB" and fails with ResponsePayloadSizeLimitExceeded
     * (https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization,
     * https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-error-handling): UTF-8 bytes of
     * the JSON, against 5,000,000 (rules.ts PAYLOAD_LIMIT_BYTES).
     */
    payloadLimit: PAYLOAD_LIMIT_BYTES,
    /**
     * Whether a calculate method runs a FIRMA function again although its arguments did not change.
     * No page promises it (office-js #576 and #3108 show Range.calculate doing it); false plays an
     * Excel that does not, for the pane's fallback.
     */
    calculateReruns: true,
    /** When set, (sheet, row, col) → whether a calculate method re-runs that FIRMA cell: an Excel that runs some and not others. */
    calculateRerunsOnly: null as ((sheet: string, row: number, col: number) => boolean) | null,
    /** How long after a calculate method the FIRMA cells start (Excel on the web, slow with a large sheet). */
    calculateDelayMs: 0,
    /**
     * Office.context.officeTheme (https://learn.microsoft.com/javascript/api/office/office.officetheme):
     * the Colorful theme's colours by default; null: an Office that gives no theme.
     */
    officeTheme: {
      bodyBackgroundColor: "#FFFFFF",
      bodyForegroundColor: "#000000",
      controlBackgroundColor: "#FFFFFF",
      controlForegroundColor: "#262626",
      isDarkTheme: false,
      themeId: "Colorful",
    } as Record<string, unknown> | null,
    /** The largest answer of a sync that succeeded, in UTF-8 bytes of JSON. */
    maxAnswerBytes: 0,
    /** The largest request of a sync that was sent (its actions and what they carry), in bytes. */
    maxRequestBytes: 0,
    /**
     * When a FIRMA cell calculates again while its previous call waits, the order of the old call's
     * onCanceled and the new call: "cancelFirst", "invokeFirst" (the cancel a turn later) or "together"
     * (custom-functions-web-reqs: not guaranteed). Default: the one code assuming cancel-first gets wrong.
     */
    cancelOrder: "invokeFirst" as CancelOrder,
    /** Every write of cell contents: { sheet, address, asFormula, json? }. */
    writes: [] as { sheet: string; address: string; asFormula: boolean; json?: boolean }[],
    /** Worksheets added through WorksheetCollection.add, in order. */
    added: [] as string[],
    /** Every plain (non-FIRMA) formula calculated, as "Sheet!A1", in order. */
    plainCalculations: [] as string[],
    /** Every read of cell contents (values or formulas): { sheet, address, cells }. */
    reads: [] as { sheet: string; address: string; cells: number }[],
    syncs: 0,
    /** The custom-functions runtime (functions-runtime.ts): what the bundle associated, the metadata, the rules. */
    runtime: null as unknown as FunctionsRuntime,
    /** What the bundle associated, id → function (the runtime's). */
    functions: null as unknown as FunctionsRuntime["associated"],
    /** Answers Excel would refuse from a function (an output error it does not accept, an object where data types are off). */
    violations: [] as string[],
    /** Calculations whose outcome no page defines (a range for a scalar parameter). */
    unspecified: [] as string[],
    /** Functions Excel would not load (the naming page's rules), id → why; set with the metadata. */
    notLoaded: null as unknown as FunctionsRuntime["notLoaded"],
    /** Functions loaded only as the named exception of rules.ts NAMING_EXCEPTIONS (FIRMA.CA). */
    namingExceptions: [] as string[],
    /**
     * Excel's linked entities (linked-entities.ts): the domains the add-in registered through
     * workbook.linkedEntityDataDomains (linked-domains.ts), the cells holding linked entities ("Sheet!A1"),
     * the requests Excel sent the load service, and answers no page allows (`linked.violations`).
     */
    linked: null as unknown as LinkedEntityWorkbook,
    /** functions.json's top-level flags, read with the metadata. */
    get flags(): { allowCustomData: boolean; allowErrors: boolean } {
      return { allowCustomData: state.runtime.allowCustomData, allowErrors: state.runtime.allowErrors };
    },
  };
  const runtime = new FunctionsRuntime(() => state.customFunctionsRuntime);
  // Excel calls the domain's loadFunctionId: the function the add-in associated under that id, if its
  // metadata flags it linkedEntityLoadService; a CustomFunctions.Error it answers is a failed request (#CONNECT!).
  const linked = new LinkedEntityWorkbook({
    excelApi: () => state.excelApi,
    loadFor: (id) => {
      const fn = runtime.associated.get(id);
      if (!fn || !runtime.meta(id)?.options?.linkedEntityLoadService) {
        linked.violations.push(`loadFunctionId ${id} names no function of the add-in flagged linkedEntityLoadService`);
        return null;
      }
      return async (request) => {
        const answer = await runtime.run(id, fn, [request]);
        if (answer instanceof StandInError) throw answer;
        return answer;
      };
    },
  });
  Object.assign(state, {
    linked,
    runtime,
    functions: runtime.associated,
    violations: runtime.violations,
    unspecified: runtime.unspecified,
    notLoaded: runtime.notLoaded,
    namingExceptions: runtime.exceptions,
  });
  return state;
}

export type State = ReturnType<typeof createState>;

/** The page's one stand-in. */
export const S: State = createState();
