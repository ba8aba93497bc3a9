/**
 * What Excel takes from a custom function: an evaluation's matrix as values, entity values (the
 * company card) and CustomFunctions.Error, a lone error thrown so that the cell shows its message.
 */
import { CardCell, CellError, isCard, Matrix, Scalar } from "../shared/cells";

/**
 * Excel error names → CustomFunctions.ErrorCode members, only those Excel accepts as a function's
 * answer: "#NAME?" and "#REF!" are "supported as a custom function input error, but not as a custom
 * function output error" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors;
 * cells.ts OUTPUT_ERRORS). Any other error a cell could name is answered as #VALUE! with its message.
 * Looked up when a cell needs one, never at load: office.js defines CustomFunctions.ErrorCode only
 * after the functions' script has run.
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

/**
 * Excel's error for each cell error made once: the error cells without a detail are shared
 * (cells.ts cellError), so a column of "not found" cells makes one CustomFunctions.Error, not one per cell.
 */
const EXCEL_ERRORS = new WeakMap<CellError, CustomFunctions.Error>();

/** Excel's error for a cell error; the message only where Excel shows one (#VALUE! and #N/A: custom-functions-errors). */
function excelError(cell: CellError): CustomFunctions.Error {
  let e = EXCEL_ERRORS.get(cell);
  if (e) return e;
  const name = ERROR_CODES[cell.error] ?? "invalidValue";
  e =
    name === "invalidValue" || name === "notAvailable"
      ? new CustomFunctions.Error(CustomFunctions.ErrorCode[name], cell.message)
      : new CustomFunctions.Error(CustomFunctions.ErrorCode[name]);
  EXCEL_ERRORS.set(cell, e);
  return e;
}

export function toExcel(m: Matrix): any[][] {
  // A lone cell, the usual one: a value as it is, a card as its entity, an error thrown.
  if (m.length === 1 && m[0].length === 1) {
    const v = m[0][0];
    if (typeof v !== "object") return m;
    if (isCard(v)) return [[entityValue(v)]];
    throw excelError(v);
  }
  let hasObject = false;
  for (const row of m) for (const v of row) if (typeof v === "object") hasObject = true;
  const out = !hasObject ? m : m.map((row) => row.map((v) => (typeof v !== "object" ? v : isCard(v) ? entityValue(v) : excelError(v))));
  // A lone error is thrown, so the cell itself shows it with its message.
  if (out.length === 1 && out[0].length === 1 && out[0][0] instanceof CustomFunctions.Error) throw out[0][0];
  return out;
}
