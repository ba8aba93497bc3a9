/**
 * The pane's API key section: save, show or hide, test and remove the key; after a save, the FIRMA
 * cells that show an error are recalculated.
 *
 * The API key is only ever in the masked input (until saved, then the field is cleared) and in the
 * add-in's storage (settings.ts). No message, attribute, log or URL here contains it.
 *
 * A personal token of a firm's server (`firma_…`) goes in the same field: the pane then asks the
 * server who she is (firm.ts), says it is connected to the firm's server as her — or that the
 * server refuses the token — and a test asks the server rather than spending a credit.
 */
import type { PlanName } from "../../api/types";
import { kindOf, type FailureKind } from "../../engine/failures";
import { isPlanName } from "../../engine/credits/subscription-plans";
import { getApiKey, getSettings, saveApiKey } from "../../shared/settings";
import { count, formatNumber, t, type Lang, type TextKey } from "../i18n";
import { isBusyValue, planRefresh } from "../refresh-plan";
import { needsConfirmation } from "../usage";
import type { PaneContext, Render, Tone } from "./context";
import { askFirm, firmLink, looksLikeToken, type FirmState } from "./firm";
import { rerun } from "./recalc";

export class KeySection {
  constructor(
    private readonly ctx: PaneContext,
    /** Shows the usage again (the key decides whose usage it is). */
    private readonly renderUsage: () => Promise<void>,
  ) {
    firmLink(ctx).onChange(() => {
      this.renderKeyState();
      void this.renderUsage();
    });
  }

  get input(): HTMLInputElement {
    return this.ctx.el["api-key"] as HTMLInputElement;
  }

  renderKeyState(): void {
    const el = this.ctx.el;
    const l = this.ctx.lang;
    const has = getApiKey() !== null;
    const firm = firmLink(this.ctx).current();
    const state = el["key-state"];
    state.textContent = firm.kind === "none" ? t(l, has ? "key.stateSaved" : "key.stateNone") : firmText(firm)(l);
    state.classList.toggle("has-key", has);
    if (firm.kind === "none") delete state.dataset.firm;
    else state.dataset.firm = firm.kind;
    // The label says what the field takes: a key or a firm's token; the token, once the firm's server knows it.
    const label = this.ctx.doc.querySelector('label[for="api-key"]');
    if (label)
      label.textContent = t(
        l,
        firm.kind === "connected" ? "pane.firm.tokenLabel" : has && firm.kind === "none" ? "key.label" : "pane.firm.keyLabel",
      );
    el["remove-key"].hidden = !has;
    // With a firm's token the test asks the firm's server, which charges nothing: the button says so.
    el["test-key"].textContent = t(l, firm.kind === "none" ? "key.test" : "pane.firm.test");
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
    // A firm's token: the firm's server says whose it is before anything is recalculated with it.
    const firm = looksLikeToken(typed) ? await firmLink(ctx).check() : ({ kind: "none" } as const);
    this.renderKeyState();
    const saved: Render = firm.kind === "none" ? (l) => t(l, "key.saved") : (l) => `${t(l, "key.saved")} ${firmText(firm)(l)}`;
    const tone: Tone = firm.kind === "refused" ? "error" : firm.kind === "unreachable" ? "warn" : "ok";
    ctx.say(status, saved, tone);
    await this.renderUsage();
    if (firm.kind === "refused") return;
    const after = await this.recalcFailedCells();
    if (after) ctx.say(status, (l) => `${saved(l)} ${after(l)}`, tone);
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
    await firmLink(ctx).check();
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
      if (looksLikeToken(key) && (await this.testToken(key, baseUrl))) return;
      const engine = await ctx.engine();
      let quota: { plan: string | null; remaining: number | null };
      try {
        quota = await engine.testKey(key);
      } catch (e) {
        if (kindOf(e) === "invalid_base_url") {
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
      const kind = kindOf(e);
      const texts: Partial<Record<FailureKind, Render>> = {
        missing_key: (l) => t(l, "key.testNoKey"),
        invalid_key: (l) => t(l, "key.testInvalid"),
        credits_exhausted: (l) => t(l, "key.testExhausted"),
        network: (l) => t(l, "key.testNetwork", { url: baseUrl }),
        timeout: (l) => t(l, "key.testTimeout"),
        server: (l) => t(l, "key.testServer"),
      };
      ctx.say(status, (kind && texts[kind]) || ((l) => t(l, "key.testOther")), kind === "credits_exhausted" ? "warn" : "error");
    } finally {
      button.disabled = false;
      await this.renderUsage();
    }
  }

  /**
   * A token's test: the firm's server says whose it is and what is left of her budget (no credit
   * spent). False when the address is an ordinary service (no /firm/me): the key's test then runs.
   */
  private async testToken(key: string, baseUrl: string): Promise<boolean> {
    const ctx = this.ctx;
    const status = ctx.el["key-status"];
    const firm: FirmState = key === getApiKey() ? await firmLink(ctx).check() : await askFirm(key, baseUrl);
    if (firm.kind === "none") return false;
    if (firm.kind === "connected") {
      const { name, remaining, budget } = firm.me;
      ctx.say(
        status,
        (l) => t(l, "pane.firm.testOk", { name, remaining: formatNumber(remaining, l), budget: count(budget, "credit", l) }),
        "ok",
      );
    } else if (firm.kind === "refused") ctx.say(status, (l) => t(l, "pane.firm.testRefused"), "error");
    else ctx.say(status, (l) => t(l, "key.testNetwork", { url: baseUrl }), "error");
    return true;
  }
}

/** What the key's state says of a firm's server. */
function firmText(firm: Exclude<FirmState, { kind: "none" }>): Render {
  if (firm.kind === "connected") return (l) => t(l, "pane.firm.connected", { name: firm.me.name });
  return (l) => t(l, firm.kind === "refused" ? "pane.firm.refused" : "pane.firm.unreachable");
}
