/**
 * FIRMA's Excel custom functions. The JSDoc blocks are the registration: the build turns them into
 * dist/functions.json (CustomFunctionsMetadataPlugin), which also adds the CustomFunctions.associate
 * calls. Each body is one line: the work is table-driven in evaluate.ts (Office-free, shared with the
 * CLI); `run` only bridges Excel's invocation and error objects.
 * Display texts (names, descriptions, parameter names, Romanian and English) come from
 * src/shared/function-names.ts: the build replaces the JSDoc's texts with them (functions.json Romanian,
 * functions-en.json English; docs/excel.md). A new function here needs its row there.
 */
import { CardCell, isCard, Lang, Matrix, Scalar } from "../shared/cells";
import { EvalContext, evaluateNow } from "../shared/evaluate";
import { getEngine, readyEngine } from "../shared/engine-instance";
import type { CancelSignal } from "../api/types";
import type { FirmaEngine } from "../engine/engine";
import { plainArgument } from "../shared/excel-values";
import { recordInvocation } from "../shared/invocations";
import { getSettings } from "../shared/settings";
import { useOfficeStorage } from "../office/storage";

// Office's storage for the settings and the cache, chosen before any function asks for the engine.
useOfficeStorage();

/**
 * Când au fost aduse datele firmei (dată Excel; formatați celula ca dată și oră). / When FIRMA fetched the company's data (an Excel date; format the cell as date and time).
 * @customfunction ACTUALIZAT
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Data și ora aducerii datelor. / Date and time the data was fetched.
 */
export function actualizat(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("ACTUALIZAT", [cui], invocation);
}

/**
 * Denumirea firmei. / Company name.
 * @customfunction DENUMIRE
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Denumirea firmei. / Company name.
 */
export function denumire(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("DENUMIRE", [cui], invocation);
}

/**
 * Starea firmei (de ex. ACTIVA, RADIATA). / Company status (e.g. ACTIVA, RADIATA).
 * @customfunction STARE
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Starea firmei. / Company status.
 */
export function stare(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("STARE", [cui], invocation);
}

/**
 * Județul sediului social. / County of the registered office.
 * @customfunction JUDET
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Județul sediului social. / County of the registered office.
 */
export function judet(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("JUDET", [cui], invocation);
}

/**
 * Localitatea sediului social. / Locality of the registered office.
 * @customfunction LOCALITATE
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Localitatea sediului social. / Locality of the registered office.
 */
export function localitate(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("LOCALITATE", [cui], invocation);
}

/**
 * Adresa sediului social. / Address of the registered office.
 * @customfunction ADRESA
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Adresa sediului social. / Address of the registered office.
 */
export function adresa(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("ADRESA", [cui], invocation);
}

/**
 * Codul CAEN principal (4 cifre). / Main CAEN activity code (4 digits).
 * @customfunction CAEN
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Codul CAEN principal. / Main CAEN activity code.
 */
export function caen(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("CAEN", [cui], invocation);
}

/**
 * ADEVĂRAT dacă firma este plătitoare de TVA. / TRUE when the company is a VAT payer.
 * @customfunction TVA
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns ADEVĂRAT dacă firma este plătitoare de TVA. / TRUE when the company is a VAT payer.
 */
export function tva(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("TVA", [cui], invocation);
}

/**
 * Numărul de înregistrare la Registrul Comerțului (J../../....). / Trade-registry number (J../../....).
 * @customfunction NRREG
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Numărul de înregistrare la Registrul Comerțului. / Trade-registry number.
 */
export function nrreg(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("NRREG", [cui], invocation);
}

/**
 * Cifra de afaceri în anul dat (lei). Nume scurt; același lucru ca FIRMA.CIFRA_AFACERI. / Revenue in the given year (lei). Short name; same as FIRMA.CIFRA_AFACERI.
 * @customfunction CA
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Valoarea, pentru fiecare CUI. / The value, for each CUI.
 */
export function ca(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("CA", [cui, an], invocation);
}

/**
 * Cifra de afaceri în anul dat (lei). / Revenue in the given year (lei).
 * @customfunction CIFRA_AFACERI
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Valoarea, pentru fiecare CUI. / The value, for each CUI.
 */
export function cifraAfaceri(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("CIFRA_AFACERI", [cui, an], invocation);
}

/**
 * Profitul net în anul dat (lei; negativ = pierdere). / Net profit in the given year (lei; negative = loss).
 * @customfunction PROFIT
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Valoarea, pentru fiecare CUI. / The value, for each CUI.
 */
export function profit(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("PROFIT", [cui, an], invocation);
}

/**
 * Activele totale în anul dat (lei). / Total assets in the given year (lei).
 * @customfunction ACTIVE
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Valoarea, pentru fiecare CUI. / The value, for each CUI.
 */
export function active(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("ACTIVE", [cui, an], invocation);
}

/**
 * Datoriile totale în anul dat (lei). / Total liabilities in the given year (lei).
 * @customfunction DATORII
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Valoarea, pentru fiecare CUI. / The value, for each CUI.
 */
export function datorii(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("DATORII", [cui, an], invocation);
}

/**
 * Numărul de angajați în anul dat. / Number of employees in the given year.
 * @customfunction ANGAJATI
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Valoarea, pentru fiecare CUI. / The value, for each CUI.
 */
export function angajati(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("ANGAJATI", [cui, an], invocation);
}

/**
 * Toate datele de identificare, pe un rând: CUI, denumire, stare, județ, localitate, adresă, CAEN, TVA, nr. reg. com. / All identification data in one row.
 * @customfunction PROFIL
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Un rând pentru fiecare CUI. / One row per CUI.
 */
export function profil(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("PROFIL", [cui], invocation);
}

/**
 * Un câmp oarecare, după nume (de ex. "adresa", "cifra_afaceri", "angajati"). / Any field, by name.
 * @customfunction CAMP
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param camp Numele câmpului: denumire, stare, judet, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati. / The field's name.
 * @param [an] Anul, pentru câmpurile financiare; implicit ultimul an. / Year, for financial fields.
 * @param invocation Invocation.
 * @returns Valoarea câmpului. / The field's value.
 */
export function camp(cui: any[][], camp: any, an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("CAMP", [cui, camp, an], invocation);
}

/**
 * Fișa firmei: denumirea în celulă; identificare, stare, adresă, CAEN, TVA și ultimul an financiar pe fișă (=A1.Stare). / Company card: the name in the cell; identity, status, address, CAEN, VAT and the latest financial year on the card (=A1.Status).
 * @customfunction FISA
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param invocation Invocation.
 * @returns Fișa firmei (denumirea unde fișele nu sunt disponibile). / The company card (the name where cards are not available).
 */
export function fisa(cui: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("FISA", [cui], invocation);
}

/**
 * Toți indicatorii financiari ai unui an, pe un rând: an, cifra de afaceri, profit net, active, datorii, angajați. / All financial figures of a year in one row.
 * @customfunction FINANCIAR
 * @param cui CUI-ul firmei (cifre, cu sau fără RO) sau un domeniu de CUI-uri. / The company's CUI (digits, RO prefix optional) or a range of CUIs.
 * @param [an] Anul financiar; implicit ultimul an disponibil. / Financial year; default: the latest year available.
 * @param invocation Invocation.
 * @returns Un rând pentru fiecare CUI. / One row per CUI.
 */
export function financiar(cui: any[][], an: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("FINANCIAR", [cui, an], invocation);
}

/**
 * Istoricul unui indicator pe ani, cel mai recent an primul: coloanele an și valoare. / A figure's history by year, latest first: year and value columns.
 * @customfunction ISTORIC
 * @param cui CUI-ul firmei. / The company's CUI.
 * @param an_de_la Primul an. / First year.
 * @param an_pana Ultimul an. / Last year.
 * @param [indicator] cifra_afaceri (implicit), profit_net, active_totale, datorii_totale sau numar_angajati. / Which figure (default: revenue).
 * @param invocation Invocation.
 * @returns Câte un rând pe an. / One row per year.
 */
export function istoric(
  cui: any,
  an_de_la: any,
  an_pana: any,
  indicator: any,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return run("ISTORIC", [cui, an_de_la, an_pana, indicator], invocation);
}

/**
 * Caută firme după nume, CUI sau nr. de registru; primul rând este antetul. / Searches companies by name, CUI or registry number; the first row is a header.
 * @customfunction CAUTA
 * @param q Textul căutat. / What to search for.
 * @param [judet] Codul sau numele județului. / County code or name.
 * @param [caen] Codul CAEN. / CAEN code.
 * @param [stare] Starea, de ex. ACTIVA. / Status, e.g. ACTIVA.
 * @param [limit] Câte rezultate (implicit 20). / How many results (default 20).
 * @param invocation Invocation.
 * @returns Antet și câte un rând pe firmă. / Header and one row per company.
 */
export function cauta(
  q: any,
  judet: any,
  caen: any,
  stare: any,
  limit: any,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return run("CAUTA", [q, judet, caen, stare, limit], invocation);
}

/**
 * Lista topurilor disponibile; primul rând este antetul. / The rankings available; the first row is a header.
 * @customfunction TOPURI
 * @param [an] Anul. / Year.
 * @param [categorie] De ex. cifra-afaceri, profit-net, angajati, active. / E.g. cifra-afaceri.
 * @param [scop] national, judet sau localitate. / national, judet or localitate.
 * @param invocation Invocation.
 * @returns Antet și câte un rând pe top. / Header and one row per ranking.
 */
export function topuri(an: any, categorie: any, scop: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("TOPURI", [an, categorie, scop], invocation);
}

/**
 * Un top: poziție, CUI, denumire, valoare, variație anuală %; primul rând este antetul. / One ranking: position, CUI, name, value, annual change %.
 * @customfunction TOP
 * @param slug Identificatorul topului (vezi FIRMA.TOPURI). / The ranking's id (see FIRMA.TOPURI).
 * @param [limit] Câte poziții (implicit 10). / How many positions (default 10).
 * @param invocation Invocation.
 * @returns Antet și câte un rând pe poziție. / Header and one row per position.
 */
export function top(slug: any, limit: any, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("TOP", [slug, limit], invocation);
}

/**
 * Județele, cu codul și numărul de firme active; primul rând este antetul. / Counties with code and active-company count.
 * @customfunction JUDETE
 * @param invocation Invocation.
 * @returns Antet și câte un rând pe județ. / Header and one row per county.
 */
export function judete(invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run("JUDETE", [], invocation);
}

/**
 * Excel error names → CustomFunctions.ErrorCode members, only those Excel accepts as a function's
 * answer: "#NAME?" and "#REF!" are "supported as a custom function input error, but not as a custom
 * function output error" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors;
 * cells.ts OUTPUT_ERRORS). Any other error a cell could name is answered as #VALUE! with its message.
 * Looked up when a cell needs one, never at load: office.js defines CustomFunctions.ErrorCode only
 * after this bundle has run.
 */
const ERROR_CODES: Record<string, keyof typeof CustomFunctions.ErrorCode> = {
  "#N/A": "notAvailable",
  "#VALUE!": "invalidValue",
  "#NUM!": "invalidNumber",
  "#DIV/0!": "divisionByZero",
  "#NULL!": "nullReference",
};

/**
 * A card as Excel's entity value (EntityCellValue): `type: "Entity"`, the cell's `text`, and
 * `properties` whose every value is a cell value with its own `type` and `basicValue`; the card's
 * title and sections in `layouts.card`. Property names are what dot syntax reaches (=A1.Stare).
 * See https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts
 * (Excel takes it only with allowCustomDataForDataTypeAny: true in functions.json, which the build
 * writes in every language's file: scripts/localize-functions.js; without the flag, or below
 * CustomFunctionsRuntime 1.4, an object is no card),
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card and
 * https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue.
 */
export function entityValue(card: CardCell): Record<string, unknown> {
  const properties: Record<string, { type: string; basicValue: Scalar }> = {};
  for (const [name, v] of Object.entries(card.properties)) {
    properties[name] = { type: typeof v === "number" ? "Double" : typeof v === "boolean" ? "Boolean" : "String", basicValue: v };
  }
  const title = Object.keys(card.properties).find((k) => card.properties[k] === card.text);
  return {
    type: "Entity",
    text: card.text,
    properties,
    layouts: {
      card: {
        ...(title ? { title: { property: title } } : {}),
        sections: card.sections.map((s) => ({ layout: "List", title: s.title, properties: s.properties })),
      },
    },
  };
}

/** Excel's error for a cell error; the message only where Excel shows one (#VALUE! and #N/A: custom-functions-errors). */
function excelError(code: string, message: string): CustomFunctions.Error {
  const name = ERROR_CODES[code] ?? "invalidValue";
  return name === "invalidValue" || name === "notAvailable"
    ? new CustomFunctions.Error(CustomFunctions.ErrorCode[name], message)
    : new CustomFunctions.Error(CustomFunctions.ErrorCode[name]);
}

function toExcel(m: Matrix): any[][] {
  let hasObject = false;
  for (const row of m) for (const v of row) if (typeof v === "object") hasObject = true;
  const out = !hasObject
    ? m
    : m.map((row) => row.map((v) => (typeof v !== "object" ? v : isCard(v) ? entityValue(v) : excelError(v.error, v.message))));
  // A lone error is thrown, so the cell itself shows it with its message.
  if (out.length === 1 && out[0].length === 1 && out[0][0] instanceof CustomFunctions.Error) throw out[0][0];
  return out;
}

/**
 * An invocation's cancellation, a CancelSignal (src/api/types.ts): `aborted`, and
 * add/removeEventListener("abort"). A real AbortSignal is an EventTarget: about a kilobyte and a
 * few µs to make, for every cell that waits for the service (a fill of 10,000 cells made 10,000).
 * A listener added after the abort is not called, as with AbortSignal.
 */
class Cancellation implements CancelSignal {
  aborted = false;
  private listeners: (() => void)[] | null = null;

  addEventListener(type: string, listener: () => void): void {
    if (type === "abort" && !this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    const i = type === "abort" && this.listeners ? this.listeners.indexOf(listener) : -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners ?? [];
    this.listeners = null;
    for (const l of listeners) l();
  }
}

/**
 * One invocation's context for evaluate(): the engine, the language, and the cancellation signal,
 * made only when the engine asks for it, i.e. when a cell has to wait for the service: a
 * recalculation answered from the cache makes none.
 */
class InvocationContext implements EvalContext {
  engine!: FirmaEngine;
  lang: Lang = "ro";
  cacheOnly = false;
  preview = false;
  cards = false;
  private cancellation: Cancellation | null = null;
  private canceled = false;

  get signal(): CancelSignal {
    if (!this.cancellation) {
      this.cancellation = new Cancellation();
      if (this.canceled) this.cancellation.abort();
    }
    return this.cancellation;
  }

  cancel(): void {
    this.canceled = true;
    this.cancellation?.abort();
  }
}

/**
 * Bridges one invocation: Excel's data types → plain values (excel-values.ts: a card's CUI, a
 * formatted number's number, an error cell's error), cancellation → AbortSignal, the engine's matrix →
 * Excel's values and errors.
 */
function run(name: string, excelArgs: unknown[], invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  const args = excelArgs.map(plainArgument);
  recordInvocation(name, args); // evidence for the pane's refresh that Excel ran this cell (a no-op unless it watches)
  const ctx = new InvocationContext();
  if (invocation) invocation.onCanceled = () => ctx.cancel();
  // Excel evaluates a formula while it is typed, for its value preview, with isInValuePreview set
  // (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-formula-value-preview;
  // CustomFunctions.Invocation.isInValuePreview). Every call costs a credit: the preview answers from
  // the cache only, and what is not there says Enter fetches it. The typings say string, the page a
  // boolean: both are read.
  const preview = (invocation as { isInValuePreview?: unknown } | undefined)?.isInValuePreview;
  if (preview === true || preview === "true") ctx.preview = ctx.cacheOnly = true;
  if (name === "FISA") ctx.cards = supportsEntityValues();
  const engine = readyEngine();
  return engine ? evaluateIn(ctx, engine, name, args) : getEngine().then((e) => evaluateIn(ctx, e, name, args));
}

/**
 * Whether custom functions may return entity values here: CustomFunctionsRuntime 1.4, asked at run
 * time (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts).
 * Not remembered: Office.context may not be ready at the first calculation. Without it, FISA gives the name.
 */
function supportsEntityValues(): boolean {
  try {
    return typeof Office !== "undefined" && !!Office.context?.requirements?.isSetSupported("CustomFunctionsRuntime", "1.4");
  } catch {
    return false;
  }
}

/** Evaluates with the engine ready; a result the cache answered in full needs no waiting. */
function evaluateIn(ctx: InvocationContext, engine: FirmaEngine, name: string, args: unknown[]): Promise<any[][]> {
  ctx.engine = engine;
  ctx.lang = getSettings().language;
  try {
    const result = evaluateNow(name, args, ctx);
    return result instanceof Promise ? result.then(toExcel) : Promise.resolve(toExcel(result));
  } catch (e) {
    return Promise.reject(e);
  }
}
