/**
 * The pane's list of what the last refresh found changed (the watched fields of the companies it
 * fetched), and "write to a new sheet", which puts every change there.
 */
import type { Change, FirmaEngine } from "../../engine/engine";
import { changeTable } from "../../shared/changes-table";
import { count, t } from "../i18n";
import type { PaneContext } from "./context";
import { failureCode } from "./format";

/** The most changes listed in the pane; all of them go to the sheet. */
const CHANGES_SHOWN = 50;

export class ChangesSection {
  /** The watch's mark taken when the last refresh began, and what that refresh found changed. */
  private changesMark: number | null = null;
  private lastChanges: Change[] | null = null;

  constructor(private readonly ctx: PaneContext) {}

  /** A refresh begins: what it finds changed is recorded from here on (a "Continue" adds to it). */
  watch(engine: FirmaEngine): void {
    this.changesMark = engine.markChanges();
    this.lastChanges = null;
    this.ctx.el["changes-box"].hidden = true;
    this.ctx.clear(this.ctx.el["changes-status"]);
  }

  /** A refresh got answers: lists what changed since the refresh began. */
  collect(engine: FirmaEngine): void {
    if (this.changesMark === null) return;
    this.lastChanges = engine.changes(this.changesMark);
    this.renderChanges();
  }

  /** Lists the last refresh's changes (at most CHANGES_SHOWN; the sheet gets all), in the pane's language. */
  renderChanges(): void {
    const { doc, el } = this.ctx;
    const changes = this.lastChanges;
    const box = el["changes-box"];
    if (changes === null) {
      box.hidden = true;
      return;
    }
    const l = this.ctx.lang;
    const table = changeTable(changes.slice(0, CHANGES_SHOWN), l);
    box.hidden = false;
    box.dataset.count = String(changes.length);
    el["changes-summary"].textContent =
      changes.length === 0 ? t(l, "changes.none") : t(l, "changes.some", { changes: count(changes.length, "change", l) });
    const body = el["changes-rows"];
    body.replaceChildren(
      ...table.rows.map(([cui, company, field, before, after]) => {
        const tr = doc.createElement("tr");
        const who = doc.createElement("td");
        who.append(String(company || cui));
        if (company) {
          const small = doc.createElement("span");
          small.className = "cui";
          small.textContent = `CUI ${cui}`;
          who.append(small);
        }
        const cells = [field, before, after].map((v, i) => {
          const td = doc.createElement("td");
          td.textContent = String(v);
          if (i === 1) td.className = "before";
          return td;
        });
        tr.append(who, ...cells);
        return tr;
      }),
    );
    (body.closest("table") as HTMLElement).hidden = changes.length === 0;
    const more = changes.length - table.rows.length;
    el["changes-more"].hidden = more <= 0;
    el["changes-more"].textContent = more > 0 ? t(l, "changes.more", { changes: count(more, "change", l) }) : "";
    el["changes-write"].hidden = changes.length === 0 || !this.ctx.options.host;
  }

  /** "Write to a new sheet": every change of the last refresh, with its dates, on a sheet of its own. */
  async onWriteChanges(): Promise<void> {
    const ctx = this.ctx;
    const host = ctx.options.host;
    const changes = this.lastChanges;
    if (!host || !changes || changes.length === 0 || ctx.working) return;
    const status = ctx.el["changes-status"];
    const button = ctx.el["changes-write"] as HTMLButtonElement;
    button.disabled = true;
    try {
      const l = ctx.lang;
      const table = changeTable(changes, l);
      const sheet = await host.writeSheet(t(l, "changes.sheetName"), [table.header, ...table.rows], table.textColumns);
      status.dataset.sheet = sheet;
      ctx.say(status, (lang) => t(lang, "changes.written", { sheet }), "ok");
    } catch (e) {
      ctx.say(status, (lang) => t(lang, "changes.writeFailed", { reason: failureCode(e) }), "error");
    } finally {
      button.disabled = false;
    }
  }
}
