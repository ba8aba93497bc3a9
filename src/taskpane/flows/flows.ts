/**
 * The pane's flows — search, match a column of names, add columns (and make linked companies), the
 * firm's watch lists — loaded when first opened (a
 * webpack chunk of their own: the pane's startup scripts stay within the bench's budget). `startFlows`
 * wires them to the page's sections (taskpane.html) and fills their texts (texts.ts).
 */
import type { Lang } from "../i18n";
import type { PaneContext } from "../pane/context";
import { ColumnsFlow } from "./columns-flow";
import type { FlowDeps, FlowSheet } from "./flow-sheet";
import { LinkedFlow, mountLinked } from "./linked-flow";
import { MatchFlow } from "./match-flow";
import { SearchFlow } from "./search-flow";
import { applyFlowTexts } from "./texts";
import { WatchFlow } from "./watch-flow";
import { mountWatch } from "./watch-view";

export class Flows {
  readonly search: SearchFlow;
  readonly match: MatchFlow;
  readonly columns: ColumnsFlow;
  readonly linked: LinkedFlow;
  readonly watch: WatchFlow;

  constructor(
    private readonly ctx: PaneContext,
    renderUsage: () => Promise<void>,
    track: (work: Promise<unknown>) => Promise<void>,
  ) {
    let sheetP: Promise<FlowSheet> | null = null;
    // Outside Excel, or in an Excel without the sets the flows use (ExcelApi 1.7: getRangeByIndexes,
    // getActiveCell; as refresh, excel-api.ts), no workbook: the flows say which (flow-ui.ts noSheet).
    const sheet = async (): Promise<FlowSheet | null> => {
      const host = ctx.options.host;
      if (!host || host.support().refresh) return null;
      sheetP ??= host.flowSheet();
      return sheetP;
    };
    mountLinked(ctx.doc); // the linked companies' part of Add columns (its markup is made here)
    mountWatch(ctx.doc); // the watch lists' section, shown to a person connected to the firm's server
    applyFlowTexts(ctx.doc, ctx.lang);
    const deps: FlowDeps = { sheet, renderUsage, track };
    this.search = new SearchFlow(ctx, deps);
    this.match = new MatchFlow(ctx, deps);
    this.columns = new ColumnsFlow(ctx, deps);
    this.linked = new LinkedFlow(ctx, deps, this.columns);
    this.watch = new WatchFlow(ctx, deps);
  }

  applyLanguage(lang: Lang): void {
    applyFlowTexts(this.ctx.doc, lang);
    this.search.renderResults();
    this.columns.renderItems();
    this.match.renderPending();
    this.watch.applyLanguage();
  }

  /** Escape: an open confirmation of a flow closes with its safe answer. */
  escape(): boolean {
    return this.search.escape() || this.match.escape() || this.columns.escape() || this.linked.escape() || this.watch.escape();
  }
}

export function startFlows(ctx: PaneContext, renderUsage: () => Promise<void>, track: (work: Promise<unknown>) => Promise<void>): Flows {
  return new Flows(ctx, renderUsage, track);
}
