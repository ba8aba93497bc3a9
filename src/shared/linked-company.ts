/**
 * FIRMA's linked data type, without Office: a company as Excel's linked entity cell value, and the
 * load service's work (https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values).
 *
 * Excel hands the load service a request as a JSON string, { domainId, entities: [{ entityId, culture }] }
 * (Excel.LinkedEntityLoadServiceRequest), and takes { entities } back "in the same order as the entities
 * property of LinkedEntityLoadServiceRequest" (Excel.LinkedEntityLoadServiceResult). Each company is
 * read as FIRMA.FISA reads it (company-card.ts: the profile and the latest financial year, through the
 * one engine: its batches, cache, guard, budget and plan stop), so a request for 250 companies costs
 * what 250 FISA cells cost. The pages define one failure, the whole request's (a thrown
 * CustomFunctions.Error: #CONNECT! in every cell); an id that is not a CUI, or a company the service
 * does not know, answers its own entity, whose text and note say why, and the others load.
 *
 * Property names: the page has the entity keep its `culture` "so that you can maintain the original
 * culture when the workbook is opened in a different culture", and Excel passes it back with every
 * request. FIRMA names the properties in the entity's culture, not the Excel it is opened in: a card
 * made in Romanian keeps "Denumire" in an English Excel, so =A2.Denumire keeps working. A culture
 * FIRMA does not speak answers English.
 */
import type { FirmaEngine } from "../engine/engine";
import { isCard, toCellError, type CardCell, type Lang, type Scalar } from "./cells";
import { companyCard } from "./company-card";
import type { EvalContext } from "./eval-context";
import { headers } from "./headers";
import { fill, t } from "./messages";
import { ADDIN_SERVICE_ID, COMPANY_DOMAIN_ID } from "./linked-ids";
import { linkedEn } from "./messages/linked-en";
import { linkedRo, type LinkedMessageKey } from "./messages/linked-ro";

/** A linked company's own words (messages/linked-ro.ts, linked-en.ts: in this chunk, not in the startup scripts). */
function lt(lang: Lang, key: LinkedMessageKey, params: Record<string, string> = {}): string {
  return fill((lang === "en" ? linkedEn : linkedRo)[key], key, lang, params);
}

export { ADDIN_SERVICE_ID, COMPANY_DOMAIN_ID };
/** The load service's custom function id (functions.ts; both metadata files). */
export const LOAD_FUNCTION_ID = "INCARCA_FIRME";
export const DATA_PROVIDER = "FIRMA";

/** Excel.LinkedEntityId. */
export interface LinkedId {
  entityId: string;
  domainId: string;
  serviceId: number;
  culture: string;
}

/** A property's cell value: String, Double, Boolean or FormattedNumber (Excel.EntityPropertyType). */
export type PropertyValue =
  | { type: "String"; basicValue: string }
  | { type: "Boolean"; basicValue: boolean }
  | { type: "FormattedNumber"; basicValue: number; numberFormat: string };

/** Excel.LinkedEntityCellValue as FIRMA makes it. */
export interface LinkedCompany {
  type: "LinkedEntity";
  id: LinkedId;
  text: string;
  /** What an Excel without linked entities shows: "set the basicType to Error and the basicValue to #VALUE!" (the page). */
  basicType: "Error";
  basicValue: "#VALUE!";
  properties?: Record<string, PropertyValue>;
  layouts?: { compact: { icon: string }; card: { title?: { property: string }; sections: CardSection[] } };
  provider?: { description: string };
}
interface CardSection {
  layout: "List";
  title: string;
  properties: string[];
}

/** The language of an entity's culture: Romanian for ro-*, English for en-* and for any culture FIRMA does not speak. */
export function cultureLang(culture: unknown): Lang {
  return typeof culture === "string" && /^ro(\b|-|_|$)/i.test(culture.trim()) ? "ro" : "en";
}

/** The culture FIRMA gives a new entity: the user's language (the entity keeps it). */
export function cultureOf(lang: Lang): string {
  return lang === "ro" ? "ro-RO" : "en-US";
}

/** The domain's name in the user's language: "Firmă" / "Company". */
export function domainName(lang: Lang): string {
  return lt(lang, "linked.domain");
}

/** A new linked company as the pane writes it: its id, culture and the text shown until Excel has loaded it. */
export function linkedStub(cui: string | number, text: string, lang: Lang): LinkedCompany {
  return {
    type: "LinkedEntity",
    id: { entityId: String(cui), domainId: COMPANY_DOMAIN_ID, serviceId: ADDIN_SERVICE_ID, culture: cultureOf(lang) },
    text: text || String(cui),
    basicType: "Error",
    basicValue: "#VALUE!",
  };
}

/** A request FIRMA cannot read at all: the one failure the pages give the whole request. */
export class LoadRequestError extends Error {
  readonly kind = "bad_request";
}

export interface LoadRequest {
  domainId: string;
  entities: { entityId: string; culture: string }[];
}

/** Excel's request: a JSON string (the page's load service parses it with JSON.parse); an object is taken too. */
export function parseLoadRequest(request: unknown): LoadRequest {
  let r: unknown = request;
  if (typeof request === "string") {
    try {
      r = JSON.parse(request);
    } catch {
      throw new LoadRequestError("linked entity request: not JSON");
    }
  }
  const o = r as { domainId?: unknown; entities?: unknown } | null;
  if (!o || typeof o !== "object" || !Array.isArray(o.entities)) throw new LoadRequestError("linked entity request: no entities");
  if (o.domainId !== COMPANY_DOMAIN_ID) throw new LoadRequestError(`linked entity request: unknown domain ${String(o.domainId)}`);
  const entities = o.entities.map((e: unknown) => {
    const x = (e ?? {}) as { entityId?: unknown; culture?: unknown };
    return { entityId: String(x.entityId ?? ""), culture: typeof x.culture === "string" ? x.culture : "" };
  });
  return { domainId: o.domainId, entities };
}

/** Number formats: money and people as whole numbers with thousands, the year as it is, the fetch date as ISO. */
const WHOLE = "#,##0";
const YEAR = "0";
const DATE = "yyyy-mm-dd hh:mm";

/** An Excel date serial (days since 1899-12-30) for ms since the epoch, in UTC. */
export function excelDate(ms: number): number {
  return ms / 86_400_000 + 25_569;
}

/** The fetch date as the note writes it (UTC, to the minute). */
function isoMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/**
 * Excel's request answered: one linked company per entity, in the request's order. The reads start
 * together (the engine batches them as it batches cells); a held, failed or unknown company answers
 * its own entity. `now` is the clock the stale check reads.
 */
export async function loadCompanies(
  request: unknown,
  engine: FirmaEngine,
  now: () => number = Date.now,
): Promise<{ entities: LinkedCompany[] }> {
  const { entities } = parseLoadRequest(request);
  await engine.ready();
  const started = now();
  const entitiesOut = await Promise.all(entities.map((e) => loadOne(engine, e.entityId, e.culture, started)));
  return { entities: entitiesOut };
}

/** One company's linked value: the card read as FISA reads it, or the entity that says why there is none. */
async function loadOne(engine: FirmaEngine, entityId: string, culture: string, started: number): Promise<LinkedCompany> {
  const lang = cultureLang(culture);
  const id: LinkedId = { entityId, domainId: COMPANY_DOMAIN_ID, serviceId: ADDIN_SERVICE_ID, culture };
  const ctx: EvalContext = { engine, lang, cards: true };
  // Whether the cache held this company fresh before the read: if not, and the answer is older than the read, a stale one stood in.
  let freshBefore = false;
  try {
    freshBefore = engine.estimate([{ kind: "profile", cui: entityId, field: "denumire" }]).cached === 1;
  } catch {
    freshBefore = false;
  }
  try {
    const card = await companyCard.read(ctx, entityId, []);
    if (!isCard(card)) throw new Error("no card");
    const fetched = engine.freshness([{ kind: "profile", cui: entityId, field: "denumire" }]).newest;
    const stale = !freshBefore && fetched !== null && fetched < started;
    return linkedCompany(id, card, lang, fetched, stale);
  } catch (e) {
    return errorEntity(id, entityId, toCellError(e, lang).message, lang);
  }
}

/** The card's properties as typed cell values: numbers with their format, CAEN and CUI as text, the fetch date and a note. */
function linkedCompany(id: LinkedId, card: CardCell, lang: Lang, fetched: number | null, stale: boolean): LinkedCompany {
  const profile = headers("PROFIL", lang);
  const [, name] = profile;
  const caen = profile[6];
  const textual = new Set(["CUI", caen]);
  const yearKey = t(lang, "card.year");
  const properties: Record<string, PropertyValue> = {};
  for (const [key, v] of Object.entries(card.properties)) properties[key] = typed(key, v, textual, yearKey);
  const updated = lt(lang, "linked.updated");
  const note = lt(lang, "linked.note");
  if (fetched !== null) properties[updated] = { type: "FormattedNumber", basicValue: excelDate(fetched), numberFormat: DATE };
  if (stale && fetched !== null) properties[note] = { type: "String", basicValue: lt(lang, "linked.stale", { date: isoMinute(fetched) }) };
  const sections: CardSection[] = card.sections.map((s) => ({ layout: "List", title: s.title, properties: [...s.properties] }));
  const tail = [updated, note].filter((k) => k in properties);
  if (tail.length > 0) sections[0]?.properties.push(...tail);
  return {
    type: "LinkedEntity",
    id,
    text: card.text,
    basicType: "Error",
    basicValue: "#VALUE!",
    properties,
    layouts: { compact: { icon: "Briefcase" }, card: { ...(name in properties ? { title: { property: name } } : {}), sections } },
    provider: { description: DATA_PROVIDER },
  };
}

function typed(key: string, v: Scalar, textual: Set<string>, yearKey: string): PropertyValue {
  if (typeof v === "boolean") return { type: "Boolean", basicValue: v };
  if (typeof v === "number" && !textual.has(key))
    return { type: "FormattedNumber", basicValue: v, numberFormat: key === yearKey ? YEAR : WHOLE };
  return { type: "String", basicValue: String(v) };
}

/** A company that could not be loaded: its id kept, the text and the note saying why (the others load). */
function errorEntity(id: LinkedId, entityId: string, message: string, lang: Lang): LinkedCompany {
  const note = lt(lang, "linked.note");
  return {
    type: "LinkedEntity",
    id,
    text: `${entityId}: ${message}`,
    basicType: "Error",
    basicValue: "#VALUE!",
    properties: { CUI: { type: "String", basicValue: entityId }, [note]: { type: "String", basicValue: message } },
    layouts: { compact: { icon: "Briefcase" }, card: { sections: [{ layout: "List", title: note, properties: ["CUI", note] }] } },
    provider: { description: DATA_PROVIDER },
  };
}
