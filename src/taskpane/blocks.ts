/**
 * Many cells read and written under Excel on the web's payload limit: "Excel on the web has a payload
 * size limit for requests and responses of 5MB. RichAPI.Error will be thrown if that limit is
 * exceeded" (https://learn.microsoft.com/office/dev/add-ins/concepts/resource-limits-and-performance-optimization),
 * with the codes `RequestPayloadSizeLimitExceeded` and `ResponsePayloadSizeLimitExceeded`
 * (https://learn.microsoft.com/office/dev/add-ins/testing/application-specific-api-error-handling).
 *
 * Every read and write of the pane goes through here, cut into blocks of whole rows:
 *  - a read takes as many cells per sync as BUDGET_BYTES holds at the weight per cell measured so
 *    far (the first sync FIRST_READ_CELLS cells); a sync refused for its size is read again in halves;
 *  - a write sends as many rows per sync as BUDGET_BYTES holds, weighed from the JSON it sends;
 *  - no sync carries more than MAX_ACTIONS ranges, so that the actions themselves stay small.
 * One sync per block is the point: the rule that asks for one sync per batch does not apply here.
 */
/* eslint-disable office-addins/no-context-sync-in-loop */

/** A block of cells on one sheet; rows and columns 1-based. */
export interface Area {
  sheet: string;
  top: number;
  left: number;
  rows: number;
  cols: number;
}

export const PAYLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
/** What one sync aims at: well under the limit, since weights are measured after the fact. */
export const BUDGET_BYTES = 2 * 1024 * 1024;
/** The first read's size, before anything is known of the cells' weight. */
export const FIRST_READ_CELLS = 5_000;
/** Ranges one sync may touch (each is an action of about a hundred bytes in the request). */
export const MAX_ACTIONS = 2_000;

export function isPayloadTooLarge(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "ResponsePayloadSizeLimitExceeded" || code === "RequestPayloadSizeLimitExceeded";
}

/** Bytes the JSON of these arrays takes (what Excel on the web counts against its limit). */
export function weight(...parts: unknown[]): number {
  let n = 0;
  for (const p of parts) if (p !== undefined) n += JSON.stringify(p).length;
  return n;
}

/** The worksheet proxies of one request context, by name. */
function sheets(context: Excel.RequestContext): (name: string) => Excel.Worksheet {
  const byName = new Map<string, Excel.Worksheet>();
  return (name) => {
    let ws = byName.get(name);
    if (!ws) byName.set(name, (ws = context.workbook.worksheets.getItem(name)));
    return ws;
  };
}

const rangeOf = (ws: Excel.Worksheet, a: Area): Excel.Range => ws.getRangeByIndexes(a.top - 1, a.left - 1, a.rows, a.cols);

/** Takes up to `cells` cells (and MAX_ACTIONS areas) from the front of `queue`, cutting an area by rows; at least one row. */
function take(queue: Area[], cells: number): Area[] {
  const out: Area[] = [];
  let n = 0;
  while (queue.length > 0 && out.length < MAX_ACTIONS) {
    const a = queue[0];
    const fit = Math.floor((cells - n) / a.cols);
    if (a.rows <= fit) {
      out.push(queue.shift()!);
      n += a.rows * a.cols;
      continue;
    }
    if (fit < 1 && out.length > 0) break;
    const rows = Math.max(1, fit);
    out.push({ ...a, rows });
    queue[0] = { ...a, top: a.top + rows, rows: a.rows - rows };
    break;
  }
  return out;
}

/**
 * Loads `props` of every area, block by block, and hands each block's range to `use` in order (an
 * area may come in several blocks, top to bottom). Resolves when all are read.
 */
export async function readAreas(
  context: Excel.RequestContext,
  areas: readonly Area[],
  props: readonly string[],
  use: (block: Area, range: Excel.Range) => void,
): Promise<void> {
  const sheet = sheets(context);
  const queue = areas.filter((a) => a.rows > 0 && a.cols > 0).map((a) => ({ ...a }));
  let cells = FIRST_READ_CELLS;
  while (queue.length > 0) {
    const blocks = take(queue, cells);
    const ranges = blocks.map((b) => rangeOf(sheet(b.sheet), b).load(props as string[]));
    const count = blocks.reduce((n, b) => n + b.rows * b.cols, 0);
    try {
      await context.sync();
    } catch (e) {
      if (!isPayloadTooLarge(e) || count === 1) throw e;
      queue.unshift(...blocks); // read again, in halves
      cells = Math.max(1, Math.floor(count / 2));
      continue;
    }
    let bytes = 0;
    for (const r of ranges) for (const p of props) bytes += weight((r as unknown as Record<string, unknown>)[p]);
    blocks.forEach((b, i) => use(b, ranges[i]));
    // The next block: as many cells as the budget holds at this block's weight per cell.
    cells = Math.max(1, Math.floor(BUDGET_BYTES / Math.max(1, bytes / count)));
  }
}

/** One write: a property of an area set to a matrix (numberFormat before the values it must govern). */
export interface Write {
  area: Area;
  property: "values" | "formulas" | "valuesAsJson" | "numberFormat";
  data: unknown[][];
}

/**
 * Range.values takes a string as typed input: "If the returned value starts with a plus ("+"), minus
 * ("-"), or equal sign ("="), Excel interprets this value as a formula"
 * (https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-values-member), and
 * a leading "@" is the implicit-intersection operator. A company's name or address is data, never
 * code: every text cell a `values` write holds that begins so must have been given the text format
 * ("@") by an earlier write of the same call. The error names the first cell that was not; it is
 * thrown before anything is sent, so nothing is written.
 */
const FORMULA_START = /^[=+\-@]/;

/** Which cells earlier numberFormat writes made text, by sheet, as "row,col". */
function textFormatted(writes: readonly Write[], upTo: number): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (let i = 0; i < upTo; i++) {
    const w = writes[i];
    if (w.property !== "numberFormat") continue;
    let cells = out.get(w.area.sheet);
    if (!cells) out.set(w.area.sheet, (cells = new Set()));
    w.data.forEach((row, r) =>
      row.forEach((f, c) => {
        const key = `${w.area.top + r},${w.area.left + c}`;
        if (f === "@") cells.add(key);
        else cells.delete(key);
      }),
    );
  }
  return out;
}

export class UnsafeTextWrite extends Error {
  readonly code = "FirmaUnsafeTextWrite";
  constructor(sheet: string, row: number, col: number) {
    super(
      `A text that Excel would read as a formula was about to be written to ${sheet}!R${row}C${col} without the text format "@" first.`,
    );
  }
}

/** Throws UnsafeTextWrite when a `values` write holds a text that Excel would take for a formula in a cell not formatted "@" before it. */
export function checkTextWrites(writes: readonly Write[]): void {
  writes.forEach((w, i) => {
    if (w.property !== "values") return;
    let text: Map<string, Set<string>> | null = null;
    w.data.forEach((row, r) =>
      row.forEach((v, c) => {
        if (typeof v !== "string" || !FORMULA_START.test(v)) return;
        text ??= textFormatted(writes, i);
        const row1 = w.area.top + r;
        const col1 = w.area.left + c;
        if (!text.get(w.area.sheet)?.has(`${row1},${col1}`)) throw new UnsafeTextWrite(w.area.sheet, row1, col1);
      }),
    );
  });
}

/**
 * Writes in order, as many rows per sync as the budget holds (each area cut by rows where it must); a
 * sync Excel refuses for its size (nothing of it is applied) is sent again in halves. Text that Excel
 * would take for a formula is refused before anything is sent unless made text first (checkTextWrites).
 * `done(write, rows)` is told what each sync wrote, so a caller can say how far a failed write got.
 */
export async function writeAreas(
  context: Excel.RequestContext,
  writes: readonly Write[],
  done?: (write: Write, rows: number) => void,
): Promise<void> {
  checkTextWrites(writes);
  const sheet = sheets(context);
  let budget = BUDGET_BYTES;
  // The next row to send: row `row` of writes[at].
  let at = 0;
  let row = 0;
  while (at < writes.length) {
    const sent: { write: Write; rows: number }[] = [];
    let bytes = 0;
    let i = at;
    let r = row;
    while (i < writes.length && sent.length < MAX_ACTIONS) {
      const w = writes[i];
      if (w.data.length === 0) {
        i++;
        continue;
      }
      let end = r;
      let add = 0;
      while (end < w.data.length) {
        const b = weight(w.data[end]) + 1;
        // at least one row in a sync, even one over the budget
        if (bytes + add + b > budget && (end > r || sent.length > 0)) break;
        add += b;
        end++;
      }
      if (end === r) break; // this sync is full
      const area: Area = { ...w.area, top: w.area.top + r, rows: end - r };
      (rangeOf(sheet(area.sheet), area) as unknown as Record<string, unknown>)[w.property] = w.data.slice(r, end);
      sent.push({ write: w, rows: end - r });
      bytes += add + 100;
      if (end < w.data.length) {
        r = end;
        break;
      }
      i++;
      r = 0;
    }
    try {
      await context.sync();
    } catch (e) {
      if (!isPayloadTooLarge(e) || (sent.length === 1 && sent[0].rows === 1)) throw e;
      budget = Math.max(1, Math.floor(bytes / 2));
      continue; // the same rows again, in smaller syncs
    }
    for (const x of sent) done?.(x.write, x.rows);
    at = i;
    row = r;
  }
}
