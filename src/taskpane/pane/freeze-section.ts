/**
 * The pane's freeze section: the selection's FIRMA formulas replaced by their values, after a
 * confirmation whose safe answer has the focus (freezing cannot be undone).
 */
import { count, formatNumber, t, type Lang } from "../i18n";
import type { PaneContext } from "./context";
import { failureCode } from "./format";

export class FreezeSection {
  constructor(private readonly ctx: PaneContext) {}

  onFreeze(): void {
    const { el, options } = this.ctx;
    if (this.ctx.working || !options.host) return;
    this.ctx.clear(el["freeze-status"]);
    // Said before the user confirms: where Excel cannot write a card back (no Range.valuesAsJson), cards become their text.
    const note = el["freeze-cards-note"];
    note.hidden = options.host.support().freezeKeepsCards;
    el["freeze-confirm"].hidden = false;
    el["freeze-no"].focus(); // the safe answer: freezing cannot be undone
  }

  onFreezeCancelled(): void {
    const el = this.ctx.el;
    el["freeze-confirm"].hidden = true;
    this.ctx.say(el["freeze-status"], (l) => t(l, "freeze.cancelled"), "info");
    el.freeze.focus();
  }

  async onFreezeConfirmed(): Promise<void> {
    const ctx = this.ctx;
    const host = ctx.options.host;
    ctx.el["freeze-confirm"].hidden = true;
    if (!host || ctx.working) return;
    const status = ctx.el["freeze-status"];
    ctx.setWorking(true);
    try {
      const r = await host.freezeSelection();
      const cards = (l: Lang) => (r.cardsAsText > 0 ? ` ${t(l, "freeze.cardsTurnedText", { cards: formatNumber(r.cardsAsText, l) })}` : "");
      if (r.busy) ctx.say(status, (l) => t(l, "freeze.busy"), "warn");
      else if (r.left > 0)
        ctx.say(
          status,
          (l) =>
            t(l, "freeze.partial", { formulas: count(r.frozen, "firmaFormula", l), left: formatNumber(r.left, l), code: r.failure ?? "" }) +
            cards(l),
          "error",
        );
      else if (r.frozen === 0) ctx.say(status, (l) => t(l, "freeze.none"), "info");
      else ctx.say(status, (l) => t(l, "freeze.done", { formulas: count(r.frozen, "firmaFormula", l) }) + cards(l), "ok");
      status.dataset.frozen = String(r.frozen);
    } catch (e) {
      ctx.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      ctx.setWorking(false);
      ctx.el.freeze.focus();
    }
  }
}
