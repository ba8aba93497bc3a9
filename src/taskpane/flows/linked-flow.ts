/**
 * "Make linked companies", an action of add columns: the CUI column of the selection (CUIs, FIRMA.FISA
 * cards read as their CUI, or the CUI column the match flow wrote beside names) becomes linked
 * companies of the "Firmă" / "Company" data type, in place. After the estimate and its confirmation,
 * what is not cached is fetched in one plan under that budget (the same as FISA cells would cost), so
 * that Excel's load service then answers from the cache; the cells get the linked entity (its text the
 * company's name) and Excel loads the rest (src/shared/linked-company.ts). Where ExcelApi 1.19 is missing
 * (Excel on the web, an older Excel), where the add-in runs as its default edition (manifest.xml, without
 * the load service), or where Excel refuses the domain, it says so and offers FIRMA.FISA formulas instead
 * (add columns); nothing is spent before the domain is registered.
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values
 */
import { parseCui } from "../../api/cui";
import { lastRegistrationFailure, linkedSupport, registerWhereSupported, type LinkedSupport } from "../../office/linked-support";
import type { Area } from "../blocks";
import { count, formatNumber } from "../i18n";
import type { PaneContext } from "../pane/context";
import { COLUMN_ITEMS, columnsOf, requestsOf } from "./column-catalog";
import type { ColumnsFlow } from "./columns-flow";
import type { FlowDeps } from "./flow-sheet";
import { byId, Confirm, noSheet } from "./flow-ui";
import { codeOf } from "./search-flow";
import { ft } from "./texts";

/**
 * The action's part of the Add columns section, made when the flows load (its markup is not in
 * taskpane.html: the page stays small and the startup scripts carry none of it): a heading, what it
 * does, the buttons (the FISA one shown only where linked companies are missing), the confirmation
 * (the safe answer focused, as the other flows') and the status, read by screen readers.
 */
export function mountLinked(doc: Document): void {
  if (doc.getElementById("linked-convert")) return;
  const after = doc.getElementById("columns-status");
  if (!after) return;
  const box = doc.createElement("div");
  box.id = "linked-section";
  box.innerHTML = `<h3 data-flow-i18n="linked.heading"></h3>
<p class="hint" data-flow-i18n="linked.intro"></p>
<div class="button-row">
  <button id="linked-convert" type="button" data-flow-i18n="linked.convert"></button>
  <button id="linked-fisa" type="button" data-flow-i18n="linked.fisa" hidden></button>
</div>
<div id="linked-confirm" class="confirm" role="group" aria-labelledby="linked-confirm-text" hidden>
  <p id="linked-confirm-text"></p>
  <div class="button-row">
    <button id="linked-yes" type="button" class="danger" data-flow-i18n="linked.yes"></button>
    <button id="linked-no" type="button" data-flow-i18n="flow.keep"></button>
  </div>
</div>
<p id="linked-status" class="message" role="status" aria-live="polite"></p>`;
  after.after(box);
}

export class LinkedFlow {
  private readonly confirm: Confirm;

  constructor(
    private readonly ctx: PaneContext,
    private readonly deps: FlowDeps,
    private readonly columns: ColumnsFlow,
    /** Whether linked companies can be had here (the linked edition, ExcelApi 1.19); asked at each use. */
    private readonly supported: () => LinkedSupport = linkedSupport,
  ) {
    this.confirm = new Confirm(ctx, "linked-confirm", "linked-confirm-text", "linked-yes", "linked-no");
    byId(ctx.doc, "linked-convert").addEventListener("click", () => void deps.track(this.convert()));
    byId(ctx.doc, "linked-fisa").addEventListener("click", () => void deps.track(this.fisaInstead()));
  }

  private get status(): HTMLElement {
    return byId(this.ctx.doc, "linked-status");
  }

  /** Converts the CUI column of the selection, after the estimate; where 1.19 is missing, says so and offers FISA formulas. */
  async convert(): Promise<void> {
    const ctx = this.ctx;
    const fisa = byId(ctx.doc, "linked-fisa");
    if (ctx.working) return;
    const sheet = await this.deps.sheet();
    if (!sheet) return void ctx.say(this.status, noSheet(ctx), "warn");
    const support = this.supported();
    if (support !== "ok") {
      fisa.hidden = false;
      return void ctx.say(this.status, (l) => ft(l, support === "edition" ? "linked.otherEdition" : "linked.unsupported"), "warn");
    }
    fisa.hidden = true;
    const src = await this.columns.read();
    if (!src) return void ctx.say(this.status, (l) => ft(l, "columns.noCuis"), "error");
    const col = src.cuiCol - src.left;
    const rows = src.values.map((r) => parseCui(r[col]));
    const cuis = rows.flatMap((p) => (p.ok ? [p.cui] : []));
    if (cuis.length === 0) return void ctx.say(this.status, (l) => ft(l, "columns.noCuis"), "error");
    const engine = await ctx.engine();
    // What the same cells cost as FIRMA.FISA formulas: the profile and the latest year.
    const requests = requestsOf(
      columnsOf(
        COLUMN_ITEMS.filter((i) => i.id === "FISA"),
        [null],
      ),
      cuis,
    );
    const est = engine.estimate(requests);
    const left = ctx.view(engine).left;
    if (left !== null && est.credits > left)
      return void ctx.say(
        this.status,
        (l) => ft(l, "flow.tooDear", { credits: count(est.credits, "credit", l), left: formatNumber(left, l) }),
        "error",
      );
    const yes = await this.confirm.ask((l) =>
      ft(l, "linked.confirm", { cells: count(cuis.length, "cell", l), credits: count(est.credits, "credit", l) }),
    );
    if (!yes) return void ctx.say(this.status, (l) => ft(l, "flow.notWritten"), "info");
    // The domain first (free): where Excel refuses it, nothing is fetched or written.
    if (!(await registerWhereSupported())) {
      fisa.hidden = false;
      const f = lastRegistrationFailure() ?? { code: "Error", message: "" };
      return void ctx.say(this.status, (l) => ft(l, "linked.registerFailed", { code: f.code, message: f.message }), "error");
    }
    ctx.setWorking(true);
    const before = engine.credits().usage().month;
    const budget = engine.credits().openBudget(est.credits);
    try {
      if (est.credits > 0) await engine.prefetch(requests);
      // The domain's code and the entity's shape: the chunk the load service uses too (not in the startup scripts).
      const { linkedStub } = await import(/* webpackChunkName: "linked" */ "../../shared/linked-company");
      const lang = ctx.lang;
      // Each run of rows with a valid CUI is one write; the other rows are left as they are.
      const writes: { area: Area; property: "valuesAsJson"; data: unknown[][] }[] = [];
      let run: { area: Area; property: "valuesAsJson"; data: unknown[][] } | null = null;
      for (let i = 0; i < rows.length; i++) {
        const p = rows[i];
        if (!p.ok) {
          run = null;
          continue;
        }
        const name = await engine.profile(p.cui, { cacheOnly: true }).then(
          (x) => String(x.denumire ?? p.cui),
          () => String(p.cui),
        );
        if (!run)
          writes.push(
            (run = {
              area: { sheet: src.sheet, top: src.top + i, left: src.cuiCol, rows: 0, cols: 1 },
              property: "valuesAsJson",
              data: [],
            }),
          );
        run.area.rows++;
        run.data.push([linkedStub(p.cui, name, lang)]);
      }
      await sheet.write(writes);
      await engine.persist().catch(() => undefined);
      const spent = Math.max(0, engine.credits().usage().month - before);
      this.status.dataset.spent = String(spent);
      ctx.say(this.status, (l) => ft(l, "linked.done", { cells: count(cuis.length, "cell", l), credits: count(spent, "credit", l) }), "ok");
    } catch (e) {
      ctx.say(this.status, (l) => ft(l, "flow.writeFailed", { code: codeOf(e) }), "error");
    } finally {
      budget.close();
      ctx.setWorking(false);
      await this.deps.renderUsage();
    }
  }

  /** Where linked companies are missing: the company card as FIRMA.FISA formulas beside the CUIs (add columns, card ticked). */
  async fisaInstead(): Promise<void> {
    byId(this.ctx.doc, "linked-fisa").hidden = true;
    await this.columns.cardOnly();
  }

  escape(): boolean {
    return this.confirm.escape();
  }
}
