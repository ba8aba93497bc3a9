/**
 * Writing results into formula cells, surgically.
 *
 * For each result the patcher touches only: the `t` attribute and `<v>` of the formula cell
 * (and drops its `vm`, the pointer to a rich value that no longer applies, and any `<is>`);
 * for an array formula, the `ref` of its `<f>` when the spill changes size; and the cells of
 * the spill range. Cells are located by their offsets in the sheet XML, edited as text and
 * spliced back: every byte outside the edited elements stays as it was, and parts that end up
 * identical keep their original compressed bytes (see xlsx-package.ts). A cell's own text is
 * edited by cell-xml.ts, a sheet's edits spliced by sheet-editor.ts; here, what each result writes.
 *
 * How each kind of formula takes a result:
 * - dynamic-array formula (`cm` → XLDAPR, what Excel writes for custom functions): a scalar
 *   or a 1×1 array fills the cell, `ref` becomes the cell. An R×C array spills from the cell:
 *   `ref` becomes the new range; the other cells get plain values (text as `t="str"`, like
 *   Excel's own spill cells); cells missing from the XML are inserted in their row in column
 *   order (rows in row order); cells of the old spill that the new one no longer covers are
 *   cleared (removed, or kept empty when they carry a style). Before writing, the new range is
 *   checked like Excel does: a cell outside the old spill that holds a value or a formula, a
 *   merged range, or the sheet edge blocks it. Then nothing is overwritten: the formula gets
 *   #SPILL! (stored as #VALUE!, see below), its old spill is cleared, and the outcome names
 *   the blocking cells.
 * - legacy array formula (`t="array"` without dynamic metadata, Ctrl+Shift+Enter): its range
 *   is fixed; the result fills it, a single row/column is repeated across it as Excel does,
 *   and positions the result does not reach get #N/A. `ref` never changes.
 * - ordinary formula (no `t`, or a shared formula): one value. For an array result only the
 *   top-left value is written (what implicit intersection shows), with a note.
 *
 * Values: text `t="str"` with the SpreadsheetML escapes, numbers without `t`, booleans `t="b"`
 * 1/0, errors `t="e"`. The file has no place for an error's message (the report keeps it).
 * Errors newer than the classic seven (#SPILL!, #CALC!, #BUSY!, ...) are stored as #VALUE!:
 * Excel itself stores them that way plus a rich-value record, which this patcher does not
 * create. Non-finite numbers become #NUM!; null becomes 0 (what Excel shows for a custom
 * function's null).
 */
import type { WritableWorkbook } from "./writable-package";
import {
  Box,
  MAX_COLS,
  MAX_ROWS,
  boxContains,
  boxesIntersect,
  cellKey,
  formatBox,
  formatCellRef,
  parseBox,
  parseCellRef,
} from "../shared/sheet/a1";
import { CellError } from "../shared/sheet/cell-values";
import { encodeValue, type ResultValue } from "./cell-xml";
import { SheetEditor } from "./sheet-editor";

export { clearCellXml, encodeValue, rewriteCellXml, type ResultValue } from "./cell-xml";
export type PatchValue = ResultValue | ResultValue[][];

export interface CellResult {
  sheet: string;
  /** A1 address of the formula cell ("B2" or "$B$2"). */
  address: string;
  value: PatchValue;
}

export interface PatchOutcome {
  sheet: string;
  address: string;
  /**
   * written: the value(s) are in the file; spill: the spill was blocked, the cell holds #SPILL!;
   * skipped: nothing written (not a formula cell, unknown sheet or address).
   */
  status: "written" | "spill" | "skipped";
  /** The range the formula's values cover now (the cell itself for a scalar or a blocked spill). */
  range?: string;
  /** For a blocked spill: the cells (or merged ranges, or "edge") in the way. */
  blockedBy?: string[];
  /** What was adapted, Romanian / English. */
  notes: string[];
}

export interface PatchReport {
  outcomes: PatchOutcome[];
  /** Package parts whose content changed. */
  changedParts: string[];
}

function normalize(value: PatchValue, notes: string[]): ResultValue | ResultValue[][] {
  if (!Array.isArray(value)) return value;
  if (value.length === 0 || !Array.isArray(value[0]) || value[0].length === 0) {
    notes.push("rezultat matrice gol: #CALC! / empty array result: #CALC!");
    return { error: "#CALC!", message: "empty array" };
  }
  const width = value[0].length;
  if (value.some((r) => !Array.isArray(r) || r.length !== width)) {
    notes.push("rezultat matrice cu rânduri inegale: #VALUE! / ragged array result: #VALUE!");
    return { error: "#VALUE!", message: "ragged array" };
  }
  if (value.length === 1 && width === 1) return value[0][0];
  return value;
}

const SPILL: CellError = {
  error: "#SPILL!",
  message: "zona de revărsare nu este liberă / the spill range is not empty",
};

/**
 * Writes results into the workbook's package (in place: `wb.pkg`); returns what happened to
 * each. Results are applied in the given order, so a spill sees the spills written before it.
 * Serialize with `wb.pkg.toBytes()`.
 */
export function patchWorkbook(wb: WritableWorkbook, results: CellResult[]): PatchReport {
  const outcomes: PatchOutcome[] = [];
  const editors = new Map<string, SheetEditor>();
  for (const res of results) {
    const notes: string[] = [];
    const info = wb.sheet(res.sheet);
    const pos = parseCellRef(res.address);
    if (!info || !info.part || !pos) {
      outcomes.push({
        sheet: res.sheet,
        address: res.address,
        status: "skipped",
        notes: ["foaie sau adresă necunoscută / unknown sheet or address"],
      });
      continue;
    }
    let ed = editors.get(info.name);
    if (!ed) {
      const sheet = wb.parseSheet(info.name);
      ed = new SheetEditor(sheet, sheet.prefix);
      editors.set(info.name, ed);
    }
    const sheet = ed.sheet;
    const address = formatCellRef(pos.row, pos.col);
    const cell = sheet.cells.get(cellKey(pos.row, pos.col));
    if (!cell?.f) {
      outcomes.push({
        sheet: info.name,
        address,
        status: "skipped",
        notes: ["celula nu conține o formulă / the cell holds no formula"],
      });
      continue;
    }
    const value = normalize(res.value, notes);
    const ft = cell.f.t;
    const anchor: Box = { top: pos.row, left: pos.col, bottom: pos.row, right: pos.col };

    if (ft !== "array") {
      // ordinary or shared formula: one value
      let v: ResultValue;
      if (Array.isArray(value)) {
        notes.push(
          "formulă obișnuită (nu matrice dinamică): s-a scris doar valoarea din stânga sus / ordinary (non-dynamic-array) formula: only the top-left value was written",
        );
        v = value[0][0];
      } else v = value;
      ed.write(pos.row, pos.col, encodeValue(v, notes));
      outcomes.push({ sheet: info.name, address, status: "written", range: address, notes });
      continue;
    }

    const oldBox = parseBox(cell.f.ref ?? "") ?? anchor;
    if (!wb.isDynamicArray(cell)) {
      // legacy array formula: fixed range, broadcast a single row/column, #N/A beyond the result
      const rows = Array.isArray(value) ? value : [[value]];
      for (let r = oldBox.top; r <= oldBox.bottom; r++) {
        for (let c = oldBox.left; c <= oldBox.right; c++) {
          const i = rows.length === 1 ? 0 : r - oldBox.top;
          const j = rows[0].length === 1 ? 0 : c - oldBox.left;
          const v: ResultValue = i < rows.length && j < rows[0].length ? rows[i][j] : { error: "#N/A", message: "" };
          ed.write(r, c, encodeValue(v, r === oldBox.top && c === oldBox.left ? notes : undefined));
        }
      }
      outcomes.push({
        sheet: info.name,
        address,
        status: "written",
        range: formatBox(oldBox),
        notes,
      });
      continue;
    }

    // dynamic array
    const rows = Array.isArray(value) ? value : [[value]];
    const newBox: Box = {
      top: pos.row,
      left: pos.col,
      bottom: pos.row + rows.length - 1,
      right: pos.col + rows[0].length - 1,
    };
    const blockedBy: string[] = [];
    if (newBox.bottom > MAX_ROWS || newBox.right > MAX_COLS) blockedBy.push("edge");
    const bottom = Math.min(newBox.bottom, MAX_ROWS);
    const right = Math.min(newBox.right, MAX_COLS);
    for (let r = newBox.top; r <= bottom; r++) {
      for (let c = newBox.left; c <= right; c++) {
        if (r === pos.row && c === pos.col) continue;
        const occ = ed.occupied(r, c);
        const ours = boxContains(oldBox, r, c);
        if (occ.formula || (occ.value && !ours)) blockedBy.push(formatCellRef(r, c));
      }
    }
    if (rows.length > 1 || rows[0].length > 1) {
      for (const m of sheet.merges) if (boxesIntersect(m, newBox)) blockedBy.push(formatBox(m));
    }
    const clearOld = (keep: Box | null) => {
      for (let r = oldBox.top; r <= oldBox.bottom; r++)
        for (let c = oldBox.left; c <= oldBox.right; c++) {
          if (r === pos.row && c === pos.col) continue;
          if (keep && boxContains(keep, r, c)) continue;
          ed!.clear(r, c);
        }
    };
    if (blockedBy.length) {
      clearOld(null);
      ed.write(pos.row, pos.col, encodeValue(SPILL, notes), address);
      outcomes.push({
        sheet: info.name,
        address,
        status: "spill",
        range: address,
        blockedBy,
        notes,
      });
      continue;
    }
    const newRef = formatBox(newBox);
    clearOld(newBox);
    for (let r = newBox.top; r <= newBox.bottom; r++) {
      for (let c = newBox.left; c <= newBox.right; c++) {
        const v = rows[r - newBox.top][c - newBox.left];
        if (r === pos.row && c === pos.col) ed.write(r, c, encodeValue(v, notes), newRef);
        else ed.write(r, c, encodeValue(v, notes));
      }
    }
    outcomes.push({
      sheet: info.name,
      address,
      status: "written",
      range: newRef,
      notes: [...new Set(notes)],
    });
  }
  for (const ed of editors.values()) {
    if (!ed.changed) continue;
    wb.pkg.write(ed.sheet.part, ed.toXml());
  }
  wb.invalidate();
  return { outcomes, changedParts: wb.pkg.changedNames() };
}
