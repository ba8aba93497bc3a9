/**
 * Excel's cell-value and metadata rules, one copy for the Excel stand-in (test/support/excel/): the
 * custom-functions runtime (functions-runtime.ts, used in Node by test/support/excel-runtime.ts and in the
 * page by the browser stand-in) and the Excel API's cells (cells.ts, excel-api.ts). Each rule cites the
 * Microsoft page it copies. No imports, no Node or DOM globals: it runs in Node and in the page alike.
 */

/** CustomFunctions.ErrorCode: its seven members (https://learn.microsoft.com/javascript/api/custom-functions-runtime/customfunctions.errorcode). */
export const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
};

/**
 * What a custom function may answer with: ErrorCode's seven less #NAME? and #REF!, "supported as a custom
 * function input error, but not as a custom function output error"; only #VALUE! and #N/A show a message
 * ("The #VALUE! and #N/A errors also support custom error messages",
 * https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors).
 */
export const OUTPUT_ERRORS = ["#VALUE!", "#N/A", "#DIV/0!", "#NUM!", "#NULL!"];
export const MESSAGE_ERRORS = ["#VALUE!", "#N/A"];

/** ErrorCellValue.errorType by code (https://learn.microsoft.com/javascript/api/excel/excel.errorcelltype). */
export const ERROR_TYPES: Record<string, string> = {
  "#DIV/0!": "Div0",
  "#N/A": "NotAvailable",
  "#NAME?": "Name",
  "#NULL!": "Null",
  "#NUM!": "Num",
  "#REF!": "Ref",
  "#VALUE!": "Value",
  "#SPILL!": "Spill",
  "#CALC!": "Calc",
  "#BUSY!": "Busy",
  "#GETTING_DATA": "GettingData",
  "#FIELD!": "Field",
};

/** Excel.CellValueType (https://learn.microsoft.com/javascript/api/excel/excel.cellvaluetype). */
export const CELL_VALUE_TYPES = [
  "Array",
  "Boolean",
  "Double",
  "Empty",
  "Entity",
  "Error",
  "ExternalCodeServiceObject",
  "FormattedNumber",
  "Function",
  "LinkedEntity",
  "LocalImage",
  "NotAvailable",
  "Reference",
  "String",
  "WebImage",
];

/** An error cell's cell value JSON (ErrorCellValue: https://learn.microsoft.com/javascript/api/excel/excel.errorcellvalue). */
export function errorCellValue(code: string): { type: "Error"; basicType: "Error"; basicValue: string; errorType: string } {
  return { type: "Error", basicType: "Error", basicValue: code, errorType: ERROR_TYPES[code] || "Value" };
}

/** The code of an ErrorCellValue (by errorType, else its basicValue). */
export function codeOfErrorCell(v: { errorType?: unknown; basicValue?: unknown }): string {
  for (const code of Object.keys(ERROR_TYPES)) if (ERROR_TYPES[code] === v.errorType) return code;
  return typeof v.basicValue === "string" && v.basicValue.startsWith("#") ? v.basicValue : "#VALUE!";
}

/** Whether requirement-set version `have` is at least `want`, part by part ("1.10" > "1.9"). */
export function atLeast(have: string, want: string): boolean {
  const a = String(have).split(".").map(Number);
  const b = String(want).split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
  return true;
}

// ---- naming ---------------------------------------------------------------------------------------

/**
 * "Both must start with a letter and be at least three characters. id: Only A–Z, 0–9, underscore, and
 * period characters are allowed. name: Any Unicode alphabetic characters, underscore, and period
 * characters are allowed." (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-naming)
 */
const ID_RULE = /^[A-Z][A-Z0-9_.]{2,}$/;
const NAME_RULE = /^\p{L}[\p{L}_.]{2,}$/u;

/**
 * The one exception FIRMA ships on purpose: FIRMA.CA (id and Romanian name, 2 characters) predates the
 * function table and workbooks use it (docs/excel.md, "The English names"; scripts/localize-functions.js
 * SHORT_NAMES_KEPT). The page forbids it, so a real Excel may refuse it: the stand-ins load it only
 * because it is named here, and `namingProblems` reports it as an exception, never silently.
 */
export const NAMING_EXCEPTIONS: readonly string[] = ["CA"];

/** What breaks the naming page's rules in one function's metadata ([] when none; exceptions are not problems). */
export function namingProblems(f: { id?: unknown; name?: unknown }, exceptions: readonly string[] = NAMING_EXCEPTIONS): string[] {
  const out: string[] = [];
  const id = String(f.id);
  const name = String(f.name);
  if (!ID_RULE.test(id) && !exceptions.includes(id))
    out.push(`id ${id}: must start with a letter, be at least 3 characters, and use only A–Z, 0–9, _ and .`);
  if (!NAME_RULE.test(name) && !exceptions.includes(name))
    out.push(`name ${name}: must start with a letter, be at least 3 characters, and use only letters, _ and .`);
  return out;
}

/**
 * What a function's `options` may not combine: "A function can't use both the stream and cancelable
 * properties" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-json#options;
 * custom-functions-json-autogeneration, "@cancelable"), and a cancelable function must return one value:
 * "Only asynchronous custom functions which return one value can use the @cancelable JSDoc tag"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs#cancel-a-function).
 * A function whose result is a matrix (`result.dimensionality` "matrix", custom-functions-json) returns
 * many values, so a cancelable one does not load: the stand-in is not more lenient than the page.
 */
export function optionProblems(f: {
  options?: { cancelable?: boolean; stream?: boolean };
  result?: { dimensionality?: string };
}): string[] {
  const o = f.options || {};
  const out: string[] = [];
  if (o.cancelable && o.stream) out.push("a function can't be both stream and cancelable");
  if (o.cancelable && f.result && f.result.dimensionality === "matrix")
    out.push("cancelable with a matrix result: only functions which return one value can be cancelable (custom-functions-web-reqs)");
  return out;
}

// ---- entity values --------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Types whose page example carries no basicValue of its own (an image has its address; an entity's is read-only). */
const NO_BASIC_VALUE = ["WebImage", "LocalImage", "Entity", "LinkedEntity", "Array", "Empty", "Error", "Reference", "Function"];

/**
 * What is wrong with an entity value (EntityCellValue) Excel would refuse or not show ([] when none):
 *  - `text`, "the text shown when a cell with this value is rendered" (excel.entitycellvalue), a string:
 *    every example of the pages has one and FIRMA relies on it being shown;
 *  - each property: "Each nested property, or data type, must have a type and basicValue setting"
 *    (https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card#card-properties),
 *    the type one of Excel.CellValueType; images and nested entities, whose own examples have none, are
 *    held to their type only (a nested entity is checked in turn);
 *  - layouts: "A nested data type must be defined in properties before it can be assigned in layouts"
 *    (the same page, "Card layout"): the card's title, subTitle, mainImage and every section's
 *    properties name existing properties.
 */
export function entityProblems(v: unknown, where = "entity"): string[] {
  if (!isObject(v)) return [`${where}: not an object`];
  const out: string[] = [];
  if (typeof v.text !== "string") out.push(`${where}: no text`);
  const props = v.properties === undefined ? {} : v.properties;
  if (!isObject(props)) return out.concat(`${where}: properties is not an object`);
  for (const [name, p] of Object.entries(props)) {
    if (!isObject(p) || typeof p.type !== "string") {
      out.push(`${where}.${name}: no type`);
      continue;
    }
    if (!CELL_VALUE_TYPES.includes(p.type)) out.push(`${where}.${name}: unknown type ${p.type}`);
    else if (!NO_BASIC_VALUE.includes(p.type) && !("basicValue" in p)) out.push(`${where}.${name}: no basicValue`);
    else if ((p.type === "Double" || p.type === "FormattedNumber") && typeof p.basicValue !== "number")
      out.push(`${where}.${name}: a ${p.type}'s basicValue must be a number`);
    else if (p.type === "Boolean" && typeof p.basicValue !== "boolean")
      out.push(`${where}.${name}: a Boolean's basicValue must be a boolean`);
    else if (p.type === "String" && typeof p.basicValue !== "string") out.push(`${where}.${name}: a String's basicValue must be a string`);
    if (p.type === "Entity") out.push(...entityProblems(p, `${where}.${name}`));
  }
  const card = isObject(v.layouts) && isObject(v.layouts.card) ? v.layouts.card : null;
  if (card) {
    const named: string[] = [];
    for (const key of ["title", "subTitle", "mainImage"]) {
      const ref = card[key];
      if (isObject(ref) && typeof ref.property === "string") named.push(ref.property);
    }
    for (const s of Array.isArray(card.sections) ? card.sections : [])
      if (isObject(s) && Array.isArray(s.properties)) for (const p of s.properties) named.push(String(p));
    for (const p of named) if (!(p in props)) out.push(`${where}: the layout names ${p}, which is not among its properties`);
  }
  return out;
}

/** What is wrong with a cell value a function answers with ([] when none): a known type; an entity by entityProblems. */
export function cellValueProblems(v: unknown): string[] {
  if (!isObject(v) || typeof v.type !== "string") return ["not a cell value"];
  if (!CELL_VALUE_TYPES.includes(v.type)) return [`unknown type ${v.type}`];
  return v.type === "Entity" ? entityProblems(v) : [];
}

// ---- sizes ----------------------------------------------------------------------------------------

/** UTF-8 bytes of a string: what a payload of JSON text weighs on the wire. */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4; // a surrogate pair: one code point of 4 bytes
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * Excel on the web's payload limit: "Excel on the web has a payload size limit for requests and
 * responses of 5MB" (https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization).
 * A payload is bytes (counted with utf8Bytes over its JSON); "5MB" is read as 5,000,000, the smaller of
 * its two readings, so that the stand-in is never the more lenient.
 */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;
