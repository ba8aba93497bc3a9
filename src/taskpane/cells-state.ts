/** Reading how FIRMA cells stand after a refresh: how many still calculate, how many show an error. */
import { readAreas } from "./blocks";
import { runAreas } from "./cell-areas";
import { isBusyValue, type FormulaCell } from "./refresh-plan";
import type { CellsState } from "./workbook-host";

/**
 * How many of `cells` still calculate and how many show an error, read in blocks under the web's
 * limit. By `text`, what the cell shows: a card (FIRMA.FISA) reads as the #VALUE! error in
 * `values` and `valueTypes` (an entity's basicType and basicValue,
 * https://learn.microsoft.com/javascript/api/excel/excel.entitycellvalue) but shows its name, and is no error.
 */
export function cellsState(cells: readonly FormulaCell[]): Promise<CellsState> {
  if (cells.length === 0) return Promise.resolve({ busy: 0, errors: 0 });
  return Excel.run(async (context) => {
    let busy = 0;
    let errors = 0;
    // values: the error's code (#BUSY! while calculating); text: what the cell shows, in the user's
    // language (every error's shown name starts with "#", a card's is the company's name).
    await readAreas(context, runAreas(cells), ["values", "valueTypes", "text"], (_area, range) => {
      range.values.forEach((row, i) =>
        row.forEach((v, j) => {
          const shown = range.text[i][j];
          if (isBusyValue(v) || isBusyValue(shown)) busy++;
          else if (range.valueTypes[i][j] === "Error" && shown.startsWith("#")) errors++;
        }),
      );
    });
    return { busy, errors };
  });
}
