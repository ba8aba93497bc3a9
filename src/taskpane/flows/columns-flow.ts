/**
 * "Add columns": beside a column of CUIs (or cards, or just-matched names with their CUI column),
 * the fields, figures, card and fetch date ticked, under a header row in the user's language, as
 * formulas or as frozen values. Ticking shows the cost: engine.estimate over the requests the same
 * formulas typed by hand would make (column-catalog.ts), so the two cost the same. Add fetches what
 * is not cached in one credit-minimal plan (engine.prefetch) under a budget of that estimate, then
 * writes: formulas (Range.formulas, answered from the cache) or the values they give (evaluate,
 * cache only), text as text. Cells that are not empty are replaced only after a confirmation that
 * says how many; a bad selection is refused before any credit.
 */
import { parseCui } from "../../api/cui";
import type { FirmaEngine } from "../../engine/engine";
import { isCard, isCellError, type Cell } from "../../shared/cells";
import { evaluate } from "../../shared/evaluate";
import { colToLetters as letters } from "../../shared/sheet/a1";
import type { Area, Write } from "../blocks";
import { count, formatNumber } from "../i18n";
import type { PaneContext } from "../pane/context";
import { COLUMN_ITEMS, columnsOf, formulaOf, headerOf, requestsOf, type Column } from "./column-catalog";
import type { ColumnSelection, FlowDeps, FlowSheet } from "./flow-sheet";
import { byId, Confirm, problemText, noSheet } from "./flow-ui";
import { codeOf } from "./search-flow";
import { ft } from "./texts";

/** The widest selection read (names, county, CUI, confidence… beside the CUIs). */
const MAX_COLS = 4;
/** More rows than this are refused: a task for `firma refresh`. */
export const MAX_ROWS = 100_000;

/** The column of a selection that holds the CUIs: the one with most valid CUIs (a card reads as its CUI); -1 when none has one. */
export function cuiColumn(values: readonly (readonly unknown[])[]): number {
  const cols = values[0]?.length ?? 0;
  let best = -1;
  let most = 0;
  for (let j = 0; j < cols; j++) {
    let n = 0;
    for (const row of values) if (parseCui(row[j]).ok) n++;
    if (n > most) [best, most] = [j, n];
  }
  return best;
}

/**
 * The selection's column of CUIs (its index in the selection), a first row that names the columns
 * left out (its CUI cell text and no CUI); null when no column holds a CUI. Add columns and "watch
 * these companies" read a selection this way.
 */
export function cuiSource(s: ColumnSelection): { sel: ColumnSelection; col: number } | null {
  let sel = s;
  let col = cuiColumn(sel.values);
  if (col < 0) return null;
  const first = sel.values[0][col];
  if (!sel.wholeColumns && sel.rows > 1 && typeof first === "string" && first.trim() !== "" && !parseCui(first).ok) {
    sel = { ...sel, headerRow: sel.top, top: sel.top + 1, rows: sel.rows - 1, values: sel.values.slice(1) };
    col = cuiColumn(sel.values);
  }
  return { sel, col };
}

export class ColumnsFlow {
  private source: (ColumnSelection & { cuiCol: number }) | null = null;
  private readonly confirm: Confirm;

  constructor(
    private readonly ctx: PaneContext,
    private readonly deps: FlowDeps,
  ) {
    this.confirm = new Confirm(ctx, "columns-confirm", "columns-confirm-text", "columns-yes", "columns-no");
    const d = ctx.doc;
    this.renderItems();
    byId(d, "columns-read").addEventListener("click", () => void deps.track(this.read()));
    byId(d, "columns-add").addEventListener("click", () => void deps.track(this.add()));
    for (const id of ["columns-items", "columns-year-from", "columns-year-to", "columns-mode"])
      byId(d, id).addEventListener("change", () => void deps.track(this.showCost()));
  }

  private get status(): HTMLElement {
    return byId(this.ctx.doc, "columns-status");
  }

  /** One box per item, named in the user's language; the card only as a formula. */
  renderItems(): void {
    const d = this.ctx.doc;
    const box = byId(d, "columns-items");
    const ticked = new Set(this.ticked().map((i) => i.id));
    box.querySelectorAll("label.choice").forEach((x) => x.remove());
    for (const item of COLUMN_ITEMS) {
      const label = d.createElement("label");
      label.className = "choice";
      const input = d.createElement("input");
      input.type = "checkbox";
      input.value = item.id;
      input.checked = ticked.has(item.id);
      const span = d.createElement("span");
      span.textContent = item.label(this.ctx.lang) + (item.financial ? " *" : "");
      label.append(input, span);
      box.append(label);
    }
    this.applyMode();
  }

  private ticked() {
    const ids = new Set(
      [...byId(this.ctx.doc, "columns-items").querySelectorAll<HTMLInputElement>("input:checked:not(:disabled)")].map((x) => x.value),
    );
    return COLUMN_ITEMS.filter((i) => ids.has(i.id));
  }

  private frozen(): boolean {
    return (byId(this.ctx.doc, "columns-mode-values") as HTMLInputElement).checked;
  }

  /** Frozen values: the card cannot be one (it stays a formula). */
  private applyMode(): void {
    const frozen = this.frozen();
    byId(this.ctx.doc, "columns-items")
      .querySelectorAll<HTMLInputElement>("input")
      .forEach((x) => (x.disabled = frozen && !!COLUMN_ITEMS.find((i) => i.id === x.value)?.formulaOnly));
  }

  /** The years asked for: blank = the latest (the argument left out); from–to = each year, latest first. */
  private years(): (number | null)[] | null {
    const d = this.ctx.doc;
    const read = (id: string) => (byId(d, id) as HTMLInputElement).value.trim();
    const from = read("columns-year-from");
    const to = read("columns-year-to");
    if (from === "" && to === "") return [null];
    const a = Number(from || to);
    const b = Number(to || from);
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1990 || b < 1990 || a > 2100 || b > 2100) return null;
    const out: number[] = [];
    for (let y = Math.max(a, b); y >= Math.min(a, b); y--) out.push(y);
    return out.length > 20 ? null : out;
  }

  private columns(): Column[] | null {
    const years = this.years();
    return years === null ? null : columnsOf(this.ticked(), years);
  }

  /** Reads the selection: the CUI column, its rows; refuses a bad selection with its reason. */
  async read(): Promise<(ColumnSelection & { cuiCol: number }) | null> {
    const ctx = this.ctx;
    this.source = null;
    const sheet = await this.deps.sheet();
    if (!sheet) {
      ctx.say(this.status, noSheet(ctx), "warn");
      return null;
    }
    const width = Math.max(1, this.columns()?.length ?? 1);
    const s = await sheet.selection({ maxCols: MAX_COLS, maxRows: MAX_ROWS, width });
    const src = byId(ctx.doc, "columns-source");
    if ("problem" in s) {
      ctx.say(src, (l) => problemText(l, s.problem, { max: formatNumber(s.problem === "too_wide" ? MAX_COLS : MAX_ROWS, l) }), "error");
      src.dataset.problem = s.problem;
      await this.showCost();
      return null;
    }
    delete src.dataset.problem;
    const found = cuiSource(s);
    if (!found) {
      ctx.say(src, (l) => ft(l, "columns.noCuis"), "error");
      src.dataset.problem = "no_cuis";
      await this.showCost();
      return null;
    }
    const { sel, col } = found;
    const valid = sel.values.filter((r) => parseCui(r[col]).ok).length;
    this.source = { ...sel, cuiCol: sel.left + col };
    const address = `${sel.sheet}!${letters(sel.left + col)}${sel.top}:${letters(sel.left + col)}${sel.top + sel.rows - 1}`;
    ctx.say(src, (l) => ft(l, "columns.source", { address, rows: formatNumber(sel.rows, l), valid: formatNumber(valid, l) }), "info");
    await this.showCost();
    return this.source;
  }

  /** The cost of what is ticked, for the rows read: the estimate of the same formulas typed by hand. */
  async showCost(): Promise<void> {
    this.applyMode();
    const ctx = this.ctx;
    const el = byId(ctx.doc, "columns-cost");
    const add = byId(ctx.doc, "columns-add") as HTMLButtonElement;
    const columns = this.columns();
    add.disabled = !this.source || !columns || columns.length === 0 || ctx.working;
    if (columns === null) return void ctx.say(el, (l) => ft(l, "columns.badYears"), "error");
    if (!this.source || columns.length === 0)
      return void ctx.say(el, (l) => ft(l, this.source ? "columns.tickSome" : "columns.readFirst"), "info");
    const engine = await ctx.engine();
    const est = engine.estimate(requestsOf(columns, this.cuis()));
    const rows = this.source.rows;
    el.dataset.credits = String(est.credits);
    ctx.say(
      el,
      (l) =>
        ft(l, est.exact ? "columns.cost" : "columns.costAtMost", {
          columns: formatNumber(columns.length, l),
          rows: formatNumber(rows, l),
          credits: count(est.credits, "credit", l),
          low: formatNumber(est.ifAnswered, l),
        }),
      "info",
    );
  }

  private cuis(): unknown[] {
    const s = this.source!;
    return s.values.map((r) => r[s.cuiCol - s.left]);
  }

  /** Add: checks, the confirmation of what would be replaced, the fetch under a budget, the write. */
  async add(): Promise<void> {
    const ctx = this.ctx;
    const status = this.status;
    if (ctx.working) return;
    const columns = this.columns();
    if (!columns || columns.length === 0) return;
    const src = await this.read(); // the selection as it is now (it may have changed since the cost was shown)
    const sheet = await this.deps.sheet();
    if (!src || !sheet) return;
    const left = src.left + src.cols;
    if (left + columns.length - 1 > 16_384) return void ctx.say(status, (l) => problemText(l, "no_room"), "error");
    const data: Area = { sheet: src.sheet, top: src.top, left, rows: src.rows, cols: columns.length };
    const header: Area | null = src.headerRow === null ? null : { ...data, top: src.headerRow, rows: 1 };
    const taken = await sheet.nonEmpty(header ? [header, data] : [data]);
    if (taken > 0 && !(await this.confirm.ask((l) => ft(l, "flow.overwrite", { cells: count(taken, "cell", l) })))) {
      return void ctx.say(status, (l) => ft(l, "flow.notWritten"), "info");
    }
    const engine = await ctx.engine();
    const requests = requestsOf(columns, this.cuis());
    const est = engine.estimate(requests);
    const left$ = ctx.view(engine).left;
    if (left$ !== null && est.credits > left$) {
      return void ctx.say(
        status,
        (l) => ft(l, "flow.tooDear", { credits: count(est.credits, "credit", l), left: formatNumber(left$, l) }),
        "error",
      );
    }
    ctx.setWorking(true);
    const before = engine.credits().usage().month;
    const spent = () => Math.max(0, engine.credits().usage().month - before);
    const frozen = this.frozen();
    const budget = engine.credits().openBudget(est.credits);
    try {
      ctx.say(status, (l) => ft(l, "columns.fetching", { credits: count(est.credits, "credit", l) }), "info");
      if (est.credits > 0) await engine.prefetch(requests);
      const made = frozen ? await this.values(engine, columns, data, header) : { writes: this.formulas(columns, data, header), errors: 0 };
      await sheet.write(made.writes);
      const errors = frozen ? made.errors : (await this.settle(sheet, data)).errors;
      await engine.persist().catch(() => undefined);
      const s = spent();
      status.dataset.spent = String(s);
      status.dataset.written = `${data.rows}x${data.cols}`;
      ctx.say(
        status,
        (l) =>
          [
            ft(l, frozen ? "columns.doneValues" : "columns.doneFormulas", {
              columns: formatNumber(columns.length, l),
              rows: formatNumber(data.rows, l),
              credits: count(s, "credit", l),
            }),
            errors > 0 ? ft(l, "columns.errors", { cells: count(errors, "cell", l) }) : "",
            header ? "" : ft(l, "columns.noHeader"),
          ]
            .join(" ")
            .trim(),
        errors > 0 ? "warn" : "ok",
      );
      await sheet
        .select({ ...data, top: header ? header.top : data.top, rows: data.rows + (header ? data.top - header.top : 0) })
        .catch(() => undefined);
    } catch (e) {
      ctx.say(status, (l) => ft(l, "flow.writeFailed", { code: codeOf(e) }), "error");
    } finally {
      budget.close();
      ctx.setWorking(false);
      await this.deps.renderUsage();
    }
  }

  private headerWrites(columns: readonly Column[], header: Area | null): Write[] {
    if (!header) return [];
    const lang = this.ctx.lang;
    const row = [columns.map((c) => headerOf(c, lang))];
    return [
      { area: header, property: "numberFormat", data: [row[0].map(() => "@")] },
      { area: header, property: "values", data: row },
    ];
  }

  /** Number formats of the columns that need one (the fetch date), over the data rows. */
  private formats(columns: readonly Column[], data: Area): Write[] {
    return columns.flatMap((c, j) =>
      c.item.numberFormat === null
        ? []
        : [
            {
              area: { ...data, left: data.left + j, cols: 1 },
              property: "numberFormat" as const,
              data: Array.from({ length: data.rows }, () => [c.item.numberFormat]),
            },
          ],
    );
  }

  private formulas(columns: readonly Column[], data: Area, header: Area | null): Write[] {
    const s = this.source!;
    const blank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");
    const cuis = this.cuis();
    const formulas = cuis.map((cui, i) => columns.map((c) => (blank(cui) ? "" : formulaOf(c, s.cuiCol, data.top + i))));
    return [...this.headerWrites(columns, header), ...this.formats(columns, data), { area: data, property: "formulas", data: formulas }];
  }

  /** The values the formulas would show, from the cache (just filled): text as text, an error as its code. */
  private async values(
    engine: FirmaEngine,
    columns: readonly Column[],
    data: Area,
    header: Area | null,
  ): Promise<{ writes: Write[]; errors: number }> {
    const lang = this.ctx.lang;
    const matrix = this.cuis().map((c) => [c]);
    const out: Cell[][] = matrix.map(() => []);
    for (const c of columns) {
      const args = c.year === null ? [matrix] : [matrix, c.year];
      const m = await evaluate(c.item.id, args, { engine, lang, cacheOnly: true, cards: false });
      m.forEach((row, i) => out[i].push(row[0]));
    }
    // A row without a CUI stays blank, as it does with formulas (none is written there).
    const blank = matrix.map(([c]) => c === null || c === undefined || (typeof c === "string" && c.trim() === ""));
    for (let i = 0; i < out.length; i++) if (blank[i]) out[i] = out[i].map(() => "");
    const values = out.map((row) =>
      row.map((v) => (isCellError(v) ? v.error : isCard(v) ? v.text : v === null || v === undefined ? "" : v)),
    );
    const formats = out.map((row, i) =>
      row.map((v, j) =>
        typeof values[i][j] === "string" && !isCellError(v) && values[i][j] !== "" ? "@" : (columns[j].item.numberFormat ?? "General"),
      ),
    );
    const writes: Write[] = [
      ...this.headerWrites(columns, header),
      { area: data, property: "numberFormat", data: formats },
      { area: data, property: "values", data: values },
    ];
    return { writes, errors: out.flat().filter(isCellError).length };
  }

  /** Waits (up to the pane's timeout) until the new formulas have settled; what they show then. */
  private async settle(sheet: FlowSheet, data: Area): Promise<{ busy: number; errors: number }> {
    const end = Date.now() + this.ctx.timeoutMs;
    for (;;) {
      const st = await sheet.state([data]);
      if (st.busy === 0 || Date.now() > end) return st;
      await new Promise((r) => setTimeout(r, this.ctx.pollMs));
    }
  }

  /** The company card alone, as FIRMA.FISA formulas, added beside the selection (where linked companies are missing: linked-flow.ts). */
  async cardOnly(): Promise<void> {
    const d = this.ctx.doc;
    byId(d, "columns-items")
      .querySelectorAll<HTMLInputElement>("input")
      .forEach((x) => (x.checked = x.value === "FISA"));
    (byId(d, "columns-mode-formulas") as HTMLInputElement).checked = true;
    await this.add();
  }

  escape(): boolean {
    return this.confirm.escape();
  }
}
