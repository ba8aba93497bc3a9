/*
 * An Excel stand-in for the pane's browser tests, injected with page.addInitScript before any
 * script of the page runs. It is plain browser JavaScript (no build step) and is not part of the
 * add-in. It provides:
 *
 * - `window.Excel.run(batch)` over an in-memory workbook: sheets of cells holding constants or
 *   formulas, a selection, proxies with Excel's load/sync discipline (reading a property that was
 *   not loaded and synced throws, writes apply at sync), used ranges, spills, `range.calculate()`;
 * - calculation of FIRMA formulas by calling the functions the bundle registered: `attachOffice()`
 *   (appended to office.js by the test, so it runs after office.js and before functions.js) wraps
 *   `CustomFunctions.associate`, adds the `CustomFunctions.Error`/`ErrorCode` Excel's runtime gives,
 *   and makes `Office.onReady` report host Excel with a display language;
 * - document settings and custom XML parts (both the Excel API's and Office.context.document's),
 *   so a test can check that nothing was written there.
 *
 * - the ExcelApi requirement sets of `S.excelApi` (Office.context.requirements.isSetSupported
 *   answers from it, and a method of a newer set fails at sync with ApiNotFound), Excel on the
 *   web's 5 MB answer limit, formatting-only cells, `Range.getDependents()` with `RangeAreas`, and
 *   a few plain formulas (=B2, =LEN(B2), =UPPER(B2), =B2&"x") so that dependents can be checked.
 *
 * Calculation does only what Microsoft's pages promise (docs/excel.md, "Refresh"): a calculate
 * method calculates the cells it is given; a formula entered through the API is calculated; a FIRMA
 * result arriving after `Range.calculate` does not recalculate the cells that depend on it (no page
 * says it does; office-js #5063 and #6885 report it does not), while Excel's full calculation
 * (`S.calculateAll`, as on opening) calculates everything, dependents after their precedents.
 *
 * While a FIRMA cell calculates it shows "#BUSY!", as in Excel. Arguments are passed as Excel
 * does, from functions.json: a matrix parameter gets a 2-D array, an omitted optional one null,
 * an empty cell "". A result larger than one cell spills (or gives #SPILL! when blocked).
 */
(() => {
  "use strict";
  if (window.top !== window) return; // the page only, not the frames office.js opens

  // ---- excel-rules: generated from test/support/excel-rules.ts by test/support/excel-rules-gen.js; do not edit ----
  const RULES = (() => {
    const exports = {};
    /**
     * Excel's cell-value and metadata rules, one copy for both Excel stand-ins: the custom-functions runtime
     * (test/support/excel-runtime.ts, in Node) imports it, and the Excel API stand-in
     * (test/taskpane/excel-standin.js, plain browser JavaScript) carries a generated copy of it between its
     * "excel-rules" markers (test/support/excel-rules-gen.js writes it; test/support/excel-runtime.test.ts fails
     * when the copy is not what the generator makes). Each rule cites the Microsoft page it copies.
     *
     * Self-contained on purpose: no imports, no Node or DOM globals, so the transpiled text runs in a page.
     */
    exports.errorCellValue = errorCellValue;
    exports.codeOfErrorCell = codeOfErrorCell;
    exports.atLeast = atLeast;
    exports.namingProblems = namingProblems;
    exports.optionProblems = optionProblems;
    exports.entityProblems = entityProblems;
    exports.cellValueProblems = cellValueProblems;
    exports.utf8Bytes = utf8Bytes;
    /** CustomFunctions.ErrorCode: its seven members (https://learn.microsoft.com/javascript/api/custom-functions-runtime/customfunctions.errorcode). */
    exports.ERROR_CODES = {
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
    exports.OUTPUT_ERRORS = ["#VALUE!", "#N/A", "#DIV/0!", "#NUM!", "#NULL!"];
    exports.MESSAGE_ERRORS = ["#VALUE!", "#N/A"];
    /** ErrorCellValue.errorType by code (https://learn.microsoft.com/javascript/api/excel/excel.errorcelltype). */
    exports.ERROR_TYPES = {
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
    exports.CELL_VALUE_TYPES = [
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
    function errorCellValue(code) {
      return { type: "Error", basicType: "Error", basicValue: code, errorType: exports.ERROR_TYPES[code] || "Value" };
    }
    /** The code of an ErrorCellValue (by errorType, else its basicValue). */
    function codeOfErrorCell(v) {
      for (const code of Object.keys(exports.ERROR_TYPES)) if (exports.ERROR_TYPES[code] === v.errorType) return code;
      return typeof v.basicValue === "string" && v.basicValue.startsWith("#") ? v.basicValue : "#VALUE!";
    }
    /** Whether requirement-set version `have` is at least `want`, part by part ("1.10" > "1.9"). */
    function atLeast(have, want) {
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
    exports.NAMING_EXCEPTIONS = ["CA"];
    /** What breaks the naming page's rules in one function's metadata ([] when none; exceptions are not problems). */
    function namingProblems(f, exceptions = exports.NAMING_EXCEPTIONS) {
      const out = [];
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
     * custom-functions-json-autogeneration, "@cancelable"). `oneValue`: also refuse a cancelable function
     * whose result is a matrix, the stricter reading of "Only asynchronous custom functions which return one
     * value can use the @cancelable JSDoc tag" (custom-functions-web-reqs, "Cancel a function"); the page
     * says it of streaming functions, which return many values over time, and the json page's options table
     * says cancelable functions are "typically only used for asynchronous functions that return a single
     * result", so the default reads a matrix as one result.
     */
    function optionProblems(f, oneValue = false) {
      const o = f.options || {};
      const out = [];
      if (o.cancelable && o.stream) out.push("a function can't be both stream and cancelable");
      if (oneValue && o.cancelable && f.result && f.result.dimensionality === "matrix")
        out.push("cancelable with a matrix result (the strict reading of custom-functions-web-reqs)");
      return out;
    }
    const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
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
    function entityProblems(v, where = "entity") {
      if (!isObject(v)) return [`${where}: not an object`];
      const out = [];
      if (typeof v.text !== "string") out.push(`${where}: no text`);
      const props = v.properties === undefined ? {} : v.properties;
      if (!isObject(props)) return out.concat(`${where}: properties is not an object`);
      for (const [name, p] of Object.entries(props)) {
        if (!isObject(p) || typeof p.type !== "string") {
          out.push(`${where}.${name}: no type`);
          continue;
        }
        if (!exports.CELL_VALUE_TYPES.includes(p.type)) out.push(`${where}.${name}: unknown type ${p.type}`);
        else if (!NO_BASIC_VALUE.includes(p.type) && !("basicValue" in p)) out.push(`${where}.${name}: no basicValue`);
        else if ((p.type === "Double" || p.type === "FormattedNumber") && typeof p.basicValue !== "number")
          out.push(`${where}.${name}: a ${p.type}'s basicValue must be a number`);
        else if (p.type === "Boolean" && typeof p.basicValue !== "boolean")
          out.push(`${where}.${name}: a Boolean's basicValue must be a boolean`);
        else if (p.type === "String" && typeof p.basicValue !== "string")
          out.push(`${where}.${name}: a String's basicValue must be a string`);
        if (p.type === "Entity") out.push(...entityProblems(p, `${where}.${name}`));
      }
      const card = isObject(v.layouts) && isObject(v.layouts.card) ? v.layouts.card : null;
      if (card) {
        const named = [];
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
    function cellValueProblems(v) {
      if (!isObject(v) || typeof v.type !== "string") return ["not a cell value"];
      if (!exports.CELL_VALUE_TYPES.includes(v.type)) return [`unknown type ${v.type}`];
      return v.type === "Entity" ? entityProblems(v) : [];
    }
    // ---- sizes ----------------------------------------------------------------------------------------
    /** UTF-8 bytes of a string: what a payload of JSON text weighs on the wire. */
    function utf8Bytes(s) {
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
    exports.PAYLOAD_LIMIT_BYTES = 5000000;
    return exports;
  })();
  // ---- end of excel-rules ----

  const ERROR_CODES = RULES.ERROR_CODES;
  const ERROR_VALUES = new Set([...Object.values(ERROR_CODES), "#BUSY!", "#SPILL!", "#CALC!", "#GETTING_DATA", "#FIELD!"]);
  /** What a custom function may answer with, and the errors that show a message (excel-rules.ts). */
  const OUTPUT_ERRORS = new Set(RULES.OUTPUT_ERRORS);
  const MESSAGE_ERRORS = new Set(RULES.MESSAGE_ERRORS);
  /** Data types reach and leave custom functions only with the metadata's flag and CustomFunctionsRuntime 1.4. */
  const dataTypesOn = () => S.flags.allowCustomData && atLeast(S.customFunctionsRuntime, "1.4");

  class StandInError {
    constructor(code, message) {
      this.code = code;
      this.message = message;
    }
  }

  // ---- A1 helpers ---------------------------------------------------------------------------------
  const colNum = (letters) => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
  const colLetters = (n) => {
    let s = "";
    while (n > 0) {
      const m = (n - 1) % 26;
      s = String.fromCharCode(65 + m) + s;
      n = Math.floor((n - 1) / 26);
    }
    return s;
  };
  const REF = /^(?:(?:'((?:[^']|'')+)'|([A-Za-z0-9_.]+))!)?\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/;
  /** "Sheet!A1:B2" or "A1" → { sheet|null, box } (1-based, inclusive). */
  function parseRef(text) {
    const m = REF.exec(text.trim());
    if (!m) return null;
    const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2] !== undefined ? m[2] : null;
    const r1 = Number(m[4]);
    const c1 = colNum(m[3]);
    const r2 = m[6] ? Number(m[6]) : r1;
    const c2 = m[5] ? colNum(m[5]) : c1;
    return { sheet, box: { top: Math.min(r1, r2), left: Math.min(c1, c2), bottom: Math.max(r1, r2), right: Math.max(c1, c2) } };
  }
  const boxAddress = (b) => {
    const a = colLetters(b.left) + b.top;
    return b.top === b.bottom && b.left === b.right ? a : `${a}:${colLetters(b.right)}${b.bottom}`;
  };
  const quoteSheet = (name) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);
  const k = (r, c) => `${r},${c}`;

  // ---- the workbook -------------------------------------------------------------------------------
  const S = {
    /** lower-case name → { name, cells: Map("r,c" → cell) } */
    sheets: new Map(),
    order: [],
    active: null,
    selection: null,
    functions: new Map(),
    meta: null,
    metaPromise: null,
    pending: new Set(),
    /** Every FIRMA function call made by calculation: { id, args }. */
    calls: [],
    /** Excel API workbook.settings and Office.context.document.settings (one store, as in Excel). */
    documentSettings: new Map(),
    customXmlParts: [],
    displayLanguage: "ro-RO",
    host: "Excel",
    /** The newest ExcelApi requirement set this Excel supports ("1.17": Excel on the web today). */
    excelApi: "1.17",
    /**
     * The CustomFunctionsRuntime requirement set. Data types (FISA's card, cards as arguments) need 1.4
     * and allowCustomDataForDataTypeAny in functions.json
     * (https://learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets).
     */
    customFunctionsRuntime: "1.3",
    /** functions.json's top-level flags, read with the metadata. */
    flags: { allowCustomData: false, allowErrors: false },
    /**
     * Excel on the web's payload limit for a request's answer: "Excel on the web has a payload size
     * limit for requests and responses of 5MB" and fails with ResponsePayloadSizeLimitExceeded
     * (https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization,
     * https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-error-handling): UTF-8 bytes of
     * the JSON, against 5,000,000 (excel-rules.ts PAYLOAD_LIMIT_BYTES).
     */
    payloadLimit: RULES.PAYLOAD_LIMIT_BYTES,
    /**
     * Whether a calculate method runs a FIRMA function again although its arguments did not change.
     * No page promises it (office-js #576 and #3108 show Range.calculate doing it); false plays an
     * Excel that does not, for the pane's fallback.
     */
    calculateReruns: true,
    /** When set, (sheet, row, col) → whether a calculate method re-runs that FIRMA cell: an Excel that runs some and not others. */
    calculateRerunsOnly: null,
    /** How long after a calculate method the FIRMA cells start (Excel on the web, slow with a large sheet). */
    calculateDelayMs: 0,
    /**
     * Office.context.officeTheme (https://learn.microsoft.com/javascript/api/office/office.officetheme):
     * the Colorful theme's colours by default; null: an Office that gives no theme.
     */
    officeTheme: {
      bodyBackgroundColor: "#FFFFFF",
      bodyForegroundColor: "#000000",
      controlBackgroundColor: "#FFFFFF",
      controlForegroundColor: "#262626",
      isDarkTheme: false,
      themeId: "Colorful",
    },
    /** The largest answer of a sync that succeeded, in UTF-8 bytes of JSON. */
    maxAnswerBytes: 0,
    /** The largest request of a sync that was sent (its actions and what they carry), in bytes. */
    maxRequestBytes: 0,
    /** Answers Excel would refuse from a function (an output error it does not accept, an object where data types are off). */
    violations: [],
    /** Calculations whose outcome no page defines (a range for a scalar parameter). */
    unspecified: [],
    /** Functions Excel would not load (the naming page's rules), id → why; set with the metadata. */
    notLoaded: new Map(),
    /** Functions loaded only as the named exception of excel-rules.ts NAMING_EXCEPTIONS (FIRMA.CA). */
    namingExceptions: [],
    /**
     * When a FIRMA cell calculates again while its previous call waits, the order of the old call's
     * onCanceled and the new call: "cancelFirst", "invokeFirst" (the cancel a turn later) or "together"
     * (custom-functions-web-reqs: not guaranteed). Default: the one code assuming cancel-first gets wrong.
     */
    cancelOrder: "invokeFirst",
  };
  window.__firmaStandIn = S;

  /**
   * A cell: a formula (or null) and what it shows: `value`, `error` ({ code, message }), and `rich`, the
   * cell value JSON of a data type it holds (an entity card). `text`: the cell has the text format "@".
   */
  const emptyCell = () => ({
    formula: null,
    value: "",
    error: null,
    rich: null,
    spillFrom: null,
    spill: null,
    format: false,
    text: false,
    numberFormat: null,
  });

  /** "1.10" ≥ "1.9": requirement set versions compare part by part, not as decimals. */
  const atLeast = RULES.atLeast;
  /** A method of ExcelApi `version` in an Excel that lacks it fails at sync (the host has no such API). */
  function requireApi(version, what) {
    if (!atLeast(S.excelApi, version))
      throw Object.assign(new Error(`${what} needs ExcelApi ${version}; this Excel has ${S.excelApi}.`), { code: "ApiNotFound" });
  }

  function sheetOf(name) {
    const s = S.sheets.get(String(name).toLowerCase());
    if (!s) throw Object.assign(new Error(`The requested resource doesn't exist (sheet ${name}).`), { code: "ItemNotFound" });
    return s;
  }

  function cellAt(sheet, r, c) {
    return sheet.cells.get(k(r, c)) || null;
  }

  function ensureCell(sheet, r, c) {
    let cell = sheet.cells.get(k(r, c));
    if (!cell) {
      cell = emptyCell();
      sheet.cells.set(k(r, c), cell);
    }
    return cell;
  }

  const isEmpty = (cell) => !cell || (cell.formula === null && (cell.value === "" || cell.value === null || cell.value === undefined));

  function valueType(cell) {
    if (isEmpty(cell)) return "Empty";
    // An entity's basicType is Error, its basicValue #VALUE!: "how calculations read an entity"
    // (https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue) — and what values/valueTypes give.
    if (cell.rich) return cell.rich.basicType || "Error";
    if (cell.error || (typeof cell.value === "string" && ERROR_VALUES.has(cell.value))) return "Error";
    if (typeof cell.value === "number") return "Double";
    if (typeof cell.value === "boolean") return "Boolean";
    return "String";
  }

  /**
   * The used range: cells with values or formulas, and with `valuesOnly` false also cells that carry
   * only formatting ("valuesOnly: Considers only cells with values as used cells (ignores
   * formatting)", Worksheet.getUsedRange, https://learn.microsoft.com/javascript/api/excel/excel.worksheet).
   */
  function usedBox(sheet, valuesOnly) {
    let box = null;
    for (const [key, cell] of sheet.cells) {
      if (isEmpty(cell) && !(cell.format && !valuesOnly)) continue;
      const [r, c] = key.split(",").map(Number);
      if (!box) box = { top: r, left: c, bottom: r, right: c };
      else {
        box.top = Math.min(box.top, r);
        box.left = Math.min(box.left, c);
        box.bottom = Math.max(box.bottom, r);
        box.right = Math.max(box.right, c);
      }
    }
    return box;
  }

  function grid(sheet, box, read) {
    const out = [];
    for (let r = box.top; r <= box.bottom; r++) {
      const row = [];
      for (let c = box.left; c <= box.right; c++) row.push(read(cellAt(sheet, r, c)));
      out.push(row);
    }
    return out;
  }
  const readValue = (cell) => (isEmpty(cell) ? "" : cell.rich ? (cell.rich.basicValue ?? "#VALUE!") : cell.value);
  /** Range.text: what the cell shows (an entity: its text; an error: its code; no # substitution). */
  const readText = (cell) => {
    if (isEmpty(cell)) return "";
    if (cell.rich) return String(cell.rich.text ?? cell.rich.basicValue ?? "");
    if (cell.error) return cell.error.code;
    if (typeof cell.value === "boolean") return cell.value ? "TRUE" : "FALSE";
    return String(cell.value);
  };
  const ERROR_TYPES = RULES.ERROR_TYPES;
  const CODE_OF_ERROR_TYPE = Object.fromEntries(Object.entries(ERROR_TYPES).map(([k, v]) => [v, k]));
  const errorValue = RULES.errorCellValue;
  /** Range.valuesAsJson (ExcelApi 1.16): every cell as its cell value JSON (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-valuesasjson-member). */
  const readJson = (cell) => {
    if (isEmpty(cell)) return { type: "Empty", basicType: "Empty", basicValue: "" };
    if (cell.rich) return JSON.parse(JSON.stringify(cell.rich));
    if (cell.error || (typeof cell.value === "string" && ERROR_VALUES.has(cell.value)))
      return errorValue(cell.error ? cell.error.code : cell.value);
    if (typeof cell.value === "number") return { type: "Double", basicType: "Double", basicValue: cell.value };
    if (typeof cell.value === "boolean") return { type: "Boolean", basicType: "Boolean", basicValue: cell.value };
    return { type: "String", basicType: "String", basicValue: String(cell.value) };
  };
  const readFormula = (cell) => (cell && cell.formula !== null ? cell.formula : readValue(cell));

  function clearSpill(sheet, anchorKey) {
    const anchor = sheet.cells.get(anchorKey);
    if (!anchor || !anchor.spill) return;
    const [r0, c0] = anchorKey.split(",").map(Number);
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
  function replacing(sheet, key) {
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
  function writeCell(sheet, r, c, v, asFormula) {
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
  function writeJson(sheet, r, c, v) {
    const key = k(r, c);
    const cell = replacing(sheet, key);
    const bad = (why) => Object.assign(new Error(`Invalid cell value: ${why}`), { code: "InvalidArgument" });
    if (!v || typeof v !== "object" || typeof v.type !== "string") throw bad("not a cell value");
    switch (v.type) {
      case "Empty":
        break;
      case "String":
        cell.value = String(v.basicValue);
        break;
      case "Double":
      case "FormattedNumber":
        if (typeof v.basicValue !== "number") throw bad("a number's basicValue");
        cell.value = v.basicValue;
        break;
      case "Boolean":
        cell.value = !!v.basicValue;
        break;
      case "Error": {
        const code = CODE_OF_ERROR_TYPE[v.errorType] || v.basicValue;
        cell.value = code;
        cell.error = { code, message: "" };
        break;
      }
      case "Entity":
        if ("basicValue" in v || "basicType" in v) throw bad("an entity's basicValue and basicType are read-only");
        // The card page's rules: text, each property's type and basicValue, layouts naming properties (excel-rules.ts).
        if (RULES.entityProblems(v).length > 0) throw bad(RULES.entityProblems(v).join("; "));
        cell.rich = { ...JSON.parse(JSON.stringify(v)), basicType: "Error", basicValue: "#VALUE!" };
        cell.value = "#VALUE!";
        break;
      default:
        throw bad(`type ${v.type}`);
    }
    sheet.cells.set(key, cell);
  }

  // ---- calculation --------------------------------------------------------------------------------
  /** Splits "a, "b,c", C3" at top-level commas. */
  function splitArgs(text) {
    const out = [];
    let cur = "";
    let inStr = false;
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '"') inStr = !inStr;
      if (!inStr && ch === "(") depth++;
      if (!inStr && ch === ")") depth--;
      if (!inStr && depth === 0 && ch === ",") {
        out.push(cur);
        cur = "";
      } else cur += ch;
    }
    out.push(cur);
    return out;
  }

  /** An argument's value as Excel computes it before calling the function; undefined if it cannot. */
  function argValue(text, sheet) {
    const a = text.trim();
    if (a === "") return { missing: true };
    if (/^"(?:[^"]|"")*"$/.test(a)) return { value: a.slice(1, -1).replace(/""/g, '"') };
    if (/^-?\d+(?:\.\d+)?$/.test(a)) return { value: Number(a) };
    if (/^(TRUE|FALSE)$/i.test(a)) return { value: a.toUpperCase() === "TRUE" };
    const ref = parseRef(a);
    if (!ref) return undefined;
    const s = ref.sheet === null ? sheet : S.sheets.get(ref.sheet.toLowerCase());
    if (!s) return undefined;
    const m = grid(s, ref.box, argCell);
    return { value: m, range: !(ref.box.top === ref.box.bottom && ref.box.left === ref.box.right) };
  }

  /**
   * A referenced cell as a custom function's `any` parameter receives it: a plain value as it is; a
   * data type as its cell value JSON where data types are on, else its basic value (an entity's is the
   * #VALUE! error); an error as an ErrorCellValue (reaching the function only with
   * allowErrorForDataTypeAny: calculateCell answers with it otherwise). "Custom functions and the Excel
   * JavaScript API use the same JSON schema for data types"
   * (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts).
   */
  function argCell(cell) {
    if (cell && cell.rich) return dataTypesOn() ? JSON.parse(JSON.stringify(cell.rich)) : errorValue(cell.rich.basicValue || "#VALUE!");
    if (cell && (cell.error || (typeof cell.value === "string" && ERROR_VALUES.has(cell.value))))
      return errorValue(cell.error ? cell.error.code : cell.value);
    return readValue(cell);
  }

  /** An argument with each ErrorCellValue as a CustomFunctions.Error (office.js's class) of its code. */
  function asCustomFunctionsErrors(a) {
    const one = (x) => (x && typeof x === "object" && x.type === "Error" ? new StandInError(RULES.codeOfErrorCell(x)) : x);
    return Array.isArray(a) ? a.map((row) => (Array.isArray(row) ? row.map(one) : one(row))) : one(a);
  }

  /** The first error value among arguments (scalars or matrices), or null. */
  function errorArgument(args) {
    for (const a of args) {
      for (const x of Array.isArray(a) ? a.flat() : [a]) if (x && typeof x === "object" && x.type === "Error") return x;
    }
    return null;
  }

  /** Puts a result in a cell (spilling it); `fromFunction`: a custom function's answer, held to what Excel accepts from one. */
  function setResult(sheet, r, c, formula, result, fromFunction) {
    const key = k(r, c);
    const anchor = sheet.cells.get(key);
    if (!anchor || anchor.formula !== formula) return; // overwritten meanwhile
    clearSpill(sheet, key);
    const toCell = (v) => {
      if (!fromFunction) {
        if (v instanceof StandInError) return { value: v.code, error: { code: v.code, message: v.message || "" }, rich: null };
        return { value: v === null || v === undefined ? "" : v, error: null, rich: null };
      }
      if (v instanceof StandInError) {
        if (!OUTPUT_ERRORS.has(v.code)) {
          S.violations.push(`${formula}: answered ${v.code}, which Excel does not accept as an output`);
          return { value: "#VALUE!", error: { code: "#VALUE!", message: "" }, rich: null };
        }
        return { value: v.code, error: { code: v.code, message: MESSAGE_ERRORS.has(v.code) ? v.message || "" : "" }, rich: null };
      }
      if (v !== null && typeof v === "object") {
        // An object is a data type only where data types are on ("the entity displays as a #VALUE!
        // error" otherwise: https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-concepts).
        const problems = dataTypesOn() ? RULES.cellValueProblems(v) : ["data types are off"];
        if (problems.length > 0) {
          S.violations.push(`${formula}: answered an object where Excel shows #VALUE!: ${problems.join("; ")}`);
          return { value: "#VALUE!", error: { code: "#VALUE!", message: "" }, rich: null };
        }
        if (v.type === "Entity") return { value: "#VALUE!", error: null, rich: { ...v, basicType: "Error", basicValue: "#VALUE!" } };
        if (v.type === "Error") {
          const code = CODE_OF_ERROR_TYPE[v.errorType] || "#VALUE!";
          return { value: code, error: { code, message: "" }, rich: null };
        }
        return { value: v.basicValue === undefined ? "" : v.basicValue, error: null, rich: null };
      }
      return { value: v === null || v === undefined ? "" : v, error: null, rich: null };
    };
    const m = Array.isArray(result) ? result.map((row) => (Array.isArray(row) ? row : [row])) : [[result]];
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

  const FIRMA_CALL = /^=\s*FIRMA\.([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/i;

  /**
   * Starts calculating one FIRMA cell. With `propagate` (Excel's full calculation), the cells that
   * depend on it are calculated once its result is in.
   */
  function calculateCell(sheet, r, c, propagate) {
    const cell = cellAt(sheet, r, c);
    if (!cell || cell.formula === null) return;
    const formula = cell.formula;
    const m = FIRMA_CALL.exec(formula);
    if (!m) return;
    const id = m[1].toUpperCase();
    const fn = S.functions.get(id);
    const meta = S.meta && S.meta.find((f) => f.id === id);
    // A function the naming page's rules keep from loading is unknown to Excel (excel-rules.ts; FIRMA.CA
    // loads as the one named exception, S.namingExceptions).
    if (!fn || !meta || S.notLoaded.has(id)) {
      setResult(sheet, r, c, formula, new StandInError("#NAME?", ""));
      return;
    }
    const texts = m[2].trim() === "" ? [] : splitArgs(m[2]);
    const args = [];
    for (let i = 0; i < meta.parameters.length; i++) {
      const p = meta.parameters[i];
      const a = i < texts.length ? argValue(texts[i], sheet) : { missing: true };
      if (a === undefined) {
        setResult(sheet, r, c, formula, new StandInError("#VALUE!", "stand-in: argument not supported"));
        return;
      }
      // A range for a scalar parameter: no page says what Excel does ("Excel will pass a range of cell data
      // as a two-dimensional array" is said of matrix parameters, custom-functions-parameter-options). The
      // stand-in picks no cell: it hands the range on as it is, for the function to refuse, and records it.
      if (!a.missing && a.range && p.dimensionality !== "matrix") S.unspecified.push(`${formula}: a range passed to ${p.name}`);
      if (a.missing) args.push(null);
      else if (p.dimensionality === "matrix" || a.range) args.push(Array.isArray(a.value) ? a.value : [[a.value]]);
      else args.push(Array.isArray(a.value) ? a.value[0][0] : a.value);
    }
    // An error argument reaches only a parameter of type any, and only with allowErrorForDataTypeAny ("All
    // parameters with the type any or any[][] can accept errors as input values", custom-functions-json);
    // otherwise it is the answer and the function is not called
    // (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-errors#errors-as-custom-function-inputs).
    for (let i = 0; i < meta.parameters.length; i++) {
      const p = meta.parameters[i];
      const reach = S.flags.allowErrors && (p.type === undefined || p.type === "any");
      const err = reach ? null : errorArgument([args[i]]);
      if (err) {
        setResult(sheet, r, c, formula, new StandInError(CODE_OF_ERROR_TYPE[err.errorType] || "#VALUE!", ""));
        return;
      }
      // Where data types are off, no page promises the ErrorCellValue JSON ("custom functions only support
      // the errors included in the CustomFunctions.Error object", custom-functions-data-types-concepts).
      if (reach && !dataTypesOn()) args[i] = asCustomFunctionsErrors(args[i]);
    }
    const previous = cell.invocation;
    const invocation = meta.options && meta.options.cancelable ? { onCanceled: null } : {};
    if (meta.options && meta.options.cancelable) args.push(invocation);
    cell.invocation = invocation;
    clearSpill(sheet, k(r, c));
    Object.assign(cell, { value: "#BUSY!", error: { code: "#BUSY!", message: "" } });
    S.calls.push({ id, args: JSON.parse(JSON.stringify(args.slice(0, meta.parameters.length))) });
    // "The ordering between the cancellation of the old function call and the new invocation is not
    // guaranteed" (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs#cancel-a-function):
    // S.cancelOrder plays each; the old call's answer is not shown.
    const cancelPrevious = () => previous && typeof previous.onCanceled === "function" && previous.onCanceled();
    if (S.cancelOrder === "cancelFirst") cancelPrevious();
    let p;
    try {
      p = Promise.resolve(fn(...args));
    } catch (e) {
      p = Promise.reject(e);
    }
    if (S.cancelOrder === "together") cancelPrevious();
    else if (S.cancelOrder === "invokeFirst") setTimeout(cancelPrevious, 0);
    const current = () => {
      const now = cellAt(sheet, r, c);
      return !!now && now.invocation === invocation;
    };
    const done = p
      .then(
        (result) => current() && setResult(sheet, r, c, formula, result, true),
        (e) => current() && setResult(sheet, r, c, formula, e instanceof StandInError ? e : new StandInError("#VALUE!", String(e)), true),
      )
      .then(() => {
        if (!propagate) return;
        const anchor = cellAt(sheet, r, c);
        const box = anchor && anchor.spill ? { top: r, left: c, bottom: anchor.spill.bottom, right: anchor.spill.right } : one(r, c);
        calculateCells(dependentsOf([{ sheet, box }]).filter((x) => !FIRMA_CALL.test(x.cell.formula)));
      });
    S.pending.add(done);
    done.finally(() => S.pending.delete(done));
  }

  const one = (r, c) => ({ top: r, left: c, bottom: r, right: c });
  const inBox = (b, r, c) => r >= b.top && r <= b.bottom && c >= b.left && c <= b.right;
  const overlaps = (a, b) => a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;

  /** The formula cells of `box`: [{ sheet, r, c, cell }]. */
  function formulaCellsIn(sheet, box) {
    const out = [];
    // A small box is looked up cell by cell (a calculate on one run of a large sheet must not scan it all).
    if ((box.bottom - box.top + 1) * (box.right - box.left + 1) < sheet.cells.size) {
      for (let r = box.top; r <= box.bottom; r++)
        for (let c = box.left; c <= box.right; c++) {
          const cell = sheet.cells.get(k(r, c));
          if (cell && cell.formula !== null) out.push({ sheet, r, c, cell });
        }
      return out;
    }
    for (const [key, cell] of sheet.cells) {
      if (cell.formula === null) continue;
      const [r, c] = key.split(",").map(Number);
      if (inBox(box, r, c)) out.push({ sheet, r, c, cell });
    }
    return out;
  }
  const ALL = { top: 1, left: 1, bottom: 1048576, right: 16384 };

  /** A formula's references, outside string literals: [{ sheet, box }] (sheet objects; unknown sheets left out). */
  const REF_TOKEN =
    /(?<![A-Za-z0-9_.$])(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?(?![A-Za-z0-9_(])/g;
  function refsOf(formula, sheet) {
    const text = formula.replace(/"(?:[^"]|"")*"/g, '""');
    const out = [];
    for (const m of text.matchAll(REF_TOKEN)) {
      const ref = parseRef(m[0]);
      if (!ref) continue;
      const s = ref.sheet === null ? sheet : S.sheets.get(ref.sheet.toLowerCase());
      if (s) out.push({ sheet: s, box: ref.box });
    }
    return out;
  }

  /**
   * Every cell that depends on `targets` ([{ sheet, box }]), directly or through other cells, on any
   * sheet — what Range.getDependents returns ("all the dependent cells of a specified range in the
   * same worksheet or across multiple worksheets", ExcelApi 1.15,
   * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-getdependents-member(1)).
   */
  function dependentsOf(targets) {
    const all = [];
    for (const sheet of S.sheets.values()) all.push(...formulaCellsIn(sheet, ALL));
    const seen = new Set();
    const out = [];
    let frontier = targets;
    while (frontier.length > 0) {
      const next = [];
      for (const x of all) {
        const id = `${x.sheet.name}!${k(x.r, x.c)}`;
        if (seen.has(id)) continue;
        const hit = refsOf(x.cell.formula, x.sheet).some((ref) => frontier.some((f) => f.sheet === ref.sheet && overlaps(f.box, ref.box)));
        if (!hit) continue;
        seen.add(id);
        out.push(x);
        next.push({
          sheet: x.sheet,
          box: x.cell.spill ? { top: x.r, left: x.c, bottom: x.cell.spill.bottom, right: x.cell.spill.right } : one(x.r, x.c),
        });
      }
      frontier = next;
    }
    return out;
  }

  /**
   * The value of a plain formula the stand-in understands: a reference, a string or a number, LEN(…),
   * UPPER(…), joined with &. Undefined for anything else (the cell then keeps its value). An error in
   * a referenced cell is the result, as in Excel.
   */
  function evaluatePlain(formula, sheet) {
    const text = formula.slice(1);
    let i = 0;
    const ws = () => {
      while (text[i] === " ") i++;
    };
    const fail = {};
    function term() {
      ws();
      const rest = text.slice(i);
      let m;
      if ((m = /^"((?:[^"]|"")*)"/.exec(rest))) {
        i += m[0].length;
        return m[1].replace(/""/g, '"');
      }
      if ((m = /^-?\d+(?:\.\d+)?/.exec(rest))) {
        i += m[0].length;
        return Number(m[0]);
      }
      if ((m = /^(LEN|UPPER)\s*\(/i.exec(rest))) {
        i += m[0].length;
        const v = expr();
        ws();
        if (text[i] !== ")") throw fail;
        i++;
        if (v instanceof StandInError) return v;
        return m[1].toUpperCase() === "LEN" ? String(v).length : String(v).toUpperCase();
      }
      if ((m = /^(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?\$?[A-Za-z]{1,3}\$?\d+/.exec(rest))) {
        i += m[0].length;
        const ref = parseRef(m[0]);
        const s = ref.sheet === null ? sheet : S.sheets.get(ref.sheet.toLowerCase());
        if (!s) return new StandInError("#REF!", "");
        const cell = cellAt(s, ref.box.top, ref.box.left);
        // Dot syntax: =B2.Stare, =B2.[Cifra de afaceri] reads an entity's property (#FIELD! when it has
        // none: https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card).
        const dot = /^\.(?:\[([^\]]+)\]|([\p{L}_][\p{L}\p{N}_]*))/u.exec(text.slice(i));
        if (dot) {
          i += dot[0].length;
          const name = (dot[1] || dot[2]).toLowerCase();
          const props = cell && cell.rich && cell.rich.properties;
          const found = props && Object.keys(props).find((p) => p.toLowerCase() === name);
          return found ? props[found].basicValue : new StandInError("#FIELD!", "");
        }
        if (cell && cell.error) return new StandInError(cell.error.code, cell.error.message);
        return readValue(cell);
      }
      throw fail;
    }
    function expr() {
      let v = term();
      ws();
      while (text[i] === "&") {
        i++;
        const w = term();
        if (v instanceof StandInError) continue;
        v = w instanceof StandInError ? w : String(v) + String(w);
        ws();
      }
      return v;
    }
    try {
      const v = expr();
      ws();
      return i === text.length ? { value: v } : undefined;
    } catch (e) {
      if (e === fail) return undefined;
      throw e;
    }
  }

  /**
   * Calculates the given formula cells ([{ sheet, r, c }]): FIRMA calls start; plain formulas are
   * evaluated, each after those of the set it refers to (Excel calculates a range's cells in their
   * dependency order).
   */
  function calculateCells(list) {
    const plain = [];
    const seen = new Set();
    for (const x of list) {
      const cell = cellAt(x.sheet, x.r, x.c);
      const id = `${x.sheet.name}!${k(x.r, x.c)}`;
      if (!cell || cell.formula === null || seen.has(id)) continue;
      seen.add(id);
      if (FIRMA_CALL.test(cell.formula)) {
        if (x.byCalculate && !S.calculateReruns) continue;
        if (x.byCalculate && S.calculateRerunsOnly && !S.calculateRerunsOnly(x.sheet.name, x.r, x.c)) continue;
        if (x.byCalculate && S.calculateDelayMs > 0) setTimeout(() => calculateCell(x.sheet, x.r, x.c, !!x.propagate), S.calculateDelayMs);
        else calculateCell(x.sheet, x.r, x.c, !!x.propagate);
      } else plain.push({ sheet: x.sheet, r: x.r, c: x.c, cell });
    }
    const waiting = new Set(plain);
    while (waiting.size > 0) {
      let ready = [...waiting].filter((x) =>
        refsOf(x.cell.formula, x.sheet).every(
          (ref) => ![...waiting].some((y) => y !== x && y.sheet === ref.sheet && inBox(ref.box, y.r, y.c)),
        ),
      );
      if (ready.length === 0) ready = [...waiting]; // a circular reference: in any order
      for (const x of ready) {
        waiting.delete(x);
        const result = evaluatePlain(x.cell.formula, x.sheet);
        if (result !== undefined) setResult(x.sheet, x.r, x.c, x.cell.formula, result.value);
        S.plainCalculations.push(`${x.sheet.name}!${colLetters(x.c)}${x.r}`);
      }
    }
  }

  // ---- the Excel API proxies ----------------------------------------------------------------------
  function propertyNotLoaded(name) {
    return Object.assign(
      new Error(
        `The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
      ),
      { code: "PropertyNotLoaded" },
    );
  }

  function propList(props) {
    if (props === undefined) return null;
    if (typeof props === "string")
      return props
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
    if (Array.isArray(props)) return props;
    if (props && props.select) return propList(props.select);
    return null;
  }

  class ClientObject {
    constructor(ctx) {
      this._ctx = ctx;
      this._data = null;
      this._loaded = new Set();
    }
    _get(name) {
      if (!this._loaded.has(name)) throw propertyNotLoaded(name);
      return this._data[name];
    }
    get isNullObject() {
      if (!this._loaded.has("isNullObject")) throw propertyNotLoaded("isNullObject");
      return this._data.isNullObject;
    }
    load(props) {
      const list = propList(props);
      const ctx = this._ctx;
      ctx._queue(() => {
        const snap = this._snapshot(list);
        // What was loaded reaches the add-in only if the whole answer is within the limit.
        ctx._commits.push(() => {
          this._data = Object.assign(this._data || {}, snap);
          for (const key of Object.keys(snap)) this._loaded.add(key);
          this._loaded.add("isNullObject");
        });
      });
      return this;
    }
  }

  class Range extends ClientObject {
    /** resolve(): { sheet, box } or null (a null object) */
    constructor(ctx, resolve, orNull) {
      super(ctx);
      this._resolve = () => {
        const r = resolve();
        if (!r && !orNull) throw Object.assign(new Error("The requested resource doesn't exist."), { code: "ItemNotFound" });
        return r;
      };
    }
    _snapshot(list) {
      const r = this._resolve();
      if (!r) return { isNullObject: true };
      const { sheet, box } = r;
      const all = {
        address: () => `${quoteSheet(sheet.name)}!${boxAddress(box)}`,
        values: () => grid(sheet, box, readValue),
        formulas: () => grid(sheet, box, readFormula),
        valueTypes: () => grid(sheet, box, valueType),
        text: () => grid(sheet, box, readText),
        numberFormat: () => grid(sheet, box, (cell) => (cell && cell.numberFormat) || "General"),
        valuesAsJson: () => {
          requireApi("1.16", "Range.valuesAsJson");
          return grid(sheet, box, readJson);
        },
        /**
         * "Represents if all rows in the current range are hidden. Value is true when all rows in a range
         * are hidden. Value is false when no rows in the range are hidden. Value is null when some rows in
         * a range are hidden and other rows in the same range are not hidden." (ExcelApi 1.2,
         * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-rowhidden-member)
         */
        rowHidden: () => {
          requireApi("1.2", "Range.rowHidden");
          const hidden = S.hiddenRows.get(sheet.name.toLowerCase()) || new Set();
          let n = 0;
          for (const r of hidden) if (r >= box.top && r <= box.bottom) n++;
          return n === 0 ? false : n === box.bottom - box.top + 1 ? true : null;
        },
        rowIndex: () => box.top - 1,
        columnIndex: () => box.left - 1,
        rowCount: () => box.bottom - box.top + 1,
        columnCount: () => box.right - box.left + 1,
      };
      const out = { isNullObject: false };
      for (const name of list || Object.keys(all)) if (all[name]) out[name] = all[name]();
      if (out.values || out.formulas || out.text || out.valuesAsJson || out.valueTypes) {
        S.reads.push({ sheet: sheet.name, address: boxAddress(box), cells: (box.bottom - box.top + 1) * (box.right - box.left + 1) });
        this._ctx._answerBytes += RULES.utf8Bytes(JSON.stringify(out));
      }
      return out;
    }
    /** Sets cell values JSON, types kept (ExcelApi 1.16). */
    set valuesAsJson(v) {
      this._write(v, "json");
    }
    set values(v) {
      this._write(v, false);
    }
    set formulas(v) {
      this._write(v, true);
    }
    /** The number format; "@" (text) makes what is written afterwards text, as in Excel. */
    set numberFormat(v) {
      const copy = JSON.parse(JSON.stringify(v));
      this._ctx._queue(() => {
        const { sheet, box } = this._resolve();
        refuseProtected(sheet);
        for (let r = box.top; r <= box.bottom; r++)
          for (let c = box.left; c <= box.right; c++) {
            const f = Array.isArray(copy) ? copy[r - box.top][c - box.left] : copy;
            const cell = ensureCell(sheet, r, c);
            cell.text = f === "@";
            cell.numberFormat = f;
            cell.format = true;
          }
      }, copy);
    }
    _write(v, asFormula) {
      const copy = JSON.parse(JSON.stringify(v));
      this._ctx._queue(() => {
        if (asFormula === "json") requireApi("1.16", "Range.valuesAsJson");
        const { sheet, box } = this._resolve();
        refuseProtected(sheet);
        const rows = box.bottom - box.top + 1;
        const cols = box.right - box.left + 1;
        const m = Array.isArray(copy) ? copy : [[copy]];
        if (m.length !== rows || m.some((row) => !Array.isArray(row) || row.length !== cols)) {
          throw Object.assign(
            new Error("The number of rows or columns in the input array doesn't match the size or dimensions of the range."),
            { code: "InvalidArgument" },
          );
        }
        for (let i = 0; i < rows; i++)
          for (let j = 0; j < cols; j++) {
            if (asFormula === "json") writeJson(sheet, box.top + i, box.left + j, m[i][j]);
            else writeCell(sheet, box.top + i, box.left + j, m[i][j], asFormula);
          }
        S.writes.push({
          sheet: sheet.name,
          address: boxAddress(box),
          asFormula: asFormula === true,
          ...(asFormula === "json" ? { json: true } : {}),
        });
        // A formula entered is calculated, as when the user types it and presses Enter.
        if (asFormula === true) this._ctx._calc.push(...formulaCellsIn(sheet, box));
      }, copy);
    }
    /** "Selects the specified range in the Excel UI." (ExcelApi 1.1, https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-select-member(1)) */
    select() {
      this._ctx._queue(() => {
        const { sheet, box } = this._resolve();
        S.selection = { sheet: sheet.name, box: { ...box } };
        S.selectionAreas = 1;
        S.active = sheet.name;
      });
    }
    get worksheet() {
      return new Worksheet(this._ctx, () => {
        const r = this._resolve();
        return r ? r.sheet : null;
      });
    }
    /**
     * "Calculates a range of cells on a worksheet" (ExcelApi 1.6,
     * https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-calculate-member(1)):
     * the range's formula cells, nothing else — not the cells that depend on them.
     */
    calculate() {
      this._ctx._queue(() => {
        requireApi("1.6", "Range.calculate");
        const { sheet, box } = this._resolve();
        this._ctx._calc.push(...formulaCellsIn(sheet, box).map((x) => ({ ...x, byCalculate: true })));
      });
    }
    getDependents() {
      return new WorkbookRangeAreas(this._ctx, () => {
        requireApi("1.15", "Range.getDependents");
        const { sheet, box } = this._resolve();
        const deps = dependentsOf([{ sheet, box }]);
        // "Throws an ItemNotFound error if no dependents are found." (the API reference)
        if (deps.length === 0) throw Object.assign(new Error("No dependents were found."), { code: "ItemNotFound" });
        return deps;
      });
    }
    getSpillingToRangeOrNullObject() {
      return new Range(
        this._ctx,
        () => {
          requireApi("1.12", "Range.getSpillingToRangeOrNullObject");
          const r = this._resolve();
          if (!r) return null;
          const anchor = cellAt(r.sheet, r.box.top, r.box.left);
          if (!anchor || !anchor.spill) return null;
          return { sheet: r.sheet, box: { top: r.box.top, left: r.box.left, bottom: anchor.spill.bottom, right: anchor.spill.right } };
        },
        true,
      );
    }
    getCell(row, col) {
      return new Range(this._ctx, () => {
        const r = this._resolve();
        const top = r.box.top + row;
        const left = r.box.left + col;
        return { sheet: r.sheet, box: { top, left, bottom: top, right: left } };
      });
    }
  }

  // What a sync loaded: reading a property that was not loaded and synced throws, as in office.js.
  for (const name of [
    "address",
    "rowHidden",
    "values",
    "formulas",
    "valueTypes",
    "text",
    "numberFormat",
    "valuesAsJson",
    "rowIndex",
    "columnIndex",
    "rowCount",
    "columnCount",
  ]) {
    const own = Object.getOwnPropertyDescriptor(Range.prototype, name);
    Object.defineProperty(Range.prototype, name, {
      get() {
        return this._get(name);
      },
      set: own && own.set,
      configurable: true,
    });
  }

  class Worksheet extends ClientObject {
    constructor(ctx, resolveSheet, orNull) {
      super(ctx);
      this._resolveSheet = () => {
        const s = resolveSheet();
        if (!s && !orNull) throw Object.assign(new Error("The requested resource doesn't exist."), { code: "ItemNotFound" });
        return s;
      };
    }
    _snapshot() {
      const s = this._resolveSheet();
      return s ? { isNullObject: false, name: s.name } : { isNullObject: true };
    }
    get name() {
      return this._get("name");
    }
    /** A navigation property: the sheet's protection (ExcelApi 1.2). */
    get protection() {
      this._protection ??= new WorksheetProtection(this._ctx, () => this._resolveSheet());
      return this._protection;
    }
    /** A navigation property: the sheet's tables (ExcelApi 1.1). */
    get tables() {
      this._tables ??= new TableCollection(this._ctx, () => this._resolveSheet());
      return this._tables;
    }
    getRange(address) {
      return new Range(this._ctx, () => {
        const sheet = this._resolveSheet();
        const ref = parseRef(address);
        if (!ref) throw Object.assign(new Error(`Invalid address ${address}`), { code: "InvalidArgument" });
        return { sheet, box: ref.box };
      });
    }
    getCell(row, col) {
      return new Range(this._ctx, () => ({
        sheet: this._resolveSheet(),
        box: { top: row + 1, left: col + 1, bottom: row + 1, right: col + 1 },
      }));
    }
    getRangeByIndexes(row, col, rowCount, colCount) {
      return new Range(this._ctx, () => {
        requireApi("1.7", "Worksheet.getRangeByIndexes");
        return { sheet: this._resolveSheet(), box: { top: row + 1, left: col + 1, bottom: row + rowCount, right: col + colCount } };
      });
    }
    /** "Deletes the worksheet from the workbook." (ExcelApi 1.1) */
    delete() {
      this._ctx._queue(() => {
        const sheet = this._resolveSheet();
        S.sheets.delete(sheet.name.toLowerCase());
        S.order = S.order.filter((n) => n !== sheet.name);
        if (S.active === sheet.name) S.active = S.order[0];
      });
    }
    /** "Activate the worksheet in the Excel UI." (ExcelApi 1.1) */
    activate() {
      this._ctx._queue(() => {
        const sheet = this._resolveSheet();
        S.active = sheet.name;
        S.selection = { sheet: sheet.name, box: { top: 1, left: 1, bottom: 1, right: 1 } };
      });
    }
    getUsedRange(valuesOnly) {
      return new Range(this._ctx, () => {
        const sheet = this._resolveSheet();
        return { sheet, box: usedBox(sheet, !!valuesOnly) || { top: 1, left: 1, bottom: 1, right: 1 } };
      });
    }
    getUsedRangeOrNullObject(valuesOnly) {
      return new Range(
        this._ctx,
        () => {
          requireApi("1.4", "Worksheet.getUsedRangeOrNullObject");
          const sheet = this._resolveSheet();
          if (!sheet) return null;
          const box = usedBox(sheet, !!valuesOnly);
          return box ? { sheet, box } : null;
        },
        true,
      );
    }
  }

  /**
   * A protected sheet: WorksheetProtection.protected, "Specifies if protection of the worksheet is
   * enabled" (ExcelApi 1.2, https://learn.microsoft.com/javascript/api/excel/excel.worksheetprotection).
   * Writing to its (locked) cells fails; the stand-in fails every write with AccessDenied, "You cannot
   * perform the requested operation" (https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-error-handling),
   * the stricter reading (a page on which cells a protected sheet leaves unlocked is not played).
   */
  class WorksheetProtection extends ClientObject {
    constructor(ctx, resolveSheet) {
      super(ctx);
      this._resolveSheet = resolveSheet;
    }
    _snapshot() {
      requireApi("1.2", "WorksheetProtection");
      return { isNullObject: false, protected: S.protectedSheets.has(this._resolveSheet().name.toLowerCase()) };
    }
    get protected() {
      return this._get("protected");
    }
  }
  function refuseProtected(sheet) {
    if (S.protectedSheets.has(sheet.name.toLowerCase()))
      throw Object.assign(new Error("You cannot perform the requested operation (the sheet is protected)."), { code: "AccessDenied" });
  }

  /** A sheet's tables (Worksheet.tables, ExcelApi 1.1: https://learn.microsoft.com/javascript/api/excel/excel.tablecollection), each with getRange(). */
  class TableCollection extends ClientObject {
    constructor(ctx, resolveSheet) {
      super(ctx);
      this._resolveSheet = resolveSheet;
    }
    _snapshot() {
      const sheet = this._resolveSheet();
      return {
        isNullObject: false,
        items: S.tables
          .filter((t) => t.sheet === sheet.name.toLowerCase())
          .map((t) => {
            const table = new Table(this._ctx, sheet, t);
            table._data = { name: t.name };
            table._loaded.add("name");
            return table;
          }),
      };
    }
    get items() {
      return this._get("items");
    }
  }
  class Table extends ClientObject {
    constructor(ctx, sheet, t) {
      super(ctx);
      this._sheet = sheet;
      this._t = t;
    }
    get name() {
      return this._get("name");
    }
    /** "Gets the range object associated with the entire table." (ExcelApi 1.1) */
    getRange() {
      return new Range(this._ctx, () => ({ sheet: this._sheet, box: { ...this._t.box } }));
    }
  }

  /** The selection's areas (Workbook.getSelectedRanges, ExcelApi 1.9): areaCount, "the number of rectangular ranges". */
  class SelectedAreas extends ClientObject {
    _snapshot() {
      requireApi("1.9", "Workbook.getSelectedRanges");
      return { isNullObject: false, areaCount: S.selectionAreas };
    }
    get areaCount() {
      return this._get("areaCount");
    }
  }

  /**
   * What Range.getDependents returns (ExcelApi 1.15): `addresses`, and `areas`, one RangeAreas per
   * worksheet (https://learn.microsoft.com/javascript/api/excel/excel.workbookrangeareas). resolve()
   * gives the dependent cells ([{ sheet, r, c }]) or throws.
   */
  class WorkbookRangeAreas extends ClientObject {
    constructor(ctx, resolve) {
      super(ctx);
      this._resolveCells = resolve;
      // The call itself fails at sync (ItemNotFound) even when nothing is loaded.
      ctx._queue(() => resolve());
    }
    _bySheet() {
      const by = new Map();
      for (const x of this._resolveCells()) {
        if (!by.has(x.sheet)) by.set(x.sheet, []);
        by.get(x.sheet).push(x);
      }
      return by;
    }
    _snapshot() {
      const addresses = [];
      for (const [sheet, cells] of this._bySheet())
        for (const x of cells) addresses.push(`${quoteSheet(sheet.name)}!${colLetters(x.c)}${x.r}`);
      return { isNullObject: false, addresses };
    }
    get addresses() {
      return this._get("addresses");
    }
    get areas() {
      // a navigation property: the same proxy each time, as office.js keeps it
      this._areas ??= new RangeAreasCollection(this._ctx, () => [...this._bySheet().entries()]);
      return this._areas;
    }
  }

  class RangeAreasCollection extends ClientObject {
    constructor(ctx, resolve) {
      super(ctx);
      this._resolveSheets = resolve;
    }
    _snapshot() {
      return {
        items: this._resolveSheets().map(([sheet, cells]) => {
          const areas = new RangeAreas(this._ctx, () => cells);
          areas._data = {
            cellCount: cells.length,
            address: cells.map((x) => `${quoteSheet(sheet.name)}!${colLetters(x.c)}${x.r}`).join(","),
          };
          areas._loaded.add("cellCount");
          areas._loaded.add("address");
          return areas;
        }),
      };
    }
    get items() {
      return this._get("items");
    }
  }

  /** Rectangles of one worksheet (ExcelApi 1.9, https://learn.microsoft.com/javascript/api/excel/excel.rangeareas). */
  class RangeAreas extends ClientObject {
    constructor(ctx, resolve) {
      super(ctx);
      this._resolveCells = resolve;
    }
    get cellCount() {
      return this._get("cellCount");
    }
    get address() {
      return this._get("address");
    }
    /** "Calculates all cells in the RangeAreas." (ExcelApi 1.9) */
    calculate() {
      this._ctx._queue(() => {
        requireApi("1.9", "RangeAreas.calculate");
        this._ctx._calc.push(...this._resolveCells().map((x) => ({ ...x, byCalculate: true })));
      });
    }
  }

  class WorksheetCollection extends ClientObject {
    _snapshot() {
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
    get items() {
      return this._get("items");
    }
    getItem(name) {
      return new Worksheet(this._ctx, () => sheetOf(name));
    }
    getItemOrNullObject(name) {
      return new Worksheet(
        this._ctx,
        () => {
          requireApi("1.4", "WorksheetCollection.getItemOrNullObject");
          return S.sheets.get(String(name).toLowerCase()) || null;
        },
        true,
      );
    }
    getActiveWorksheet() {
      return new Worksheet(this._ctx, () => sheetOf(S.active));
    }
    /**
     * "Adds a new worksheet to the workbook. The worksheet will be added at the end of existing
     * worksheets." (ExcelApi 1.1, https://learn.microsoft.com/javascript/api/excel/excel.worksheetcollection#excel-excel-worksheetcollection-add-member(1));
     * a name already taken fails with ItemAlreadyExists (https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-error-handling).
     */
    add(name) {
      let created = null;
      this._ctx._queue(() => {
        let n = name;
        if (n === undefined || n === null) {
          let i = S.order.length + 1;
          while (S.sheets.has(`sheet${i}`)) i++;
          n = `Sheet${i}`;
        }
        n = String(n);
        if (S.sheets.has(n.toLowerCase())) throw Object.assign(new Error("The resource already exists."), { code: "ItemAlreadyExists" });
        if (n.length > 31 || /[:\\/?*[\]]/.test(n)) throw Object.assign(new Error(`Invalid sheet name ${n}`), { code: "InvalidArgument" });
        created = { name: n, cells: new Map() };
        S.sheets.set(n.toLowerCase(), created);
        S.order.push(n);
        S.added.push(n);
      });
      return new Worksheet(this._ctx, () => created);
    }
  }

  class SettingsCollection {
    constructor(ctx) {
      this._ctx = ctx;
    }
    add(key, value) {
      this._ctx._queue(() => S.documentSettings.set(String(key), JSON.stringify(value)));
    }
  }

  class CustomXmlPartCollection {
    constructor(ctx) {
      this._ctx = ctx;
    }
    add(xml) {
      this._ctx._queue(() => S.customXmlParts.push(String(xml)));
    }
  }

  class RequestContext {
    constructor() {
      this._ops = [];
      this._requestBytes = 0;
      this._commits = [];
      this._calc = [];
      this._answerBytes = 0;
      const ctx = this;
      /**
       * Queues an operation for the next sync. Its weight in the request: about 100 bytes for the
       * action and its object path, plus what it sends (values, formulas, formats as JSON).
       */
      this._queue = (op, payload) => {
        this._ops.push(op);
        this._requestBytes += 100 + (payload === undefined ? 0 : RULES.utf8Bytes(JSON.stringify(payload)));
      };
      this.workbook = {
        worksheets: new WorksheetCollection(ctx),
        settings: new SettingsCollection(ctx),
        customXmlParts: new CustomXmlPartCollection(ctx),
        getSelectedRange() {
          return new Range(ctx, () => (S.selection ? { sheet: sheetOf(S.selection.sheet), box: S.selection.box } : null));
        },
        getSelectedRanges() {
          return new SelectedAreas(ctx);
        },
        /** "Gets the currently active cell from the workbook." (ExcelApi 1.7): the selection's first cell. */
        getActiveCell() {
          return new Range(ctx, () => {
            requireApi("1.7", "Workbook.getActiveCell");
            if (!S.selection) return null;
            const b = S.selection.box;
            return { sheet: sheetOf(S.selection.sheet), box: { top: b.top, left: b.left, bottom: b.top, right: b.left } };
          });
        },
        application: {
          calculate() {
            ctx._queue(() => S.calculateAll());
          },
        },
      };
      this.application = this.workbook.application;
    }
    async sync() {
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
      if (requestBytes > S.payloadLimit) {
        throw Object.assign(new Error("The request payload size has exceeded the limit."), { code: "RequestPayloadSizeLimitExceeded" });
      }
      S.maxRequestBytes = Math.max(S.maxRequestBytes, requestBytes);
      for (const op of ops) op();
      if (this._answerBytes > S.payloadLimit) {
        throw Object.assign(new Error("The response payload size has exceeded the limit."), { code: "ResponsePayloadSizeLimitExceeded" });
      }
      S.maxAnswerBytes = Math.max(S.maxAnswerBytes, this._answerBytes);
      for (const commit of this._commits) commit();
      calculateCells(this._calc);
      await new Promise((r) => setTimeout(r, 0));
    }
  }

  window.Excel = {
    run(a, b) {
      const batch = typeof a === "function" ? a : b;
      const ctx = new RequestContext();
      return Promise.resolve().then(() => batch(ctx));
    },
    RequestContext,
    CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
  };

  // ---- what the tests call ------------------------------------------------------------------------
  S.writes = [];
  /** Protected sheets (lower-case names), hidden rows by sheet, Excel tables ({ sheet, name, box }), the selection's areas: set by setup. */
  S.protectedSheets = new Set();
  S.hiddenRows = new Map();
  S.tables = [];
  S.selectionAreas = 1;
  /** Worksheets added through WorksheetCollection.add, in order. */
  S.added = [];
  /** Every plain (non-FIRMA) formula calculated, as "Sheet!A1", in order. */
  S.plainCalculations = [];
  /** Every read of cell contents (values or formulas): { sheet, address, cells }. */
  S.reads = [];
  S.syncs = 0;

  /**
   * Replaces the workbook: `sheets` is { name: { A1: value | "=formula" | { formula, value, rich?, error? } |
   * { formula, result: [[…]] } (a spilled result) | { value } (a constant, not parsed) | { format: true } } },
   * the first sheet is active; `selection` like "Sheet!B2:C4", "Sheet!A:A" (whole columns) or "A1:A3,C1:C3"
   * (several areas); `protected`: sheet names; `hiddenRows`: { sheet: [row, …] }; `tables`: { sheet: ["A1:C9", …] }.
   */
  S.setup = async (def) => {
    S.sheets.clear();
    S.order = [];
    for (const [name, cells] of Object.entries(def.sheets)) {
      const sheet = { name, cells: new Map() };
      S.sheets.set(name.toLowerCase(), sheet);
      S.order.push(name);
      for (const [addr, v] of Object.entries(cells)) {
        const ref = parseRef(addr);
        if (v && typeof v === "object" && v.format && v.formula === undefined) {
          ensureCell(sheet, ref.box.top, ref.box.left).format = true; // formatting only, no value
        } else if (v && typeof v === "object" && v.formula === undefined) {
          ensureCell(sheet, ref.box.top, ref.box.left).value = v.value; // a constant as it is (not parsed as typed)
        } else if (v && typeof v === "object" && v.result) {
          // a formula with the (spilled) result it shows
          writeCell(sheet, ref.box.top, ref.box.left, v.formula, true);
          setResult(sheet, ref.box.top, ref.box.left, v.formula, v.result);
        } else if (v && typeof v === "object") {
          writeCell(sheet, ref.box.top, ref.box.left, v.formula, true);
          const cell = ensureCell(sheet, ref.box.top, ref.box.left);
          cell.value = v.value;
          if (v.rich) cell.rich = { ...v.rich, basicType: "Error", basicValue: "#VALUE!" };
          if (v.error) cell.error = { code: v.value, message: "" };
        } else writeCell(sheet, ref.box.top, ref.box.left, v, true);
      }
    }
    S.active = S.order[0];
    S.selection = null;
    S.selectionAreas = 1;
    S.protectedSheets = new Set((def.protected || []).map((n) => n.toLowerCase()));
    S.hiddenRows = new Map(Object.entries(def.hiddenRows || {}).map(([n, rows]) => [n.toLowerCase(), new Set(rows)]));
    S.tables = Object.entries(def.tables || {}).flatMap(([n, refs]) =>
      refs.map((ref, i) => ({ sheet: n.toLowerCase(), name: `Tabel${i + 1}`, box: parseRef(ref).box })),
    );
    if (def.selection) S.select(def.selection);
    await S.loadMeta();
  };

  S.loadMeta = () => {
    if (!S.metaPromise)
      S.metaPromise = fetch("functions.json")
        .then((r) => r.json())
        .then((j) => {
          S.flags = { allowCustomData: j.allowCustomDataForDataTypeAny === true, allowErrors: j.allowErrorForDataTypeAny === true };
          S.meta = j.functions;
          for (const f of j.functions) {
            const problems = [...RULES.namingProblems(f), ...RULES.optionProblems(f)];
            if (problems.length > 0) S.notLoaded.set(f.id, problems);
            else if (RULES.namingProblems(f, []).length > 0) S.namingExceptions.push(f.id);
          }
        });
    return S.metaPromise;
  };

  S.select = (text) => {
    // Several areas ("A1:A3,C1:C3", as Ctrl+click makes): the first is the selected range, getSelectedRanges counts them all.
    const parts = text.split(",");
    S.selectionAreas = parts.length;
    text = parts[0];
    // Whole columns ("A:A", "Sheet!A:B"): every row of the sheet, 1,048,576 (Excel's specifications and limits).
    const whole = /^(?:(?:'((?:[^']|'')+)'|([A-Za-z0-9_.]+))!)?\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/.exec(text.trim());
    if (whole) {
      const sheet = whole[1] !== undefined ? whole[1].replace(/''/g, "'") : whole[2] !== undefined ? whole[2] : S.active;
      const [a, b] = [colNum(whole[3]), colNum(whole[4])];
      S.selection = { sheet, box: { top: 1, left: Math.min(a, b), bottom: 1048576, right: Math.max(a, b) } };
      S.active = sheet;
      return;
    }
    const ref = parseRef(text);
    S.selection = { sheet: ref.sheet || S.active, box: ref.box };
    S.active = S.selection.sheet;
  };

  /** Excel's calculation of every formula (as when a workbook is opened or calculated in full). */
  S.calculateAll = () => {
    const list = [];
    for (const sheet of S.sheets.values()) list.push(...formulaCellsIn(sheet, ALL).map((x) => ({ ...x, propagate: true })));
    calculateCells(list);
  };

  /** Resolves when no FIRMA cell is calculating. */
  S.idle = async () => {
    while (S.pending.size > 0) await Promise.all([...S.pending]);
  };

  /** A cell as the test sees it: { formula, value, error, message }. */
  S.cell = (sheet, addr) => {
    const ref = parseRef(addr);
    const cell = cellAt(sheetOf(sheet), ref.box.top, ref.box.left);
    return {
      formula: cell ? cell.formula : null,
      value: readValue(cell),
      error: cell && cell.error ? cell.error.code : null,
      message: cell && cell.error ? cell.error.message : null,
      rich: cell && cell.rich ? cell.rich : null,
      textFormat: !!(cell && cell.text),
    };
  };

  /** Every non-empty cell: [{ sheet, address, formula, value, message }]. */
  S.dump = () => {
    const out = [];
    for (const sheet of S.sheets.values()) {
      for (const [key, cell] of sheet.cells) {
        if (isEmpty(cell)) continue;
        const [r, c] = key.split(",").map(Number);
        out.push({
          sheet: sheet.name,
          address: colLetters(c) + r,
          formula: cell.formula,
          value: cell.value,
          message: cell.error ? cell.error.message : null,
          ...(cell.rich ? { rich: cell.rich } : {}),
        });
      }
    }
    return out;
  };

  /**
   * Calls a registered function the way Excel would for literal arguments; resolves to its result as a
   * matrix, errors as { error, message }. A function may answer with its value or a promise of it
   * (custom-functions-json-autogeneration, "Promise"). Per call it makes no closure and no async frame:
   * the bench invokes 100,000 cells in this page, and what the stand-in holds per waiting cell is
   * Excel's bookkeeping, which real Excel keeps outside the add-in's heap.
   */
  S.call = (id, args) => {
    if (!S.meta) return S.loadMeta().then(() => S.call(id, args));
    if (S.metaIndexOf !== S.meta) {
      S.metaIndex = new Map(S.meta.map((f) => [f.id, f]));
      S.metaIndexOf = S.meta;
    }
    const meta = S.metaIndex.get(id);
    const fn = S.functions.get(id);
    if (!meta || !fn) return Promise.reject(new Error(`FIRMA.${id} is not registered`));
    if (S.notLoaded.has(id)) return Promise.resolve([[{ error: "#NAME?", message: "" }]]);
    const shaped = new Array(meta.parameters.length);
    for (let i = 0; i < meta.parameters.length; i++) {
      const p = meta.parameters[i];
      const v = i < args.length ? args[i] : null;
      shaped[i] = v === null || v === undefined ? null : p.dimensionality === "matrix" && !Array.isArray(v) ? [[v]] : v;
    }
    if (meta.options && meta.options.cancelable) shaped.push({ onCanceled: null });
    const h = callHandlers(id);
    let result;
    try {
      result = fn(...shaped);
    } catch (e) {
      return e instanceof StandInError ? Promise.resolve(h.fail(e)) : Promise.reject(e);
    }
    return result && typeof result.then === "function" ? result.then(h.ok, h.fail) : Promise.resolve(h.ok(result));
  };

  /** How S.call shows FIRMA.<id>'s answer, made once per function. */
  const shownBy = new Map();
  function callHandlers(id) {
    let h = shownBy.get(id);
    if (h) return h;
    const plain = (v) =>
      v instanceof StandInError
        ? OUTPUT_ERRORS.has(v.code)
          ? { error: v.code, message: MESSAGE_ERRORS.has(v.code) ? v.message : "" }
          : (S.violations.push(`FIRMA.${id}: answered ${v.code}`), { error: "#VALUE!", message: "" })
        : v;
    const ok = (result) => (Array.isArray(result) ? result.map((row) => row.map(plain)) : [[plain(result)]]);
    const fail = (e) => {
      if (e instanceof StandInError) return [[plain(e)]]; // a lone error is thrown; the cell shows it
      throw e;
    };
    h = { ok, fail };
    shownBy.set(id, h);
    return h;
  }

  // ---- office.js hooks (called right after office.js has run) -------------------------------------
  S.attachOffice = () => {
    const CF = window.CustomFunctions;
    if (CF) {
      if (!CF.ErrorCode) CF.ErrorCode = ERROR_CODES;
      if (!CF.Error) CF.Error = StandInError;
      const associate = CF.associate;
      CF.associate = function (id, fn) {
        if (typeof id === "string") S.functions.set(id, fn);
        else for (const [name, f] of Object.entries(id)) S.functions.set(name, f);
        return associate ? associate.apply(this, arguments) : undefined;
      };
    }
    const O = window.Office;
    const onReady = O.onReady;
    const officeSettings = {
      get: (name) => (S.documentSettings.has(name) ? JSON.parse(S.documentSettings.get(name)) : null),
      set: (name, value) => S.documentSettings.set(name, JSON.stringify(value)),
      remove: (name) => S.documentSettings.delete(name),
      saveAsync: (cb) => cb && cb({ status: "succeeded" }),
    };
    O.onReady = function (callback) {
      return onReady.call(O).then(() => {
        const context = O.context || (O.context = {});
        const define = (obj, name, value) => Object.defineProperty(obj, name, { value, configurable: true, writable: true });
        define(context, "displayLanguage", S.displayLanguage);
        if (S.officeTheme) define(context, "officeTheme", S.officeTheme);
        // https://learn.microsoft.com/office/dev/add-ins/develop/specify-api-requirements-runtime
        define(context, "requirements", {
          isSetSupported: (name, version = "1.1") =>
            name === "ExcelApi"
              ? atLeast(S.excelApi, version)
              : name === "CustomFunctionsRuntime"
                ? atLeast(S.customFunctionsRuntime, version)
                : false,
        });
        define(context, "document", {
          settings: officeSettings,
          customXmlParts: {
            addAsync: (xml, cb) => {
              S.customXmlParts.push(String(xml));
              if (cb) cb({ status: "succeeded" });
            },
          },
        });
        const info = { host: S.host === "Excel" ? O.HostType.Excel : null, platform: O.PlatformType ? O.PlatformType.PC : "PC" };
        if (callback) callback(info);
        return info;
      });
    };
  };
})();
