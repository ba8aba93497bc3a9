/**
 * The pane's settings section: the form filled from the saved settings, checked (settings-form.ts)
 * and saved, and the saved settings handed to the engine.
 */
import type { FirmaEngine } from "../../engine/engine";
import { DEFAULT_BASE_URL, getSettings, languageFor, saveBaseUrl, saveGuardThreshold, saveSetting } from "../../shared/settings";
import { lastRegistrationFailure, registerWhereSupported } from "../../office/linked-support";
import { t, type Lang } from "../i18n";
import type { PaneContext } from "./context";
import type { Id } from "./elements";
import { CHECKED_FIELDS, parseSettingsForm, type CheckedField } from "./settings-form";

/** Each checked field's input, and whether it sits in the folded "advanced" part (opened to show it). */
const INPUTS: Record<CheckedField, { id: Id; advanced: boolean }> = {
  baseUrl: { id: "base-url", advanced: true },
  batchWindow: { id: "batch-window", advanced: true },
  guardThreshold: { id: "guard-threshold", advanced: false },
};

export class SettingsSection {
  constructor(
    private readonly ctx: PaneContext,
    /** Puts the pane in another language (when the saved choice changes it). */
    private readonly applyLanguage: (lang: Lang) => void,
  ) {}

  /** The texts of the form that name values: the default address, and the language "automatic" stands for. */
  renderTexts(lang: Lang): void {
    const el = this.ctx.el;
    el["base-url-hint"].textContent = t(lang, "settings.baseUrlHint", { url: DEFAULT_BASE_URL });
    el["language-auto"].textContent = t(lang, "settings.langAuto", {
      lang: t(lang, languageFor(this.ctx.options.displayLanguage) === "en" ? "lang.en" : "lang.ro"),
    });
  }

  fillSettingsForm(): void {
    const el = this.ctx.el;
    const s = getSettings();
    (el["base-url"] as HTMLInputElement).value = s.baseUrl === DEFAULT_BASE_URL ? "" : s.baseUrl;
    (el["base-url"] as HTMLInputElement).placeholder = DEFAULT_BASE_URL;
    (el.language as HTMLSelectElement).value = s.languageChoice ?? "auto";
    (el["batch-window"] as HTMLInputElement).value = String(s.batchWindowMs);
    (el["guard-threshold"] as HTMLInputElement).value = s.guardThreshold === null ? "" : String(s.guardThreshold);
    (el["linked-refresh"] as HTMLInputElement).checked = s.linkedRefresh === "onLoad";
  }

  /** The saved settings the engine holds (the address and the language are read at each call). */
  applySettings(engine: FirmaEngine): void {
    engine.configure({ guardThreshold: getSettings().guardThreshold, batchWindowMs: getSettings().batchWindowMs });
  }

  async onSaveSettings(): Promise<void> {
    const ctx = this.ctx;
    const el = ctx.el;
    const status = el["settings-status"];
    const parsed = parseSettingsForm({
      baseUrl: (el["base-url"] as HTMLInputElement).value,
      batchWindow: (el["batch-window"] as HTMLInputElement).value,
      language: (el.language as HTMLSelectElement).value,
      guardThreshold: (el["guard-threshold"] as HTMLInputElement).value,
      linkedRefresh: (el["linked-refresh"] as HTMLInputElement).checked ? "onLoad" : "manual",
    });
    // The first wrong field is named, marked and focused; the fields before it are marked right.
    for (const field of CHECKED_FIELDS) {
      const input = el[INPUTS[field].id];
      const error = parsed.ok ? undefined : parsed.errors[field];
      if (error === undefined) {
        input.removeAttribute("aria-invalid");
        continue;
      }
      ctx.say(status, (l) => t(l, error), "error");
      input.setAttribute("aria-invalid", "true");
      if (INPUTS[field].advanced) (el["advanced-settings"] as HTMLDetailsElement).open = true;
      input.focus();
      return;
    }
    if (!parsed.ok) return;
    const s = parsed.settings;
    try {
      await saveBaseUrl(s.baseUrl);
      await saveSetting("batchWindowMs", s.batchWindowMs);
      await saveSetting("language", s.language);
      await saveGuardThreshold(s.guardThreshold);
      const linkedChanged = s.linkedRefresh !== getSettings().linkedRefresh;
      await saveSetting("linkedRefresh", s.linkedRefresh);
      // The Company domain follows the choice where this Excel has it (its supported modes are fixed when added).
      if (linkedChanged) await registerWhereSupported();
    } catch {
      ctx.say(status, (l) => t(l, "settings.failed"), "error");
      return;
    }
    this.fillSettingsForm();
    try {
      this.applySettings(await ctx.engine());
    } catch {
      /* no engine yet: start() applies the saved threshold when it makes one */
    }
    const refused = lastRegistrationFailure();
    if (refused) ctx.say(status, (l) => t(l, "settings.linkedFailed", { code: refused.code, message: refused.message }), "warn");
    else ctx.say(status, (l) => t(l, "settings.saved"), "ok");
    if (getSettings().language !== ctx.lang) this.applyLanguage(getSettings().language);
  }
}
