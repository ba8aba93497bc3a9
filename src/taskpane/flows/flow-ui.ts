/**
 * What the flows share on the page: their elements by id, a confirmation whose safe answer has the
 * focus (Escape gives it), a bad selection's message, and a write of values that keeps text as text.
 */
import type { Lang } from "../i18n";
import type { Area, Write } from "../blocks";
import type { PaneContext, Render } from "../pane/context";
import type { SelectionProblem } from "./flow-sheet";
import { ft, type FlowKey } from "./texts";

export function byId(doc: Document, id: string): HTMLElement {
  const el = doc.getElementById(id);
  if (!el) throw new Error(`FIRMA: the pane has no #${id}`);
  return el;
}

/** A question with two answers; Escape, "No" and a new question answer no. */
export class Confirm {
  private answer: ((yes: boolean) => void) | null = null;

  constructor(
    private readonly ctx: PaneContext,
    private readonly box: string,
    private readonly text: string,
    private readonly yes: string,
    private readonly no: string,
  ) {
    const d = ctx.doc;
    byId(d, yes).addEventListener("click", () => this.close(true));
    byId(d, no).addEventListener("click", () => this.close(false));
  }

  ask(render: Render): Promise<boolean> {
    this.close(false);
    const d = this.ctx.doc;
    this.ctx.say(byId(d, this.text), render);
    byId(d, this.box).hidden = false;
    byId(d, this.no).focus(); // the safe answer
    return new Promise((resolve) => (this.answer = resolve));
  }

  /** Closes an open question with its safe answer; false when none was open. */
  escape(): boolean {
    if (!this.answer) return false;
    this.close(false);
    return true;
  }

  private close(yes: boolean): void {
    const a = this.answer;
    this.answer = null;
    byId(this.ctx.doc, this.box).hidden = true;
    a?.(yes);
  }
}

const PROBLEM_KEYS: Readonly<Record<SelectionProblem, FlowKey>> = {
  several_areas: "flow.problem.severalAreas",
  protected: "flow.problem.protected",
  hidden_rows: "flow.problem.hiddenRows",
  table: "flow.problem.table",
  too_wide: "flow.problem.tooWide",
  empty: "flow.problem.empty",
  no_room: "flow.problem.noRoom",
  too_many: "flow.problem.tooMany",
};

export function problemText(lang: Lang, p: SelectionProblem, params: Record<string, string | number> = {}): string {
  return ft(lang, PROBLEM_KEYS[p], params);
}

const FORMULA_START = /^[=+\-@]/;

/**
 * Values for `area`, text kept as text: a column holding a text that Excel would read as a formula or
 * a number ("0111", "=x") is formatted "@" first (writeAreas refuses it otherwise: blocks.ts).
 */
export function textWrites(area: Area, data: unknown[][]): Write[] {
  const text = (v: unknown) =>
    typeof v === "string" && v !== "" && (FORMULA_START.test(v) || /^\s*[\d.,+-]/.test(v) || /^(TRUE|FALSE)$/i.test(v.trim()));
  const writes: Write[] = [];
  if (data.some((row) => row.some(text))) {
    writes.push({ area, property: "numberFormat", data: data.map((row) => row.map((v) => (typeof v === "string" ? "@" : "General"))) });
  }
  writes.push({ area, property: "values", data });
  return writes;
}

/** Why a flow has no workbook: outside Excel, or an Excel without the ExcelApi set it needs. */
export function noSheet(ctx: PaneContext): Render {
  const set = ctx.options.host?.support().refresh;
  return (l) => (set ? ft(l, "flow.unsupported", { set }) : ft(l, "flow.excelOnly"));
}
