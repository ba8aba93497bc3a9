/**
 * One progress bar of the Plan and usage part (the plan's day and month, a firm person's budget):
 * its fill, its colour past 80 % and at 100 %, and what a screen reader says of it.
 */
import type { MeterView } from "../usage";

/** Shows `m` on `bar` (an element with role=progressbar whose first child is the fill); `text` is what it reads. */
export function paintBar(bar: HTMLElement, m: MeterView, text: string): void {
  const fill = bar.firstElementChild as HTMLElement;
  bar.dataset.used = String(m.used);
  bar.setAttribute("aria-valuenow", String(m.used));
  if (m.limit === null) {
    bar.hidden = true;
    bar.removeAttribute("aria-valuemax");
    delete bar.dataset.limit;
    return;
  }
  const pct = m.pct ?? 0;
  bar.hidden = false;
  bar.dataset.limit = String(m.limit);
  bar.setAttribute("aria-valuemax", String(m.limit));
  bar.setAttribute("aria-valuetext", text);
  // a sliver as soon as anything is used, so that the bar never looks empty when it is not
  fill.style.width = `${Math.min(100, Math.max(pct, m.used > 0 ? 1 : 0))}%`;
  bar.classList.toggle("warn", pct >= 80 && pct < 100);
  bar.classList.toggle("full", pct >= 100);
}
