/**
 * FIRMA's Excel custom functions, as Excel registers them. The JSDoc tags are the registration: the
 * build turns them into dist/functions.json (CustomFunctionsMetadataPlugin: ids, parameters, optional
 * ones), which also adds the CustomFunctions.associate calls. No function is cancelable: each returns a
 * matrix, and only a function that returns one value may be (docs/appsource.md, "Cancel"); each gets
 * Excel's plain CustomFunctions.Invocation (for the value preview). Each body is one line: the
 * work is table-driven in src/shared/evaluate.ts (Office-free, shared with the CLI), and `run`
 * (invocation.ts) bridges Excel's invocation and its values and errors.
 *
 * The display texts (names, descriptions, parameter names and descriptions, Romanian and English)
 * have one home, src/shared/function-names.ts (the names in src/shared/function-ids.ts): the build
 * writes them into functions.json (Romanian) and functions-en.json (English; docs/excel.md), and fails
 * when a JSDoc block here carries a description, so that no second text can drift from them. A new
 * function here needs its rows there.
 */
import { registerWhereSupported } from "../office/linked-support";
import { useOfficeStorage } from "../office/storage";
import { run } from "./invocation";
// The linked companies' load service: its own file, associated only in the linked edition (see there).
import "./linked-functions";

export { entityValue } from "./excel-results";

// Office's storage for the settings and the cache, chosen before any function asks for the engine.
useOfficeStorage();

// The linked data domain "Firmă" / "Company", where ExcelApi 1.19 is supported (asked at run time:
// an older Excel registers nothing, loads no more code, and loads every function). Office.onReady first:
// Excel.run needs it.
if (typeof Office !== "undefined" && typeof Office.onReady === "function") void Office.onReady(() => registerWhereSupported());

/**
 * @customfunction ACTUALIZAT
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function actualizat(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("ACTUALIZAT", [cui], invocation);
}

/**
 * @customfunction DENUMIRE
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function denumire(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("DENUMIRE", [cui], invocation);
}

/**
 * @customfunction STARE
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function stare(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("STARE", [cui], invocation);
}

/**
 * @customfunction JUDET
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function judet(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("JUDET", [cui], invocation);
}

/**
 * @customfunction LOCALITATE
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function localitate(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("LOCALITATE", [cui], invocation);
}

/**
 * @customfunction ADRESA
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function adresa(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("ADRESA", [cui], invocation);
}

/**
 * @customfunction CAEN
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function caen(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("CAEN", [cui], invocation);
}

/**
 * @customfunction TVA
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function tva(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("TVA", [cui], invocation);
}

/**
 * @customfunction NRREG
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function nrreg(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("NRREG", [cui], invocation);
}

/**
 * @customfunction CA
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function ca(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("CA", [cui, an], invocation);
}

/**
 * @customfunction CIFRA_AFACERI
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function cifraAfaceri(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("CIFRA_AFACERI", [cui, an], invocation);
}

/**
 * @customfunction PROFIT
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function profit(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("PROFIT", [cui, an], invocation);
}

/**
 * @customfunction ACTIVE
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function active(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("ACTIVE", [cui, an], invocation);
}

/**
 * @customfunction DATORII
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function datorii(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("DATORII", [cui, an], invocation);
}

/**
 * @customfunction ANGAJATI
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function angajati(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("ANGAJATI", [cui, an], invocation);
}

/**
 * @customfunction PROFIL
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function profil(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("PROFIL", [cui], invocation);
}

/**
 * @customfunction CAMP
 * @param cui
 * @param camp
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function camp(cui: any[][], camp: any, an: any, invocation: CustomFunctions.Invocation) {
  return run("CAMP", [cui, camp, an], invocation);
}

/**
 * @customfunction FISA
 * @param cui
 * @param invocation
 * @returns {any[][]}
 */
export function fisa(cui: any[][], invocation: CustomFunctions.Invocation) {
  return run("FISA", [cui], invocation);
}

/**
 * @customfunction FINANCIAR
 * @param cui
 * @param [an]
 * @param invocation
 * @returns {any[][]}
 */
export function financiar(cui: any[][], an: any, invocation: CustomFunctions.Invocation) {
  return run("FINANCIAR", [cui, an], invocation);
}

/**
 * @customfunction ISTORIC
 * @param cui
 * @param an_de_la
 * @param an_pana
 * @param [indicator]
 * @param invocation
 * @returns {any[][]}
 */
export function istoric(cui: any, an_de_la: any, an_pana: any, indicator: any, invocation: CustomFunctions.Invocation) {
  return run("ISTORIC", [cui, an_de_la, an_pana, indicator], invocation);
}

/**
 * @customfunction CAUTA
 * @param q
 * @param [judet]
 * @param [caen]
 * @param [stare]
 * @param [limit]
 * @param invocation
 * @returns {any[][]}
 */
export function cauta(q: any, judet: any, caen: any, stare: any, limit: any, invocation: CustomFunctions.Invocation) {
  return run("CAUTA", [q, judet, caen, stare, limit], invocation);
}

/**
 * @customfunction CUI
 * @param nume
 * @param [judet]
 * @param invocation
 * @returns {any[][]}
 */
export function cui(nume: any, judet: any, invocation: CustomFunctions.Invocation) {
  return run("CUI", [nume, judet], invocation);
}

/**
 * @customfunction TOPURI
 * @param [an]
 * @param [categorie]
 * @param [scop]
 * @param invocation
 * @returns {any[][]}
 */
export function topuri(an: any, categorie: any, scop: any, invocation: CustomFunctions.Invocation) {
  return run("TOPURI", [an, categorie, scop], invocation);
}

/**
 * @customfunction TOP
 * @param slug
 * @param [limit]
 * @param invocation
 * @returns {any[][]}
 */
export function top(slug: any, limit: any, invocation: CustomFunctions.Invocation) {
  return run("TOP", [slug, limit], invocation);
}

/**
 * @customfunction JUDETE
 * @param invocation
 * @returns {any[][]}
 */
export function judete(invocation: CustomFunctions.Invocation) {
  return run("JUDETE", [], invocation);
}
