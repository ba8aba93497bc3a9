/**
 * What `firma refresh` says, in Romanian or English (the system's locale, or --lang): the CLI's own
 * words, speaking of its options and environment variables, never of the pane. Numbers with the
 * language's thousands separators, plurals by the language's rules (Intl).
 */
import type { Lang } from "../shared/cells";

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

const LOCALE: Record<Lang, string> = { ro: "ro-RO", en: "en-GB" };

export function num(n: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE[lang]).format(n);
}

type Forms = Record<Lang, { one: string; few?: string; other: string }>;

const NOUNS: Record<string, Forms> = {
  cell: { ro: { one: "celulă", few: "celule", other: "de celule" }, en: { one: "cell", other: "cells" } },
  credit: { ro: { one: "credit", few: "credite", other: "de credite" }, en: { one: "credit", other: "credits" } },
  call: { ro: { one: "apel", few: "apeluri", other: "de apeluri" }, en: { one: "call", other: "calls" } },
  formula: { ro: { one: "formulă", few: "formule", other: "de formule" }, en: { one: "formula", other: "formulas" } },
};

/** "1 celulă", "5 celule", "20 de celule", "1.234 de celule"; "1 cell", "1,234 cells". */
export function count(n: number, noun: keyof typeof NOUNS, lang: Lang): string {
  const forms = NOUNS[noun][lang];
  const rule = new Intl.PluralRules(LOCALE[lang]).select(n);
  const word = rule === "one" ? forms.one : rule === "few" ? (forms.few ?? forms.other) : forms.other;
  return `${num(n, lang)} ${word}`;
}

/** Why cells kept their previous values, and what to do — in the CLI's terms. */
const CAUSES: Record<string, Record<Lang, string>> = {
  budget_reached: {
    ro: "bugetul de credite s-a atins (--max-credits sau estimarea); rulați din nou: ce e deja în cache nu mai costă",
    en: "the credit budget was reached (--max-credits or the estimate); run again: what is cached costs nothing",
  },
  network: {
    ro: "serviciul nu poate fi contactat; verificați --base-url / FIRMA_BASE_URL și conexiunea",
    en: "the service cannot be reached; check --base-url / FIRMA_BASE_URL and the connection",
  },
  server: { ro: "eroare a serviciului (5xx); încercați din nou mai târziu", en: "service error (5xx); try again later" },
  timeout: {
    ro: "serviciul nu a răspuns la timp; încercați din nou mai târziu",
    en: "the service did not answer in time; try again later",
  },
  shape: { ro: "răspuns de neînțeles de la serviciu; încercați din nou", en: "an unreadable answer from the service; try again" },
  credits_exhausted: {
    ro: "creditele planului s-au epuizat; așteptați resetarea planului sau folosiți altă cheie (--key / FIRMA_API_KEY)",
    en: "the plan's credits are spent; wait for the plan's reset or use another key (--key / FIRMA_API_KEY)",
  },
  missing_key: { ro: "lipsește cheia API: dați --key sau FIRMA_API_KEY", en: "the API key is missing: give --key or FIRMA_API_KEY" },
  invalid_key: {
    ro: "cheia API a fost refuzată: verificați --key / FIRMA_API_KEY",
    en: "the API key was refused: check --key / FIRMA_API_KEY",
  },
  aborted: { ro: "oprit (Ctrl-C) înainte de răspuns", en: "stopped (Ctrl-C) before the answer" },
  not_cached: { ro: "niciun răspuns pentru aceste celule; rulați din nou", en: "no answer for these cells; run again" },
};

export function cause(kind: string, lang: Lang): string {
  return CAUSES[kind]?.[lang] ?? kind;
}

export const M = {
  ro: {
    noKey:
      "Lipsește cheia API. Dați-o cu --key sau în variabila FIRMA_API_KEY; o cheie se generează din contul dvs. Company Data Service, după înregistrare. Pentru o încercare fără cont: npm run sandbox, apoi --key demo-pro --base-url http://127.0.0.1:3001",
    noUrl:
      "Lipsește adresa serviciului. Dați-o cu --base-url sau în variabila FIRMA_BASE_URL (adresa Company Data Service API v4, https://…). Pentru o încercare locală: npm run sandbox și --base-url http://127.0.0.1:3001",
    sameFile: "Fișierul de ieșire ar fi chiar cel de intrare: folosiți --in-place dacă asta doriți.",
    valuesInPlace: "--values-only scrie o copie fără formule: nu se poate folosi cu --in-place (formulele originalului s-ar pierde).",
    unwritable: (path: string, why: string) =>
      `Nu se poate scrie rezultatul în ${path} (${why}); nu s-a cheltuit nimic. Alegeți alt loc cu --out.`,
    unreadable: (path: string, why: string) => `Nu se poate citi ${path}: ${why}`,
    noFormulas: (path: string) => `${path} nu conține nicio formulă FIRMA: nu e nimic de actualizat.`,
    nothingAnswered: "Niciun răspuns de la serviciu: registrul nu a fost scris, valorile lui au rămas cum erau.",
    estimate: (formulas: number, cuis: number, cached: number, invalid: number, credits: number, exact: boolean, l: Lang) =>
      `Estimare: ${count(formulas, "formula", l)} de calculat, ${num(cuis, l)} CUI distincte, ${num(cached, l)} din cache, ${num(invalid, l)} invalide → ${exact ? "" : "cel mult "}${count(credits, "credit", l)}.`,
    budget: (max: number, l: Lang) =>
      `  bugetul --max-credits ${num(max, l)} e sub estimare: se trimit cel mult ${count(max, "call", l)}, restul celulelor își păstrează valorile.`,
    dry: "Rulare de probă (--dry-run): nu s-a cheltuit nimic și nu s-a scris nimic.",
    done: (input: string, out: string) => `FIRMA: ${input} → ${out}`,
    changes: (n: number, path: string, l: Lang) =>
      n === 0
        ? `  nicio schimbare de stare, TVA, denumire sau adresă → ${path}`
        : `  schimbări de stare, TVA, denumire sau adresă: ${num(n, l)} → ${path}`,
    found: (n: number, skipped: number, l: Lang) => `  formule FIRMA: ${num(n, l)} (necalculabile: ${num(skipped, l)})`,
    refreshed: (values: number, errors: number, l: Lang) =>
      `  actualizate: ${count(values, "cell", l)} cu valori, ${num(errors, l)} cu erori`,
    kept: (n: number, l: Lang) => `  și-au păstrat valoarea anterioară: ${count(n, "cell", l)}`,
    skipped: (n: number, l: Lang) => `  necalculabile (formula nu poate fi evaluată fără Excel): ${count(n, "formula", l)}`,
    verboseHint: "  (--verbose listează celulele)",
    arrays: (n: number, l: Lang) =>
      `  rezultate matrice într-o singură celulă (formula nu e salvată ca matrice dinamică; s-a scris doar valoarea din stânga sus): ${count(n, "cell", l)}`,
    credits: (spent: number, estimate: number, hits: number, ms: number, l: Lang) =>
      `  credite cheltuite: ${num(spent, l)} (estimare ${num(estimate, l)}); răspunsuri din cache: ${num(hits, l)}; timp: ${(ms / 1000).toFixed(1)} s`,
    spill: "  rezultate care nu încap (#SPILL!):",
    outcome: {
      ok: "Gata: toate celulele au fost actualizate.",
      partial: "Parțial: unele celule nu au fost actualizate (vezi mai sus).",
      nothing: "Nu s-a făcut nimic.",
    },
  },
  en: {
    noKey:
      "The API key is missing. Give it with --key or in FIRMA_API_KEY; a key is generated in your Company Data Service account after registration. To try without an account: npm run sandbox, then --key demo-pro --base-url http://127.0.0.1:3001",
    noUrl:
      "The service address is missing. Give it with --base-url or in FIRMA_BASE_URL (the Company Data Service API v4 address, https://…). To try locally: npm run sandbox and --base-url http://127.0.0.1:3001",
    sameFile: "The output file would be the input itself: use --in-place if that is what you want.",
    valuesInPlace:
      "--values-only writes a copy without formulas: it cannot be used with --in-place (the original's formulas would be lost).",
    unwritable: (path: string, why: string) =>
      `Cannot write the result to ${path} (${why}); nothing was spent. Choose another place with --out.`,
    unreadable: (path: string, why: string) => `Cannot read ${path}: ${why}`,
    noFormulas: (path: string) => `${path} holds no FIRMA formula: nothing to refresh.`,
    nothingAnswered: "No answer from the service: the workbook was not written, its values are as they were.",
    estimate: (formulas: number, cuis: number, cached: number, invalid: number, credits: number, exact: boolean, l: Lang) =>
      `Estimate: ${count(formulas, "formula", l)} to compute, ${num(cuis, l)} distinct CUIs, ${num(cached, l)} cached, ${num(invalid, l)} invalid → ${exact ? "" : "at most "}${count(credits, "credit", l)}.`,
    budget: (max: number, l: Lang) =>
      `  the --max-credits ${num(max, l)} budget is below the estimate: at most ${count(max, "call", l)} are sent, the other cells keep their values.`,
    dry: "Dry run (--dry-run): nothing was spent and nothing was written.",
    done: (input: string, out: string) => `FIRMA: ${input} → ${out}`,
    changes: (n: number, path: string, l: Lang) =>
      n === 0
        ? `  no change of status, VAT, name or address → ${path}`
        : `  changes of status, VAT, name or address: ${num(n, l)} → ${path}`,
    found: (n: number, skipped: number, l: Lang) => `  FIRMA formulas: ${num(n, l)} (not computable: ${num(skipped, l)})`,
    refreshed: (values: number, errors: number, l: Lang) =>
      `  refreshed: ${count(values, "cell", l)} with values, ${num(errors, l)} with errors`,
    kept: (n: number, l: Lang) => `  kept their previous value: ${count(n, "cell", l)}`,
    skipped: (n: number, l: Lang) => `  not computable (the formula cannot be evaluated without Excel): ${count(n, "formula", l)}`,
    verboseHint: "  (--verbose lists the cells)",
    arrays: (n: number, l: Lang) =>
      `  array results in a single cell (the formula is not saved as a dynamic array; only the top-left value was written): ${count(n, "cell", l)}`,
    credits: (spent: number, estimate: number, hits: number, ms: number, l: Lang) =>
      `  credits spent: ${num(spent, l)} (estimate ${num(estimate, l)}); answers from the cache: ${num(hits, l)}; time: ${(ms / 1000).toFixed(1)} s`,
    spill: "  results that do not fit (#SPILL!):",
    outcome: {
      ok: "Done: every cell was refreshed.",
      partial: "Partial: some cells were not refreshed (see above).",
      nothing: "Nothing was done.",
    },
  },
};
