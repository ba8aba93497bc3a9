/**
 * Freeze: the selection's FIRMA formulas replaced by exactly what they show, spills whole, cards
 * kept as cards where this Excel can write them back (Range.valuesAsJson) and as their text elsewhere.
 */
import { MAX_ACTIONS, readAreas, writeAreas, type Area, type Write } from "./blocks";
import { runAreas } from "./cell-areas";
import { isBusyValue, type FormulaCell } from "./refresh-plan";
import { firmaCells, readSelection, readUsed } from "./sheet-read";
import type { FreezeResult } from "./workbook-host";

/** A spilled result's area, and the row of the formula that spills it. */
interface SpillArea extends Area {
  anchorRow: number;
}

/** A cell value JSON with what Excel does not take back removed: an entity's basicValue and basicType are read-only. */
function writable(v: Excel.CellValue): Excel.CellValue {
  if (v.type !== "Entity") return v;
  const { basicValue: _v, basicType: _t, ...rest } = v as Excel.EntityCellValue & { basicValue?: unknown };
  return rest as Excel.CellValue;
}

const isBusyJson = (v: Excel.CellValue): boolean =>
  v.type === "Error" && ((v as Excel.ErrorCellValue).errorType === "Busy" || (v as Excel.ErrorCellValue).errorType === "GettingData");

/**
 * Freeze: the selection's FIRMA formulas replaced by exactly what they show. `Range.values` takes
 * what it is given as typed input (a string starting with "=" becomes a formula, "0111" the number
 * 111; https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member),
 * and reads a card as its #VALUE! basic value, so `cell.values = cell.values` would damage data. So:
 *  - where Excel has `Range.valuesAsJson` (`json`: ExcelApi 1.16, "supports all data types which can
 *    be in a cell"), each cell's value JSON is written back: text stays text, a number a number, a card
 *    a card (its read-only basicValue and basicType left out);
 *  - elsewhere the values are written with the text cells formatted "@" first (the other cells'
 *    formats kept), and a card as its text (`cardsAsText`; the pane says so before asking).
 * Everything is read before anything is written (a cell still calculating stops the freeze whole),
 * in blocks under the web's 5 MB limit (blocks.ts). A write that fails part way leaves the rest as
 * formulas and says how many (`left`): what is frozen shows what it showed, nothing is lost.
 */
export function freezeSelection(json: boolean): Promise<FreezeResult> {
  return Excel.run(async (context) => {
    const { ws, within } = await readSelection(context);
    const none: FreezeResult = { frozen: 0, busy: false, cardsAsText: 0, left: 0 };
    const cells = firmaCells(await readUsed(context, ws, ws.name, true), within);
    if (cells.length === 0) return none;
    if (cells.some((c) => isBusyValue(c.value))) return { ...none, busy: true };

    // A formula that spills is frozen with its whole result area (the anchor holds the formula).
    const spills: SpillArea[] = [];
    const single: FormulaCell[] = [];
    for (let i = 0; i < cells.length; i += MAX_ACTIONS) {
      const part = cells.slice(i, i + MAX_ACTIONS);
      const probes = part.map((c) =>
        ws
          .getCell(c.row - 1, c.col - 1)
          .getSpillingToRangeOrNullObject()
          .load(["rowCount", "columnCount"]),
      );
      // eslint-disable-next-line office-addins/no-context-sync-in-loop -- one sync per block of probes, each under the web's limit
      await context.sync();
      probes.forEach((p, j) => {
        const c = part[j];
        if (p.isNullObject || (p.rowCount === 1 && p.columnCount === 1)) single.push(c);
        else spills.push({ sheet: ws.name, top: c.row, left: c.col, rows: p.rowCount, cols: p.columnCount, anchorRow: c.row });
      });
    }

    // Read everything first.
    const read: { area: Area; range: Excel.Range }[] = [];
    const props = json ? ["valuesAsJson"] : ["values", "valueTypes", "text", "numberFormat"];
    await readAreas(context, [...runAreas(single), ...spills], props, (area, range) => read.push({ area, range }));

    const writes: Write[] = [];
    const anchors = new Map<Write, number>();
    let cardsAsText = 0;
    for (const { area, range } of read) {
      const a = area as Area & Partial<SpillArea>;
      const held = a.anchorRow === undefined ? a.rows : a.anchorRow >= a.top && a.anchorRow < a.top + a.rows ? 1 : 0;
      if (json) {
        const data = range.valuesAsJson;
        if (data.some((row) => row.some(isBusyJson))) return { ...none, busy: true };
        const w: Write = { area, property: "valuesAsJson", data: data.map((row) => row.map(writable)) };
        writes.push(w);
        anchors.set(w, held);
        continue;
      }
      const { values, valueTypes, text, numberFormat } = range;
      if (text.some((row) => row.some(isBusyValue))) return { ...none, busy: true };
      // A card reads as #VALUE! but shows its name: it becomes that text. An error is written as its code (typed, it is the error).
      const isCard = (i: number, j: number) => valueTypes[i][j] === "Error" && !text[i][j].startsWith("#");
      const out = values.map((row, i) => row.map((v, j) => (isCard(i, j) ? (cardsAsText++, text[i][j]) : v)));
      const asText = (i: number, j: number) =>
        typeof out[i][j] === "string" && out[i][j] !== "" && (isCard(i, j) || valueTypes[i][j] !== "Error");
      // The text cells are formatted "@" whenever there is text, even where they already are: the
      // write then carries the proof writeAreas asks for before it writes a text Excel would parse.
      if (out.some((row, i) => row.some((_v, j) => asText(i, j)))) {
        writes.push({ area, property: "numberFormat", data: numberFormat.map((row, i) => row.map((f, j) => (asText(i, j) ? "@" : f))) });
      }
      const w: Write = { area, property: "values", data: out };
      writes.push(w);
      anchors.set(w, held);
    }

    let frozen = 0;
    const written = new Map<Write, number>();
    try {
      await writeAreas(context, writes, (w, rows) => {
        const n = (written.get(w) ?? 0) + rows;
        written.set(w, n);
        if (n === w.data.length) frozen += anchors.get(w) ?? 0;
      });
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      return { frozen, busy: false, cardsAsText, left: cells.length - frozen, failure: typeof code === "string" ? code : "Error" };
    }
    return { frozen: cells.length, busy: false, cardsAsText, left: 0 };
  });
}
