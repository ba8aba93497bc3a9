/**
 * "Match a column of names": names selected (and optionally their counties beside), the estimate
 * (engine.matchEstimate: a range) shown first, then on Go the CUI, the official name found and a
 * confidence word written beside the selection. Only "sure" fills the CUI; likely and ambiguous rows
 * are listed in the pane with their candidates, one click to choose (which writes that row's CUI and
 * name). A name not searched says why (its problem, or the stop that came first), never "not found".
 * The search itself is the engine's (src/engine/match, engine.match): cached like FIRMA.CAUTA's lists
 * and behind the same gate (budget, guard, quota stop).
 */
import type { FirmaEngine, MatchCandidate, MatchEstimate, MatchOutcome, MatchStop } from "../../engine/engine";
import { loadMatching } from "../../engine/match/lazy";
import type { Area, Write } from "../blocks";
import { count, formatNumber, t, type Lang } from "../i18n";
import type { PaneContext } from "../pane/context";
import type { ColumnSelection, FlowDeps } from "./flow-sheet";
import { byId, Confirm, problemText, noSheet } from "./flow-ui";
import { codeOf } from "./search-flow";
import { ft, type FlowKey } from "./texts";

/** The most names one run takes (the estimate and the guard decide whether it may spend). */
export const MAX_NAMES = 50_000;
/** Columns written beside the selection: CUI, the official name, the confidence. */
const OUT_COLS = 3;
/** Rows listed for a choice at most (the rest are named by count). */
const LISTED = 200;

const WORD: Readonly<Record<MatchOutcome["confidence"], FlowKey>> = {
  sure: "match.word.sure",
  likely: "match.word.likely",
  ambiguous: "match.word.ambiguous",
  not_found: "match.word.notFound",
  not_searched: "match.word.notSearched",
};
const STOP: Readonly<Record<MatchStop, FlowKey>> = {
  budget: "match.stop.budget",
  quota: "match.stop.quota",
  guard: "match.stop.guard",
  plan: "match.stop.plan",
  key: "match.stop.key",
  service: "match.stop.service",
  aborted: "match.stop.aborted",
};
const PROBLEM: Readonly<Record<string, FlowKey>> = {
  empty: "match.problem.empty",
  not_text: "match.problem.notText",
  too_short: "match.problem.tooShort",
  only_legal_form: "match.problem.onlyLegalForm",
  unknown_county: "match.problem.unknownCounty",
};

/** The confidence word a row shows, Romanian first: a name not searched says why. */
export function confidenceText(o: MatchOutcome, lang: Lang): string {
  const word = ft(lang, WORD[o.confidence]);
  if (o.confidence !== "not_searched") return word;
  const why = o.problem
    ? ft(lang, PROBLEM[o.problem.kind] ?? "match.problem.empty", { detail: o.problem.detail ?? "" })
    : o.stoppedBy
      ? ft(lang, STOP[o.stoppedBy])
      : "";
  return why ? `${word}: ${why}` : word;
}

/** The row written for an outcome: the CUI and official name only when sure. */
export function outputRow(o: MatchOutcome, lang: Lang): [number | string, string, string] {
  return o.confidence === "sure" && o.cui !== undefined
    ? [o.cui, o.officialName ?? "", confidenceText(o, lang)]
    : ["", "", confidenceText(o, lang)];
}

interface Pending {
  row: number;
  name: string;
  outcome: MatchOutcome;
}

export class MatchFlow {
  private source: ColumnSelection | null = null;
  private estimate: MatchEstimate | null = null;
  private out: Area | null = null;
  private pending: Pending[] = [];
  private readonly confirm: Confirm;

  constructor(
    private readonly ctx: PaneContext,
    private readonly deps: FlowDeps,
  ) {
    this.confirm = new Confirm(ctx, "match-confirm", "match-confirm-text", "match-yes", "match-no");
    byId(ctx.doc, "match-read").addEventListener("click", () => void deps.track(this.read()));
    byId(ctx.doc, "match-go").addEventListener("click", () => void deps.track(this.go()));
  }

  private get status(): HTMLElement {
    return byId(this.ctx.doc, "match-status");
  }

  private inputs(s: ColumnSelection) {
    return s.values.map((r) => (s.cols > 1 ? { name: r[0], county: r[1] } : { name: r[0] }));
  }

  /** Reads the selection and shows the estimate; a bad selection is refused with its reason, for free. */
  async read(): Promise<boolean> {
    const ctx = this.ctx;
    const box = byId(ctx.doc, "match-estimate");
    const go = byId(ctx.doc, "match-go") as HTMLButtonElement;
    this.source = null;
    this.estimate = null;
    go.disabled = true;
    const sheet = await this.deps.sheet();
    if (!sheet) return (ctx.say(box, noSheet(ctx), "warn"), false);
    const s = await sheet.selection({ maxCols: 2, maxRows: MAX_NAMES, width: OUT_COLS });
    if ("problem" in s) {
      ctx.say(box, (l) => problemText(l, s.problem, { max: formatNumber(s.problem === "too_wide" ? 2 : MAX_NAMES, l) }), "error");
      box.dataset.problem = s.problem;
      return false;
    }
    delete box.dataset.problem;
    // Numbers are no names: a column of CUIs belongs to "Add columns".
    const texts = s.values.filter((r) => typeof r[0] === "string" && r[0].trim() !== "").length;
    if (texts === 0) {
      const numbers = s.values.some((r) => typeof r[0] === "number");
      ctx.say(box, (l) => ft(l, numbers ? "match.numbers" : "match.noNames"), "error");
      box.dataset.problem = numbers ? "numbers" : "empty";
      return false;
    }
    const m = await ctx.engine();
    // Matching is loaded when first needed (src/engine/match/lazy.ts): loaded now, its estimate is exact
    // (the range of the service's search still unknown); without it, a coarse upper bound.
    await loadMatching().catch(() => undefined);
    const est = m.matchEstimate(this.inputs(s));
    this.source = s;
    this.estimate = est;
    box.dataset.min = String(est.min);
    box.dataset.max = String(est.max);
    ctx.say(
      box,
      (l) =>
        ft(l, est.min === est.max ? "match.estimateExact" : "match.estimate", {
          names: formatNumber(s.rows, l),
          distinct: formatNumber(est.distinct, l),
          cached: formatNumber(est.cached, l),
          invalid: formatNumber(est.invalid, l),
          min: formatNumber(est.min, l),
          credits: count(est.max, "credit", l),
        }),
      "info",
    );
    go.disabled = false;
    return true;
  }

  /** Go: the checks (room, what would be replaced, the credits), the run, the write, the rows to choose. */
  async go(): Promise<void> {
    const ctx = this.ctx;
    const status = this.status;
    if (ctx.working) return;
    if (!(await this.read())) return;
    const s = this.source!;
    const est = this.estimate!;
    const sheet = (await this.deps.sheet())!;
    const m: FirmaEngine = await ctx.engine();
    const left = s.left + s.cols;
    if (left + OUT_COLS - 1 > 16_384) return void ctx.say(status, (l) => problemText(l, "no_room"), "error");
    const out: Area = { sheet: s.sheet, top: s.top, left, rows: s.rows, cols: OUT_COLS };
    const header: Area | null = s.headerRow === null ? null : { ...out, top: s.headerRow, rows: 1 };
    const view = ctx.view(m);
    if (view.left !== null && est.min > view.left) {
      return void ctx.say(
        status,
        (l) => ft(l, "flow.tooDear", { credits: count(est.min, "credit", l), left: formatNumber(view.left!, l) }),
        "error",
      );
    }
    const limit = m.credits().guardLimit();
    if (limit !== null && est.max > limit) {
      const yes = await this.confirm.ask((l) =>
        ft(l, "match.overGuard", { credits: count(est.max, "credit", l), limit: count(limit, "credit", l) }),
      );
      if (!yes) return void ctx.say(status, (l) => ft(l, "match.cancelled"), "info");
    }
    const taken = await sheet.nonEmpty(header ? [header, out] : [out]);
    if (taken > 0 && !(await this.confirm.ask((l) => ft(l, "flow.overwrite", { cells: count(taken, "cell", l) })))) {
      return void ctx.say(status, (l) => ft(l, "flow.notWritten"), "info");
    }
    const progress = byId(ctx.doc, "match-progress") as HTMLProgressElement;
    progress.hidden = false;
    progress.value = 0;
    ctx.setWorking(true);
    try {
      ctx.say(status, (l) => ft(l, "match.running"), "info");
      const maxCredits = view.left === null ? est.max : Math.min(est.max, view.left === Infinity ? est.max : view.left);
      const report = await m.match(this.inputs(s), {
        maxCredits,
        onProgress: (done, total) => {
          progress.max = Math.max(1, total);
          progress.value = done;
        },
      });
      const lang = ctx.lang;
      const rows = report.outcomes.map((o) => outputRow(o, lang));
      const writes: Write[] = [];
      if (header) {
        const h = [ft(lang, "match.col.cui"), ft(lang, "match.col.name"), ft(lang, "match.col.confidence")];
        writes.push({ area: header, property: "numberFormat", data: [h.map(() => "@")] });
        writes.push({ area: header, property: "values", data: [h] });
      }
      writes.push({ area: { ...out, left: out.left + 1, cols: 2 }, property: "numberFormat", data: rows.map(() => ["@", "@"]) });
      writes.push({ area: out, property: "values", data: rows });
      await sheet.write(writes);
      this.out = out;
      this.pending = report.outcomes
        .map((o, i) => ({ row: out.top + i, name: String(s.values[i][0] ?? ""), outcome: o }))
        .filter((p) => p.outcome.confidence === "likely" || p.outcome.confidence === "ambiguous");
      const by = (c: MatchOutcome["confidence"]) => report.outcomes.filter((o) => o.confidence === c).length;
      const tally = {
        sure: by("sure"),
        likely: by("likely"),
        ambiguous: by("ambiguous"),
        notFound: by("not_found"),
        notSearched: by("not_searched"),
      };
      status.dataset.credits = String(report.credits);
      status.dataset.uncertain = String(report.uncertain);
      status.dataset.tally = JSON.stringify(tally);
      // Calls without an answer saying whether the service charged them are counted, and named as such.
      const uncertain = (l: Lang) =>
        report.uncertain > 0 ? " " + t(l, "refresh.uncertain", { calls: count(report.uncertain, "call", l) }) : "";
      ctx.say(
        status,
        (l) =>
          ft(l, "match.done", {
            sure: formatNumber(tally.sure, l),
            likely: formatNumber(tally.likely, l),
            ambiguous: formatNumber(tally.ambiguous, l),
            notFound: formatNumber(tally.notFound, l),
            notSearched: formatNumber(tally.notSearched, l),
            credits: count(report.credits, "credit", l),
          }) + uncertain(l),
        tally.notSearched > 0 ? "warn" : "ok",
      );
      this.renderPending();
    } catch (e) {
      ctx.say(status, (l) => ft(l, "flow.writeFailed", { code: codeOf(e) }), "error");
    } finally {
      progress.hidden = true;
      ctx.setWorking(false);
      await this.deps.renderUsage();
    }
  }

  /** The likely and ambiguous rows, each with its candidates as buttons: one click chooses. */
  renderPending(): void {
    const doc = this.ctx.doc;
    const l = this.ctx.lang;
    const list = byId(doc, "match-pending");
    list.replaceChildren();
    const box = byId(doc, "match-choose");
    box.hidden = this.pending.length === 0;
    byId(doc, "match-choose-summary").textContent = ft(l, "match.chooseSummary", {
      rows: formatNumber(this.pending.length, l),
      listed: formatNumber(Math.min(LISTED, this.pending.length), l),
    });
    for (const p of this.pending.slice(0, LISTED)) {
      const li = doc.createElement("li");
      li.dataset.row = String(p.row);
      const head = doc.createElement("p");
      head.className = "pending-name";
      head.textContent = ft(l, "match.rowName", { row: String(p.row), name: p.name, word: confidenceText(p.outcome, l) });
      const group = doc.createElement("div");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", ft(l, "match.candidatesFor", { name: p.name }));
      for (const c of p.outcome.candidates) {
        const b = doc.createElement("button");
        b.type = "button";
        b.className = "candidate";
        b.dataset.cui = String(c.cui);
        b.textContent = [c.denumire, `CUI ${c.cui}`, c.judet, c.localitate, c.stare].filter((x) => x).join(" · ");
        b.addEventListener("click", () => void this.deps.track(this.choose(p, c)));
        group.append(b);
      }
      li.append(head, group);
      list.append(li);
    }
  }

  /** One click: that row's CUI and name written, its confidence "chosen"; the row leaves the list. */
  async choose(p: Pending, c: MatchCandidate): Promise<void> {
    const ctx = this.ctx;
    const sheet = await this.deps.sheet();
    if (!sheet || !this.out) return;
    const area: Area = { ...this.out, top: p.row, rows: 1 };
    try {
      await sheet.write([
        { area: { ...area, left: area.left + 1, cols: 2 }, property: "numberFormat", data: [["@", "@"]] },
        { area, property: "values", data: [[c.cui, c.denumire, ft(ctx.lang, "match.word.chosen")]] },
      ]);
    } catch (e) {
      return void ctx.say(this.status, (l) => ft(l, "flow.writeFailed", { code: codeOf(e) }), "error");
    }
    const i = this.pending.indexOf(p);
    this.pending.splice(i, 1);
    this.renderPending();
    ctx.say(this.status, (l) => ft(l, "match.chosen", { row: String(p.row), name: c.denumire, cui: String(c.cui) }), "ok");
    // the next row's first candidate, so that a keyboard user goes on from where she was
    const next = byId(ctx.doc, "match-pending").querySelectorAll<HTMLButtonElement>("button.candidate")[0];
    (next ?? byId(ctx.doc, "match-go")).focus();
  }

  escape(): boolean {
    return this.confirm.escape();
  }
}
