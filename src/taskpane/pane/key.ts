/**
 * The pane's API key section: save, show or hide, test and remove the key; after a save, the FIRMA
 * cells that show an error are recalculated.
 *
 * The API key is only ever in the masked input (until saved, then the field is cleared) and in the
 * add-in's storage (settings.ts). No message, attribute, log or URL here contains it.
 */
import type { PlanName } from "../../api/types";
import { isPlanName } from "../../engine/subscription-plans";
import { getApiKey, getSettings, saveApiKey } from "../../shared/settings";
import { count, formatNumber, t, type Lang, type TextKey } from "../i18n";
import { isBusyValue, planRefresh } from "../refresh-plan";
import { needsConfirmation } from "../usage";
import type { PaneContext, Render } from "./context";
import { rerun } from "./recalc";

export class KeySection {
  constructor(
    private readonly ctx: PaneContext,
    /** Shows the usage again (the key decides whose usage it is). */
    private readonly renderUsage: () => Promise<void>,
  ) {}

  get input(): HTMLInputElement {
    return this.ctx.el["api-key"] as HTMLInputElement;
  }

  renderKeyState(): void {
    const el = this.ctx.el;
    const has = getApiKey() !== null;
    el["key-state"].textContent = t(this.ctx.lang, has ? "key.stateSaved" : "key.stateNone");
    el["key-state"].classList.toggle("has-key", has);
    el["remove-key"].hidden = !has;
  }

  renderToggle(): void {
    const toggle = this.ctx.el["toggle-key"];
    const l = this.ctx.lang;
    const shown = this.input.type === "text";
    toggle.textContent = t(l, shown ? "key.hide" : "key.show");
    toggle.setAttribute("aria-label", t(l, shown ? "key.hideLabel" : "key.showLabel"));
    toggle.setAttribute("aria-pressed", String(shown));
  }

  onToggleKey(): void {
    this.input.type = this.input.type === "password" ? "text" : "password";
    this.renderToggle();
    this.input.focus();
  }

  /** Saves the typed key, clears the field, then recalculates the FIRMA cells that show errors. */
  async onSaveKey(): Promise<void> {
    const ctx = this.ctx;
    const typed = this.input.value.trim();
    const status = ctx.el["key-status"];
    if (!typed) {
      ctx.say(status, (l) => t(l, "key.typeFirst"), "warn");
      this.input.focus();
      return;
    }
    const button = ctx.el["save-key"] as HTMLButtonElement;
    button.disabled = true;
    try {
      await saveApiKey(typed);
    } catch {
      ctx.say(status, (l) => t(l, "key.storageFailed"), "error");
      return;
    } finally {
      button.disabled = false;
    }
    this.input.value = "";
    this.input.type = "password";
    this.renderToggle();
    this.renderKeyState();
    ctx.say(status, (l) => t(l, "key.saved"), "ok");
    await this.renderUsage();
    const after = await this.recalcFailedCells();
    if (after) ctx.say(status, (l) => `${t(l, "key.saved")} ${after(l)}`, "ok");
  }

  /**
   * After a key is saved: the FIRMA cells that show an error are recalculated. Those that failed
   * for a missing or invalid key have nothing cached, so they call the service; those whose error
   * is a cached answer (an unknown CUI) recalculate for free. Not when it would pass what is left.
   */
  async recalcFailedCells(): Promise<Render | null> {
    const ctx = this.ctx;
    const host = ctx.options.host;
    if (!host || ctx.working || host.support().refresh) return null;
    try {
      const scan = await host.scan("all");
      const failed = scan.cells.filter((c) => c.error && !isBusyValue(c.value));
      if (failed.length === 0) return null;
      const engine = await ctx.engine();
      const plan = planRefresh(failed, scan, { includeLists: true });
      const est = engine.estimate(plan.requests);
      const left = ctx.view(engine).left;
      if (needsConfirmation(est.credits, left)) {
        return (l) =>
          t(l, "key.recalcTooDear", {
            cells: count(failed.length, "firmaFormula", l),
            credits: count(est.credits, "credit", l),
            left: formatNumber(left!, l),
          });
      }
      await rerun(ctx, plan.toRecalculate, scan);
      return (l) => t(l, "key.recalc", { cells: count(failed.length, "firmaFormula", l), credits: count(est.credits, "credit", l) });
    } catch {
      return null;
    }
  }

  async onRemoveKey(): Promise<void> {
    const ctx = this.ctx;
    const status = ctx.el["key-status"];
    this.input.value = "";
    if (getApiKey() === null) {
      ctx.say(status, (l) => t(l, "key.nothingToRemove"), "info");
      return;
    }
    try {
      await saveApiKey(null);
    } catch {
      ctx.say(status, (l) => t(l, "key.storageFailed"), "error");
      return;
    }
    this.renderKeyState();
    ctx.say(status, (l) => t(l, "key.removed"), "ok");
    await this.renderUsage();
  }

  /** One call to the service with the typed key (or the saved one); says plainly what came back. */
  async onTestKey(): Promise<void> {
    const ctx = this.ctx;
    const status = ctx.el["key-status"];
    const key = this.input.value.trim() || getApiKey();
    if (!key) {
      ctx.say(status, (l) => t(l, "key.testNoKey"), "warn");
      return;
    }
    const button = ctx.el["test-key"] as HTMLButtonElement;
    button.disabled = true;
    ctx.say(status, (l) => t(l, "key.testing"), "info");
    const baseUrl = getSettings().baseUrl;
    try {
      const engine = await ctx.engine();
      let quota: { plan: string | null; remaining: number | null };
      try {
        quota = await engine.testKey(key);
      } catch (e) {
        if ((e as { kind?: unknown } | null)?.kind === "invalid_base_url") {
          ctx.say(status, (l) => t(l, "settings.badUrl"), "error");
          return;
        }
        throw e;
      }
      const plan: PlanName | null = isPlanName(quota.plan) ? quota.plan : null;
      const remaining = quota.remaining;
      const planText = (l: Lang) => (plan ? t(l, `plan.${plan}` as TextKey).split(" — ")[0] : t(l, "key.testPlanUnknown"));
      ctx.say(
        status,
        (l) =>
          remaining === null ? t(l, "key.testOk", { plan: planText(l) }) : t(l, "key.testOkRemaining", { plan: planText(l), remaining }),
        "ok",
      );
    } catch (e) {
      const kind = (e as { kind?: unknown } | null)?.kind;
      const texts: Record<string, Render> = {
        missing_key: (l) => t(l, "key.testNoKey"),
        invalid_key: (l) => t(l, "key.testInvalid"),
        credits_exhausted: (l) => t(l, "key.testExhausted"),
        network: (l) => t(l, "key.testNetwork", { url: baseUrl }),
        timeout: (l) => t(l, "key.testTimeout"),
        server: (l) => t(l, "key.testServer"),
      };
      ctx.say(status, texts[String(kind)] ?? ((l) => t(l, "key.testOther")), kind === "credits_exhausted" ? "warn" : "error");
    } finally {
      button.disabled = false;
      await this.renderUsage();
    }
  }
}
