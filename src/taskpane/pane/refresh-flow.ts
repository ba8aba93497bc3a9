/**
 * The pane's refresh section: the estimate of the formulas in scope, the confirmation when it passes
 * what is left, the refresh itself under a budget of the confirmed estimate (with progress), its
 * outcome (refresh-summary.ts), and "Continue" for what the budget left unfetched.
 */
import type { CellRequest, Estimate, PrefetchReport } from "../../engine/engine";
import type { CellsState, Scope } from "../excel";
import { count, formatNumber, t, type Lang } from "../i18n";
import { planRefresh } from "../refresh-plan";
import { needsConfirmation } from "../usage";
import type { ChangesSection } from "./changes-section";
import type { PaneContext, Render } from "./context";
import { isRange, renderEstimate, type Prepared } from "./estimate-box";
import { firmLink } from "./firm";
import { failureCode } from "./format";
import { rerun, settle } from "./recalc";
import { nothingCameBack, summarizeRefresh } from "./refresh-summary";

/** What the refresh's first call showed: its credit, and the exact cost of the rest. */
export const probedText = (l: Lang, probe: number, rest: number): string =>
  t(l, "refresh.probed", { probe: count(probe, "credit", l), credits: count(rest, "credit", l) });

export class RefreshFlow {
  private lastEstimate: Prepared | null = null;
  private confirmAnswer: ((yes: boolean) => void) | null = null;
  /** A refresh the confirmed budget did not cover entirely: what "Continue" offers to finish. */
  private unfinished: Prepared | null = null;

  constructor(
    private readonly ctx: PaneContext,
    private readonly changes: ChangesSection,
    /** Shows the usage again (a refresh spends credits). */
    private readonly renderUsage: () => Promise<void>,
  ) {}

  private scope(): Scope {
    const checked = this.ctx.el["refresh-scope"].querySelector<HTMLInputElement>("input[name=scope]:checked");
    return checked?.value === "selection" ? "selection" : "all";
  }

  /** The last estimate shown, again (in the pane's new language). */
  renderLastEstimate(): void {
    if (this.lastEstimate) renderEstimate(this.ctx, this.lastEstimate);
  }

  /** Reads the formulas in scope and shows what refreshing them would cost. */
  async prepare(scope: Scope): Promise<Prepared | null> {
    const ctx = this.ctx;
    const host = ctx.options.host;
    if (!host) return null;
    const status = ctx.el["refresh-status"];
    ctx.say(status, (l) => t(l, "refresh.scanning"), "info");
    const scan = await host.scan(scope);
    const engine = await ctx.engine();
    const plan = planRefresh(scan.cells, scan, { includeLists: scope === "all" });
    const estimate = engine.estimate(plan.requests, { refresh: true });
    const left = creditsLeft(ctx, engine);
    const p: Prepared = { scope, scan, plan, estimate, left, age: engine.freshness(plan.requests) };
    this.lastEstimate = p;
    renderEstimate(ctx, p);
    if (plan.formulas.length === 0) ctx.say(status, (l) => t(l, scope === "all" ? "est.noneAll" : "est.noneSelection"), "info");
    else ctx.clear(status);
    return p;
  }

  async onEstimate(): Promise<void> {
    const ctx = this.ctx;
    if (ctx.working) return;
    ctx.setWorking(true);
    try {
      await this.prepare(this.scope());
    } catch (e) {
      ctx.say(ctx.el["refresh-status"], (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      ctx.setWorking(false);
    }
  }

  /** Estimate, then (after confirmation when the cost passes what is left) refresh, with progress and a summary. */
  async onRefresh(): Promise<void> {
    const ctx = this.ctx;
    if (ctx.working) return;
    ctx.setWorking(true);
    const status = ctx.el["refresh-status"];
    this.unfinished = null;
    ctx.el["refresh-continue"].hidden = true;
    try {
      const p = await this.prepare(this.scope());
      if (!p || p.plan.formulas.length === 0) return;
      // A range (the service not known yet): asked now only when its low end passes what is left, else
      // again after the first call, if the exact figure does (run()). Confirmed: the upper bound is allowed.
      const e = p.estimate;
      const range = isRange(e);
      let allowed = p.left;
      if (needsConfirmation(range ? e.ifAnswered : e.credits, p.left)) {
        const yes = await this.confirm((l) =>
          t(l, e.exact ? "refresh.confirm" : range ? "refresh.confirmRange" : "refresh.confirmAtMost", {
            credits: count(e.credits, "credit", l),
            low: formatNumber(e.ifAnswered, l),
            left: formatNumber(p.left!, l),
          }),
        );
        if (!yes) {
          ctx.say(status, (l) => t(l, "refresh.cancelled"), "info");
          return;
        }
        allowed = null;
      }
      await this.run(p, false, allowed);
    } catch (e) {
      status.dataset.outcome = "failed";
      ctx.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      ctx.el["refresh-progress"].hidden = true;
      ctx.setWorking(false);
    }
  }

  private confirm(text: Render): Promise<boolean> {
    const el = this.ctx.el;
    const box = el["refresh-confirm"];
    this.ctx.say(el["refresh-confirm-text"], text, "warn");
    box.hidden = false;
    (el["refresh-no"] as HTMLButtonElement).disabled = false;
    (el["refresh-yes"] as HTMLButtonElement).disabled = false;
    // The safe answer has the focus: Enter or Space on a dialog that appeared must not spend.
    el["refresh-no"].focus();
    return new Promise((resolve) => {
      this.confirmAnswer = (yes) => {
        box.hidden = true;
        this.confirmAnswer = null;
        el.refresh.focus();
        resolve(yes);
      };
    });
  }

  /** The user's answer to the open confirmation, if one is open. */
  answer(yes: boolean): void {
    this.confirmAnswer?.(yes);
  }

  /**
   * The refresh itself, capped at the credits the user saw: what the cells need is fetched in one
   * credit-minimal plan (prefetch) under a budget of the estimate, then the cells are recalculated
   * and answered from the cache. The budget stays open through the recalculation: lists (not
   * prefetched) are fetched then, and an answer the prefetch could not get is asked once more by its
   * cell; with the budget still open neither can take the spend past the estimate.
   * `continuing`: the second part of a refresh the budget cut short — nothing is marked stale again
   * and only what is still stale is fetched. Where the estimate is a range, the first call goes alone
   * (the probe, within the budget); the exact cost of the rest is then shown, and confirmed first if
   * the whole passes `allowed` (what is left, unless the user confirmed the upper bound: null).
   */
  private async run(p: Prepared, continuing = false, allowed: number | null = null): Promise<void> {
    const ctx = this.ctx;
    const host = ctx.options.host!;
    const engine = await ctx.engine();
    const status = ctx.el["refresh-status"];
    const progress = ctx.el["refresh-progress"] as HTMLProgressElement;
    const cells = p.plan.toRecalculate;
    const before = engine.credits().usage().month;
    const spent = () => Math.max(0, engine.credits().usage().month - before);
    const total = cells.length;
    progress.max = Math.max(1, total);
    progress.value = 0;
    progress.hidden = false;
    let probed: { probe: number; rest: Estimate } | null = null;
    const report = (done: number) => {
      progress.value = done;
      const s = spent();
      const exact = (l: Lang) => (probed ? " " + probedText(l, probed.probe, probed.rest.credits) : "");
      ctx.say(status, (l) => t(l, "refresh.progress", { done, total, spent: s }) + exact(l), "info");
    };
    // The probe's answer: the exact rest, asked about only when the whole passes what the user allowed.
    const onProbe = async (rest: Estimate): Promise<boolean> => {
      probed = { probe: spent(), rest };
      status.dataset.probe = `${probed.probe}+${rest.credits}`;
      const { probe } = probed;
      if (!needsConfirmation(probe + rest.credits, allowed)) return true;
      return this.confirm((l) =>
        t(l, "refresh.probedConfirm", {
          probe: count(probe, "credit", l),
          credits: count(rest.credits, "credit", l),
          left: formatNumber(allowed! - probe, l),
        }),
      );
    };
    report(0);
    delete status.dataset.outcome;

    if (!continuing) {
      this.changes.watch(engine);
      engine.markStale(p.scope === "all" ? "all" : p.plan.requests);
    }
    const credits = p.estimate.credits;
    const budget = engine.credits().openBudget(credits);
    let outcome: PrefetchReport;
    let state: CellsState;
    let dependents: number | null = 0;
    const ticker = setInterval(() => report(0), Math.max(ctx.pollMs, 250));
    try {
      try {
        outcome = await engine.prefetch(p.plan.requests, {
          force: !continuing,
          onProbe: continuing || p.estimate.exact ? undefined : onProbe,
        });
      } finally {
        clearInterval(ticker);
      }
      if (probed && outcome.wanted === 0) {
        // Stopped after the probe (the exact cost passed what is left): nothing more is fetched.
        state = { busy: 0, errors: 0 };
      } else if (nothingCameBack(outcome.wanted, outcome.failed)) {
        // Nothing came back (the service is down, the key refused, the credits spent, the budget gone
        // on attempts that got no answer): recalculating would only ask again for what just failed.
        // The cells keep showing what they showed.
        state = { busy: 0, errors: 0 };
      } else {
        // The refresh was confirmed and its budget caps it: its own recalculation is not the surprise
        // burst the guard is for. A burst already held elsewhere is left for the user to answer.
        if (engine.credits().heldBurst() === null) engine.credits().confirmHeld();
        status.dataset.rerun = await rerun(ctx, cells, p.scan);
        state = await settle(ctx, cells, (st) => report(total - st.busy));
        // Then the cells that depend on them, once they have their new values (docs/excel.md, "Refresh").
        dependents = await host.recalculateDependents(cells).catch(() => null);
      }
    } finally {
      budget.close();
    }
    try {
      await engine.persist();
    } catch {
      /* the cache reports its own failures (the pane shows them) */
    }

    progress.value = total - state.busy;
    const final = spent();
    status.dataset.spent = String(final);
    if (probed && outcome.wanted === 0) {
      status.dataset.outcome = "stopped";
      ctx.say(status, (l) => t(l, "refresh.stoppedAfterProbe", { probe: count(final, "credit", l) }), "info");
      return void (await this.renderUsage());
    }
    status.dataset.dependents = dependents === null ? "unsupported" : String(dependents);
    const summary = summarizeRefresh({
      wanted: outcome.wanted,
      failed: outcome.failed,
      formulas: total,
      errors: state.errors,
      busy: state.busy,
      spent: final,
      uncertain: budget.uncertain,
      credits,
      dependents,
      firmLimit: engine.credits().quotaStop()?.firm,
    });
    status.dataset.outcome = summary.outcome;
    ctx.say(status, summary.text, summary.tone);
    if (summary.refreshed) this.changes.collect(engine);
    if (summary.cut > 0) {
      // Never past the confirmed figure silently: the rest is a new estimate and a new confirmation.
      this.unfinished = p;
      ctx.el["refresh-continue"].hidden = false;
    }
    await this.renderUsage();
  }

  /** "Continue": what the budget left unfetched, with its own estimate and confirmation. */
  async onContinue(): Promise<void> {
    const ctx = this.ctx;
    const p = this.unfinished;
    if (!p || ctx.working) return;
    ctx.setWorking(true);
    const status = ctx.el["refresh-status"];
    ctx.el["refresh-continue"].hidden = true;
    try {
      const engine = await ctx.engine();
      // The lists were fetched by the first part; the estimate without `refresh` counts what is still stale.
      const requests: CellRequest[] = p.plan.requests.filter((r) => r.kind !== "list");
      const estimate = engine.estimate(requests);
      const left = creditsLeft(ctx, engine);
      const rest = estimate.cells - estimate.cached - estimate.invalid;
      if (estimate.credits === 0) {
        this.unfinished = null;
        ctx.say(status, (l) => t(l, "refresh.continueNothing"), "info");
        return;
      }
      const next: Prepared = { ...p, plan: { ...p.plan, requests }, estimate, left };
      this.lastEstimate = next;
      renderEstimate(ctx, next);
      const yes = await this.confirm((l) =>
        t(l, "refresh.continueConfirm", {
          cells: count(rest, "cell", l),
          credits: estimate.exact
            ? count(estimate.credits, "credit", l)
            : t(l, "est.atMost", { credits: count(estimate.credits, "credit", l) }),
        }),
      );
      if (!yes) {
        ctx.el["refresh-continue"].hidden = false;
        ctx.say(status, (l) => t(l, "refresh.cancelled"), "info");
        return;
      }
      this.unfinished = null;
      await this.run(next, true);
    } catch (e) {
      status.dataset.outcome = "failed";
      ctx.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      ctx.el["refresh-progress"].hidden = true;
      ctx.setWorking(false);
    }
  }
}

/**
 * What a refresh may spend before it asks: for a person of a firm's server, what is left of HER
 * budget there (the server's /firm/me, as the usage section shows it), not of the plan behind it.
 */
function creditsLeft(ctx: PaneContext, engine: Parameters<PaneContext["view"]>[0]): number | null {
  return firmLink(ctx).me?.remaining ?? ctx.view(engine).left;
}
