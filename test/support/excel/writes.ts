/**
 * Writes into the browser stand-in's cells: values and formulas as Range.values and Range.formulas take
 * them, cell value JSON as Range.valuesAsJson takes it, and results (spilled, or #SPILL! when blocked).
 */
import { k, rc } from "./a1";
import { CODE_OF_ERROR_TYPE, cellAt, emptyCell, ensureCell, ERROR_VALUES, excelError, isEmpty, requireApi } from "./cells";
import { evaluatePlain } from "./formulas";
import { StandInError } from "./functions-runtime";
import { linkedWritten } from "./linked-domains";
import { linkedCellProblems } from "./linked-entities";
import { entityProblems } from "./rules";
import type { Cell, Sheet } from "./state";

export function clearSpill(sheet: Sheet, anchorKey: string): void {
  const anchor = sheet.cells.get(anchorKey);
  if (!anchor || !anchor.spill) return;
  const [r0, c0] = rc(anchorKey);
  for (let r = r0; r <= anchor.spill.bottom; r++) {
    for (let c = c0; c <= anchor.spill.right; c++) {
      if (r === r0 && c === c0) continue;
      const child = cellAt(sheet, r, c);
      if (!child || child.spillFrom !== anchorKey) continue;
      // The spilled values go; a format set on the cell stays, as every cell's format does.
      if (child.format || child.text || child.numberFormat) Object.assign(child, { value: "", error: null, rich: null, spillFrom: null });
      else sheet.cells.delete(k(r, c));
    }
  }
  anchor.spill = null;
}

/** A new, empty cell to replace the one at `key`: its spill cleared, its formats kept (they are the cell's, not its value's). */
function replacing(sheet: Sheet, key: string): Cell {
  const old = sheet.cells.get(key);
  if (old && old.spill) clearSpill(sheet, key);
  const cell = emptyCell();
  cell.format = !!(old && old.format);
  cell.text = !!(old && old.text);
  cell.numberFormat = old ? old.numberFormat : null;
  // A FIRMA call still waiting: the cell's next calculation cancels it (calculateCell), its answer is not shown.
  if (old && old.invocation) cell.invocation = old.invocation;
  return cell;
}

const NUMBER_TYPED = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Writes what Range.values (or .formulas) is given, the way Excel takes it: as if typed. Range.values:
 * "If the returned value starts with a plus ("+"), minus ("-"), or equal sign ("="), Excel interprets
 * this value as a formula", and strings are parsed like typed input (dates are, the page says;
 * numbers are, so "0111" becomes 111; "TRUE" a boolean; "#N/A" the error)
 * (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member) —
 * except in a cell with the text format "@", where what is entered stays text.
 */
export function writeCell(sheet: Sheet, r: number, c: number, v: unknown, asFormula: boolean): void {
  const key = k(r, c);
  const cell = replacing(sheet, key);
  if (typeof v === "string" && !cell.text) {
    if (NUMBER_TYPED.test(v)) v = Number(v);
    else if (/^(TRUE|FALSE)$/i.test(v.trim())) v = v.trim().toUpperCase() === "TRUE";
    else if (/^[=+-]./s.test(v)) asFormula = true;
  }
  if (asFormula && !cell.text && typeof v === "string" && /^[=+-]./s.test(v)) {
    cell.formula = v.startsWith("=") ? v : `=${v}`;
    const plain = evaluatePlain(cell.formula, sheet);
    if (plain === undefined) cell.value = 0;
    else if (plain.value instanceof StandInError) {
      cell.value = plain.value.code;
      cell.error = { code: plain.value.code, message: "" };
    } else cell.value = plain.value;
  } else if (typeof v === "string" && !cell.text && ERROR_VALUES.has(v)) {
    cell.value = v;
    cell.error = { code: v, message: "" };
  } else {
    cell.value = v === null || v === undefined ? "" : v;
  }
  sheet.cells.set(key, cell);
}

/**
 * Writes one cell value JSON, as Range.valuesAsJson is set (ExcelApi 1.16): the type is kept, nothing
 * is parsed — "Unlike Range.values, Range.valuesAsJson supports all data types which can be in a
 * cell". An entity's basicValue is read-only ("basicValue is read-only for … EntityCellValue",
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-concepts): writing one that
 * carries it is refused, as is an unknown type.
 */
export function writeJson(sheet: Sheet, r: number, c: number, v: unknown): void {
  const key = k(r, c);
  const cell = replacing(sheet, key);
  const bad = (why: string) => excelError(`Invalid cell value: ${why}`, "InvalidArgument");
  if (!v || typeof v !== "object" || typeof (v as { type?: unknown }).type !== "string") throw bad("not a cell value");
  const j = v as { type: string; basicValue?: unknown; errorType?: string };
  switch (j.type) {
    case "Empty":
      break;
    case "String":
      cell.value = String(j.basicValue);
      break;
    case "Double":
    case "FormattedNumber":
      if (typeof j.basicValue !== "number") throw bad("a number's basicValue");
      cell.value = j.basicValue;
      break;
    case "Boolean":
      cell.value = !!j.basicValue;
      break;
    case "Error": {
      const code = (CODE_OF_ERROR_TYPE[j.errorType ?? ""] || j.basicValue) as string;
      cell.value = code;
      cell.error = { code, message: "" };
      break;
    }
    case "Entity":
      if ("basicValue" in j || "basicType" in j) throw bad("an entity's basicValue and basicType are read-only");
      // The card page's rules: text, each property's type and basicValue, layouts naming properties (rules.ts).
      if (entityProblems(j).length > 0) throw bad(entityProblems(j).join("; "));
      cell.rich = { ...JSON.parse(JSON.stringify(j)), basicType: "Error", basicValue: "#VALUE!" };
      cell.value = "#VALUE!";
      break;
    case "LinkedEntity": {
      // An add-in's linked entity (ExcelApi 1.19): held to the page's rules, shown by its text until
      // Excel has called the load service (https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values).
      requireApi("1.19", "a linked entity cell value");
      const problems = linkedCellProblems(j);
      if (problems.length > 0) throw bad(problems.join("; "));
      cell.rich = { ...JSON.parse(JSON.stringify(j)), basicType: "Error", basicValue: "#VALUE!" };
      cell.value = "#VALUE!";
      sheet.cells.set(key, cell);
      linkedWritten(sheet, r, c, j);
      return;
    }
    default:
      throw bad(`type ${j.type}`);
  }
  sheet.cells.set(key, cell);
}

/**
 * What one cell of a result shows: an error with its message, a cell value JSON (an entity as the card
 * it is, an error by its errorType, another type by its basic value), or a plain value. A custom
 * function's answer has been held to what Excel accepts from one before it gets here (the runtime's shown()).
 */
function toCell(v: unknown): Pick<Cell, "value" | "error" | "rich"> {
  if (v instanceof StandInError) return { value: v.code, error: { code: v.code, message: v.message || "" }, rich: null };
  if (v !== null && typeof v === "object" && !Array.isArray(v) && typeof (v as { type?: unknown }).type === "string") {
    const j = v as { type: string; basicValue?: unknown; errorType?: string };
    if (j.type === "Entity") return { value: "#VALUE!", error: null, rich: { ...j, basicType: "Error", basicValue: "#VALUE!" } };
    if (j.type === "Error") {
      const code = CODE_OF_ERROR_TYPE[j.errorType ?? ""] || "#VALUE!";
      return { value: code, error: { code, message: "" }, rich: null };
    }
    return { value: j.basicValue === undefined ? "" : j.basicValue, error: null, rich: null };
  }
  return { value: v === null || v === undefined ? "" : v, error: null, rich: null };
}

/** Puts a result in a cell (spilling it), unless the cell's formula changed meanwhile. */
export function setResult(sheet: Sheet, r: number, c: number, formula: string, result: unknown): void {
  const key = k(r, c);
  const anchor = sheet.cells.get(key);
  if (!anchor || anchor.formula !== formula) return; // overwritten meanwhile
  clearSpill(sheet, key);
  const m: unknown[][] = Array.isArray(result) ? result.map((row: unknown) => (Array.isArray(row) ? row : [row])) : [[result]];
  const rows = m.length;
  const cols = Math.max(...m.map((row) => row.length), 1);
  if (rows > 1 || cols > 1) {
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        if (i === 0 && j === 0) continue;
        if (!isEmpty(cellAt(sheet, r + i, c + j))) {
          Object.assign(anchor, { value: "#SPILL!", error: { code: "#SPILL!", message: "spill range is not empty" } });
          return;
        }
      }
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        if (i === 0 && j === 0) continue;
        const child = ensureCell(sheet, r + i, c + j);
        Object.assign(child, toCell(m[i][j] === undefined ? "" : m[i][j]), { spillFrom: key, formula: null });
      }
    anchor.spill = { bottom: r + rows - 1, right: c + cols - 1 };
  }
  Object.assign(anchor, toCell(m[0][0]));
}
