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
 * While a FIRMA cell calculates it shows "#BUSY!", as in Excel. Arguments are passed as Excel
 * does, from functions.json: a matrix parameter gets a 2-D array, an omitted optional one null,
 * an empty cell "". A result larger than one cell spills (or gives #SPILL! when blocked).
 */
(() => {
  "use strict";
  if (window.top !== window) return; // the page only, not the frames office.js opens

  const ERROR_CODES = {
    invalidValue: "#VALUE!",
    notAvailable: "#N/A",
    divisionByZero: "#DIV/0!",
    invalidNumber: "#NUM!",
    nullReference: "#NULL!",
    invalidName: "#NAME?",
    invalidReference: "#REF!",
  };
  const ERROR_VALUES = new Set([...Object.values(ERROR_CODES), "#BUSY!", "#SPILL!", "#CALC!", "#GETTING_DATA"]);

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
  };
  window.__firmaStandIn = S;

  const emptyCell = () => ({ formula: null, value: "", error: null, spillFrom: null, spill: null });

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
    if (cell.error || (typeof cell.value === "string" && ERROR_VALUES.has(cell.value))) return "Error";
    if (typeof cell.value === "number") return "Double";
    if (typeof cell.value === "boolean") return "Boolean";
    return "String";
  }

  function usedBox(sheet) {
    let box = null;
    for (const [key, cell] of sheet.cells) {
      if (isEmpty(cell)) continue;
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
  const readValue = (cell) => (isEmpty(cell) ? "" : cell.value);
  const readFormula = (cell) => (cell && cell.formula !== null ? cell.formula : readValue(cell));

  function clearSpill(sheet, anchorKey) {
    const anchor = sheet.cells.get(anchorKey);
    if (!anchor || !anchor.spill) return;
    const [r0, c0] = anchorKey.split(",").map(Number);
    for (let r = r0; r <= anchor.spill.bottom; r++) {
      for (let c = c0; c <= anchor.spill.right; c++) {
        if (r === r0 && c === c0) continue;
        const child = cellAt(sheet, r, c);
        if (child && child.spillFrom === anchorKey) sheet.cells.delete(k(r, c));
      }
    }
    anchor.spill = null;
  }

  /** Writes constants (a value, or a formula when `asFormula` and the text starts with "="). */
  function writeCell(sheet, r, c, v, asFormula) {
    const key = k(r, c);
    const old = sheet.cells.get(key);
    if (old && old.spill) clearSpill(sheet, key);
    const cell = emptyCell();
    if (asFormula && typeof v === "string" && v.startsWith("=")) {
      cell.formula = v;
      cell.value = 0;
    } else if (typeof v === "string" && ERROR_VALUES.has(v)) {
      cell.value = v;
      cell.error = { code: v, message: "" };
    } else {
      cell.value = v === null || v === undefined ? "" : v;
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
    const m = grid(s, ref.box, readValue);
    return { value: m, range: !(ref.box.top === ref.box.bottom && ref.box.left === ref.box.right) };
  }

  function setResult(sheet, r, c, formula, result) {
    const key = k(r, c);
    const anchor = sheet.cells.get(key);
    if (!anchor || anchor.formula !== formula) return; // overwritten meanwhile
    clearSpill(sheet, key);
    const toCell = (v) =>
      v instanceof StandInError
        ? { value: v.code, error: { code: v.code, message: v.message || "" } }
        : { value: v === null || v === undefined ? "" : v, error: null };
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

  /** Starts calculating one formula cell (FIRMA calls only; other formulas keep their value). */
  function calculateCell(sheet, r, c) {
    const cell = cellAt(sheet, r, c);
    if (!cell || cell.formula === null) return;
    const formula = cell.formula;
    const m = /^=\s*FIRMA\.([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/i.exec(formula);
    if (!m) return;
    const id = m[1].toUpperCase();
    const fn = S.functions.get(id);
    const meta = S.meta && S.meta.find((f) => f.id === id);
    if (!fn || !meta) {
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
      if (a.missing) args.push(null);
      else if (p.dimensionality === "matrix") args.push(Array.isArray(a.value) ? a.value : [[a.value]]);
      else args.push(Array.isArray(a.value) ? a.value[0][0] : a.value);
    }
    if (meta.options && meta.options.cancelable) args.push({ onCanceled: null });
    clearSpill(sheet, k(r, c));
    Object.assign(cell, { value: "#BUSY!", error: { code: "#BUSY!", message: "" } });
    S.calls.push({ id, args: JSON.parse(JSON.stringify(args.slice(0, meta.parameters.length))) });
    let p;
    try {
      p = Promise.resolve(fn(...args));
    } catch (e) {
      p = Promise.reject(e);
    }
    const done = p.then(
      (result) => setResult(sheet, r, c, formula, result),
      (e) => setResult(sheet, r, c, formula, e instanceof StandInError ? e : new StandInError("#VALUE!", String(e))),
    );
    S.pending.add(done);
    done.finally(() => S.pending.delete(done));
  }

  function calculateBox(sheet, box) {
    const targets = [];
    for (const [key, cell] of sheet.cells) {
      if (cell.formula === null) continue;
      const [r, c] = key.split(",").map(Number);
      if (r >= box.top && r <= box.bottom && c >= box.left && c <= box.right) targets.push([r, c]);
    }
    for (const [r, c] of targets) calculateCell(sheet, r, c);
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
      this._ctx._ops.push(() => {
        const snap = this._snapshot(list);
        this._data = Object.assign(this._data || {}, snap);
        for (const key of Object.keys(snap)) this._loaded.add(key);
        this._loaded.add("isNullObject");
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
        rowIndex: () => box.top - 1,
        columnIndex: () => box.left - 1,
        rowCount: () => box.bottom - box.top + 1,
        columnCount: () => box.right - box.left + 1,
      };
      const out = { isNullObject: false };
      for (const name of list || Object.keys(all)) if (all[name]) out[name] = all[name]();
      if (out.values || out.formulas)
        S.reads.push({ sheet: sheet.name, address: boxAddress(box), cells: (box.bottom - box.top + 1) * (box.right - box.left + 1) });
      return out;
    }
    get address() {
      return this._get("address");
    }
    get values() {
      return this._get("values");
    }
    get formulas() {
      return this._get("formulas");
    }
    get valueTypes() {
      return this._get("valueTypes");
    }
    get rowIndex() {
      return this._get("rowIndex");
    }
    get columnIndex() {
      return this._get("columnIndex");
    }
    get rowCount() {
      return this._get("rowCount");
    }
    get columnCount() {
      return this._get("columnCount");
    }
    set values(v) {
      this._write(v, false);
    }
    set formulas(v) {
      this._write(v, true);
    }
    _write(v, asFormula) {
      const copy = JSON.parse(JSON.stringify(v));
      this._ctx._ops.push(() => {
        const { sheet, box } = this._resolve();
        const rows = box.bottom - box.top + 1;
        const cols = box.right - box.left + 1;
        const m = Array.isArray(copy) ? copy : [[copy]];
        if (m.length !== rows || m.some((row) => !Array.isArray(row) || row.length !== cols)) {
          throw Object.assign(
            new Error("The number of rows or columns in the input array doesn't match the size or dimensions of the range."),
            { code: "InvalidArgument" },
          );
        }
        for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) writeCell(sheet, box.top + i, box.left + j, m[i][j], asFormula);
        S.writes.push({ sheet: sheet.name, address: boxAddress(box), asFormula });
      });
    }
    get worksheet() {
      return new Worksheet(this._ctx, () => {
        const r = this._resolve();
        return r ? r.sheet : null;
      });
    }
    calculate() {
      this._ctx._ops.push(() => {
        const { sheet, box } = this._resolve();
        calculateBox(sheet, box);
      });
    }
    getSpillingToRangeOrNullObject() {
      return new Range(
        this._ctx,
        () => {
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
      return new Range(this._ctx, () => ({
        sheet: this._resolveSheet(),
        box: { top: row + 1, left: col + 1, bottom: row + rowCount, right: col + colCount },
      }));
    }
    getUsedRange() {
      return new Range(this._ctx, () => {
        const sheet = this._resolveSheet();
        return { sheet, box: usedBox(sheet) || { top: 1, left: 1, bottom: 1, right: 1 } };
      });
    }
    getUsedRangeOrNullObject() {
      return new Range(
        this._ctx,
        () => {
          const sheet = this._resolveSheet();
          if (!sheet) return null;
          const box = usedBox(sheet);
          return box ? { sheet, box } : null;
        },
        true,
      );
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
      return new Worksheet(this._ctx, () => S.sheets.get(String(name).toLowerCase()) || null, true);
    }
    getActiveWorksheet() {
      return new Worksheet(this._ctx, () => sheetOf(S.active));
    }
  }

  class SettingsCollection {
    constructor(ctx) {
      this._ctx = ctx;
    }
    add(key, value) {
      this._ctx._ops.push(() => S.documentSettings.set(String(key), JSON.stringify(value)));
    }
  }

  class CustomXmlPartCollection {
    constructor(ctx) {
      this._ctx = ctx;
    }
    add(xml) {
      this._ctx._ops.push(() => S.customXmlParts.push(String(xml)));
    }
  }

  class RequestContext {
    constructor() {
      this._ops = [];
      const ctx = this;
      this.workbook = {
        worksheets: new WorksheetCollection(ctx),
        settings: new SettingsCollection(ctx),
        customXmlParts: new CustomXmlPartCollection(ctx),
        getSelectedRange() {
          return new Range(ctx, () => (S.selection ? { sheet: sheetOf(S.selection.sheet), box: S.selection.box } : null));
        },
        application: {
          calculate() {
            ctx._ops.push(() => S.calculateAll());
          },
        },
      };
      this.application = this.workbook.application;
    }
    async sync() {
      const ops = this._ops;
      this._ops = [];
      S.syncs++;
      for (const op of ops) op();
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
  /** Every read of cell contents (values or formulas): { sheet, address, cells }. */
  S.reads = [];
  S.syncs = 0;

  /**
   * Replaces the workbook: `sheets` is { name: { A1: value | "=formula" | { formula, value } } },
   * the first sheet is active; `selection` like "Sheet!B2:C4".
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
        if (v && typeof v === "object") {
          writeCell(sheet, ref.box.top, ref.box.left, v.formula, true);
          ensureCell(sheet, ref.box.top, ref.box.left).value = v.value;
        } else writeCell(sheet, ref.box.top, ref.box.left, v, true);
      }
    }
    S.active = S.order[0];
    S.selection = null;
    if (def.selection) S.select(def.selection);
    await S.loadMeta();
  };

  S.loadMeta = () => {
    if (!S.metaPromise)
      S.metaPromise = fetch("functions.json")
        .then((r) => r.json())
        .then((j) => (S.meta = j.functions));
    return S.metaPromise;
  };

  S.select = (text) => {
    const ref = parseRef(text);
    S.selection = { sheet: ref.sheet || S.active, box: ref.box };
    S.active = S.selection.sheet;
  };

  /** Excel's calculation of every formula (as when a workbook is opened or calculated in full). */
  S.calculateAll = () => {
    for (const sheet of S.sheets.values()) calculateBox(sheet, { top: 1, left: 1, bottom: 1048576, right: 16384 });
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
        });
      }
    }
    return out;
  };

  /** Calls a registered function the way Excel would for literal arguments; resolves to its result as a matrix, errors as { error, message }. */
  S.call = async (id, args) => {
    await S.loadMeta();
    const meta = S.meta.find((f) => f.id === id);
    const fn = S.functions.get(id);
    const shaped = meta.parameters.map((p, i) => {
      const v = i < args.length ? args[i] : null;
      if (v === null || v === undefined) return null;
      return p.dimensionality === "matrix" && !Array.isArray(v) ? [[v]] : v;
    });
    if (meta.options && meta.options.cancelable) shaped.push({ onCanceled: null });
    const plain = (v) => (v instanceof StandInError ? { error: v.code, message: v.message } : v);
    let result;
    try {
      result = await fn(...shaped);
    } catch (e) {
      if (e instanceof StandInError) return [[plain(e)]]; // a lone error is thrown; the cell shows it
      throw e;
    }
    return Array.isArray(result) ? result.map((row) => row.map(plain)) : [[plain(result)]];
  };

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
