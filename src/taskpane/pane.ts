/**
 * The task pane: `Pane` wires its sections (src/taskpane/pane/) to a document — the key, plan and
 * usage, the credit guard, refresh with its cost shown first and the changes it found, freeze to
 * values, settings and help — and loads the flows (search, match a column, add columns:
 * src/taskpane/flows/) when one is first used. `startPane` wires a document; the handlers are methods of `Pane`, so
 * tests can drive them. The workbook is reached only through a `WorkbookHost` (excel.ts in Excel,
 * a stand-in in tests, null in a plain browser, where refresh and freeze are switched off).
 */
import type { FirmaEngine } from "../engine/engine";
import type { Scope } from "./excel";
import { keyPageUrl } from "./key-page";
import { applyTexts, t, type Lang } from "./i18n";
import { getSettings, loadSettings, setDisplayLanguage } from "../shared/settings";
import { ChangesSection } from "./pane/changes-section";
import { PaneContext, type PaneOptions, type Render, type Tone } from "./pane/context";
import { findElements, type Id, type PaneElements } from "./pane/elements";
import type { Prepared } from "./pane/estimate-box";
import { FreezeSection } from "./pane/freeze-section";
import { GuardSection } from "./pane/guard-section";
import { firmLink } from "./pane/firm";
import { KeySection } from "./pane/key";
import { RefreshFlow } from "./pane/refresh-flow";
import { SettingsSection } from "./pane/settings-section";
import { UsageSection } from "./pane/usage-meters";
import type { Flows } from "./flows/flows";

export { findElements, type PaneElements } from "./pane/elements";
export type { PaneOptions, Render, Tone } from "./pane/context";
export type { Prepared } from "./pane/estimate-box";

export class Pane {
  private readonly ctx: PaneContext;
  readonly key: KeySection;
  readonly usage: UsageSection;
  readonly guard: GuardSection;
  readonly refresh: RefreshFlow;
  readonly changes: ChangesSection;
  readonly freeze: FreezeSection;
  readonly settings: SettingsSection;
  private running = 0;
  private flowsP: Promise<Flows> | null = null;
  /** The flows, once loaded (search, match, add columns: flows/flows.ts). */
  loadedFlows: Flows | null = null;

  constructor(
    readonly doc: Document,
    readonly el: PaneElements,
    readonly options: PaneOptions,
  ) {
    const ctx = (this.ctx = new PaneContext(doc, el, options));
    const renderUsage = () => this.usage.renderUsage();
    this.key = new KeySection(ctx, renderUsage);
    this.guard = new GuardSection(ctx, renderUsage);
    this.usage = new UsageSection(ctx, this.guard);
    this.changes = new ChangesSection(ctx);
    this.refresh = new RefreshFlow(ctx, this.changes, renderUsage);
    this.freeze = new FreezeSection(ctx);
    this.settings = new SettingsSection(ctx, (lang) => this.applyLanguage(lang));
  }

  get lang(): Lang {
    return this.ctx.lang;
  }

  engine(): Promise<FirmaEngine> {
    return this.ctx.engine();
  }

  /**
   * The flows (search, match a column, add columns), loaded the first time one is used: their code
   * is a chunk of its own, outside the scripts the page loads at start (bench/run.ts's budget).
   */
  flows(): Promise<Flows> {
    if (!this.flowsP) {
      this.flowsP = import(/* webpackChunkName: "flows" */ "./flows/flows").then((m) => {
        const f = m.startFlows(
          this.ctx,
          () => this.usage.renderUsage(),
          (w) => this.track(w),
        );
        this.loadedFlows = f;
        return f;
      });
      this.flowsP.catch(() => {
        this.flowsP = null;
        this.say(this.el["app-status"], (l) => t(l, "flows.loadFailed"), "error");
        this.el["app-status"].hidden = false;
      });
    }
    return this.flowsP;
  }

  get input(): HTMLInputElement {
    return this.key.input;
  }

  async start(): Promise<void> {
    const el = this.el;
    this.wire();
    setDisplayLanguage(this.options.displayLanguage);
    try {
      await loadSettings();
    } catch {
      this.applyLanguage(getSettings().language);
      this.say(el["app-status"], (l) => t(l, "app.loadFailed"), "error");
      el["app-status"].hidden = false;
      el.pane.setAttribute("aria-busy", "false");
      return;
    }
    this.applyLanguage(getSettings().language);
    this.settings.fillSettingsForm();
    const inExcel = this.options.host !== null;
    el["excel-only"].hidden = inExcel;
    for (const id of ["estimate", "refresh", "freeze"] as const) (el[id] as HTMLButtonElement).disabled = !inExcel;
    el["refresh-scope"].toggleAttribute("disabled", !inExcel);
    this.ctx.applySupport();
    try {
      const engine = await this.engine();
      // The functions runtime makes the engine without the user's threshold (it would start with the
      // guard off): the pane sets it as soon as it runs, and again whenever it is saved.
      this.settings.applySettings(engine);
      engine.credits().onChange(() => this.usage.scheduleUsage());
      engine.onCacheProblem(() => this.usage.scheduleUsage());
    } catch {
      /* the usage shows zeros; the functions will say what is wrong */
    }
    await this.renderUsage();
    el.pane.setAttribute("aria-busy", "false");
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
    on("refresh-yes", "click", () => this.refresh.answer(true));
    on("refresh-no", "click", () => this.refresh.answer(false));
    on("refresh-continue", "click", () => this.onContinue());
    on("changes-write", "click", () => this.onWriteChanges());
    on("guard-fill", "click", () => this.onGuardFill());
    on("guard-dismiss", "click", () => this.onGuardDismiss());
    on("quota-retry", "click", () => this.onRetryNow());
    // The functions' help is rendered when its section is first opened (its code a chunk of its own).
    on("help-section", "toggle", () => (this.helpOpen() ? this.renderHelpList() : undefined));
    // Escape closes an open confirmation with its safe answer, wherever the focus is: a keyboard
    // user leaves a dialog without spending or freezing anything.
    this.doc.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      if (this.loadedFlows?.escape()) {
        e.preventDefault();
      } else if (!this.el["refresh-confirm"].hidden) {
        e.preventDefault();
        this.refresh.answer(false);
      } else if (!this.el["freeze-confirm"].hidden) {
        e.preventDefault();
        this.onFreezeCancelled();
      }
    });
    on("freeze", "click", () => this.onFreeze());
    on("freeze-yes", "click", () => this.onFreezeConfirmed());
    on("freeze-no", "click", () => this.onFreezeCancelled());
    on("settings-form", "submit", () => this.onSaveSettings());
    // The flows load when first used: a search box that gets the focus, a section opened.
    const doc = this.doc;
    const byId = (id: string) => doc.getElementById(id)!;
    byId("search-form").addEventListener("submit", (e) => {
      e.preventDefault();
      void this.track(this.flows().then((f) => f.search.run()));
    });
    byId("search-q").addEventListener("focus", () => void this.track(this.flows().then((f) => f.search.showCost())));
    for (const id of ["columns-section", "match-section"])
      byId(id).addEventListener("toggle", () => {
        if ((byId(id) as HTMLDetailsElement).open) void this.track(this.flows());
      });
    // The firm's watch lists: for a person connected to the firm's server; read when opened, and again
    // when her token changes while it is open.
    const watch = byId("watch-section") as HTMLDetailsElement;
    const link = firmLink(this.ctx);
    const readWatch = () => void this.track(this.flows().then((f) => f.watch.open()));
    watch.addEventListener("toggle", () => watch.open && readWatch());
    link.onChange(() => {
      watch.hidden = link.me === null; // connected, or the server away for now (its last figures kept)
      if (!watch.hidden && watch.open) readWatch();
    });
  }

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

  /** The language the help list was last rendered in (null: not rendered, or the language changed since). */
  private helpLang: Lang | null = null;

  private helpOpen(): boolean {
    return (this.el["help-section"] as HTMLDetailsElement).open;
  }

  /** Renders the functions' help in the pane's language, its chunk loaded the first time. */
  async renderHelpList(): Promise<void> {
    const lang = this.ctx.lang;
    if (this.helpLang === lang) return;
    const { renderHelp } = await import(/* webpackChunkName: "help" */ "./help");
    if (this.ctx.lang !== lang) return; // the language changed meanwhile: that change renders it
    renderHelp(this.el["help-list"], lang);
    this.helpLang = lang;
  }

  /** Puts every text of the pane in `lang`: the page's, the sections', and the messages shown. */
  applyLanguage(lang: Lang): void {
    this.ctx.lang = lang;
    applyTexts(this.doc, lang);
    this.el["key-get"].setAttribute("href", keyPageUrl(lang));
    this.key.renderKeyState();
    this.key.renderToggle();
    this.helpLang = null;
    if (this.helpOpen()) void this.track(this.renderHelpList());
    this.settings.renderTexts(lang);
    this.ctx.renderMessages();
    this.refresh.renderLastEstimate();
    this.changes.renderChanges();
    this.loadedFlows?.applyLanguage(lang);
    void this.renderUsage();
  }

  /** Shows a message (kept as a renderer, so it follows a change of language). */
  say(el: HTMLElement, render: Render, tone: Tone = "info"): void {
    this.ctx.say(el, render, tone);
  }

  // ---- the handlers, each in its section --------------------------------------------------------

  renderKeyState = (): void => this.key.renderKeyState();
  onToggleKey = (): void => this.key.onToggleKey();
  onSaveKey = (): Promise<void> => this.key.onSaveKey();
  recalcFailedCells = (): Promise<Render | null> => this.key.recalcFailedCells();
  onRemoveKey = (): Promise<void> => this.key.onRemoveKey();
  onTestKey = (): Promise<void> => this.key.onTestKey();
  onPlanChange = (): Promise<void> => this.usage.onPlanChange();
  renderUsage = (): Promise<void> => this.usage.renderUsage();
  onRetryNow = (): Promise<void> => this.usage.onRetryNow();
  onGuardFill = (): Promise<void> => this.guard.onGuardFill();
  onGuardDismiss = (): Promise<void> => this.guard.onGuardDismiss();
  prepare = (scope: Scope): Promise<Prepared | null> => this.refresh.prepare(scope);
  onEstimate = (): Promise<void> => this.refresh.onEstimate();
  onRefresh = (): Promise<void> => this.refresh.onRefresh();
  onContinue = (): Promise<void> => this.refresh.onContinue();
  renderChanges = (): void => this.changes.renderChanges();
  onWriteChanges = (): Promise<void> => this.changes.onWriteChanges();
  onFreeze = (): void => this.freeze.onFreeze();
  onFreezeCancelled = (): void => this.freeze.onFreezeCancelled();
  onFreezeConfirmed = (): Promise<void> => this.freeze.onFreezeConfirmed();
  onSaveSettings = (): Promise<void> => this.settings.onSaveSettings();
}

/** Wires the pane into a document; null when the page is not the pane. */
export async function startPane(doc: Document, options: PaneOptions): Promise<Pane | null> {
  const el = findElements(doc);
  if (!el) return null;
  const pane = new Pane(doc, el, options);
  await pane.start();
  return pane;
}
