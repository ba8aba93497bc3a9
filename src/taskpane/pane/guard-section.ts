/**
 * The pane's credit guard section: the burst of recalculated cells the guard holds, the question it
 * waits on, and the user's two answers ("fill": spend and recalculate; "dismiss": spend nothing).
 */
import type { FirmaEngine } from "../../engine/engine";
import { count, t } from "../i18n";
import { planRefresh } from "../refresh-plan";
import type { PaneContext } from "./context";
import { failureCode } from "./format";
import { rerun, settle } from "./recalc";

export class GuardSection {
  constructor(
    private readonly ctx: PaneContext,
    /** Shows the usage again (after an answer, the credits spent and the held burst change). */
    private readonly renderUsage: () => Promise<void>,
  ) {}

  /** The burst the credit guard holds, with the question it waits on. */
  renderGuard(engine: FirmaEngine): void {
    const el = this.ctx.el;
    const held = engine.credits().heldBurst();
    const box = el["guard-box"];
    box.hidden = held === null;
    if (held === null) {
      delete box.dataset.cells;
      delete box.dataset.credits;
      return;
    }
    const l = this.ctx.lang;
    box.dataset.cells = String(held.cells);
    box.dataset.credits = String(held.calls);
    el["guard-text"].textContent = t(l, "guard.held", {
      cells: count(held.cells, "cell", l),
      credits: count(held.calls, "credit", l),
      limit: count(engine.credits().guardLimit() ?? 0, "credit", l),
    });
  }

  /**
   * "Completează": what the held cells need is fetched in one plan (the refresh's prefetch: the fewest
   * calls, full batches), under a budget of the credits the question named; then the held burst is
   * confirmed and every FIRMA cell of the workbook is recalculated, answered from the cache. Letting
   * Excel's recalculation fetch them instead would plan each of its waves on its own, with a partial
   * batch in each: up to twice the calls for a large sheet.
   */
  async onGuardFill(): Promise<void> {
    const ctx = this.ctx;
    const status = ctx.el["guard-status"];
    const engine = await ctx.engine();
    const confirmed = engine.credits().heldBurst()?.calls ?? null;
    ctx.el["guard-box"].hidden = true;
    const host = ctx.options.host;
    if (!host || ctx.working || host.support().refresh) {
      // Outside Excel, in an Excel the pane cannot read (see applySupport), or while a refresh
      // recalculates: the next calculation of the cells fetches them.
      engine.credits().confirmHeld();
      ctx.clear(status);
      return;
    }
    ctx.setWorking(true);
    const before = engine.credits().usage().month;
    // Never past what the user confirmed: the question named `confirmed` credits (an upper bound).
    const budget = confirmed === null ? null : engine.credits().openBudget(confirmed);
    try {
      ctx.say(status, (l) => t(l, "guard.filling"), "info");
      const scan = await host.scan("all");
      const plan = planRefresh(scan.cells, scan, { includeLists: true });
      await engine.prefetch(plan.requests);
      engine.credits().confirmHeld();
      const cells = plan.toRecalculate;
      await rerun(ctx, cells, scan);
      const state = await settle(ctx, cells);
      const spent = Math.max(0, engine.credits().usage().month - before);
      const errors = state.errors;
      ctx.say(
        status,
        (l) =>
          [t(l, "guard.filled", { spent }), errors > 0 ? t(l, "guard.filledErrors", { cells: count(errors, "cell", l) }) : ""]
            .join(" ")
            .trim(),
        errors > 0 ? "warn" : "ok",
      );
      status.dataset.spent = String(spent);
    } catch (e) {
      ctx.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      budget?.close();
      ctx.setWorking(false);
      await this.renderUsage();
    }
  }

  /** "Renunță": the held cells keep their message; nothing is spent. */
  async onGuardDismiss(): Promise<void> {
    const engine = await this.ctx.engine();
    engine.credits().dismissHeld();
    this.ctx.say(this.ctx.el["guard-status"], (l) => t(l, "guard.dismissed"), "info");
    await this.renderUsage();
  }
}
