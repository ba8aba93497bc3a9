/**
 * A refresh's outcome in words: from what the refresh got back (answers wanted and failed by cause,
 * cells with errors or still calculating, credits spent) to what the pane says, in which tone, and
 * what it offers next. Pure: no DOM, no engine.
 */
import { count, formatNumber, t, type Lang, type TextKey } from "../i18n";

/** What a refresh got back. */
export interface RefreshResults {
  /** Answers the prefetch wanted from the service. */
  wanted: number;
  /** Of those, the ones that failed, by error kind (the engine's kinds: "network", "budget_reached" …). */
  failed: Readonly<Record<string, number>>;
  /** Formulas the refresh recalculated. */
  formulas: number;
  /** Of those, the ones that show an error, and the ones Excel was still calculating at the end. */
  errors: number;
  busy: number;
  /** Credits the refresh spent, and the estimate the user confirmed (its budget). */
  spent: number;
  /**
   * Of `spent`, the calls whose answer did not say they were charged (no answer at all, a 5xx: gate.ts
   * Budget.uncertain): counted, since they may have cost a credit, and named as such.
   */
  uncertain?: number;
  credits: number;
  /** The cells that depend on the refreshed ones, recalculated; null: this Excel cannot do it. */
  dependents: number | null;
  /** Whose limit a "credits spent" was, when a firm's server named it (gate.ts QuotaStop.firm). */
  firmLimit?: "budget" | "day";
}

/** "failed": nothing came back; "budget": the budget cut it short; "partial": some answers failed; "errors": cells show errors or still calculate. */
export type RefreshOutcome = "failed" | "budget" | "partial" | "errors" | "ok";

export interface RefreshSummary {
  outcome: RefreshOutcome;
  tone: "ok" | "warn" | "error";
  /** What the pane says, in either language. */
  text: (lang: Lang) => string;
  /** Something came back: the changes it found are worth listing. */
  refreshed: boolean;
  /** Answers the budget left unfetched: what "Continue" offers to finish (0: nothing). */
  cut: number;
}

/** Why answers of a refresh failed, by error kind (the engine's kinds; anything else is "other"). */
const CAUSES: Record<string, TextKey> = {
  network: "cause.network",
  timeout: "cause.timeout",
  server: "cause.server",
  credits_exhausted: "cause.creditsExhausted",
  budget_reached: "cause.budgetReached",
  invalid_key: "cause.invalidKey",
  missing_key: "cause.missingKey",
  rate_limited: "cause.rateLimited",
};

/** The causes of failed answers, commonest first, in words. */
function causeText(failed: Readonly<Record<string, number>>, l: Lang, firmLimit?: "budget" | "day"): string {
  const keys = Object.entries(failed)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([kind]): TextKey => {
      if (kind === "credits_exhausted" && firmLimit) return firmLimit === "budget" ? "cause.firmBudget" : "cause.firmDayLimit";
      return CAUSES[kind] ?? "cause.other";
    });
  return [...new Set(keys)].map((k) => t(l, k)).join("; ");
}

/** How many answers failed, whatever the cause. */
export function failedCount(failed: Readonly<Record<string, number>>): number {
  return Object.values(failed).reduce((a, b) => a + b, 0);
}

/** Every answer wanted failed: nothing was refreshed (and recalculating would only ask again). */
export function nothingCameBack(wanted: number, failed: Readonly<Record<string, number>>): boolean {
  return wanted > 0 && failedCount(failed) === wanted;
}

const joined = (parts: string[]) => parts.filter(Boolean).join(" ");

export function summarizeRefresh(r: RefreshResults): RefreshSummary {
  const s = summarize(r);
  const n = r.uncertain ?? 0;
  if (n === 0) return s;
  return { ...s, text: (l) => joined([s.text(l), t(l, "refresh.uncertain", { calls: count(n, "call", l) })]) };
}

function summarize(r: RefreshResults): RefreshSummary {
  const failed = { ...r.failed };
  const failures = failedCount(failed);
  const cut = failed.budget_reached ?? 0;
  const { wanted, errors, busy, spent, credits } = r;
  const budgetLeft = (l: Lang) =>
    cut > 0 ? t(l, "refresh.budgetLeft", { failed: count(cut, "answer", l), credits: count(credits, "credit", l) }) : "";

  if (nothingCameBack(wanted, failed)) {
    // Never a "done" look when nothing was refreshed. When the budget is all that is named, it went
    // on attempts that got no answer (a 5xx may have been charged, so it counts): say that.
    const others = { ...failed };
    delete others.budget_reached;
    const cause = (l: Lang) => (Object.keys(others).length > 0 ? causeText(others, l, r.firmLimit) : t(l, "cause.budgetNoAnswer"));
    return {
      outcome: "failed",
      tone: "error",
      text: (l) => joined([t(l, "refresh.allFailed", { cause: cause(l), spent }), budgetLeft(l)]),
      refreshed: false,
      cut,
    };
  }
  if (failures > 0) {
    return {
      outcome: cut > 0 ? "budget" : "partial",
      tone: "warn",
      text: (l) =>
        joined([
          t(l, "refresh.partial", {
            ok: wanted - failures,
            wanted: count(wanted, "answer", l),
            failed: formatNumber(failures, l),
            cause: causeText(failed, l, r.firmLimit),
            spent,
            credits,
          }),
          budgetLeft(l),
        ]),
      refreshed: true,
      cut,
    };
  }
  const troubled = errors > 0 || busy > 0;
  return {
    outcome: troubled ? "errors" : "ok",
    tone: troubled ? "warn" : "ok",
    text: (l) =>
      joined([
        t(l, "refresh.done", { formulas: r.formulas - busy, spent, credits }),
        errors > 0 ? t(l, "refresh.doneErrors", { cells: count(errors, "cell", l) }) : "",
        busy > 0 ? t(l, "refresh.stillBusy", { cells: count(busy, "cell", l) }) : "",
        r.dependents === null ? t(l, "refresh.noDependents") : "",
      ]),
    refreshed: true,
    cut,
  };
}
