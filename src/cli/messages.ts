/**
 * What `firma refresh` says, in Romanian or English (the system's locale, or --lang): the CLI's own
 * words, speaking of its options and environment variables, never of the pane. Numbers with the
 * language's thousands separators, plurals by the language's rules (Intl).
 */
import { count, formatNumber, isMessageKey, keySegment, t, type Lang } from "../shared/messages/node";

/** Exit codes, documented in `firma --help` and the README. */
export const EXIT = {
  /** Every FIRMA cell got its answer. */
  ok: 0,
  /** Nothing done: bad arguments, unreadable input, unwritable output, no FIRMA formula, or no answer at all (service unreachable, key refused, credits spent). Nothing was written. */
  nothing: 1,
  /** Partial: some cells kept their previous values (no answer, budget reached) or could not be computed; the rest was written. */
  partial: 2,
} as const;

/** The language of the system's locale (LC_ALL, LC_MESSAGES, LANG): English when it says so, else Romanian. */
export function langFromEnv(env: Record<string, string | undefined>): Lang {
  const loc = env.LC_ALL || env.LC_MESSAGES || env.LANG || "";
  return /^en/i.test(loc) ? "en" : "ro";
}

/** A number as the language writes it (1.234 / 1,234). */
export function num(n: number, lang: Lang): string {
  return formatNumber(n, lang);
}

export { count };

/** Why cells kept their previous values, and what to do — in the CLI's terms (catalog `cli.cause.*`). */
export function cause(kind: string, lang: Lang): string {
  const key = `cli.cause.${keySegment(kind)}`;
  return isMessageKey(key) ? t(lang, key) : kind;
}

/** The CLI's sentences, from the catalog (src/shared/messages, keys `cli.*`), for one language. */
function messages(l: Lang) {
  return {
    noKey: t(l, "cli.noKey"),
    noUrl: t(l, "cli.noUrl"),
    badUrl: (url: string) => t(l, "cli.badUrl", { url }),
    sameFile: t(l, "cli.sameFile"),
    valuesInPlace: t(l, "cli.valuesInPlace"),
    /** Checked before any call: nothing spent. `option` names where the path came from. */
    unwritable: (path: string, why: string, option = "--out") => t(l, "cli.unwritable", { path, why, option }),
    /** A write that failed after the calls: what they cost, and whether running again costs it again. */
    unwritableSpent: (path: string, why: string, option: string, credits: number, cached: boolean) =>
      t(l, cached ? "cli.unwritableSpent" : "cli.unwritableSpentNoCache", { path, why, option, credits: count(credits, "credit", l) }),
    unreadable: (path: string, why: string) => t(l, "cli.unreadable", { path, why }),
    noFormulas: (path: string) => t(l, "cli.noFormulas", { path }),
    nothingAnswered: t(l, "cli.nothingAnswered"),
    /** Not exact: the range, the upper bound first (the budget), the low end if the service answers every field. */
    estimate: (formulas: number, cuis: number, cached: number, invalid: number, credits: number, exact: boolean, low = credits) =>
      t(l, exact ? "cli.estimate" : low < credits ? "cli.estimateRange" : "cli.estimateAtMost", {
        formulas: count(formulas, "formula", l),
        cuis,
        cached,
        invalid,
        credits: count(credits, "credit", l),
        low: count(low, "credit", l),
      }),
    probed: (probe: number, rest: number, exact: boolean) =>
      t(l, exact ? "cli.probed" : "cli.probedAtMost", { probe: count(probe, "credit", l), credits: count(rest, "credit", l) }),
    budget: (max: number) => t(l, "cli.budget", { max, calls: count(max, "call", l) }),
    dry: t(l, "cli.dry"),
    done: (input: string, out: string) => t(l, "cli.done", { input, out }),
    changes: (n: number, path: string) => (n === 0 ? t(l, "cli.changesNone", { path }) : t(l, "cli.changes", { n, path })),
    found: (n: number, skipped: number) => t(l, "cli.found", { n, skipped }),
    refreshed: (values: number, errors: number) => t(l, "cli.refreshed", { cells: count(values, "cell", l), errors }),
    kept: (n: number) => t(l, "cli.kept", { cells: count(n, "cell", l) }),
    skipped: (n: number) => t(l, "cli.skipped", { formulas: count(n, "formula", l) }),
    verboseHint: t(l, "cli.verboseHint"),
    arrays: (n: number) => t(l, "cli.arrays", { cells: count(n, "cell", l) }),
    credits: (spent: number, estimate: number, hits: number, ms: number, uncertain = 0) =>
      t(l, uncertain > 0 ? "cli.creditsUncertain" : "cli.credits", {
        spent,
        uncertain: count(uncertain, "call", l),
        estimate,
        hits,
        seconds: (ms / 1000).toLocaleString(l === "ro" ? "ro-RO" : "en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
      }),
    spill: t(l, "cli.spill"),
    outcome: { ok: t(l, "cli.outcome.ok"), partial: t(l, "cli.outcome.partial"), nothing: t(l, "cli.outcome.nothing") },
  };
}

export const M: Readonly<Record<Lang, ReturnType<typeof messages>>> = { ro: messages("ro"), en: messages("en") };

/** Why the formula engine cannot compute a whole formula (the report, --verbose). */
export type FormulaReason =
  "name" | "structuredReference" | "externalReference" | "threeDReference" | "spillReference" | "unknownSheet" | "intersection" | "chained";

/** The reasons said of a whole formula that the catalog has no words for. */
const WHOLE_FORMULA: Readonly<Record<Lang, Readonly<Record<Exclude<FormulaReason, "unknownSheet" | "intersection" | "chained">, string>>>> =
  {
    ro: {
      name: "formula folosește un nume definit",
      structuredReference: "formula este o referință de tabel",
      externalReference: "formula se referă la alt registru",
      threeDReference: "formula se referă la mai multe foi",
      spillReference: "formula folosește operatorul # (zonă revărsată)",
    },
    en: {
      name: "the formula uses a defined name",
      structuredReference: "the formula is a table reference",
      externalReference: "the formula refers to another workbook",
      threeDReference: "the formula spans several sheets",
      spillReference: "the formula uses the # spill operator",
    },
  };

/** Why a whole formula cannot be computed, in one language. */
export function formulaReason(lang: Lang, reason: FormulaReason): string {
  switch (reason) {
    case "unknownSheet":
      return t(lang, "formula.reason.unknownSheet");
    case "intersection":
      return t(lang, "formula.whole.intersection");
    case "chained":
      return t(lang, "formula.whole.chained");
    default:
      return WHOLE_FORMULA[lang === "en" ? "en" : "ro"][reason];
  }
}

/** A function the formula engine does not have. */
export function functionReason(lang: Lang, name: string): string {
  return t(lang, "formula.whole.function", { name });
}

/** A formula that cannot be read, with the parser's words. */
export function syntaxReason(lang: Lang, detail: string): string {
  return `${t(lang, "formula.reason.syntax")}: ${detail}`;
}
