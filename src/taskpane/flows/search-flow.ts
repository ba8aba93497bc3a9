/**
 * Search, first in the pane: one box for a name, a CUI (with or without RO) or a trade-registry
 * number, and an optional county. A CUI is checked locally (its control digit, src/api/cui.ts) and
 * answered as the company's profile; anything else is a search, sent only on Enter or the button,
 * its cost said first (1 credit a page, nothing when the same search is cached: engine.list keeps it
 * like FIRMA.CAUTA's). A result goes into the active cell with one click — the CUI, or a FIRMA.FISA
 * card where Excel shows cards — and several picked results fill down from it; cells that are not
 * empty are replaced only after a confirmation that says how many.
 */
import { parseCui } from "../../api/cui";
import type { FirmaEngine, ListSpec } from "../../engine/engine";
import type { SearchItem } from "../../api/types";
import { kindOf } from "../../engine/failures";
import { toCellError } from "../../shared/cells";
import { count, formatNumber, type Lang } from "../i18n";
import type { PaneContext } from "../pane/context";
import type { FlowDeps } from "./flow-sheet";
import { ft } from "./texts";
import { Confirm, byId, problemText, textWrites, noSheet } from "./flow-ui";

/** A first page of this many results; "More" asks for one page of MORE_LIMIT (each 1 credit). */
export const FIRST_LIMIT = 20;
export const MORE_LIMIT = 100;

type Query =
  { kind: "cui"; cui: number } | { kind: "badCui"; input: string } | { kind: "search"; q: string; judet?: string } | { kind: "none" };

/** What the box holds, read locally: a CUI (valid or not), a search, or nothing to send. */
export function readQuery(text: string, county: string): Query {
  const q = text.trim();
  if (q.length < 2) return { kind: "none" };
  // digits, with or without RO and spaces: a CUI, checked here for free
  if (/^(?:RO)?[\d\s]+$/i.test(q)) {
    const p = parseCui(q);
    return p.ok ? { kind: "cui", cui: p.cui } : { kind: "badCui", input: q };
  }
  const judet = county.trim();
  return { kind: "search", q, ...(judet ? { judet } : {}) };
}

export class SearchFlow {
  private results: SearchItem[] = [];
  private limit = FIRST_LIMIT;
  private last: Query = { kind: "none" };
  private readonly confirm: Confirm;

  constructor(
    private readonly ctx: PaneContext,
    private readonly deps: FlowDeps,
  ) {
    this.confirm = new Confirm(ctx, "search-confirm", "search-confirm-text", "search-yes", "search-no");
    byId(ctx.doc, "search-q").addEventListener("input", () => void deps.track(this.showCost()));
    byId(ctx.doc, "search-county").addEventListener("input", () => void deps.track(this.showCost()));
    byId(ctx.doc, "search-more").addEventListener("click", () => void deps.track(this.more()));
    byId(ctx.doc, "search-insert").addEventListener("click", () => void deps.track(this.insertPicked()));
    this.renderPicked();
  }

  private get status(): HTMLElement {
    return byId(this.ctx.doc, "search-status");
  }

  private query(): Query {
    const d = this.ctx.doc;
    return readQuery((byId(d, "search-q") as HTMLInputElement).value, (byId(d, "search-county") as HTMLInputElement).value);
  }

  private spec(q: Query & { kind: "search" }, limit: number): ListSpec & { fn: "search" } {
    return { fn: "search", params: { q: q.q, ...(q.judet ? { judet: q.judet } : {}) }, limit };
  }

  /** The cost of what Enter would send, said before it is sent (no call: the estimate reads the cache). */
  async showCost(): Promise<void> {
    const el = byId(this.ctx.doc, "search-cost");
    const q = this.query();
    if (q.kind === "none" || q.kind === "badCui") return void this.ctx.clear(el);
    let engine: FirmaEngine;
    try {
      engine = await this.ctx.engine();
    } catch {
      return;
    }
    const est =
      q.kind === "cui"
        ? engine.estimate([{ kind: "profile", cui: q.cui, field: "denumire" }])
        : engine.estimate([{ kind: "list", calls: 1, list: this.spec(q, FIRST_LIMIT) }]);
    const credits = est.credits;
    const key =
      q.kind === "cui"
        ? credits === 0
          ? "search.cost.cuiCached"
          : "search.cost.cui"
        : credits === 0
          ? "search.cost.cached"
          : "search.cost.search";
    this.ctx.say(el, (l) => ft(l, key, { credits: count(credits, "credit", l), limit: FIRST_LIMIT }), "info");
  }

  /** Enter or the button: the profile of a CUI, or the search. */
  async run(): Promise<void> {
    this.limit = FIRST_LIMIT;
    await this.fetch(this.query());
  }

  private async more(): Promise<void> {
    if (this.last.kind !== "search") return;
    this.limit = MORE_LIMIT;
    await this.fetch(this.last);
  }

  private async fetch(q: Query): Promise<void> {
    const ctx = this.ctx;
    const status = this.status;
    byId(ctx.doc, "search-more").hidden = true;
    if (q.kind === "none") return void ctx.say(status, (l) => ft(l, "search.tooShort"), "warn");
    if (q.kind === "badCui") return void ctx.say(status, (l) => ft(l, "search.badCui", { input: q.input }), "error");
    this.last = q;
    ctx.say(status, (l) => ft(l, "search.searching"), "info");
    let engine: FirmaEngine;
    try {
      engine = await ctx.engine();
      if (q.kind === "cui") {
        const p = await engine.profile(q.cui);
        this.results = [{ cui: p.cui, denumire: p.denumire, judet: p.judet, localitate: p.localitate, stare: p.stare }];
      } else {
        this.results = await engine.list(this.spec(q, this.limit));
      }
    } catch (e) {
      this.results = [];
      this.renderResults();
      const said = (l: Lang) => (q.kind === "cui" && isNotFound(e) ? ft(l, "search.cuiNotFound") : toCellError(e, l).message);
      ctx.say(status, said, "error");
      await this.deps.renderUsage();
      return;
    }
    this.renderResults();
    const n = this.results.length;
    const more = q.kind === "search" && n >= this.limit && this.limit < MORE_LIMIT;
    byId(ctx.doc, "search-more").hidden = !more;
    ctx.say(
      status,
      (l) => (n === 0 ? ft(l, "search.none") : ft(l, more ? "search.foundMore" : "search.found", { results: formatNumber(n, l) })),
      n === 0 ? "warn" : "ok",
    );
    status.dataset.results = String(n);
    await this.deps.renderUsage();
  }

  /** The results as a list: each a button that inserts it, and a box to pick it for a fill-down. */
  renderResults(): void {
    const doc = this.ctx.doc;
    const list = byId(doc, "search-results");
    list.replaceChildren();
    const l = this.ctx.lang;
    this.results.forEach((r, i) => {
      const li = doc.createElement("li");
      li.className = "result";
      const pick = doc.createElement("input");
      pick.type = "checkbox";
      pick.className = "pick";
      pick.dataset.cui = String(r.cui);
      pick.setAttribute("aria-label", ft(l, "search.pickLabel", { name: r.denumire }));
      pick.addEventListener("change", () => this.renderPicked());
      const insert = doc.createElement("button");
      insert.type = "button";
      insert.className = "link insert";
      insert.dataset.cui = String(r.cui);
      insert.textContent = r.denumire;
      insert.setAttribute("aria-label", ft(l, "search.insertLabel", { name: r.denumire, cui: String(r.cui) }));
      insert.addEventListener("click", () => void this.deps.track(this.insert([r.cui])));
      const facts = doc.createElement("span");
      facts.className = "facts-line";
      facts.textContent = [`CUI ${r.cui}`, r.judet, r.localitate, r.stare]
        .filter((x) => x !== null && x !== undefined && x !== "")
        .join(" · ");
      li.append(pick, insert, facts);
      li.dataset.index = String(i);
      list.append(li);
    });
    this.renderPicked();
  }

  private picked(): number[] {
    return [...byId(this.ctx.doc, "search-results").querySelectorAll<HTMLInputElement>("input.pick:checked")].map((x) =>
      Number(x.dataset.cui),
    );
  }

  private renderPicked(): void {
    const n = this.picked().length;
    const b = byId(this.ctx.doc, "search-insert") as HTMLButtonElement;
    b.hidden = this.results.length < 2;
    b.disabled = n === 0;
    b.textContent = ft(this.ctx.lang, "search.insertPicked", { n: formatNumber(n, this.ctx.lang) });
  }

  private insertPicked(): Promise<void> {
    return this.insert(this.picked());
  }

  /** Puts `cuis` in the active cell and down from it: the CUI (a number), or =FIRMA.FISA(cui) where Excel shows cards. */
  async insert(cuis: readonly number[]): Promise<void> {
    const ctx = this.ctx;
    const status = this.status;
    if (cuis.length === 0) return;
    const sheet = await this.deps.sheet();
    if (!sheet) return void ctx.say(status, noSheet(ctx), "warn");
    try {
      const at = await sheet.active();
      if (at.protected) return void ctx.say(status, (l) => problemText(l, "protected"), "error");
      if (at.inTable) return void ctx.say(status, (l) => problemText(l, "table"), "error");
      const area = { sheet: at.sheet, top: at.row, left: at.col, rows: cuis.length, cols: 1 };
      const taken = await sheet.nonEmpty([area]);
      if (taken > 0 && !(await this.confirm.ask((l) => ft(l, "flow.overwrite", { cells: count(taken, "cell", l) })))) {
        return void ctx.say(status, (l) => ft(l, "flow.notWritten"), "info");
      }
      const cards = sheet.cards();
      const data = cuis.map((c) => [cards ? `=FIRMA.FISA(${c})` : c]);
      await sheet.write(cards ? [{ area, property: "formulas", data }] : textWrites(area, data));
      ctx.say(status, (l) => ft(l, cards ? "search.insertedCards" : "search.inserted", { cells: count(cuis.length, "cell", l) }), "ok");
      status.dataset.inserted = String(cuis.length);
    } catch (e) {
      ctx.say(status, (l) => ft(l, "flow.writeFailed", { code: codeOf(e) }), "error");
    }
  }

  /** "Insert" from the keyboard: Escape closes an open confirmation with its safe answer. */
  escape(): boolean {
    return this.confirm.escape();
  }
}

const isNotFound = (e: unknown) => kindOf(e) === "not_found";
export const codeOf = (e: unknown): string => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === "string" ? c : "Error";
};
