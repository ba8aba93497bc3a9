/**
 * The task pane's logic: the key, plan and usage, refresh with its cost shown first, freeze to
 * values, settings and help. `startPane` wires a document; the handlers are methods of `Pane`, so
 * tests can drive them. The workbook is reached only through a `WorkbookHost` (excel.ts in Excel,
 * a stand-in in tests, null in a plain browser, where refresh and freeze are switched off).
 *
 * The API key is only ever in the masked input (until saved, then the field is cleared) and in the
 * add-in's storage (settings.ts). No message, attribute, log or URL here contains it.
 */
import type { PlanName } from "../api/types";
import { getValidBaseUrl } from "../api/options";
import type { Change, CellRequest, Estimate, FirmaEngine, PrefetchReport } from "../engine/engine";
import { isPlanName } from "../engine/plans";
import { changeTable } from "../shared/changes-table";
import { getEngine } from "../shared/engine-instance";
import type { CellsState, Scope, WorkbookHost, WorkbookScan } from "./excel";
import { renderHelp } from "./help";
import { applyTexts, count, formatNumber, t, type Lang, type TextKey } from "./i18n";
import { isBusyValue, planRefresh, type CellValues, type FormulaCell, type RefreshPlan } from "./refresh";
import { expectRuns, notRun } from "./rerun";
import { closeWatch, openWatch } from "../shared/invocations";
import {
  DEFAULT_BASE_URL,
  getApiKey,
  getSettings,
  languageFor,
  loadSettings,
  saveApiKey,
  saveBaseUrl,
  saveGuardThreshold,
  saveSetting,
  setDisplayLanguage,
  type Language,
} from "../shared/settings";
import { needsConfirmation, usageView, type UsageView } from "./usage";

export interface PaneOptions {
  /** The workbook, or null outside Excel. */
  host: WorkbookHost | null;
  /** Office's display language (Office.context.displayLanguage), if known. */
  displayLanguage?: string | null;
  /** The shared engine. @default getEngine (src/shared/engine-instance.ts) */
  engine?: () => Promise<FirmaEngine>;
  /** Longest wait for Excel to finish recalculating after a refresh. @default 120000 */
  refreshTimeoutMs?: number;
  /** How often the refresh looks at the cells while they calculate. @default 250 */
  pollMs?: number;
}

const IDS = [
  "pane",
  "app-status",
  "guard-box",
  "guard-text",
  "guard-fill",
  "guard-dismiss",
  "guard-status",
  "key-form",
  "api-key",
  "toggle-key",
  "key-state",
  "save-key",
  "test-key",
  "remove-key",
  "key-status",
  "plan",
  "plan-source",
  "meter-today",
  "meter-today-text",
  "meter-today-bar",
  "meter-month",
  "meter-month-text",
  "meter-month-bar",
  "usage-warning",
  "quota-stop",
  "quota-stop-text",
  "quota-retry",
  "usage-status",
  "cache-problem",
  "usage-cache-size",
  "chart-caption",
  "usage-chart",
  "usage-left",
  "usage-service-row",
  "usage-service-remaining",
  "usage-cache",
  "usage-batching",
  "usage-refused",
  "excel-only",
  "refresh-scope",
  "estimate",
  "refresh",
  "estimate-box",
  "est-formulas",
  "est-cuis",
  "est-batches",
  "est-credits",
  "est-left",
  "est-notes",
  "refresh-confirm",
  "refresh-confirm-text",
  "refresh-yes",
  "refresh-no",
  "refresh-progress",
  "refresh-status",
  "refresh-continue",
  "changes-box",
  "changes-summary",
  "changes-rows",
  "changes-more",
  "changes-write",
  "changes-status",
  "freeze",
  "freeze-confirm",
  "freeze-yes",
  "freeze-no",
  "freeze-status",
  "freeze-cards-note",
  "settings-form",
  "advanced-settings",
  "base-url",
  "base-url-hint",
  "language",
  "language-auto",
  "batch-window",
  "guard-threshold",
  "settings-status",
  "help-list",
] as const;
type Id = (typeof IDS)[number];
export type PaneElements = Record<Id, HTMLElement>;

/** The pane's elements, or null when the page is not the pane. */
export function findElements(doc: Document): PaneElements | null {
  const out = {} as PaneElements;
  for (const id of IDS) {
    const el = doc.getElementById(id);
    if (!el) return null;
    out[id] = el;
  }
  return out;
}

type Tone = "info" | "ok" | "warn" | "error";
type Render = (lang: Lang) => string;

interface Prepared {
  scope: Scope;
  scan: WorkbookScan;
  plan: RefreshPlan;
  estimate: Estimate;
  left: number | null;
  /** How old the cached answers behind these cells are (issue 11: the age of the workbook's data). */
  age: { oldest: number | null; newest: number | null; cached: number; missing: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * How long Excel gets to start running the functions after Range.calculate before the formulas it has
 * not run are entered again: RERUN_WAIT_MS, plus RERUN_PER_CELL_MS for each cell asked (a large sheet on
 * the web is slow to start); and RERUN_WAIT_MS after the latest run while runs keep coming.
 */
const RERUN_WAIT_MS = 5_000;
const RERUN_PER_CELL_MS = 1;
/** The longest the first runs are waited for, however many cells (then: as long as runs keep coming). */
const RERUN_WAIT_MAX_MS = 60_000;

/** The most changes listed in the pane; all of them go to the sheet. */
const CHANGES_SHOWN = 50;

/** Why answers of a refresh failed, by error kind (the engine's kinds; anything else is "other"). */
const CAUSES: Record<string, TextKey> = {
  network: "cause.network",
  timeout: "cause.timeout",
  server: "cause.server",
  credits_exhausted: "cause.creditsExhausted",
  budget_reached: "cause.budgetReached",
  invalid_key: "cause.invalidKey",
  missing_key: "cause.missingKey",
  rate_limited: "cause.rateLimited",
};

/** What each cache problem means for the user (cache.ts reports them). */
const CACHE_PROBLEMS: Record<string, TextKey> = {
  full: "cache.full",
  write_failed: "cache.writeFailed",
  read_timeout: "cache.readTimeout",
  read_failed: "cache.readFailed",
};

/** The causes of failed answers, commonest first, in words. */
function causeText(failed: Record<string, number>, l: Lang): string {
  const keys = Object.entries(failed)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([kind]) => CAUSES[kind] ?? "cause.other");
  return [...new Set(keys)].map((k) => t(l, k)).join("; ");
}

/** A moment as the user reads it, in Romanian time (where the service's days turn over). */
function formatWhen(ms: number, l: Lang): string {
  return new Intl.DateTimeFormat(l === "ro" ? "ro-RO" : "en-GB", {
    timeZone: "Europe/Bucharest",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(ms));
}

/** "2,1 MB" / "2.1 MB", or kB below a megabyte. */
function formatBytes(bytes: number, l: Lang): string {
  const mb = bytes >= 1e6;
  const n = new Intl.NumberFormat(l === "ro" ? "ro-RO" : "en-US", { maximumFractionDigits: 1 }).format(mb ? bytes / 1e6 : bytes / 1e3);
  return `${n} ${mb ? "MB" : "kB"}`;
}

/** A short code for a workbook failure (OfficeExtension.Error has one); never a message that could carry data. */
function failureCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[A-Za-z]{1,60}$/.test(code) ? code : "Error";
}

export class Pane {
  lang: Lang = "ro";
  private engineP: Promise<FirmaEngine> | null = null;
  private readonly messages = new Map<HTMLElement, { render: Render; tone: Tone }>();
  private usageTimer: ReturnType<typeof setTimeout> | null = null;
  private lastEstimate: Prepared | null = null;
  private working = false;
  private confirmAnswer: ((yes: boolean) => void) | null = null;
  /** A refresh the confirmed budget did not cover entirely: what "Continue" offers to finish. */
  private unfinished: Prepared | null = null;
  /** The watch's mark taken when the last refresh began, and what that refresh found changed. */
  private changesMark: number | null = null;
  private lastChanges: Change[] | null = null;
  private readonly timeoutMs: number;
  private readonly pollMs: number;

  constructor(
    readonly doc: Document,
    readonly el: PaneElements,
    readonly options: PaneOptions,
  ) {
    this.timeoutMs = options.refreshTimeoutMs ?? 120_000;
    this.pollMs = options.pollMs ?? 250;
  }

  engine(): Promise<FirmaEngine> {
    if (!this.engineP) {
      this.engineP = (this.options.engine ?? getEngine)();
      this.engineP.catch(() => (this.engineP = null));
    }
    return this.engineP;
  }

  get input(): HTMLInputElement {
    return this.el["api-key"] as HTMLInputElement;
  }

  // ---- start --------------------------------------------------------------------------------

  async start(): Promise<void> {
    this.wire();
    setDisplayLanguage(this.options.displayLanguage);
    try {
      await loadSettings();
    } catch {
      this.applyLanguage(getSettings().language);
      this.say(this.el["app-status"], (l) => t(l, "app.loadFailed"), "error");
      this.el["app-status"].hidden = false;
      this.el.pane.setAttribute("aria-busy", "false");
      return;
    }
    this.applyLanguage(getSettings().language);
    this.fillSettingsForm();
    const inExcel = this.options.host !== null;
    this.el["excel-only"].hidden = inExcel;
    for (const id of ["estimate", "refresh", "freeze"] as const) (this.el[id] as HTMLButtonElement).disabled = !inExcel;
    this.el["refresh-scope"].toggleAttribute("disabled", !inExcel);
    this.applySupport();
    try {
      const engine = await this.engine();
      // The functions runtime makes the engine without the user's threshold (it would start with the
      // guard off): the pane sets it as soon as it runs, and again whenever it is saved.
      this.applySettings(engine);
      engine.onChange(() => this.scheduleUsage());
      engine.cache.onProblem(() => this.scheduleUsage());
    } catch {
      /* the usage shows zeros; the functions will say what is wrong */
    }
    await this.renderUsage();
    this.el.pane.setAttribute("aria-busy", "false");
  }

  private wire(): void {
    const on = (id: Id, type: string, handler: (e: Event) => unknown) =>
      this.el[id].addEventListener(type, (e) => {
        if (type === "submit") e.preventDefault();
        void this.track(handler(e));
      });
    on("key-form", "submit", () => this.onSaveKey());
    on("toggle-key", "click", () => this.onToggleKey());
    on("test-key", "click", () => this.onTestKey());
    on("remove-key", "click", () => this.onRemoveKey());
    on("plan", "change", () => this.onPlanChange());
    on("estimate", "click", () => this.onEstimate());
    on("refresh", "click", () => this.onRefresh());
    on("refresh-yes", "click", () => this.answer(true));
    on("refresh-no", "click", () => this.answer(false));
    on("refresh-continue", "click", () => this.onContinue());
    on("changes-write", "click", () => this.onWriteChanges());
    on("guard-fill", "click", () => this.onGuardFill());
    on("guard-dismiss", "click", () => this.onGuardDismiss());
    on("quota-retry", "click", () => this.onRetryNow());
    // Escape closes an open confirmation with its safe answer (issue 12), wherever the focus is.
    this.doc.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      if (!this.el["refresh-confirm"].hidden) {
        e.preventDefault();
        this.answer(false);
      } else if (!this.el["freeze-confirm"].hidden) {
        e.preventDefault();
        this.onFreezeCancelled();
      }
    });
    on("freeze", "click", () => this.onFreeze());
    on("freeze-yes", "click", () => this.onFreezeConfirmed());
    on("freeze-no", "click", () => this.onFreezeCancelled());
    on("settings-form", "submit", () => this.onSaveSettings());
  }

  private running = 0;

  /** While handlers run, the pane is marked `data-busy="true"` (tests wait for it to clear). */
  async track(work: unknown): Promise<void> {
    this.running++;
    this.el.pane.dataset.busy = "true";
    try {
      await work;
    } catch {
      // The handlers say what went wrong themselves; this is for what they did not foresee.
      this.say(this.el["app-status"], (l) => t(l, "app.unexpected"), "error");
      this.el["app-status"].hidden = false;
    } finally {
      if (--this.running === 0) this.el.pane.dataset.busy = "false";
    }
  }

  // ---- language and messages -------------------------------------------------------------------

  applyLanguage(lang: Lang): void {
    this.lang = lang;
    applyTexts(this.doc, lang);
    this.renderKeyState();
    this.renderToggle();
    renderHelp(this.el["help-list"], lang);
    this.el["base-url-hint"].textContent = t(lang, "settings.baseUrlHint", { url: DEFAULT_BASE_URL });
    this.el["language-auto"].textContent = t(lang, "settings.langAuto", {
      lang: t(lang, languageFor(this.options.displayLanguage) === "en" ? "lang.en" : "lang.ro"),
    });
    for (const [el, m] of this.messages) this.show(el, m.render(lang), m.tone);
    if (this.lastEstimate) this.renderEstimate(this.lastEstimate);
    this.renderChanges();
    void this.renderUsage();
  }

  /** Shows a message (kept as a renderer, so it follows a change of language). */
  say(el: HTMLElement, render: Render, tone: Tone = "info"): void {
    this.messages.set(el, { render, tone });
    this.show(el, render(this.lang), tone);
  }

  private show(el: HTMLElement, text: string, tone: Tone): void {
    el.textContent = text;
    el.classList.remove("info", "ok", "warn", "error");
    if (text) el.classList.add(tone);
  }

  private clear(el: HTMLElement): void {
    this.messages.delete(el);
    this.show(el, "", "info");
  }

  // ---- the key ----------------------------------------------------------------------------------

  renderKeyState(): void {
    const has = getApiKey() !== null;
    this.el["key-state"].textContent = t(this.lang, has ? "key.stateSaved" : "key.stateNone");
    this.el["key-state"].classList.toggle("has-key", has);
    this.el["remove-key"].hidden = !has;
  }

  private renderToggle(): void {
    const shown = this.input.type === "text";
    this.el["toggle-key"].textContent = t(this.lang, shown ? "key.hide" : "key.show");
    this.el["toggle-key"].setAttribute("aria-label", t(this.lang, shown ? "key.hideLabel" : "key.showLabel"));
    this.el["toggle-key"].setAttribute("aria-pressed", String(shown));
  }

  onToggleKey(): void {
    this.input.type = this.input.type === "password" ? "text" : "password";
    this.renderToggle();
    this.input.focus();
  }

  /** Saves the typed key, clears the field, then recalculates the FIRMA cells that show errors. */
  async onSaveKey(): Promise<void> {
    const typed = this.input.value.trim();
    const status = this.el["key-status"];
    if (!typed) {
      this.say(status, (l) => t(l, "key.typeFirst"), "warn");
      this.input.focus();
      return;
    }
    const button = this.el["save-key"] as HTMLButtonElement;
    button.disabled = true;
    try {
      await saveApiKey(typed);
    } catch {
      this.say(status, (l) => t(l, "key.storageFailed"), "error");
      return;
    } finally {
      button.disabled = false;
    }
    this.input.value = "";
    this.input.type = "password";
    this.renderToggle();
    this.renderKeyState();
    this.say(status, (l) => t(l, "key.saved"), "ok");
    await this.renderUsage();
    const after = await this.recalcFailedCells();
    if (after) this.say(status, (l) => `${t(l, "key.saved")} ${after(l)}`, "ok");
  }

  /**
   * After a key is saved: the FIRMA cells that show an error are recalculated. Those that failed
   * for a missing or invalid key have nothing cached, so they call the service; those whose error
   * is a cached answer (an unknown CUI) recalculate for free. Not when it would pass what is left.
   */
  async recalcFailedCells(): Promise<Render | null> {
    const host = this.options.host;
    if (!host || this.working || host.support().refresh) return null;
    try {
      const scan = await host.scan("all");
      const failed = scan.cells.filter((c) => c.error && !isBusyValue(c.value));
      if (failed.length === 0) return null;
      const engine = await this.engine();
      const plan = planRefresh(failed, scan, { includeLists: true });
      const est = engine.estimate(plan.requests);
      const left = this.view(engine).left;
      if (needsConfirmation(est.credits, left)) {
        return (l) =>
          t(l, "key.recalcTooDear", {
            cells: count(failed.length, "firmaFormula", l),
            credits: count(est.credits, "credit", l),
            left: formatNumber(left!, l),
          });
      }
      await this.rerun(plan.toRecalculate, scan);
      return (l) => t(l, "key.recalc", { cells: count(failed.length, "firmaFormula", l), credits: count(est.credits, "credit", l) });
    } catch {
      return null;
    }
  }

  async onRemoveKey(): Promise<void> {
    const status = this.el["key-status"];
    this.input.value = "";
    if (getApiKey() === null) {
      this.say(status, (l) => t(l, "key.nothingToRemove"), "info");
      return;
    }
    try {
      await saveApiKey(null);
    } catch {
      this.say(status, (l) => t(l, "key.storageFailed"), "error");
      return;
    }
    this.renderKeyState();
    this.say(status, (l) => t(l, "key.removed"), "ok");
    await this.renderUsage();
  }

  /** One call to the service with the typed key (or the saved one); says plainly what came back. */
  async onTestKey(): Promise<void> {
    const status = this.el["key-status"];
    const key = this.input.value.trim() || getApiKey();
    if (!key) {
      this.say(status, (l) => t(l, "key.testNoKey"), "warn");
      return;
    }
    const button = this.el["test-key"] as HTMLButtonElement;
    button.disabled = true;
    this.say(status, (l) => t(l, "key.testing"), "info");
    const baseUrl = getSettings().baseUrl;
    try {
      const engine = await this.engine();
      let quota: { plan: string | null; remaining: number | null };
      try {
        quota = await engine.testKey(key);
      } catch (e) {
        if ((e as { kind?: unknown } | null)?.kind === "invalid_base_url") {
          this.say(status, (l) => t(l, "settings.badUrl"), "error");
          return;
        }
        throw e;
      }
      const plan: PlanName | null = isPlanName(quota.plan) ? quota.plan : null;
      const remaining = quota.remaining;
      const planText = (l: Lang) => (plan ? t(l, `plan.${plan}` as TextKey).split(" — ")[0] : t(l, "key.testPlanUnknown"));
      this.say(
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
      this.say(status, texts[String(kind)] ?? ((l) => t(l, "key.testOther")), kind === "credits_exhausted" ? "warn" : "error");
    } finally {
      button.disabled = false;
      await this.renderUsage();
    }
  }

  // ---- plan and usage ---------------------------------------------------------------------------

  private view(engine: FirmaEngine): UsageView {
    return usageView(engine.usage(), getSettings().plan);
  }

  async onPlanChange(): Promise<void> {
    const v = (this.el.plan as HTMLSelectElement).value;
    await saveSetting("plan", isPlanName(v) ? v : null);
    await this.renderUsage();
  }

  private scheduleUsage(): void {
    if (this.usageTimer) return;
    this.usageTimer = setTimeout(() => {
      this.usageTimer = null;
      void this.renderUsage();
    }, 50);
  }

  async renderUsage(): Promise<void> {
    let engine: FirmaEngine;
    try {
      engine = await this.engine();
    } catch {
      return;
    }
    const v = this.view(engine);
    const l = this.lang;
    (this.el.plan as HTMLSelectElement).value = getSettings().plan ?? "";
    this.el["plan-source"].textContent = v.detectedPlan
      ? t(l, "usage.detected", { plan: t(l, `plan.${v.detectedPlan}` as TextKey).split(" — ")[0] })
      : t(l, "usage.notDetected");

    const bar = (which: "today" | "month") => {
      const m = v[which];
      const text = this.el[`meter-${which}-text`];
      const barEl = this.el[`meter-${which}-bar`];
      const fill = barEl.firstElementChild as HTMLElement;
      barEl.dataset.used = String(m.used);
      if (m.limit === null) {
        text.textContent =
          which === "month" && v.plan === "free"
            ? t(l, "usage.freeMonth", { used: count(m.used, "credit", l) })
            : t(l, "usage.noLimit", { used: count(m.used, "credit", l) });
        barEl.hidden = true;
        barEl.removeAttribute("aria-valuemax");
        delete barEl.dataset.limit;
      } else {
        text.textContent = t(l, "usage.ofLimit", { used: formatNumber(m.used, l), limit: count(m.limit, "credit", l) });
        barEl.hidden = false;
        barEl.dataset.limit = String(m.limit);
        barEl.setAttribute("aria-valuemax", String(m.limit));
        barEl.setAttribute("aria-valuetext", text.textContent);
        // a sliver as soon as anything is used, so that the bar never looks empty when it is not
        fill.style.width = `${Math.min(100, Math.max(m.pct ?? 0, m.used > 0 ? 1 : 0))}%`;
        barEl.classList.toggle("warn", (m.pct ?? 0) >= 80 && (m.pct ?? 0) < 100);
        barEl.classList.toggle("full", (m.pct ?? 0) >= 100);
      }
      barEl.setAttribute("aria-valuenow", String(m.used));
    };
    bar("today");
    bar("month");

    const warn = this.el["usage-warning"];
    if (v.warning) {
      const key = `usage.warn${v.warning.level}.${v.warning.period}` as TextKey;
      warn.hidden = false;
      warn.dataset.level = String(v.warning.level);
      this.show(warn, t(l, key, { pct: v.warning.pct }), v.warning.level === 100 ? "error" : "warn");
    } else {
      warn.hidden = true;
      delete warn.dataset.level;
      this.show(warn, "", "info");
    }

    this.renderChart(v);
    this.el["usage-left"].textContent = v.left === null ? t(l, "usage.unknown") : formatNumber(v.left, l);
    this.el["usage-left"].dataset.value = v.left === null ? "" : String(v.left);
    this.el["usage-service-row"].hidden = v.serviceRemaining === null;
    this.el["usage-service-remaining"].textContent = v.serviceRemaining === null ? "" : formatNumber(v.serviceRemaining, l);
    this.el["usage-cache"].textContent = formatNumber(v.cacheHits, l);
    this.renderStop(engine);
    this.renderGuard(engine);
    this.renderCache(engine);
    this.el["usage-batching"].textContent = formatNumber(v.savedByBatching, l);
    this.el["usage-refused"].textContent = formatNumber(v.refused, l);
  }

  /** The stop after "credits spent": until when nothing is sent, and a way to try again now. */
  private renderStop(engine: FirmaEngine): void {
    const stop = engine.quotaStop();
    const box = this.el["quota-stop"];
    box.hidden = stop === null;
    if (stop === null) {
      delete box.dataset.until;
      this.el["quota-stop-text"].textContent = "";
      return;
    }
    box.dataset.until = String(stop.until);
    this.el["quota-stop-text"].textContent = t(this.lang, "usage.stop", { until: formatWhen(stop.until, this.lang) });
  }

  /** The burst the credit guard holds, with the question it waits on. */
  private renderGuard(engine: FirmaEngine): void {
    const held = engine.heldBurst();
    const box = this.el["guard-box"];
    box.hidden = held === null;
    if (held === null) {
      delete box.dataset.cells;
      delete box.dataset.credits;
      return;
    }
    const l = this.lang;
    box.dataset.cells = String(held.cells);
    box.dataset.credits = String(held.calls);
    this.el["guard-text"].textContent = t(l, "guard.held", {
      cells: count(held.cells, "cell", l),
      credits: count(held.calls, "credit", l),
      limit: count(engine.guard.limit ?? 0, "credit", l),
    });
  }

  /** The cache's size, and its latest problem: answers it had to drop, or a store that failed. */
  private renderCache(engine: FirmaEngine): void {
    const l = this.lang;
    const stats = engine.cache.stats();
    const size = this.el["usage-cache-size"];
    size.dataset.value = String(stats.entries);
    size.textContent = t(l, "usage.cacheSizeValue", {
      entries: formatNumber(stats.entries, l),
      size: formatBytes(stats.persistedBytes ?? stats.bytes, l),
    });
    const p = engine.cache.problems.at(-1);
    const box = this.el["cache-problem"];
    box.hidden = p === undefined;
    if (p === undefined) {
      delete box.dataset.kind;
      this.show(box, "", "info");
      return;
    }
    box.dataset.kind = p.kind;
    this.show(box, t(l, CACHE_PROBLEMS[p.kind] ?? "cache.writeFailed", { evicted: count(p.evicted ?? 0, "answer", l) }), "warn");
  }

  /** "Retry now": the user asks FIRMA to send again before the stop clears by itself. */
  async onRetryNow(): Promise<void> {
    const engine = await this.engine();
    engine.clearQuotaStop();
    this.say(this.el["usage-status"], (l) => t(l, "usage.stopCleared"), "info");
    await this.renderUsage();
  }

  /** The saved settings the engine holds (the address and the language are read at each call). */
  private applySettings(engine: FirmaEngine): void {
    engine.setGuardThreshold(getSettings().guardThreshold);
    engine.setBatchWindow(getSettings().batchWindowMs);
  }

  // ---- the credit guard -------------------------------------------------------------------------

  /**
   * "Completează": the held burst is confirmed, then every FIRMA cell of the workbook is
   * recalculated — the held ones go to the service (the confirmed burst passes), the others are
   * answered from the cache at no cost.
   */
  async onGuardFill(): Promise<void> {
    const status = this.el["guard-status"];
    const engine = await this.engine();
    engine.confirmHeld();
    this.el["guard-box"].hidden = true;
    const host = this.options.host;
    if (!host || this.working || host.support().refresh) {
      // Outside Excel, in an Excel the pane cannot read (see applySupport), or while a refresh
      // recalculates: the next calculation of the cells fetches them.
      this.clear(status);
      return;
    }
    this.setWorking(true);
    const before = engine.usage().month;
    try {
      this.say(status, (l) => t(l, "guard.filling"), "info");
      const scan = await host.scan("all");
      const cells = planRefresh(scan.cells, scan, { includeLists: true }).toRecalculate;
      await this.rerun(cells, scan);
      const state = await this.settle(cells);
      const spent = Math.max(0, engine.usage().month - before);
      const errors = state.errors;
      this.say(
        status,
        (l) =>
          [t(l, "guard.filled", { spent }), errors > 0 ? t(l, "guard.filledErrors", { cells: count(errors, "cell", l) }) : ""]
            .join(" ")
            .trim(),
        errors > 0 ? "warn" : "ok",
      );
      status.dataset.spent = String(spent);
    } catch (e) {
      this.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      this.setWorking(false);
      await this.renderUsage();
    }
  }

  /** "Renunță": the held cells keep their message; nothing is spent. */
  async onGuardDismiss(): Promise<void> {
    const engine = await this.engine();
    engine.guard.dismiss();
    this.say(this.el["guard-status"], (l) => t(l, "guard.dismissed"), "info");
    await this.renderUsage();
  }

  /**
   * Makes Excel run the FIRMA functions of `cells` again: Range.calculate, then the evidence that it
   * did, cell by cell (rerun.ts: the invocations the functions record while the pane watches). No
   * page promises that Range.calculate re-runs a custom function whose arguments did not change, and
   * Excel on the web may be slow to start: the pane waits RERUN_WAIT_MS plus RERUN_PER_CELL_MS a cell
   * for the first runs, and as long as runs keep coming (RERUN_WAIT_MS after the latest), then enters
   * again only the formulas Excel did not run. `values`: what the cells' references hold (the scan).
   */
  private async rerun(cells: readonly FormulaCell[], values: CellValues): Promise<"calculate" | "reentered"> {
    const host = this.options.host!;
    if (cells.length === 0) return "calculate";
    const expected = expectRuns(cells, values);
    const watch = openWatch();
    try {
      await host.recalculate(cells);
      let deadline = Date.now() + Math.min(RERUN_WAIT_MAX_MS, RERUN_WAIT_MS + cells.length * RERUN_PER_CELL_MS);
      let seen = 0;
      for (;;) {
        if (watch.total >= cells.length && notRun(expected, watch).length === 0) return "calculate";
        if (Date.now() >= deadline) break;
        await sleep(Math.min(this.pollMs, 50));
        if (watch.total !== seen) {
          seen = watch.total;
          deadline = Math.max(deadline, Date.now() + RERUN_WAIT_MS);
        }
      }
      const left = notRun(expected, watch);
      if (left.length === 0) return "calculate";
      await host.reenter(left);
      return "reentered";
    } finally {
      closeWatch(watch);
    }
  }

  private async settle(cells: readonly FormulaCell[], progress?: (state: CellsState) => void): Promise<CellsState> {
    const host = this.options.host!;
    const deadline = Date.now() + this.timeoutMs;
    let state = await host.state(cells);
    while (state.busy > 0 && Date.now() < deadline) {
      progress?.(state);
      await sleep(this.pollMs);
      state = await host.state(cells);
    }
    return state;
  }

  private renderChart(v: UsageView): void {
    const box = this.el["usage-chart"];
    const NS = "http://www.w3.org/2000/svg";
    const w = 8;
    const gap = 2;
    const h = 48;
    const width = v.daysInMonth * (w + gap);
    const max = Math.max(1, ...v.daily.map((d) => d.credits));
    const svg = this.doc.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${h + 12}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("preserveAspectRatio", "none");
    const used = v.daily.filter((d) => d.credits > 0);
    const label = used.length
      ? t(this.lang, "usage.chartLabel", { max: Math.max(...used.map((d) => d.credits)), today: v.daily[v.dayOfMonth - 1]?.credits ?? 0 })
      : t(this.lang, "usage.chartEmpty");
    svg.setAttribute("aria-label", label);
    this.el["chart-caption"].textContent = label;
    const base = this.doc.createElementNS(NS, "line");
    Object.entries({ x1: 0, x2: width, y1: h + 0.5, y2: h + 0.5, class: "axis" }).forEach(([k, val]) => base.setAttribute(k, String(val)));
    svg.append(base);
    for (const d of v.daily) {
      const x = (d.day - 1) * (w + gap) + gap / 2;
      const bh = d.credits > 0 ? Math.max(2, Math.round((d.credits / max) * h)) : 0;
      const r = this.doc.createElementNS(NS, "rect");
      Object.entries({
        x,
        y: h - bh,
        width: w,
        height: bh,
        class: d.day === v.dayOfMonth ? "day today" : d.day > v.dayOfMonth ? "day future" : "day",
      }).forEach(([k, val]) => r.setAttribute(k, String(val)));
      r.dataset.day = String(d.day);
      r.dataset.credits = String(d.credits);
      svg.append(r);
      if (d.day === 1 || d.day === v.dayOfMonth || d.day === v.daysInMonth) {
        const tx = this.doc.createElementNS(NS, "text");
        Object.entries({ x: x + w / 2, y: h + 11, class: "tick" }).forEach(([k, val]) => tx.setAttribute(k, String(val)));
        tx.textContent = String(d.day);
        svg.append(tx);
      }
    }
    box.replaceChildren(svg);
  }

  // ---- refresh ----------------------------------------------------------------------------------

  private scope(): Scope {
    const checked = this.el["refresh-scope"].querySelector<HTMLInputElement>("input[name=scope]:checked");
    return checked?.value === "selection" ? "selection" : "all";
  }

  private setWorking(on: boolean): void {
    this.working = on;
    for (const id of ["estimate", "refresh", "freeze", "refresh-continue", "guard-fill"] as const)
      (this.el[id] as HTMLButtonElement).disabled = on || (id !== "guard-fill" && !this.options.host);
    this.applySupport(false);
  }

  /**
   * What this Excel lacks (ExcelApi sets checked at run time, docs/excel.md): the parts that need
   * it are disabled and say which set is missing; the functions in cells are not affected.
   */
  private applySupport(tell = true): void {
    const support = this.options.host?.support();
    if (!support) return;
    if (support.refresh) {
      for (const id of ["estimate", "refresh", "refresh-continue"] as const) (this.el[id] as HTMLButtonElement).disabled = true;
      const set = support.refresh;
      if (tell) this.say(this.el["refresh-status"], (l) => t(l, "refresh.unsupported", { set }), "warn");
    }
    if (support.freeze) {
      (this.el.freeze as HTMLButtonElement).disabled = true;
      const set = support.freeze;
      if (tell) this.say(this.el["freeze-status"], (l) => t(l, "freeze.unsupported", { set }), "warn");
    }
  }

  /** Reads the formulas in scope and shows what refreshing them would cost. */
  async prepare(scope: Scope): Promise<Prepared | null> {
    const host = this.options.host;
    if (!host) return null;
    const status = this.el["refresh-status"];
    this.say(status, (l) => t(l, "refresh.scanning"), "info");
    const scan = await host.scan(scope);
    const engine = await this.engine();
    const plan = planRefresh(scan.cells, scan, { includeLists: scope === "all" });
    const estimate = engine.estimate(plan.requests, { refresh: true });
    const left = this.view(engine).left;
    const p: Prepared = { scope, scan, plan, estimate, left, age: engine.freshness(plan.requests) };
    this.lastEstimate = p;
    this.renderEstimate(p);
    if (plan.formulas.length === 0) this.say(status, (l) => t(l, scope === "all" ? "est.noneAll" : "est.noneSelection"), "info");
    else this.clear(status);
    return p;
  }

  private renderEstimate(p: Prepared): void {
    const l = this.lang;
    const set = (id: Id, n: number | null, text?: string) => {
      this.el[id].textContent = text ?? (n === null ? "" : formatNumber(n, l));
      this.el[id].dataset.value = n === null ? "" : String(n);
    };
    this.el["estimate-box"].hidden = false;
    set("est-formulas", p.plan.formulas.length);
    set("est-cuis", p.estimate.distinctCuis);
    set("est-batches", p.estimate.calls);
    // Not exact: how the service batches is not known yet, and the figure is an upper bound (the
    // refresh's budget), so it says "at most".
    set(
      "est-credits",
      p.estimate.credits,
      p.estimate.exact ? undefined : t(l, "est.atMost", { credits: formatNumber(p.estimate.credits, l) }),
    );
    this.el["est-credits"].dataset.exact = String(p.estimate.exact);
    set("est-left", p.left, p.left === null ? t(l, "usage.unknown") : formatNumber(p.left, l));
    this.el["est-credits"].parentElement!.classList.toggle("over", needsConfirmation(p.estimate.credits, p.left));
    const notes: string[] = [];
    const when = (ms: number) =>
      new Intl.DateTimeFormat(l === "en" ? "en-GB" : "ro-RO", {
        dateStyle: "short",
        timeStyle: "short",
        timeZone: "Europe/Bucharest",
      }).format(ms);
    notes.push(
      p.age.oldest === null || p.age.newest === null
        ? t(l, "est.ageNone")
        : t(l, "est.age", { oldest: when(p.age.oldest), newest: when(p.age.newest) }),
    );
    if (!p.estimate.exact) notes.push(t(l, "est.atMostNote"));
    if (p.estimate.invalid > 0) notes.push(t(l, "est.invalid", { cells: count(p.estimate.invalid, "cell", l) }));
    if (p.plan.unestimable > 0) notes.push(t(l, "est.unestimable", { formulas: count(p.plan.unestimable, "firmaFormula", l) }));
    if (p.plan.listsLeftOut > 0) notes.push(t(l, "est.lists", { formulas: count(p.plan.listsLeftOut, "firmaFormula", l) }));
    this.el["est-notes"].replaceChildren(
      ...notes.map((n) => {
        const li = this.doc.createElement("li");
        li.textContent = n;
        return li;
      }),
    );
  }

  async onEstimate(): Promise<void> {
    if (this.working) return;
    this.setWorking(true);
    try {
      await this.prepare(this.scope());
    } catch (e) {
      this.say(this.el["refresh-status"], (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      this.setWorking(false);
    }
  }

  /** Estimate, then (after confirmation when the cost passes what is left) refresh, with progress and a summary. */
  async onRefresh(): Promise<void> {
    if (this.working) return;
    this.setWorking(true);
    const status = this.el["refresh-status"];
    this.unfinished = null;
    this.el["refresh-continue"].hidden = true;
    try {
      const p = await this.prepare(this.scope());
      if (!p || p.plan.formulas.length === 0) return;
      if (needsConfirmation(p.estimate.credits, p.left)) {
        const yes = await this.confirm((l) =>
          t(l, p.estimate.exact ? "refresh.confirm" : "refresh.confirmAtMost", {
            credits: count(p.estimate.credits, "credit", l),
            left: formatNumber(p.left!, l),
          }),
        );
        if (!yes) {
          this.say(status, (l) => t(l, "refresh.cancelled"), "info");
          return;
        }
      }
      await this.run(p);
    } catch (e) {
      this.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      this.el["refresh-progress"].hidden = true;
      this.setWorking(false);
    }
  }

  private confirm(text: Render): Promise<boolean> {
    const box = this.el["refresh-confirm"];
    this.say(this.el["refresh-confirm-text"], text, "warn");
    box.hidden = false;
    (this.el["refresh-no"] as HTMLButtonElement).disabled = false;
    (this.el["refresh-yes"] as HTMLButtonElement).disabled = false;
    // The safe answer has the focus: Enter or Space on a dialog that appeared must not spend (issue 12).
    this.el["refresh-no"].focus();
    return new Promise((resolve) => {
      this.confirmAnswer = (yes) => {
        box.hidden = true;
        this.confirmAnswer = null;
        this.el.refresh.focus();
        resolve(yes);
      };
    });
  }

  private answer(yes: boolean): void {
    this.confirmAnswer?.(yes);
  }

  /**
   * The refresh itself, capped at the credits the user saw (issue 10): what the cells need is
   * fetched in one credit-minimal plan (prefetch) under a budget of the estimate, then the cells are
   * recalculated and answered from the cache. The budget stays open through the recalculation:
   * lists (not prefetched) are fetched then, and an answer the prefetch could not get is asked once
   * more by its cell; with the budget still open neither can take the spend past the estimate.
   * `continuing`: the second part of a refresh the budget cut short — nothing is marked stale again
   * and only what is still stale is fetched.
   */
  private async run(p: Prepared, continuing = false): Promise<void> {
    const host = this.options.host!;
    const engine = await this.engine();
    const status = this.el["refresh-status"];
    const progress = this.el["refresh-progress"] as HTMLProgressElement;
    const cells = p.plan.toRecalculate;
    const before = engine.usage().month;
    const spent = () => Math.max(0, engine.usage().month - before);
    const total = cells.length;
    progress.max = Math.max(1, total);
    progress.value = 0;
    progress.hidden = false;
    const report = (done: number) => {
      progress.value = done;
      const s = spent();
      this.say(status, (l) => t(l, "refresh.progress", { done, total, spent: s }), "info");
    };
    report(0);
    delete status.dataset.outcome;

    if (!continuing) {
      // The watch: what this refresh finds changed is recorded from here on (a "Continue" adds to it).
      this.changesMark = engine.markChanges();
      this.lastChanges = null;
      this.el["changes-box"].hidden = true;
      this.clear(this.el["changes-status"]);
      if (p.scope === "all") engine.refreshAll();
      else engine.markStale(p.plan.requests);
    }
    const credits = p.estimate.credits;
    const budget = engine.openBudget(credits);
    let outcome: PrefetchReport;
    let state: CellsState;
    let dependents: number | null = 0;
    const ticker = setInterval(() => report(0), Math.max(this.pollMs, 250));
    try {
      try {
        outcome = await engine.prefetch(p.plan.requests, { force: !continuing });
      } finally {
        clearInterval(ticker);
      }
      const failedCount = Object.values(outcome.failed).reduce((a, b) => a + b, 0);
      if (outcome.wanted > 0 && failedCount === outcome.wanted) {
        // Nothing came back (the service is down, the key refused, the credits spent, the budget gone
        // on attempts that got no answer): recalculating would only ask again for what just failed.
        // The cells keep showing what they showed.
        state = { busy: 0, errors: 0 };
      } else {
        // The refresh was confirmed and its budget caps it: its own recalculation is not the surprise
        // burst the guard is for. A burst already held elsewhere is left for the user to answer.
        if (engine.heldBurst() === null) engine.confirmHeld();
        status.dataset.rerun = await this.rerun(cells, p.scan);
        state = await this.settle(cells, (st) => report(total - st.busy));
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
    status.dataset.dependents = dependents === null ? "unsupported" : String(dependents);
    const failed = { ...outcome.failed };
    const failedCount = Object.values(failed).reduce((a, b) => a + b, 0);
    const cut = failed.budget_reached ?? 0;
    const errors = state.errors;
    const busy = state.busy;
    const wanted = outcome.wanted;

    const budgetLeft = (l: Lang) =>
      cut > 0 ? t(l, "refresh.budgetLeft", { failed: count(cut, "answer", l), credits: count(credits, "credit", l) }) : "";
    if (wanted > 0 && failedCount === wanted) {
      // Never a "done" look when nothing was refreshed. When the budget is all that is named, it went
      // on attempts that got no answer (a 5xx may have been charged, so it counts): say that.
      status.dataset.outcome = "failed";
      const others = { ...failed };
      delete others.budget_reached;
      this.say(
        status,
        (l) =>
          [
            t(l, "refresh.allFailed", {
              cause: Object.keys(others).length > 0 ? causeText(others, l) : t(l, "cause.budgetNoAnswer"),
              spent: final,
            }),
            budgetLeft(l),
          ]
            .filter(Boolean)
            .join(" "),
        "error",
      );
    } else if (failedCount > 0) {
      status.dataset.outcome = cut > 0 ? "budget" : "partial";
      this.say(
        status,
        (l) =>
          [
            t(l, "refresh.partial", {
              ok: wanted - failedCount,
              wanted: count(wanted, "answer", l),
              failed: formatNumber(failedCount, l),
              cause: causeText(failed, l),
              spent: final,
              credits,
            }),
            budgetLeft(l),
          ]
            .filter(Boolean)
            .join(" "),
        "warn",
      );
    } else {
      status.dataset.outcome = errors > 0 || busy > 0 ? "errors" : "ok";
      this.say(
        status,
        (l) =>
          [
            t(l, "refresh.done", { formulas: total - busy, spent: final, credits }),
            errors > 0 ? t(l, "refresh.doneErrors", { cells: count(errors, "cell", l) }) : "",
            busy > 0 ? t(l, "refresh.stillBusy", { cells: count(busy, "cell", l) }) : "",
            dependents === null ? t(l, "refresh.noDependents") : "",
          ]
            .filter(Boolean)
            .join(" "),
        errors > 0 || busy > 0 ? "warn" : "ok",
      );
    }
    if (!(wanted > 0 && failedCount === wanted) && this.changesMark !== null) {
      this.lastChanges = engine.changes(this.changesMark);
      this.renderChanges();
    }
    if (cut > 0) {
      // Never past the confirmed figure silently: the rest is a new estimate and a new confirmation.
      this.unfinished = p;
      this.el["refresh-continue"].hidden = false;
    }
    await this.renderUsage();
  }

  /** "Continue": what the budget left unfetched, with its own estimate and confirmation. */
  async onContinue(): Promise<void> {
    const p = this.unfinished;
    if (!p || this.working) return;
    this.setWorking(true);
    const status = this.el["refresh-status"];
    this.el["refresh-continue"].hidden = true;
    try {
      const engine = await this.engine();
      // The lists were fetched by the first part; the estimate without `refresh` counts what is still stale.
      const requests: CellRequest[] = p.plan.requests.filter((r) => r.kind !== "list");
      const estimate = engine.estimate(requests);
      const left = this.view(engine).left;
      const rest = estimate.cells - estimate.cached - estimate.invalid;
      if (estimate.credits === 0) {
        this.unfinished = null;
        this.say(status, (l) => t(l, "refresh.continueNothing"), "info");
        return;
      }
      const next: Prepared = { ...p, plan: { ...p.plan, requests }, estimate, left };
      this.lastEstimate = next;
      this.renderEstimate(next);
      const yes = await this.confirm((l) =>
        t(l, "refresh.continueConfirm", {
          cells: count(rest, "cell", l),
          credits: estimate.exact
            ? count(estimate.credits, "credit", l)
            : t(l, "est.atMost", { credits: count(estimate.credits, "credit", l) }),
        }),
      );
      if (!yes) {
        this.el["refresh-continue"].hidden = false;
        this.say(status, (l) => t(l, "refresh.cancelled"), "info");
        return;
      }
      this.unfinished = null;
      await this.run(next, true);
    } catch (e) {
      this.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      this.el["refresh-progress"].hidden = true;
      this.setWorking(false);
    }
  }

  // ---- the changes a refresh found (issue 12) ---------------------------------------------------

  /** Lists the last refresh's changes (at most CHANGES_SHOWN; the sheet gets all), in the pane's language. */
  renderChanges(): void {
    const changes = this.lastChanges;
    const box = this.el["changes-box"];
    if (changes === null) {
      box.hidden = true;
      return;
    }
    const l = this.lang;
    const table = changeTable(changes.slice(0, CHANGES_SHOWN), l);
    box.hidden = false;
    box.dataset.count = String(changes.length);
    this.el["changes-summary"].textContent =
      changes.length === 0 ? t(l, "changes.none") : t(l, "changes.some", { changes: count(changes.length, "change", l) });
    const body = this.el["changes-rows"];
    body.replaceChildren(
      ...table.rows.map(([cui, company, field, before, after]) => {
        const tr = this.doc.createElement("tr");
        const who = this.doc.createElement("td");
        who.append(String(company || cui));
        if (company) {
          const small = this.doc.createElement("span");
          small.className = "cui";
          small.textContent = `CUI ${cui}`;
          who.append(small);
        }
        const cells = [field, before, after].map((v, i) => {
          const td = this.doc.createElement("td");
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
    this.el["changes-more"].hidden = more <= 0;
    this.el["changes-more"].textContent = more > 0 ? t(l, "changes.more", { changes: count(more, "change", l) }) : "";
    this.el["changes-write"].hidden = changes.length === 0 || !this.options.host;
  }

  /** "Write to a new sheet": every change of the last refresh, with its dates, on a sheet of its own. */
  async onWriteChanges(): Promise<void> {
    const host = this.options.host;
    const changes = this.lastChanges;
    if (!host || !changes || changes.length === 0 || this.working) return;
    const status = this.el["changes-status"];
    const button = this.el["changes-write"] as HTMLButtonElement;
    button.disabled = true;
    try {
      const l = this.lang;
      const table = changeTable(changes, l);
      const sheet = await host.writeSheet(t(l, "changes.sheetName"), [table.header, ...table.rows], table.textColumns);
      status.dataset.sheet = sheet;
      this.say(status, (lang) => t(lang, "changes.written", { sheet }), "ok");
    } catch (e) {
      this.say(status, (lang) => t(lang, "changes.writeFailed", { reason: failureCode(e) }), "error");
    } finally {
      button.disabled = false;
    }
  }

  // ---- freeze -----------------------------------------------------------------------------------

  onFreeze(): void {
    if (this.working || !this.options.host) return;
    this.clear(this.el["freeze-status"]);
    // Said before the user confirms: where Excel cannot write a card back (no Range.valuesAsJson), cards become their text.
    const note = this.el["freeze-cards-note"];
    note.hidden = this.options.host.support().freezeKeepsCards;
    this.el["freeze-confirm"].hidden = false;
    this.el["freeze-no"].focus(); // the safe answer (issue 12): freezing cannot be undone
  }

  onFreezeCancelled(): void {
    this.el["freeze-confirm"].hidden = true;
    this.say(this.el["freeze-status"], (l) => t(l, "freeze.cancelled"), "info");
    this.el.freeze.focus();
  }

  async onFreezeConfirmed(): Promise<void> {
    const host = this.options.host;
    this.el["freeze-confirm"].hidden = true;
    if (!host || this.working) return;
    const status = this.el["freeze-status"];
    this.setWorking(true);
    try {
      const r = await host.freezeSelection();
      const cards = (l: Lang) => (r.cardsAsText > 0 ? ` ${t(l, "freeze.cardsTurnedText", { cards: formatNumber(r.cardsAsText, l) })}` : "");
      if (r.busy) this.say(status, (l) => t(l, "freeze.busy"), "warn");
      else if (r.left > 0)
        this.say(
          status,
          (l) =>
            t(l, "freeze.partial", { formulas: count(r.frozen, "firmaFormula", l), left: formatNumber(r.left, l), code: r.failure ?? "" }) +
            cards(l),
          "error",
        );
      else if (r.frozen === 0) this.say(status, (l) => t(l, "freeze.none"), "info");
      else this.say(status, (l) => t(l, "freeze.done", { formulas: count(r.frozen, "firmaFormula", l) }) + cards(l), "ok");
      status.dataset.frozen = String(r.frozen);
    } catch (e) {
      this.say(status, (l) => t(l, "refresh.failed", { code: failureCode(e) }), "error");
    } finally {
      this.setWorking(false);
      this.el.freeze.focus();
    }
  }

  // ---- settings ---------------------------------------------------------------------------------

  private fillSettingsForm(): void {
    const s = getSettings();
    (this.el["base-url"] as HTMLInputElement).value = s.baseUrl === DEFAULT_BASE_URL ? "" : s.baseUrl;
    (this.el["base-url"] as HTMLInputElement).placeholder = DEFAULT_BASE_URL;
    (this.el.language as HTMLSelectElement).value = s.languageChoice ?? "auto";
    (this.el["batch-window"] as HTMLInputElement).value = String(s.batchWindowMs);
    (this.el["guard-threshold"] as HTMLInputElement).value = s.guardThreshold === null ? "" : String(s.guardThreshold);
  }

  async onSaveSettings(): Promise<void> {
    const status = this.el["settings-status"];
    const urlText = (this.el["base-url"] as HTMLInputElement).value.trim();
    const windowText = (this.el["batch-window"] as HTMLInputElement).value.trim();
    const langValue = (this.el.language as HTMLSelectElement).value;
    if (urlText) {
      try {
        getValidBaseUrl(urlText);
      } catch {
        this.say(status, (l) => t(l, "settings.badUrl"), "error");
        this.el["base-url"].setAttribute("aria-invalid", "true");
        (this.el["advanced-settings"] as HTMLDetailsElement).open = true;
        this.el["base-url"].focus();
        return;
      }
    }
    this.el["base-url"].removeAttribute("aria-invalid");
    const w = windowText === "" ? 40 : Number(windowText);
    if (!Number.isInteger(w) || w < 0 || w > 5000) {
      this.say(status, (l) => t(l, "settings.badWindow"), "error");
      this.el["batch-window"].setAttribute("aria-invalid", "true");
      (this.el["advanced-settings"] as HTMLDetailsElement).open = true;
      this.el["batch-window"].focus();
      return;
    }
    this.el["batch-window"].removeAttribute("aria-invalid");
    // Empty turns the guard off; a number must be a whole number of credits (the engine refuses others).
    const guardText = (this.el["guard-threshold"] as HTMLInputElement).value.trim();
    const guard = guardText === "" ? null : Number(guardText);
    if (guard !== null && !(Number.isSafeInteger(guard) && guard >= 0)) {
      this.say(status, (l) => t(l, "settings.badGuard"), "error");
      this.el["guard-threshold"].setAttribute("aria-invalid", "true");
      this.el["guard-threshold"].focus();
      return;
    }
    this.el["guard-threshold"].removeAttribute("aria-invalid");
    try {
      await saveBaseUrl(urlText || null);
      await saveSetting("batchWindowMs", w === 40 ? null : w);
      await saveSetting("language", langValue === "ro" || langValue === "en" ? (langValue as Language) : null);
      await saveGuardThreshold(guard);
    } catch {
      this.say(status, (l) => t(l, "settings.failed"), "error");
      return;
    }
    this.fillSettingsForm();
    try {
      this.applySettings(await this.engine());
    } catch {
      /* no engine yet: start() applies the saved threshold when it makes one */
    }
    this.say(status, (l) => t(l, "settings.saved"), "ok");
    if (getSettings().language !== this.lang) this.applyLanguage(getSettings().language);
  }
}

/** Wires the pane into a document; null when the page is not the pane. */
export async function startPane(doc: Document, options: PaneOptions): Promise<Pane | null> {
  const el = findElements(doc);
  if (!el) return null;
  const pane = new Pane(doc, el, options);
  await pane.start();
  return pane;
}
