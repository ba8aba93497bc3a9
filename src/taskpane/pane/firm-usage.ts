/**
 * The Plan and usage part for a person of a firm's server (firm.ts): her monthly budget, what she
 * spent and what is left, from the server's `/firm/me` — in place of the plan's meters, which count
 * this computer only and the plan's credits, not hers. When the server refuses the token, or does
 * not answer, it says so (with the last figures it gave, if any).
 *
 * The plan's parts carry the class `plan-only` in taskpane.html; `data-firm` on the section hides
 * them (sections.css).
 */
import { count, formatNumber, t } from "../i18n";
import { firmUsageView } from "../usage";
import type { PaneContext } from "./context";
import type { FirmState } from "./firm";
import { paintBar } from "./meter-bar";

/** Shows `state`; returns what is left of her budget, or null when the plan's figures stand. */
export function renderFirmUsage(ctx: PaneContext, state: FirmState): number | null {
  const doc = ctx.doc;
  const byId = (id: string) => doc.getElementById(id);
  const section = byId("usage-section");
  const box = byId("firm-usage");
  if (!section || !box) return null;
  const l = ctx.lang;
  if (state.kind === "none") {
    delete section.dataset.firm;
    box.hidden = true;
    return null;
  }
  section.dataset.firm = state.kind;
  box.hidden = false;
  const me = state.kind === "connected" ? state.me : state.kind === "unreachable" ? state.last : null;
  const status = byId("firm-usage-status")!;
  for (const id of ["firm-usage-who", "firm-meter", "firm-facts"]) byId(id)!.hidden = me === null;
  if (me === null) {
    ctx.show(status, t(l, state.kind === "refused" ? "pane.firm.refused" : "pane.firm.unreachable"), "error");
    return null;
  }
  const v = firmUsageView(me);
  byId("firm-usage-who")!.textContent = t(l, "pane.firm.who", { name: me.name, month: me.month });
  const text = byId("firm-meter-text")!;
  text.textContent = t(l, "usage.ofLimit", { used: formatNumber(me.spent, l), limit: count(me.budget, "credit", l) });
  paintBar(byId("firm-meter-bar")!, v.month, text.textContent);
  const fact = (id: string, n: number) => {
    const dd = byId(id)!;
    dd.textContent = formatNumber(n, l);
    dd.dataset.value = String(n);
  };
  fact("firm-budget", me.budget);
  fact("firm-spent", me.spent);
  fact("firm-remaining", me.remaining);
  if (state.kind === "unreachable") ctx.show(status, t(l, "pane.firm.stale"), "warn");
  else if (v.warning === 100) ctx.show(status, t(l, "pane.firm.warn100"), "error");
  else if (v.warning === 80) ctx.show(status, t(l, "pane.firm.warn80", { pct: v.month.pct ?? 80 }), "warn");
  else ctx.show(status, "", "info");
  return me.remaining;
}
