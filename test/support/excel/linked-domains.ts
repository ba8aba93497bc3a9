/**
 * Workbook.linkedEntityDataDomains in the browser stand-in: the Excel JS proxies over Excel's linked
 * entities (linked-entities.ts, `S.linked`), and the cells a linked entity is written into. As the pages say:
 *  - Excel.LinkedEntityDataDomainCollection (https://learn.microsoft.com/javascript/api/excel/excel.linkedentitydatadomaincollection):
 *    "[ API set: ExcelApi 1.19 ]" (every method fails with ApiNotFound below it); add(options) "Adds a
 *    linked entity data domain object defined by the Office Add-in to the collection"; getItem(id),
 *    getItemOrNullObject(id) ("returns an object with its isNullObject property set to true"),
 *    getItemByName(name), getItemByNameOrNullObject(name), items, refreshAll().
 *  - LinkedEntityDataDomainCreateOptions (https://learn.microsoft.com/javascript/api/excel/excel.linkedentitydatadomaincreateoptions):
 *    dataProvider, id, name, loadFunctionId required; supportedRefreshModes and periodicRefreshInterval
 *    as linked-entities.ts register() holds them.
 *  - Excel.LinkedEntityDataDomain (https://learn.microsoft.com/javascript/api/excel/excel.linkedentitydatadomain):
 *    its properties, refreshMode settable ("If the refresh mode being set is not supported by this linked
 *    entity data domain, then the current refresh mode is not changed"), delete(), refresh().
 *  - "Create linked entity cell values" (https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values):
 *    a linked entity written into a cell shows its `text` and Excel calls the domain's load service for
 *    the rest; OnLoad refreshes "when the data domain is registered"; the load service is the function
 *    associated under the domain's loadFunctionId.
 * The load service runs after the sync that wrote or registered, as Excel's own call; `idle()` waits for it.
 */
import { colLetters, parseRef } from "./a1";
import { cellAt, excelError, requireApi } from "./cells";
import type { RequestContext } from "./excel-api";
import { ClientObject, notFound } from "./proxy";
import type { Domain, DomainOptions } from "./linked-entities";
import { S, type Sheet } from "./state";

type Json = Record<string, any>;

const addressOf = (sheet: Sheet, r: number, c: number) => `${sheet.name}!${colLetters(c)}${r}`;

/** The stand-in's cell at "Sheet!A1" (addressOf's form), or null. */
function cellOfAddress(address: string) {
  const bang = address.lastIndexOf("!");
  const sheet = S.sheets.get(address.slice(0, bang).toLowerCase());
  const ref = parseRef(address.slice(bang + 1));
  return sheet && ref ? cellAt(sheet, ref.box.top, ref.box.left) : null;
}

/** Excel's work after a sync (the load service's calls), waited for by the stand-in's idle(). */
function track(work: Promise<unknown>): void {
  const p: Promise<unknown> = work
    .catch((e) => void S.linked.violations.push(`Excel's linked entity work failed: ${String(e)}`))
    .finally(() => S.pending.delete(p));
  S.pending.add(p);
}

/** The cells whose linked entity was overwritten since Excel took it are no longer refreshed. */
function prune(): void {
  for (const [address, v] of [...S.linked.cells]) {
    const cell = cellOfAddress(address);
    const rich = cell?.rich;
    const same =
      v.type === "Error"
        ? cell?.error?.code === v.basicValue
        : rich?.type === "LinkedEntity" && (rich.id as Json | undefined)?.entityId === v.id?.entityId;
    if (!same) S.linked.cells.delete(address);
  }
}

/** What a cell shows of a linked entity: the entity (its card; Range.values reads #VALUE!, as an entity's) or Excel's error. */
S.linked.onSettle = (address, value) => {
  const cell = cellOfAddress(address);
  if (!cell || cell.rich?.type !== "LinkedEntity") return; // overwritten meanwhile
  if (value.type === "Error") {
    Object.assign(cell, { rich: null, value: value.basicValue, error: { code: value.basicValue, message: "" } });
    return;
  }
  Object.assign(cell, { rich: { ...value, basicType: "Error", basicValue: "#VALUE!" }, value: "#VALUE!", error: null });
};

/** The linked entities written by the sync under way, handed to Excel together once its operations have run. */
let written: [string, Json][] | null = null;

/**
 * Range.valuesAsJson has written a linked entity into a cell (writes.ts): Excel calls the load service
 * for it, with the other entities of the same sync in one request ("passed as a batch", the page).
 */
export function linkedWritten(sheet: Sheet, r: number, c: number, v: Json): void {
  if (!written) {
    const batch: [string, Json][] = (written = []);
    void Promise.resolve().then(() => {
      written = null;
      track(S.linked.insert(batch));
    });
  }
  written.push([addressOf(sheet, r, c), v]);
}

/** A domain as the add-in reads it (LinkedEntityDataDomain). */
class LinkedEntityDataDomain extends ClientObject {
  constructor(
    ctx: RequestContext,
    private readonly _find: () => Domain | null,
    orNull = false,
  ) {
    super(ctx);
    const find = _find;
    this._find = () => {
      requireApi("1.19", "LinkedEntityDataDomain");
      const d = find();
      if (!d && !orNull) throw notFound();
      return d;
    };
  }
  private _domain(): Domain {
    return this._find()!;
  }
  _snapshot(list: string[] | null): Record<string, unknown> {
    const d = this._find();
    if (!d) return { isNullObject: true };
    const all: Record<string, unknown> = {
      dataProvider: d.dataProvider,
      id: d.id,
      name: d.name,
      loadFunctionId: d.loadFunctionId,
      periodicRefreshInterval: d.periodicRefreshInterval ?? 0,
      refreshMode: d.refreshMode,
      supportedRefreshModes: [...d.supportedRefreshModes],
    };
    const out: Record<string, unknown> = { isNullObject: false };
    for (const k of list ?? Object.keys(all)) if (k in all) out[k] = all[k];
    return out;
  }
  get dataProvider(): string {
    return this._get("dataProvider");
  }
  get id(): string {
    return this._get("id");
  }
  get name(): string {
    return this._get("name");
  }
  get loadFunctionId(): string {
    return this._get("loadFunctionId");
  }
  get periodicRefreshInterval(): number {
    return this._get("periodicRefreshInterval");
  }
  get supportedRefreshModes(): string[] {
    return this._get("supportedRefreshModes");
  }
  get refreshMode(): string {
    return this._get("refreshMode");
  }
  set refreshMode(mode: string) {
    this._ctx._queue(() => S.linked.setRefreshMode(this._domain().id, String(mode)));
  }
  /** "Deletes this object from the LinkedEntityDataDomainCollection": its values can no longer be refreshed. */
  delete(): void {
    this._ctx._queue(() => S.linked.delete(this._domain().id));
  }
  /** "Refreshes all LinkedEntityCellValue objects of this linked entity data domain." */
  refresh(): void {
    this._ctx._queue(() => {
      const id = this._domain().id;
      prune();
      track(S.linked.refresh(id));
    });
  }
}

export class LinkedEntityDataDomainCollection extends ClientObject {
  _snapshot(): Record<string, unknown> {
    requireApi("1.19", "LinkedEntityDataDomainCollection");
    return {
      items: [...S.linked.domains.values()].map((d) => {
        const item = new LinkedEntityDataDomain(this._ctx, () => S.linked.domains.get(d.id) ?? null);
        item._data = item._snapshot(null);
        for (const k of Object.keys(item._data)) item._loaded.add(k);
        return item;
      }),
    };
  }
  get items(): LinkedEntityDataDomain[] {
    return this._get("items");
  }
  /**
   * Registers a domain of the add-in (LinkedEntityDataDomainCreateOptions, copied as the request sends
   * it). Refused at sync: below ExcelApi 1.19 (ApiNotFound), a required option missing, an id or name taken,
   * an unknown refresh mode, Periodic without periodicRefreshInterval ≥ 300 (InvalidArgument). A
   * loadFunctionId that names no function of the add-in flagged linkedEntityLoadService is registered (no
   * page says Excel checks it); Excel's calls of it are recorded in `linked.violations` (state.ts) and
   * its values are #CONNECT!.
   */
  add(options: DomainOptions): void {
    const o = JSON.parse(JSON.stringify(options ?? {})) as DomainOptions;
    this._ctx._queue(() => {
      requireApi("1.19", "LinkedEntityDataDomainCollection.add");
      // "This class isn't supported in Excel on the web", which claims ExcelApi 1.19 all the same.
      if (S.platform === "OfficeOnline")
        throw excelError("LinkedEntityDataDomainCollection isn't supported in Excel on the web.", "ApiNotFound");
      for (const k of ["dataProvider", "id", "name", "loadFunctionId"] as const)
        if (typeof o[k] !== "string" || o[k] === "")
          throw excelError(`LinkedEntityDataDomainCreateOptions.${k} is required`, "InvalidArgument");
      let d: Domain;
      try {
        d = S.linked.register(o);
      } catch (e) {
        const message = String((e as Error).message);
        throw excelError(message, message.split(":")[0] || "InvalidArgument");
      }
      // OnLoad (and Periodic) refresh "when the data domain is registered".
      if (d.refreshMode !== "Manual") {
        prune();
        track(S.linked.refresh(d.id));
      }
    }, o);
  }
  getItem(id: string): LinkedEntityDataDomain {
    return new LinkedEntityDataDomain(this._ctx, () => S.linked.domains.get(String(id)) ?? null);
  }
  getItemOrNullObject(id: string): LinkedEntityDataDomain {
    return new LinkedEntityDataDomain(this._ctx, () => S.linked.domains.get(String(id)) ?? null, true);
  }
  getItemByName(name: string): LinkedEntityDataDomain {
    return new LinkedEntityDataDomain(this._ctx, () => [...S.linked.domains.values()].find((d) => d.name === name) ?? null);
  }
  getItemByNameOrNullObject(name: string): LinkedEntityDataDomain {
    return new LinkedEntityDataDomain(this._ctx, () => [...S.linked.domains.values()].find((d) => d.name === name) ?? null, true);
  }
  /** "Refreshes all data domains and the linked entity cell values of each domain" (Data → Refresh All). */
  refreshAll(): void {
    this._ctx._queue(() => {
      requireApi("1.19", "LinkedEntityDataDomainCollection.refreshAll");
      prune();
      track(S.linked.refresh());
    });
  }
}
