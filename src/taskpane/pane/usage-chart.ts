/**
 * The month's credits, a bar a day, as an SVG chart with a caption that says the same in words.
 */
import { t, type Lang } from "../i18n";
import type { UsageView } from "../usage";

const NS = "http://www.w3.org/2000/svg";

/** Draws the chart of `v` into `box` and writes its label into `caption`. */
export function renderUsageChart(doc: Document, box: HTMLElement, caption: HTMLElement, v: UsageView, lang: Lang): void {
  const w = 8;
  const gap = 2;
  const h = 48;
  const width = v.daysInMonth * (w + gap);
  const max = Math.max(1, ...v.daily.map((d) => d.credits));
  const svg = doc.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${h + 12}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("preserveAspectRatio", "none");
  const used = v.daily.filter((d) => d.credits > 0);
  const label = used.length
    ? t(lang, "usage.chartLabel", { max: Math.max(...used.map((d) => d.credits)), today: v.daily[v.dayOfMonth - 1]?.credits ?? 0 })
    : t(lang, "usage.chartEmpty");
  svg.setAttribute("aria-label", label);
  caption.textContent = label;
  const base = doc.createElementNS(NS, "line");
  Object.entries({ x1: 0, x2: width, y1: h + 0.5, y2: h + 0.5, class: "axis" }).forEach(([k, val]) => base.setAttribute(k, String(val)));
  svg.append(base);
  for (const d of v.daily) {
    const x = (d.day - 1) * (w + gap) + gap / 2;
    const bh = d.credits > 0 ? Math.max(2, Math.round((d.credits / max) * h)) : 0;
    const r = doc.createElementNS(NS, "rect");
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
      const tx = doc.createElementNS(NS, "text");
      Object.entries({ x: x + w / 2, y: h + 11, class: "tick" }).forEach(([k, val]) => tx.setAttribute(k, String(val)));
      tx.textContent = String(d.day);
      svg.append(tx);
    }
  }
  box.replaceChildren(svg);
}
