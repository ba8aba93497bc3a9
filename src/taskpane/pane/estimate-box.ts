/**
 * What refreshing the formulas in scope would cost, as the refresh prepared it (`Prepared`), and its
 * box in the pane: formulas, companies, calls, credits, what is left, and notes on the figures.
 */
import type { Estimate } from "../../engine/engine";
import type { Scope, WorkbookScan } from "../excel";
import { count, formatNumber, t, type Lang } from "../i18n";
import type { RefreshPlan } from "../refresh-plan";
import { needsConfirmation } from "../usage";
import type { PaneContext } from "./context";
import type { Id } from "./elements";

export interface Prepared {
  scope: Scope;
  scan: WorkbookScan;
  plan: RefreshPlan;
  estimate: Estimate;
  left: number | null;
  /** How old the cached answers behind these cells are: the age of the workbook's data. */
  age: { oldest: number | null; newest: number | null; cached: number; missing: number };
}

export function renderEstimate(ctx: PaneContext, p: Prepared): void {
  const l = ctx.lang;
  const el = ctx.el;
  const set = (id: Id, n: number | null, text?: string) => {
    el[id].textContent = text ?? (n === null ? "" : formatNumber(n, l));
    el[id].dataset.value = n === null ? "" : String(n);
  };
  el["estimate-box"].hidden = false;
  set("est-formulas", p.plan.formulas.length);
  set("est-cuis", p.estimate.distinctCuis);
  set("est-batches", p.estimate.calls);
  set("est-credits", p.estimate.credits, creditsText(p.estimate, l));
  el["est-credits"].dataset.exact = String(p.estimate.exact);
  el["est-credits"].dataset.low = String(p.estimate.ifAnswered);
  set("est-left", p.left, p.left === null ? t(l, "usage.unknown") : formatNumber(p.left, l));
  el["est-credits"].parentElement!.classList.toggle("over", needsConfirmation(p.estimate.credits, p.left));
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
  if (!p.estimate.exact) notes.push(t(l, isRange(p.estimate) ? "est.rangeNote" : "est.atMostNote"));
  if (p.estimate.invalid > 0) notes.push(t(l, "est.invalid", { cells: count(p.estimate.invalid, "cell", l) }));
  if (p.plan.unestimable > 0) notes.push(t(l, "est.unestimable", { formulas: count(p.plan.unestimable, "firmaFormula", l) }));
  if (p.plan.listsLeftOut > 0) notes.push(t(l, "est.lists", { formulas: count(p.plan.listsLeftOut, "firmaFormula", l) }));
  el["est-notes"].replaceChildren(
    ...notes.map((n) => {
      const li = ctx.doc.createElement("li");
      li.textContent = n;
      return li;
    }),
  );
}

/** The estimate is a range: the service's behaviour is unknown and changes the count (the refresh's first call settles it). */
export function isRange(e: Estimate): boolean {
  return !e.exact && e.ifAnswered < e.credits;
}

/**
 * The credits as the box shows them: exact, a range ("8 if the service answers every field, at most
 * 232": the upper bound is the refresh's budget), or "at most" (undefined: the plain number).
 */
export function creditsText(e: Estimate, l: Lang): string | undefined {
  if (e.exact) return undefined;
  const high = formatNumber(e.credits, l);
  return isRange(e) ? t(l, "est.range", { low: formatNumber(e.ifAnswered, l), high }) : t(l, "est.atMost", { credits: high });
}
