/**
 * What the watch lists' part of the pane shows (watch-flow.ts acts on it): the section's markup, made
 * when the flows load (the page holds only its heading: the startup scripts carry none of this), a
 * list as an item with its buttons and companies, and the changes as rows of a table. Every text from
 * the server (names, values, lists) is set as text, never as markup.
 */
import { changeDate, changeValue, fieldLabel } from "../../shared/changes-table";
import { creditRange } from "../../shared/credit-range";
import { count, t, type Lang } from "../i18n";
import { ft } from "./texts";
import type { WatchChangeView, WatchListView } from "./watch-client";

/** The companies shown of a list (its name), with their names as the server last saw them. */
export interface Members {
  list: string;
  cuis: number[];
  names: Record<string, string>;
}

const COLUMN_KEYS = {
  company: "changes.col.company",
  field: "changes.col.field",
  before: "changes.col.before",
  after: "changes.col.after",
} as const;

/** The section's inside: the changes since the last visit, watch these companies, my lists. */
export function mountWatch(doc: Document): void {
  if (doc.getElementById("watch-go")) return;
  const body = doc.getElementById("watch-body");
  if (!body) return;
  body.innerHTML = `<p class="hint" data-flow-i18n="watch.intro"></p>
<h3 id="watch-changes-heading" data-flow-i18n="watch.changes.heading"></h3>
<p id="watch-changes-status" class="message" role="status" aria-live="polite" tabindex="-1"></p>
<div id="watch-changes-box" class="changes" hidden>
  <div class="table-wrap">
    <table id="watch-changes" aria-labelledby="watch-changes-heading">
      <thead><tr>
        <th scope="col" data-col="company"></th>
        <th scope="col" data-col="field"></th>
        <th scope="col" data-col="before"></th>
        <th scope="col" data-col="after"></th>
        <th scope="col" data-flow-i18n="watch.col.when"></th>
        <th scope="col" data-flow-i18n="watch.col.list"></th>
      </tr></thead>
      <tbody></tbody>
    </table>
  </div>
  <div class="button-row"><button id="watch-seen" type="button" data-flow-i18n="watch.changes.seen"></button></div>
</div>
<h3 data-flow-i18n="watch.add.heading"></h3>
<p class="hint" data-flow-i18n="watch.add.hint"></p>
<label for="watch-name" data-flow-i18n="watch.add.name"></label>
<input id="watch-name" type="text" list="watch-names" autocomplete="off" spellcheck="false" maxlength="64" />
<datalist id="watch-names"></datalist>
<div class="button-row"><button id="watch-go" type="button" data-flow-i18n="watch.add.go"></button></div>
<div id="watch-confirm" class="confirm" role="group" aria-labelledby="watch-confirm-text" hidden>
  <p id="watch-confirm-text"></p>
  <div class="button-row">
    <button id="watch-yes" type="button" data-flow-i18n="watch.add.yes"></button>
    <button id="watch-no" type="button" data-flow-i18n="flow.keep"></button>
  </div>
</div>
<p id="watch-status" class="message" role="status" aria-live="polite"></p>
<h3 data-flow-i18n="watch.lists.heading"></h3>
<p id="watch-lists-status" class="message" role="status" aria-live="polite" tabindex="-1"></p>
<ul id="watch-lists" class="watch-lists"></ul>
<h4 id="watch-following-heading" data-flow-i18n="watch.lists.following" hidden></h4>
<ul id="watch-following" class="watch-lists" hidden></ul>
<div id="watch-remove-confirm" class="confirm" role="group" aria-labelledby="watch-remove-text" hidden>
  <p id="watch-remove-text"></p>
  <div class="button-row">
    <button id="watch-remove-yes" type="button" class="danger" data-flow-i18n="watch.remove.yes"></button>
    <button id="watch-remove-no" type="button" data-flow-i18n="flow.keep"></button>
  </div>
</div>
<div class="button-row"><button id="watch-reload" type="button" data-flow-i18n="watch.reload"></button></div>`;
}

/** One list: its name, companies, schedule, cost a month, last check; its buttons (delete: hers only); its companies when shown. */
export function listItem(d: Document, lang: Lang, l: WatchListView, members: Members | null): HTMLElement {
  const li = d.createElement("li");
  li.dataset.list = l.name;
  const name = d.createElement("strong");
  name.textContent = l.name;
  const line = d.createElement("p");
  line.className = "hint";
  const schedule = l.scheduleDefault ? ft(lang, "watch.list.serverSchedule", { schedule: l.schedule }) : l.schedule;
  const month = creditRange(l.cost.low, l.cost.high, lang);
  line.textContent = ft(lang, "watch.list.line", { companies: count(l.companies, "company", lang), schedule, month });
  const check = d.createElement("p");
  check.className = "hint watch-check";
  const c = l.lastCheck;
  check.textContent = l.stopped
    ? ft(lang, "watch.list.stopped", { reason: l.stopped.reason })
    : !c
      ? ft(lang, "watch.list.never")
      : c.outcome === "incomplete"
        ? ft(lang, "watch.list.incomplete", {
            at: changeDate(c.at),
            reason: c.reason ?? "",
            unknown: count(c.unknown, "company", lang),
          })
        : ft(lang, "watch.list.checked", { at: changeDate(c.at), changes: count(c.changes, "change", lang) });
  const row = d.createElement("div");
  row.className = "button-row";
  const button = (act: string, text: string, label: string, danger = false) => {
    const b = d.createElement("button");
    b.type = "button";
    b.dataset.act = act;
    b.textContent = text;
    b.setAttribute("aria-label", label);
    if (danger) b.className = "danger";
    row.append(b);
    return b;
  };
  const show = button("members", ft(lang, "watch.list.members"), ft(lang, "watch.list.membersLabel", { list: l.name }));
  show.setAttribute("aria-expanded", String(members?.list === l.name));
  if (l.mine) button("remove", ft(lang, "watch.list.remove"), ft(lang, "watch.list.removeLabel", { list: l.name }), true);
  li.append(name, line, check, row);
  if (members?.list === l.name) li.append(membersBox(d, lang, l, members!));
  return li;
}

/** A list's companies: each with a box to tick (her lists), and the button that takes the ticked off. */
function membersBox(d: Document, lang: Lang, l: WatchListView, m: Members): HTMLElement {
  const box = d.createElement("fieldset");
  box.className = "watch-members";
  const legend = d.createElement("legend");
  legend.textContent = ft(lang, "watch.list.membersLabel", { list: l.name });
  box.append(legend);
  for (const cui of m.cuis) {
    const name = m.names[cui] ?? "";
    if (!l.mine) {
      const p = d.createElement("p");
      p.textContent = `${cui} ${name}`.trim();
      box.append(p);
      continue;
    }
    const label = d.createElement("label");
    label.className = "choice";
    const input = d.createElement("input");
    input.type = "checkbox";
    input.value = String(cui);
    input.setAttribute("aria-label", ft(lang, "watch.members.pick", { cui: String(cui), name }));
    const span = d.createElement("span");
    span.textContent = `${cui} ${name}`.trim();
    label.append(input, span);
    box.append(label);
  }
  if (l.mine) {
    const row = d.createElement("div");
    row.className = "button-row";
    const b = d.createElement("button");
    b.type = "button";
    b.dataset.act = "take-off";
    b.textContent = ft(lang, "watch.members.removeTicked");
    row.append(b);
    box.append(row);
  }
  return box;
}

/** The changes as rows of `table` (text only), its shared column headers in the pane's words. */
export function renderChangeRows(d: Document, table: HTMLElement, lang: Lang, changes: readonly WatchChangeView[]): void {
  // the pane's own words for the columns it shares with a refresh's changes (pane/changes-section.ts)
  table.querySelectorAll<HTMLElement>("th[data-col]").forEach((th) => {
    th.textContent = t(lang, COLUMN_KEYS[th.dataset.col as keyof typeof COLUMN_KEYS]);
  });
  const body = table.querySelector("tbody")!;
  body.replaceChildren();
  for (const x of changes) {
    const tr = d.createElement("tr");
    tr.dataset.id = String(x.id);
    const cell = (text: string, cls?: string) => {
      const td = d.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
      return td;
    };
    const company = cell(x.name ?? "");
    const cui = d.createElement("span");
    cui.className = "cui";
    cui.textContent = String(x.cui);
    company.append(cui);
    cell(fieldLabel(x.field, lang));
    cell(changeValue(x.before, lang), "before");
    cell(changeValue(x.after, lang), "after");
    cell(changeDate(x.seenAt));
    cell(x.list);
    body.append(tr);
  }
}
