/**
 * The pane's plan and usage section: the plan (chosen or detected), today's and the month's meters
 * with their warnings, the daily chart, what is left, the stop after "credits spent", the cache and
 * what batching saved. It also shows the credit guard's held burst (guard-section.ts), which usage reveals.
 * With a personal token of a firm's server (firm.ts), her monthly budget and spend from the server
 * take the plan's place (firm-usage.ts), asked again at every render (after a refresh, and when the
 * engine's usage changes).
 */
import type { FirmaEngine } from "../../engine/engine";
import { isPlanName } from "../../engine/credits/subscription-plans";
import { getSettings, saveSetting } from "../../shared/settings";
import { count, formatNumber, t, type TextKey } from "../i18n";
import type { PaneContext } from "./context";
import { firmLink } from "./firm";
import { renderFirmUsage } from "./firm-usage";
import { formatBytes, formatWhen } from "./format";
import type { GuardSection } from "./guard-section";
import { paintBar } from "./meter-bar";
import { renderUsageChart } from "./usage-chart";

/** What each cache problem means for the user (cache.ts reports them). */
const CACHE_PROBLEMS: Record<string, TextKey> = {
  full: "cache.full",
  write_failed: "cache.writeFailed",
  read_timeout: "cache.readTimeout",
  read_failed: "cache.readFailed",
};

export class UsageSection {
  private usageTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ctx: PaneContext,
    private readonly guard: GuardSection,
  ) {}

  async onPlanChange(): Promise<void> {
    const v = (this.ctx.el.plan as HTMLSelectElement).value;
    await saveSetting("plan", isPlanName(v) ? v : null);
    await this.renderUsage();
  }

  /** Shows the usage again soon: the engine's changes come in bursts, one render serves a burst. */
  scheduleUsage(): void {
    if (this.usageTimer) return;
    this.usageTimer = setTimeout(() => {
      this.usageTimer = null;
      void this.renderUsage();
    }, 50);
  }

  async renderUsage(): Promise<void> {
    const ctx = this.ctx;
    const el = ctx.el;
    let engine: FirmaEngine;
    try {
      engine = await ctx.engine();
    } catch {
      return;
    }
    const v = ctx.view(engine);
    const l = ctx.lang;
    (el.plan as HTMLSelectElement).value = getSettings().plan ?? "";
    el["plan-source"].textContent = v.detectedPlan
      ? t(l, "usage.detected", { plan: t(l, `plan.${v.detectedPlan}` as TextKey).split(" — ")[0] })
      : t(l, "usage.notDetected");

    const bar = (which: "today" | "month") => {
      const m = v[which];
      const text = el[`meter-${which}-text`];
      if (m.limit === null)
        text.textContent =
          which === "month" && v.plan === "free"
            ? t(l, "usage.freeMonth", { used: count(m.used, "credit", l) })
            : t(l, "usage.noLimit", { used: count(m.used, "credit", l) });
      else text.textContent = t(l, "usage.ofLimit", { used: formatNumber(m.used, l), limit: count(m.limit, "credit", l) });
      paintBar(el[`meter-${which}-bar`], m, text.textContent);
    };
    bar("today");
    bar("month");

    const warn = el["usage-warning"];
    if (v.warning) {
      const key = `usage.warn${v.warning.level}.${v.warning.period}` as TextKey;
      warn.hidden = false;
      warn.dataset.level = String(v.warning.level);
      ctx.show(warn, t(l, key, { pct: v.warning.pct }), v.warning.level === 100 ? "error" : "warn");
    } else {
      warn.hidden = true;
      delete warn.dataset.level;
      ctx.show(warn, "", "info");
    }

    renderUsageChart(ctx.doc, el["usage-chart"], el["chart-caption"], v, l);
    // A person of a firm's server: what is left is what is left of HER budget, as the server says.
    const firm = firmLink(ctx);
    const left = renderFirmUsage(ctx, firm.current()) ?? v.left;
    el["usage-left"].textContent = left === null ? t(l, "usage.unknown") : formatNumber(left, l);
    el["usage-left"].dataset.value = left === null ? "" : String(left);
    el["usage-service-row"].hidden = v.serviceRemaining === null;
    el["usage-service-remaining"].textContent = v.serviceRemaining === null ? "" : formatNumber(v.serviceRemaining, l);
    el["usage-cache"].textContent = formatNumber(v.cacheHits, l);
    this.renderStop(engine);
    this.guard.renderGuard(engine);
    this.renderCache(engine);
    el["usage-batching"].textContent = formatNumber(v.savedByBatching, l);
    el["usage-refused"].textContent = formatNumber(v.refused, l);
    firm.poke();
  }

  /** The stop after "credits spent": until when nothing is sent, and a way to try again now. */
  private renderStop(engine: FirmaEngine): void {
    const el = this.ctx.el;
    const stop = engine.credits().quotaStop();
    const box = el["quota-stop"];
    box.hidden = stop === null;
    if (stop === null) {
      delete box.dataset.until;
      el["quota-stop-text"].textContent = "";
      return;
    }
    box.dataset.until = String(stop.until);
    // A firm's server said whose limit it is: the person's budget there, or the firm's daily cap.
    const key = stop.firm === "budget" ? "usage.stopFirmBudget" : stop.firm === "day" ? "usage.stopFirmDay" : "usage.stop";
    el["quota-stop-text"].textContent = t(this.ctx.lang, key, { until: formatWhen(stop.until, this.ctx.lang) });
  }

  /** The cache's size, and its latest problem: answers it had to drop, or a store that failed. */
  private renderCache(engine: FirmaEngine): void {
    const ctx = this.ctx;
    const l = ctx.lang;
    const stats = engine.cacheStats();
    const size = ctx.el["usage-cache-size"];
    size.dataset.value = String(stats.entries);
    size.textContent = t(l, "usage.cacheSizeValue", {
      entries: formatNumber(stats.entries, l),
      size: formatBytes(stats.persistedBytes ?? stats.bytes, l),
    });
    const p = stats.problem;
    const box = ctx.el["cache-problem"];
    box.hidden = p === undefined;
    if (p === undefined) {
      delete box.dataset.kind;
      ctx.show(box, "", "info");
      return;
    }
    box.dataset.kind = p.kind;
    ctx.show(box, t(l, CACHE_PROBLEMS[p.kind] ?? "cache.writeFailed", { evicted: count(p.evicted ?? 0, "answer", l) }), "warn");
  }

  /** "Retry now": the user asks FIRMA to send again before the stop clears by itself. */
  async onRetryNow(): Promise<void> {
    const engine = await this.ctx.engine();
    engine.credits().clearQuotaStop();
    this.ctx.say(this.ctx.el["usage-status"], (l) => t(l, "usage.stopCleared"), "info");
    await this.renderUsage();
  }
}
