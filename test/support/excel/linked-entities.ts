/**
 * Excel's side of linked entity data types, as Microsoft's pages describe it, for the tests: the
 * domains an add-in registers, the linked entity cells a workbook holds, the requests Excel sends the
 * load service, what it does with the answer, refresh modes, and what the workbook keeps without the
 * add-in. Page: https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values
 * ("the page" below); the interfaces' reference pages where named. As strict as the pages, never more
 * lenient: what no page defines is refused or recorded in `violations`.
 */
import { atLeast, entityProblems } from "./rules";

/** "You must specify a serviceId of 268436224 for any linked entity cell values you return" (the page). */
export const ADDIN_SERVICE_ID = 268436224;
const MODES = ["Manual", "OnLoad", "Periodic"];

type Json = Record<string, any>;

export interface Domain {
  dataProvider: string;
  id: string;
  name: string;
  loadFunctionId: string;
  supportedRefreshModes: string[];
  refreshMode: string;
  periodicRefreshInterval?: number;
}

/** The load service as Excel calls it: the request as a JSON string (the page's function does JSON.parse(request)). */
export type LoadService = (request: string) => unknown;

/** LinkedEntityDataDomainCreateOptions (https://learn.microsoft.com/javascript/api/excel/excel.linkedentitydatadomaincreateoptions). */
export type DomainOptions = Omit<Domain, "refreshMode" | "supportedRefreshModes"> & { supportedRefreshModes?: string[] };

export interface LinkedOptions {
  /** The ExcelApi version this Excel supports (a function: asked at each use, as the browser stand-in's can change). @default "1.19" */
  excelApi?: string | (() => string);
  /** The add-in's load service (its loadFunctionId's function); null: the add-in is not loaded. */
  load?: LoadService | null;
  /** The load service by a domain's loadFunctionId (the browser stand-in: the function the add-in associated); before `load`. */
  loadFor?: (loadFunctionId: string) => LoadService | null;
}

/** What a saved workbook keeps: the cells' values and each domain's refresh mode. */
export interface SavedWorkbook {
  cells: [string, Json][];
  modes: [string, string][];
}

/**
 * What Excel refuses in a linked entity the add-in writes into a cell (Range.valuesAsJson): "You must
 * specify a serviceId of 268436224", "You must specify a culture", no "!" in entityId or domainId (the page).
 */
export function linkedCellProblems(v: Json): string[] {
  const id = v?.id ?? {};
  if (v?.type !== "LinkedEntity") return ["not a LinkedEntity"];
  const out: string[] = [];
  if (id.serviceId !== ADDIN_SERVICE_ID) out.push(`serviceId must be ${ADDIN_SERVICE_ID}`);
  if (typeof id.culture !== "string" || id.culture === "") out.push("no culture");
  if (String(id.entityId).includes("!") || String(id.domainId).includes("!")) out.push('"!" in an id');
  return out;
}

const connectError = () => ({ type: "Error", basicType: "Error", basicValue: "#CONNECT!", errorType: "Connect" });

export class LinkedEntityWorkbook {
  /** The cells holding linked entities (or the error Excel put there), address → cell value JSON. */
  readonly cells = new Map<string, Json>();
  readonly domains = new Map<string, Domain>();
  /** Every request handed to the load service, as the JSON string it received. */
  readonly requests: string[] = [];
  /** Answers the pages do not allow (a wrong count or order, a malformed entity). */
  readonly violations: string[] = [];
  private readonly savedModes = new Map<string, string>();
  /** Told each cell's value once Excel has it from the load service (or the #CONNECT! error): the browser stand-in shows it. */
  onSettle: ((address: string, value: Json) => void) | null = null;
  private readonly api: () => string;
  private load: LoadService | null;
  private readonly loadFor: ((loadFunctionId: string) => LoadService | null) | null;

  constructor(options: LinkedOptions = {}, saved?: SavedWorkbook) {
    const api = options.excelApi ?? "1.19";
    this.api = typeof api === "function" ? api : () => api;
    this.load = options.load ?? null;
    this.loadFor = options.loadFor ?? null;
    for (const [a, v] of saved?.cells ?? []) this.cells.set(a, v);
    for (const [d, m] of saved?.modes ?? []) this.savedModes.set(d, m);
  }

  /**
   * LinkedEntityDataDomainCollection.add (ExcelApi 1.19; https://learn.microsoft.com/javascript/api/excel/excel.linkedentitydatadomaincreateoptions):
   * id and name unique within the add-in; "periodicRefreshInterval ... The minimum valid value is 300.
   * This property is required if the supportedRefreshModes array contains the value Periodic"; the
   * refresh mode is the one saved in the workbook, else "the first value in the array", else Manual
   * ("always supported even if not specified"). OnLoad and Periodic refresh "when the data domain is registered".
   */
  async add(o: DomainOptions): Promise<void> {
    const domain = this.register(o);
    if (domain.refreshMode !== "Manual") await this.refresh(o.id);
  }

  /** add()'s registration, at once (the refresh it starts is add()'s, or the caller's); throws what Excel refuses. */
  register(o: DomainOptions): Domain {
    if (!atLeast(this.api(), "1.19")) throw new Error("ApiNotFound: LinkedEntityDataDomainCollection.add needs ExcelApi 1.19");
    if (this.domains.has(o.id)) throw new Error(`InvalidArgument: the domain id ${o.id} is taken`);
    for (const d of this.domains.values()) if (d.name === o.name) throw new Error(`InvalidArgument: the domain name ${o.name} is taken`);
    if (o.id.includes("!")) throw new Error("InvalidArgument: no exclamation marks in a domainId (the page)");
    const supported = o.supportedRefreshModes ?? ["Manual"];
    for (const m of supported) if (!MODES.includes(m)) throw new Error(`InvalidArgument: refresh mode ${m}`);
    if (supported.includes("Periodic") && !((o.periodicRefreshInterval ?? 0) >= 300))
      throw new Error("InvalidArgument: Periodic needs periodicRefreshInterval ≥ 300");
    const allowed = new Set([...supported, "Manual"]);
    const saved = this.savedModes.get(o.id);
    const refreshMode = saved && allowed.has(saved) ? saved : (supported[0] ?? "Manual");
    const domain: Domain = { ...o, supportedRefreshModes: supported, refreshMode };
    this.domains.set(o.id, domain);
    return domain;
  }

  /** LinkedEntityDataDomain.refreshMode: "If the refresh mode being set is not supported by this linked entity data domain, then the current refresh mode is not changed." */
  setRefreshMode(id: string, mode: string): void {
    const d = this.domains.get(id);
    if (!d) throw new Error(`ItemNotFound: domain ${id}`);
    if (mode === "Manual" || d.supportedRefreshModes.includes(mode)) d.refreshMode = mode;
  }

  /** LinkedEntityDataDomain.delete: its values "can't be refreshed" any more. */
  delete(id: string): void {
    this.domains.delete(id);
  }

  /**
   * The add-in writes a linked entity into a cell (Range.valuesAsJson): "You must specify a serviceId of
   * 268436224", "You must specify a culture", no "!" in entityId or domainId; the `text` shows while
   * Excel calls the load service, which it does "every time you create a new linked entity cell value".
   */
  async insert(entries: [string, Json][]): Promise<void> {
    for (const [address, v] of entries) {
      const problems = linkedCellProblems(v);
      if (problems.length > 0) throw new Error(`${address}: ${problems[0]}`);
      this.cells.set(address, v);
    }
    await this.loadCells(entries.map(([a]) => a));
  }

  /** Data → Refresh All (LinkedEntityDataDomainCollection.refreshAll), or one domain's refresh(). */
  async refresh(domainId?: string): Promise<void> {
    const addresses = [...this.cells]
      .filter(([, v]) => v.type === "LinkedEntity" && (!domainId || v.id.domainId === domainId))
      .map(([a]) => a);
    await this.loadCells(addresses);
  }

  /**
   * Excel calls the load service, "the linked entity IDs ... passed as a batch": one request per domain
   * with each id and culture once (Excel "caches linked entity cell values so multiple cells can
   * reference the same value"). Each answer must be an entity, "in the same order as the entities
   * property of LinkedEntityLoadServiceRequest" (excel.linkedentityloadserviceresult). "If Excel can't
   * connect to your add-in at all, such as when the add-in isn't loaded, Excel displays the #CONNECT!
   * error", and a thrown error "causes Excel to show #CONNECT!".
   */
  private async loadCells(addresses: string[]): Promise<void> {
    const byDomain = new Map<string, string[]>();
    for (const a of addresses) {
      const d = String(this.cells.get(a)!.id.domainId);
      const list = byDomain.get(d);
      if (list) list.push(a);
      else byDomain.set(d, [a]);
    }
    for (const [domainId, cells] of byDomain) {
      const keyOf = (v: Json) => `${v.id.entityId}\u0000${v.id.culture}`;
      const order = new Map<string, { entityId: string; culture: string }>();
      for (const a of cells) {
        const v = this.cells.get(a)!;
        if (!order.has(keyOf(v))) order.set(keyOf(v), { entityId: String(v.id.entityId), culture: v.id.culture });
      }
      const answered = await this.ask(domainId, [...order.values()]);
      const index = new Map([...order.keys()].map((k, i) => [k, i]));
      for (const a of cells) {
        const i = index.get(keyOf(this.cells.get(a)!))!;
        const value = answered ? answered[i] : connectError();
        this.cells.set(a, value);
        this.onSettle?.(a, value);
      }
    }
  }

  /** One request to the load service; its entities, or null when Excel shows #CONNECT!. */
  private async ask(domainId: string, entities: { entityId: string; culture: string }[]): Promise<Json[] | null> {
    const domain = this.domains.get(domainId);
    const load = domain && this.loadFor ? this.loadFor(domain.loadFunctionId) : this.load;
    if (!load || !domain) return null;
    const request = JSON.stringify({ domainId, entities });
    this.requests.push(request);
    let result: any;
    try {
      result = await load(request);
    } catch {
      return null;
    }
    const got: unknown[] | null = result && Array.isArray(result.entities) ? result.entities : null;
    if (!got || got.length !== entities.length) {
      this.violations.push(`${domainId}: ${got ? got.length : "no"} entities answered for ${entities.length}`);
      return null;
    }
    const out: Json[] = [];
    for (let i = 0; i < got.length; i++) {
      const e = got[i] as Json;
      const problems = e?.type !== "LinkedEntity" ? ["not a LinkedEntity"] : entityProblems(e, `entity ${i}`);
      if (e?.id?.entityId !== entities[i].entityId)
        problems.push(`entity ${i} is ${e?.id?.entityId}, asked ${entities[i].entityId} (order)`);
      if (e?.id?.serviceId !== ADDIN_SERVICE_ID) problems.push(`entity ${i}: serviceId`);
      if (problems.length > 0) {
        this.violations.push(...problems);
        return null;
      }
      out.push(e);
    }
    return out;
  }

  /** =A1.Name: the property's value; #FIELD! when the entity has no such property; an error cell's error. */
  field(address: string, name: string): unknown {
    const v = this.cells.get(address);
    if (!v) throw new Error(`${address} holds no linked entity`);
    if (v.type === "Error") return v.basicValue;
    const p = v.properties?.[name];
    return p === undefined ? "#FIELD!" : p.basicValue;
  }

  /**
   * What a cell shows. In an Excel without linked entity values ("Excel 2019 and earlier", the page) the
   * fallback: "you set the basicType to Error and the basicValue to #VALUE!".
   */
  shown(address: string, linkedEntitiesShown = true): unknown {
    const v = this.cells.get(address)!;
    if (v.type === "Error") return v.basicValue;
    return linkedEntitiesShown ? v.text : v.basicType === "Error" ? v.basicValue : "#VALUE!";
  }

  /** The workbook saved: the cells' values and each domain's refresh mode ("The refresh mode saved in the workbook ..."). */
  save(): SavedWorkbook {
    const modes = new Map(this.savedModes);
    for (const d of this.domains.values()) modes.set(d.id, d.refreshMode);
    return JSON.parse(JSON.stringify({ cells: [...this.cells], modes: [...modes] }));
  }
}
