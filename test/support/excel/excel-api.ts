/**
 * The Excel JavaScript API over the browser stand-in's workbook: `Excel.run(batch)` with a
 * RequestContext, its workbook (worksheets, settings, custom XML parts, linked entity data domains, the selection, the
 * application's calculate) and `sync()`: the queued operations applied in order, Excel on the web's
 * 5 MB limit on every request and answer, then the formulas entered or calculated. The proxies' load/sync
 * discipline is in proxy.ts, ranges and worksheets in ranges.ts.
 */
import { calculateAll, calculateCells } from "./calculation";
import { excelError, requireApi, sheetOf } from "./cells";
import { ClientObject } from "./proxy";
import { LinkedEntityDataDomainCollection } from "./linked-domains";
import { Range, Worksheet } from "./ranges";
import { activeCell, SelectedAreas } from "./sheet-extras";
import { utf8Bytes } from "./rules";
import { S, type FormulaCell, type Sheet } from "./state";

class WorksheetCollection extends ClientObject {
  _snapshot(): Record<string, unknown> {
    return {
      items: S.order.map((name) => {
        const ws = new Worksheet(this._ctx, () => sheetOf(name));
        ws._data = { name, isNullObject: false };
        ws._loaded.add("name");
        ws._loaded.add("isNullObject");
        return ws;
      }),
    };
  }
  get items(): Worksheet[] {
    return this._get("items");
  }
  getItem(name: string): Worksheet {
    return new Worksheet(this._ctx, () => sheetOf(name));
  }
  getItemOrNullObject(name: string): Worksheet {
    return new Worksheet(
      this._ctx,
      () => {
        requireApi("1.4", "WorksheetCollection.getItemOrNullObject");
        return S.sheets.get(String(name).toLowerCase()) || null;
      },
      true,
    );
  }
  getActiveWorksheet(): Worksheet {
    return new Worksheet(this._ctx, () => sheetOf(S.active));
  }
  /**
   * "Adds a new worksheet to the workbook. The worksheet will be added at the end of existing
   * worksheets." (ExcelApi 1.1, https://learn.microsoft.com/javascript/api/excel/excel.worksheetcollection#excel-excel-worksheetcollection-add-member(1));
   * a name already taken fails with ItemAlreadyExists (https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-error-handling).
   */
  add(name?: string | null): Worksheet {
    let created: Sheet | null = null;
    this._ctx._queue(() => {
      let n: unknown = name;
      if (n === undefined || n === null) {
        let i = S.order.length + 1;
        while (S.sheets.has(`sheet${i}`)) i++;
        n = `Sheet${i}`;
      }
      const s = String(n);
      if (S.sheets.has(s.toLowerCase())) throw excelError("The resource already exists.", "ItemAlreadyExists");
      if (s.length > 31 || /[:\\/?*[\]]/.test(s)) throw excelError(`Invalid sheet name ${s}`, "InvalidArgument");
      created = { name: s, cells: new Map() };
      S.sheets.set(s.toLowerCase(), created);
      S.order.push(s);
      S.added.push(s);
    });
    return new Worksheet(this._ctx, () => created);
  }
}

/** Workbook.settings: "Represents a collection of settings associated with the workbook" (one store with Office's document settings, office.ts). */
class SettingsCollection {
  constructor(private readonly _ctx: RequestContext) {}
  add(key: string, value: unknown): void {
    this._ctx._queue(() => S.documentSettings.set(String(key), JSON.stringify(value)));
  }
}

class CustomXmlPartCollection {
  constructor(private readonly _ctx: RequestContext) {}
  add(xml: string): void {
    this._ctx._queue(() => S.customXmlParts.push(String(xml)));
  }
}

export class RequestContext {
  _ops: (() => void)[] = [];
  _requestBytes = 0;
  _commits: (() => void)[] = [];
  _calc: FormulaCell[] = [];
  _answerBytes = 0;
  readonly workbook;
  readonly application;
  constructor() {
    const ctx = this;
    this.workbook = {
      worksheets: new WorksheetCollection(ctx),
      settings: new SettingsCollection(ctx),
      customXmlParts: new CustomXmlPartCollection(ctx),
      /** The linked entity data domains (ExcelApi 1.19, linked-domains.ts). */
      linkedEntityDataDomains: new LinkedEntityDataDomainCollection(ctx),
      getSelectedRange(): Range {
        return new Range(ctx, () => (S.selection ? { sheet: sheetOf(S.selection.sheet), box: S.selection.box } : null));
      },
      getSelectedRanges(): SelectedAreas {
        return new SelectedAreas(ctx);
      },
      getActiveCell(): Range {
        return activeCell(ctx, sheetOf);
      },
      application: {
        calculate(): void {
          ctx._queue(() => calculateAll());
        },
      },
    };
    this.application = this.workbook.application;
  }
  /**
   * Queues an operation for the next sync. Its weight in the request: about 100 bytes for the
   * action and its object path, plus what it sends (values, formulas, formats as JSON).
   */
  _queue(op: () => void, payload?: unknown): void {
    this._ops.push(op);
    this._requestBytes += 100 + (payload === undefined ? 0 : utf8Bytes(JSON.stringify(payload)));
  }
  async sync(): Promise<void> {
    const ops = this._ops;
    const requestBytes = this._requestBytes;
    this._ops = [];
    this._requestBytes = 0;
    this._commits = [];
    this._calc = [];
    this._answerBytes = 0;
    S.syncs++;
    // "Excel on the web has a payload size limit for requests and responses of 5MB": a request over
    // it fails whole, nothing of it applied (RequestPayloadSizeLimitExceeded, "This error only occurs
    // in Office on the web": https://learn.microsoft.com/office/dev/add-ins/testing/application-specific-api-error-handling).
    if (requestBytes > S.payloadLimit)
      throw excelError("The request payload size has exceeded the limit.", "RequestPayloadSizeLimitExceeded");
    S.maxRequestBytes = Math.max(S.maxRequestBytes, requestBytes);
    for (const op of ops) op();
    if (this._answerBytes > S.payloadLimit)
      throw excelError("The response payload size has exceeded the limit.", "ResponsePayloadSizeLimitExceeded");
    S.maxAnswerBytes = Math.max(S.maxAnswerBytes, this._answerBytes);
    for (const commit of this._commits) commit();
    calculateCells(this._calc);
    await new Promise((r) => setTimeout(r, 0));
  }
}

/** The `Excel` global: `Excel.run(batch)` (or `Excel.run(object, batch)`) with a fresh RequestContext. */
export const Excel = {
  run(a: unknown, b?: unknown): Promise<unknown> {
    const batch = (typeof a === "function" ? a : b) as (ctx: RequestContext) => unknown;
    const ctx = new RequestContext();
    return Promise.resolve().then(() => batch(ctx));
  },
  RequestContext,
  CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
};
