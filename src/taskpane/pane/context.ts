/**
 * What every section of the pane shares: the document and its elements, the options, the pane's
 * language and its messages (kept as renderers, so they follow a change of language), the one
 * engine, and the working state that disables the buttons while a refresh, a fill or a freeze runs
 * (with what this Excel lacks, which keeps some of them disabled).
 */
import type { FirmaEngine } from "../../engine/engine";
import { getEngine } from "../../shared/engine-instance";
import { getSettings } from "../../shared/settings";
import type { WorkbookHost } from "../excel";
import { t, type Lang } from "../i18n";
import { usageView, type UsageView } from "../usage";
import type { PaneElements } from "./elements";

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

export type Tone = "info" | "ok" | "warn" | "error";
export type Render = (lang: Lang) => string;

export class PaneContext {
  lang: Lang = "ro";
  /** A refresh, a fill or a freeze is running: the others wait (their buttons are disabled). */
  working = false;
  readonly timeoutMs: number;
  readonly pollMs: number;
  private engineP: Promise<FirmaEngine> | null = null;
  private readonly messages = new Map<HTMLElement, { render: Render; tone: Tone }>();

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

  /** The usage as the pane shows it, for the plan the user chose. */
  view(engine: FirmaEngine): UsageView {
    return usageView(engine.credits().usage(), getSettings().plan);
  }

  // ---- messages ---------------------------------------------------------------------------------

  /** Shows a message (kept as a renderer, so it follows a change of language). */
  say(el: HTMLElement, render: Render, tone: Tone = "info"): void {
    this.messages.set(el, { render, tone });
    this.show(el, render(this.lang), tone);
  }

  show(el: HTMLElement, text: string, tone: Tone): void {
    el.textContent = text;
    el.classList.remove("info", "ok", "warn", "error");
    if (text) el.classList.add(tone);
  }

  clear(el: HTMLElement): void {
    this.messages.delete(el);
    this.show(el, "", "info");
  }

  /** Every message shown, again in the pane's (new) language. */
  renderMessages(): void {
    for (const [el, m] of this.messages) this.show(el, m.render(this.lang), m.tone);
  }

  // ---- working, and what this Excel supports ----------------------------------------------------

  setWorking(on: boolean): void {
    this.working = on;
    for (const id of ["estimate", "refresh", "freeze", "refresh-continue", "guard-fill"] as const)
      (this.el[id] as HTMLButtonElement).disabled = on || (id !== "guard-fill" && !this.options.host);
    this.applySupport(false);
  }

  /**
   * What this Excel lacks (ExcelApi sets checked at run time, docs/excel.md): the parts that need
   * it are disabled and say which set is missing; the functions in cells are not affected.
   */
  applySupport(tell = true): void {
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
}
