/**
 * A new worksheet filled with constants: the sheet the pane writes the changes a refresh found to.
 * Whole or not at all: a sheet that could not be filled is deleted again.
 */
import { writeAreas, type Area, type Write } from "./blocks";

type Rows = readonly (readonly (string | number)[])[];

/**
 * Adds a worksheet named `name` (or "name (2)", … when taken), writes `rows` from A1 as constants,
 * `textColumns` as text, activates it and returns its name.
 */
export function writeNewSheet(name: string, rows: Rows, textColumns: readonly number[]): Promise<string> {
  return Excel.run(async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load("items/name");
    await context.sync();
    const taken = new Set(sheets.items.map((ws) => ws.name.toLowerCase()));
    const base = name.replace(/[:\\/?*[\]]/g, " ").slice(0, 31 - " (99)".length);
    let unique = base;
    for (let i = 2; taken.has(unique.toLowerCase()); i++) unique = `${base} (${i})`;
    // "Adds a new worksheet to the workbook. The worksheet will be added at the end of existing
    // worksheets." (WorksheetCollection.add, ExcelApi 1.1)
    const ws = sheets.add(unique);
    try {
      await fillSheet(context, unique, rows, textColumns);
    } catch (e) {
      // Whole or not at all: a sheet half written is taken away again ("Deletes the worksheet from
      // the workbook", Worksheet.delete, ExcelApi 1.1). If even that fails, the first error is the one to tell.
      try {
        ws.delete();
        await context.sync();
      } catch {
        /* the error below says the sheet could not be written */
      }
      throw e;
    }
    ws.activate();
    await context.sync();
    return unique;
  });
}

async function fillSheet(context: Excel.RequestContext, sheet: string, rows: Rows, textColumns: readonly number[]): Promise<void> {
  const width = Math.max(1, ...rows.map((r) => r.length));
  const all = (top: number, cols: number, left = 1): Area => ({ sheet, top, left, rows: rows.length, cols });
  // Range.values: "If the returned value starts with a plus ("+"), minus ("-"), or equal sign ("="),
  // Excel interprets this value as a formula" (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member):
  // a company's data is text, so its columns get the text format ("@") before the values. In blocks
  // under the web's 5 MB limit, which holds for requests too (blocks.ts).
  const writes: Write[] = textColumns.map((col) => ({ area: all(1, 1, col + 1), property: "numberFormat", data: rows.map(() => ["@"]) }));
  writes.push({ area: all(1, width), property: "values", data: rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]) });
  await writeAreas(context, writes);
}
