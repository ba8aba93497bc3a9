/**
 * Excel's data types as FIRMA's arguments, without Office.
 *
 * The metadata sets `allowCustomDataForDataTypeAny` and `allowErrorForDataTypeAny`
 * (scripts/localize-functions.js), so an `any` parameter receives what a cell holds: a plain number,
 * text or boolean as it is, and a data type as Excel's CellValue JSON — "Custom functions and the
 * Excel JavaScript API use the same JSON schema for data types"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts):
 *  - an entity, such as FIRMA.FISA's card: `{ type: "Entity", text, properties: { CUI: { type: "Double", basicValue } … } }`
 *    (https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue);
 *  - a formatted number: `{ type: "Double", basicValue, numberFormat }`, or the older
 *    `{ type: "FormattedNumber", … }` (https://learn.microsoft.com/javascript/api/excel/excel.formattednumbercellvalue);
 *  - a string or boolean data type: `{ type: "String" | "Boolean", basicValue }`;
 *  - a linked company (FIRMA's "Firmă" data type): `{ type: "LinkedEntity", id: { entityId, domainId, serviceId, culture }, text }`,
 *    its CUI the entity's id (https://learn.microsoft.com/javascript/api/excel/excel.linkedentitycellvalue);
 *  - an error cell: `{ type: "Error", errorType: "Div0", basicValue: "#DIV/0!" }`
 *    (https://learn.microsoft.com/javascript/api/excel/excel.errorcellvalue). The pages do not show
 *    the object an error input arrives as; the ErrorCellValue shape is what the data-types page implies
 *    ("a data types error object"), and an office.js `CustomFunctions.Error` (`code`) is read too.
 *
 * `plainArgument` turns each of these into what FIRMA reads: the card's CUI, the number, the text —
 * or a marker the functions answer with: `ErrorInput` (the cell holds an error: the function answers
 * with that error, as Excel does for a function that takes no errors) and `UnreadableInput` (a card
 * without a CUI, an image: #VALUE! naming it). Nothing here costs a call.
 */

import { ADDIN_SERVICE_ID, COMPANY_DOMAIN_ID } from "./linked-ids";

/** An argument cell that holds an Excel error (its code, "#DIV/0!"). */
export class ErrorInput {
  constructor(readonly code: string) {}
}

/** A data type FIRMA cannot read as a value: a card with no CUI, an image, a linked type… `shown`: what to name in the message. */
export class UnreadableInput {
  constructor(
    readonly what: "card" | "dataType",
    readonly shown: string,
  ) {}
}

/** ErrorCellValue.errorType → the error's code (https://learn.microsoft.com/javascript/api/excel/excel.errorcelltype). */
const ERROR_TYPES: Readonly<Record<string, string>> = {
  Blocked: "#BLOCKED!",
  Busy: "#BUSY!",
  Calc: "#CALC!",
  Connect: "#CONNECT!",
  Div0: "#DIV/0!",
  External: "#EXTERNAL!",
  Field: "#FIELD!",
  GettingData: "#GETTING_DATA",
  Name: "#NAME?",
  NotAvailable: "#N/A",
  Null: "#NULL!",
  Num: "#NUM!",
  Python: "#PYTHON!",
  Ref: "#REF!",
  Spill: "#SPILL!",
  Value: "#VALUE!",
};

interface CellValueJson {
  type?: unknown;
  basicValue?: unknown;
  errorType?: unknown;
  text?: unknown;
  properties?: unknown;
  code?: unknown;
  id?: unknown;
}

function errorCode(o: CellValueJson): string {
  if (typeof o.errorType === "string" && o.errorType in ERROR_TYPES) return ERROR_TYPES[o.errorType];
  if (typeof o.basicValue === "string" && o.basicValue.startsWith("#")) return o.basicValue;
  return "#VALUE!";
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** A card's CUI: its property named CUI (any case), a number or text; anything else is unreadable. */
function cuiOfCard(o: CellValueJson): unknown {
  const shown = typeof o.text === "string" ? o.text : "?";
  const props = o.properties !== null && typeof o.properties === "object" ? (o.properties as Record<string, unknown>) : {};
  const name = Object.keys(props).find((k) => k.trim().toUpperCase() === "CUI");
  const v = name === undefined ? undefined : plainValue(props[name]);
  return typeof v === "number" || (typeof v === "string" && v.trim() !== "") ? v : new UnreadableInput("card", shown);
}

/**
 * A linked entity's CUI: FIRMA's own linked company is its entity id (linked-company.ts linkedStub);
 * another provider's entity is read as a card (a property named CUI), else it is unreadable.
 */
function cuiOfLinked(o: CellValueJson): unknown {
  const id = o.id !== null && typeof o.id === "object" ? (o.id as Record<string, unknown>) : {};
  if (
    id.domainId === COMPANY_DOMAIN_ID &&
    Number(id.serviceId) === ADDIN_SERVICE_ID &&
    typeof id.entityId === "string" &&
    id.entityId !== ""
  )
    return id.entityId;
  const card = cuiOfCard(o);
  return card instanceof UnreadableInput ? new UnreadableInput("dataType", "LinkedEntity") : card;
}

/** One value as Excel passed it → what FIRMA reads (see the module's comment). */
export function plainValue(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  const o = v as CellValueJson;
  switch (o.type) {
    case "Error":
      return new ErrorInput(errorCode(o));
    case "Entity":
      return cuiOfCard(o);
    case "LinkedEntity":
      return cuiOfLinked(o);
    case "Empty":
      return "";
    case "Double":
    case "FormattedNumber":
    case "String":
    case "Boolean":
      if (isScalar(o.basicValue)) return o.basicValue;
      break;
    default:
      // office.js's own error object (CustomFunctions.Error), should a host pass one
      if (typeof o.code === "string" && o.code.startsWith("#")) return new ErrorInput(o.code);
  }
  return new UnreadableInput("dataType", typeof o.type === "string" ? o.type : "object");
}

/** An argument (a value, or a range as rows) with every data type read; a range without one is returned as it is (no copy). */
export function plainArgument(v: unknown): unknown {
  if (!Array.isArray(v)) return plainValue(v);
  let copy: unknown[] | null = null;
  for (let i = 0; i < v.length; i++) {
    const row: unknown = v[i];
    if (Array.isArray(row)) {
      for (let j = 0; j < row.length; j++) {
        const x: unknown = row[j];
        if (x === null || typeof x !== "object") continue;
        copy ??= v.slice();
        if (copy[i] === row) copy[i] = row.slice();
        (copy[i] as unknown[])[j] = plainValue(x);
      }
    } else if (row !== null && typeof row === "object") {
      copy ??= v.slice();
      copy[i] = plainValue(row);
    }
  }
  return copy ?? v;
}

/** The first argument (in order) that holds an Excel error, if any: a range counts when any of its cells does. */
export function firstErrorInput(args: readonly unknown[]): ErrorInput | null {
  for (const a of args) {
    if (a instanceof ErrorInput) return a;
    if (Array.isArray(a))
      for (const row of a) {
        if (row instanceof ErrorInput) return row;
        if (Array.isArray(row)) for (const x of row) if (x instanceof ErrorInput) return x;
      }
  }
  return null;
}
