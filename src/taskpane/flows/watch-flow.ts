/**
 * The firm's watch lists in the pane, for a person connected to the firm's server with her token
 * (pane/firm.ts): "Watch these companies" on a selection, "My lists" and "Changes for you since your
 * last visit" (the server's side: src/server/firm/watch-routes.ts; the questions: watch-client.ts).
 *
 *  - Watch: the CUI column of the selection is read as Add columns reads it (columns-flow.ts cuiSource);
 *    a value that is not a valid CUI is refused here with its row, and nothing is sent. The server
 *    quotes the month's cost for the list (a new one, or one of hers) and whether it fits her budget;
 *    she is asked, the safe answer focused (Escape gives it); only then is the list added, as HERS.
 *  - My lists: name, companies, schedule, cost a month, the last check and its outcome; her lists'
 *    companies can be taken off, and her lists deleted, each after a question. The firm's lists that
 *    alert her address are shown read-only, under their own heading; another person's, never.
 *  - Changes: those committed after the last change she marked seen (kept in the settings' storage per
 *    server and person: watch-client.ts seenId), shown as text in a table: company, field, before,
 *    after, when, list. "Mark as seen" keeps the last id shown; a later visit starts after it.
 * What it shows is drawn by watch-view.ts; every text from the server (names, values, messages) is set
 * as text, never as markup.
 */
import { parseCui } from "../../api/cui";
import { creditRange } from "../../shared/credit-range";
import { colToLetters as letters } from "../../shared/sheet/a1";
import { count, formatNumber, type Lang } from "../i18n";
import type { PaneContext, Render } from "../pane/context";
import { cuiSource, MAX_ROWS } from "./columns-flow";
import type { FlowDeps } from "./flow-sheet";
import { byId, Confirm, noSheet, problemText } from "./flow-ui";
import { ft } from "./texts";
import { MAX_WATCH_CUIS, saveSeenId, seenId, WatchClient, type Answer, type WatchChanges, type WatchLists } from "./watch-client";
import { listItem, renderChangeRows, type Members } from "./watch-view";

/** A list's name as the server takes it (src/server/firm/tokens.ts isUserName). */
const LIST_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Invalid rows named in the refusal: the first ones, then how many more. */
const SHOWN_ROWS = 10;
/** Columns a selection may have: the CUIs are found among them as Add columns finds them. */
const MAX_COLS = 20;

export class WatchFlow {
  private readonly confirm: Confirm;
  private readonly removeConfirm: Confirm;
  private lists: WatchLists | null = null;
  private changes: WatchChanges | null = null;
  /** Where the last change shown is kept (per server and person), once the lists said who she is. */
  private seenKey: string | null = null;
  /** The companies shown of a list (its name), with their names as the server last saw them. */
  private members: Members | null = null;

  constructor(
    private readonly ctx: PaneContext,
    private readonly deps: FlowDeps,
    private readonly client: WatchClient = new WatchClient(() => ctx.lang),
  ) {
    const d = ctx.doc;
    this.confirm = new Confirm(ctx, "watch-confirm", "watch-confirm-text", "watch-yes", "watch-no");
    this.removeConfirm = new Confirm(ctx, "watch-remove-confirm", "watch-remove-text", "watch-remove-yes", "watch-remove-no");
    byId(d, "watch-go").addEventListener("click", () => void deps.track(this.watch()));
    byId(d, "watch-name").addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key !== "Enter") return;
      e.preventDefault();
      void deps.track(this.watch());
    });
    byId(d, "watch-seen").addEventListener("click", () => void deps.track(this.markSeen()));
    byId(d, "watch-reload").addEventListener("click", () => void deps.track(this.open()));
    byId(d, "watch-lists").addEventListener("click", (e) => {
      const button = (e.target as HTMLElement).closest("button");
      const list = button?.closest<HTMLElement>("[data-list]")?.dataset.list;
      if (!button || list === undefined) return;
      if (button.dataset.act === "members") void deps.track(this.showMembers(list));
      else if (button.dataset.act === "remove") void deps.track(this.removeList(list, button));
      else if (button.dataset.act === "take-off") void deps.track(this.removeTicked(list, button));
    });
    byId(d, "watch-following").addEventListener("click", (e) => {
      const button = (e.target as HTMLElement).closest("button");
      const list = button?.closest<HTMLElement>("[data-list]")?.dataset.list;
      if (button?.dataset.act === "members" && list !== undefined) void deps.track(this.showMembers(list));
    });
  }

  private el(id: string): HTMLElement {
    return byId(this.ctx.doc, id);
  }

  /** An answer that is not one, in the user's words: no token, no answer, or the server's refusal as it wrote it. */
  private failure(a: Extract<Answer<unknown>, { ok: false }>): Render {
    if (a.code === "no_token") return (l) => ft(l, "watch.noToken");
    if (a.status === 0) return (l) => ft(l, "watch.unreachable");
    return (l) => ft(l, "watch.refused", { status: String(a.status), message: a.message ?? "" });
  }

  /** Reads her lists and the changes since her last visit (the section opened, Reload, a key saved). */
  async open(): Promise<void> {
    const ctx = this.ctx;
    const status = this.el("watch-lists-status");
    ctx.say(status, (l) => ft(l, "watch.lists.loading"), "info");
    const got = await this.client.lists();
    if (!got.ok) {
      this.lists = null;
      this.changes = null;
      this.renderLists();
      this.renderChanges();
      ctx.say(status, this.failure(got), got.code === "no_token" ? "warn" : "error");
      return;
    }
    this.lists = got.body;
    this.seenKey = this.client.seenKey(got.body.owner);
    this.renderLists();
    await this.loadChanges();
  }

  private async loadChanges(): Promise<void> {
    const status = this.el("watch-changes-status");
    const after = this.seenKey === null ? 0 : await seenId(this.seenKey);
    const got = await this.client.changes(after);
    if (!got.ok) {
      this.changes = null;
      this.renderChanges();
      return void this.ctx.say(status, this.failure(got), "error");
    }
    this.changes = got.body;
    this.renderChanges();
  }

  /** Her lists and those she follows, as the last answer gave them, in the pane's language. */
  renderLists(): void {
    const ctx = this.ctx;
    const d = ctx.doc;
    const mine = this.el("watch-lists");
    const following = this.el("watch-following");
    mine.replaceChildren();
    following.replaceChildren();
    const names = this.el("watch-names");
    names.replaceChildren();
    const data = this.lists;
    this.el("watch-following-heading").hidden = following.hidden = !data || data.following.length === 0;
    if (!data) return;
    for (const l of data.lists) {
      mine.append(listItem(d, ctx.lang, l, this.members));
      const o = d.createElement("option");
      o.value = l.name;
      names.append(o);
    }
    for (const l of data.following) following.append(listItem(d, ctx.lang, l, this.members));
    const n = data.lists.length;
    ctx.say(
      this.el("watch-lists-status"),
      (lang) => (n === 0 ? ft(lang, "watch.lists.none") : ft(lang, "watch.lists.shown", { n })),
      "info",
    );
  }

  /** The changes since her last visit, as the last answer gave them. */
  renderChanges(): void {
    const ctx = this.ctx;
    const c = this.changes;
    renderChangeRows(ctx.doc, this.el("watch-changes"), ctx.lang, c?.changes ?? []);
    this.el("watch-changes-box").hidden = !c || c.changes.length === 0;
    if (!c) return ctx.clear(this.el("watch-changes-status"));
    const n = c.changes.length;
    ctx.say(
      this.el("watch-changes-status"),
      (l) =>
        n === 0
          ? ft(l, "watch.changes.none")
          : ft(l, c.more ? "watch.changes.foundMore" : "watch.changes.found", { changes: count(n, "change", l) }),
      n === 0 ? "info" : "warn",
    );
  }

  /** Keeps the last change shown as seen: the next visit starts after it (and a page left shows next). */
  async markSeen(): Promise<void> {
    const c = this.changes;
    if (!c || c.changes.length === 0 || this.seenKey === null) return;
    await saveSeenId(this.seenKey, c.last);
    this.ctx.say(this.el("watch-status"), (l) => ft(l, "watch.changes.marked"), "ok");
    await this.loadChanges();
    // the button is gone with the table: the focus goes to what the pane says now
    if (this.el("watch-changes-box").hidden) this.el("watch-changes-status").focus();
  }

  /** "Watch these companies": the selection's CUIs, the server's quote, her answer, then the list. */
  async watch(): Promise<void> {
    const ctx = this.ctx;
    const status = this.el("watch-status");
    const go = this.el("watch-go");
    const name = (this.el("watch-name") as HTMLInputElement).value.trim();
    if (name === "") return void ctx.say(status, (l) => ft(l, "watch.add.noName"), "error");
    if (!LIST_NAME.test(name)) return void ctx.say(status, (l) => ft(l, "watch.add.badName", { name: name.slice(0, 80) }), "error");
    const read = await this.readCuis();
    if ("render" in read) return void ctx.say(status, read.render, "error");
    const cuis = read.cuis;
    ctx.say(status, (l) => ft(l, "watch.add.asking"), "info");
    const quote = await this.client.quote(name, cuis);
    if (!quote.ok) return void ctx.say(status, this.failure(quote), "error");
    const q = quote.body;
    if (q.message !== null) return void ctx.say(status, () => q.message ?? "", "error");
    if (q.adding === 0)
      return void ctx.say(
        status,
        (l) => ft(l, "watch.add.nothingNew", { companies: count(cuis.length, "company", l), list: name }),
        "info",
      );
    const params = (l: Lang) => ({
      list: name,
      companies: count(q.companies, "company", l),
      adding: formatNumber(q.adding, l),
      already: formatNumber(q.already, l),
      month: creditRange(q.cost.monthly.low, q.cost.monthly.high, l),
      checks: formatNumber(q.cost.checksPerMonth, l),
      perCheck:
        q.cost.perCheck.low === q.cost.perCheck.high
          ? formatNumber(q.cost.perCheck.low, l)
          : `${formatNumber(q.cost.perCheck.low, l)}–${formatNumber(q.cost.perCheck.high, l)}`,
      financial: formatNumber(q.cost.financial, l),
      total: count(q.budget.total, "credit", l),
      budget: formatNumber(q.budget.budget, l),
    });
    ctx.clear(status);
    const yes = await this.confirm.ask((l) => ft(l, q.exists ? "watch.add.confirmMore" : "watch.add.confirmNew", params(l)));
    if (!yes) {
      go.focus();
      return void ctx.say(status, (l) => ft(l, "watch.add.cancelled"), "info");
    }
    const added = await this.client.add(name, cuis);
    go.focus();
    if (!added.ok) return void ctx.say(status, this.failure(added), "error");
    const total = added.body.companies;
    ctx.say(status, (l) => ft(l, "watch.add.done", { list: name, companies: count(total, "company", l) }), "ok");
    await this.open();
  }

  /** The CUIs of the selection's CUI column, or why there are none to send (an invalid value: its row). */
  private async readCuis(): Promise<{ cuis: number[] } | { render: Render }> {
    const sheet = await this.deps.sheet();
    if (!sheet) return { render: noSheet(this.ctx) };
    const s = await sheet.selection({ maxCols: MAX_COLS, maxRows: MAX_ROWS, width: 0, readOnly: true });
    if ("problem" in s) {
      const p = s.problem;
      if (p === "hidden_rows") return { render: (l) => ft(l, "watch.problem.hiddenRows") };
      return { render: (l) => problemText(l, p, { max: formatNumber(p === "too_wide" ? MAX_COLS : MAX_ROWS, l) }) };
    }
    const found = cuiSource(s);
    if (!found) return { render: (l) => ft(l, "columns.noCuis") };
    const { sel, col } = found;
    const cuis = new Set<number>();
    const invalid: { row: number; text: string }[] = [];
    sel.values.forEach((r, i) => {
      const v = r[col];
      if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) return;
      const p = parseCui(v);
      if (p.ok) cuis.add(p.cui);
      else invalid.push({ row: sel.top + i, text: String(v).slice(0, 40) });
    });
    const column = letters(sel.left + col);
    if (invalid.length > 0) {
      return {
        render: (l) => {
          const rows = invalid
            .slice(0, SHOWN_ROWS)
            .map((b) => ft(l, "watch.add.row", { row: String(b.row), text: b.text }))
            .join("; ");
          const more = invalid.length > SHOWN_ROWS ? ` ${ft(l, "watch.add.more", { n: invalid.length - SHOWN_ROWS })}` : "";
          return ft(l, "watch.add.invalid", { column, n: invalid.length, rows: `${rows}${more}` });
        },
      };
    }
    if (cuis.size === 0) return { render: (l) => ft(l, "columns.noCuis") };
    if (cuis.size > MAX_WATCH_CUIS) return { render: (l) => ft(l, "watch.add.tooMany", { max: MAX_WATCH_CUIS }) };
    return { cuis: [...cuis] };
  }

  /** Shows (or hides) a list's companies. */
  async showMembers(list: string): Promise<void> {
    if (this.members?.list === list) {
      this.members = null;
      this.renderLists();
      return this.refocus(list, "members");
    }
    const got = await this.client.members(list);
    if (!got.ok) return void this.ctx.say(this.el("watch-lists-status"), this.failure(got), "error");
    this.members = { list, cuis: got.body.cuis, names: got.body.names };
    this.renderLists();
    this.refocus(list, "members");
  }

  /** After the lists were drawn again: the focus on the same button of the same list (else the lists' status). */
  private refocus(list: string, act: string): void {
    const item = [...this.ctx.doc.querySelectorAll<HTMLElement>("#watch-lists [data-list], #watch-following [data-list]")].find(
      (x) => x.dataset.list === list,
    );
    const b = item?.querySelector<HTMLElement>(`button[data-act="${act}"]`);
    (b ?? this.el("watch-lists-status")).focus();
  }

  /** Deletes her list, after a question whose safe answer keeps it. */
  async removeList(list: string, button: HTMLElement): Promise<void> {
    const l = this.lists?.lists.find((x) => x.name === list);
    if (!l) return;
    const yes = await this.removeConfirm.ask((lang) =>
      ft(lang, "watch.list.removeConfirm", { list, companies: count(l.companies, "company", lang) }),
    );
    if (!yes) return void button.focus();
    const got = await this.client.removeList(list);
    const status = this.el("watch-lists-status");
    if (!got.ok) {
      button.focus();
      return void this.ctx.say(status, this.failure(got), "error");
    }
    if (this.members?.list === list) this.members = null;
    await this.open();
    this.ctx.say(status, (lang) => ft(lang, "watch.list.removed", { list }), "ok");
    status.focus();
  }

  /** Takes the ticked companies off her list, after a question whose safe answer keeps them. */
  async removeTicked(list: string, button: HTMLElement): Promise<void> {
    const item = button.closest("[data-list]");
    const ticked = [...(item?.querySelectorAll<HTMLInputElement>(".watch-members input:checked") ?? [])].map((x) => Number(x.value));
    const status = this.el("watch-lists-status");
    if (ticked.length === 0) return void this.ctx.say(status, (l) => ft(l, "watch.members.tickSome"), "warn");
    const yes = await this.removeConfirm.ask((l) =>
      ft(l, "watch.members.confirm", { list, companies: count(ticked.length, "company", l) }),
    );
    if (!yes) return void button.focus();
    const got = await this.client.removeMembers(list, ticked);
    if (!got.ok) {
      button.focus();
      return void this.ctx.say(status, this.failure(got), "error");
    }
    const n = got.body.removed.length;
    this.members = null;
    await this.open();
    const again = await this.client.members(list);
    if (again.ok) this.members = { list, cuis: again.body.cuis, names: again.body.names };
    this.renderLists();
    this.ctx.say(status, (l) => ft(l, "watch.members.removed", { list, companies: count(n, "company", l) }), "ok");
    status.focus();
  }

  applyLanguage(): void {
    this.renderLists();
    this.renderChanges();
  }

  /** Escape: an open question closes with its safe answer. */
  escape(): boolean {
    return this.confirm.escape() || this.removeConfirm.escape();
  }
}
