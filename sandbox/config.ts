/** The sandbox's switches: latency, answer variants and injected faults. Changed at run time, merged and checked. */
import { FIRST_YEAR } from "./finance";

export type EnvelopeVariant = "standard" | "alt" | "ro" | "bare";

export interface FaultConfig {
  /** Seed of the fault stream: the same seed and the same calls give the same faults. */
  seed: number;
  /** Fraction of /v4 calls answered 500, 502 or 503 (no credit). */
  errorRate: number;
  /** Fraction of /v4 calls delayed by spikeMs more. */
  spikeRate: number;
  spikeMs: number;
  /** Fraction of /v4 calls whose connection is destroyed without an answer (no credit). */
  resetRate: number;
  /** Fraction of would-be 200 answers cut in half, so the JSON is broken (no credit). */
  malformedRate: number;
  /** Batch answers: fraction of items left out. */
  batchDrop: number;
  /** Batch answers: items in random order. */
  batchShuffle: boolean;
  /** Batch answers: fraction of items sent twice (the same item again). */
  batchDuplicate: number;
  /**
   * Batch answers: fraction of items followed or preceded by a second item for the same CUI (and year)
   * carrying another company's data: a conflicting duplicate, which the client cannot settle.
   */
  batchConflict: number;
  /**
   * Batch answers (with at least one item): probability per call that the answer gains an item for a
   * CUI nobody asked for, a real company of the dataset, shaped like the other items.
   */
  batchStranger: number;
  /** The next this-many /v4 calls are answered 500 (no credit), then calls succeed again. */
  failNext: number;
  /** After this many more credited calls, every call gets 429 limit_exceeded; null = off. */
  rateLimitAfter: number | null;
  /** Send each answer body in pieces spread over this many milliseconds (0 = at once). */
  dripMs: number;
  /**
   * A limit on calls at once, as a service with a rate limit it does not publish: a /v4 call that
   * arrives while this many are in progress is answered 503 `busy` (Retry-After: 1, no credit). null = none.
   */
  busyAbove: number | null;
}

export interface SandboxConfig {
  /** Added to every /v4 answer. */
  latencyMs: number;
  /** Plus a uniform random 0..jitterMs. */
  jitterMs: number;
  envelope: EnvelopeVariant;
  /** "ignored": batch identification answers only cui, denumire, stare whatever `include` asks (O10). */
  includeMode: "fields" | "ignored";
  /** "minimal": batch financial items carry only the four documented fields (O17). */
  financialShape: "full" | "minimal";
  /** "minimal": range entries of /firme/{cui}/financiar?an_de_la&an_pana carry only an, cifra_afaceri, profit_net (O16). */
  rangeShape: "full" | "minimal";
  /** When set, every 429 carries `Retry-After: N` (seconds); null = no such header (the spec says nothing). */
  retryAfterSeconds: number | null;
  /**
   * true: 5xx answers (injected or not), 400s and malformed 200s are charged a credit too, as a service
   * that reads "every call consumes 1 credit" literally would. false (default): only 200s and 404s (O20).
   */
  chargeFailures: boolean;
  /**
   * Answer browsers' CORS (every origin, the credit headers exposed, the preflight allowed). False plays
   * a service built for servers only, which the API's documentation does not rule out: an add-in that
   * calls it from the browser then fails, and one served by `firma serve` (same-origin relay) does not.
   */
  cors: boolean;
  /**
   * Send `X-Plan` and `X-Credits-Remaining` on answers (true, the sandbox's default). False plays a
   * service that says nothing of a key's plan or balance, which the API's documentation allows: the
   * client then has only the answers' statuses to go by (the Free-plan pacing near 10 calls a day).
   */
  creditHeaders: boolean;
  /** The latest financial year served (O19). */
  latestYear: number;
  /**
   * Text a spreadsheet would take for a formula: true makes three companies in four carry a name, an
   * address or a status that begins with a formula trigger (=, +, -, @, or a tab or a carriage return
   * before one), each trigger in turn, as a careless or hostile source would send (formula-text.ts).
   */
  formulaText: boolean;
  /**
   * How `q` finds names (the spec does not say, O30): "word-prefix" (default), each word of `q` starts
   * a word of the name, in any order; "substring", `q` as it is (spaces collapsed) inside the name.
   */
  searchMode: "word-prefix" | "substring";
  /** "folded" (default): diacritics ignored ("FAGET" finds "FĂGET"); "exact": they must be as in the name. Case is always ignored. */
  searchDiacritics: "folded" | "exact";
  /** Faults to inject; fields left out are off (NO_FAULTS). */
  faults: Partial<FaultConfig>;
  /**
   * A company's data changed at the registry: CUI → profile fields that replace the generated ones in
   * profile, batch and search answers, e.g. { "14399840": { stare: "RADIATA" } } (to show the watch on
   * changes); a `denumire` changed here is what search finds the company by (a look-alike planted by a test).
   */
  overrides: Record<string, Partial<Record<OverridableField, string | boolean>>>;
  /**
   * Companies that have not published their latest years yet: CUI → the last financial year they filed,
   * e.g. { "14399840": 2024 }; the years after it are served as not filed (left out of batches, 404 for
   * one year) until a test publishes them by raising it or taking the entry out (to show the watch's
   * financial-year check).
   */
  filedUpTo: Record<string, number>;
}

/** Profile fields an override may change. */
export const OVERRIDABLE = ["denumire", "stare", "judet", "localitate", "adresa", "caen_principal", "platitor_tva", "j_cod"] as const;
export type OverridableField = (typeof OVERRIDABLE)[number];

const NO_FAULTS: FaultConfig = {
  seed: 1,
  errorRate: 0,
  spikeRate: 0,
  spikeMs: 0,
  resetRate: 0,
  malformedRate: 0,
  batchDrop: 0,
  batchShuffle: false,
  batchDuplicate: 0,
  batchConflict: 0,
  batchStranger: 0,
  failNext: 0,
  rateLimitAfter: null,
  dripMs: 0,
  busyAbove: null,
};

export function defaultConfig(latestYear: number): SandboxConfig {
  return {
    latencyMs: 0,
    jitterMs: 0,
    envelope: "standard",
    includeMode: "fields",
    financialShape: "full",
    rangeShape: "full",
    retryAfterSeconds: null,
    chargeFailures: false,
    cors: true,
    creditHeaders: true,
    latestYear,
    formulaText: false,
    searchMode: "word-prefix",
    searchDiacritics: "folded",
    faults: {},
    overrides: {},
    filedUpTo: {},
  };
}

type Rule = (v: unknown) => boolean;
const duration: Rule = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 600_000;
const rate: Rule = (v) => typeof v === "number" && v >= 0 && v <= 1;
const integer =
  (min: number, max: number): Rule =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const oneOf =
  (...values: unknown[]): Rule =>
  (v) =>
    values.includes(v);

const RULES: Record<Exclude<keyof SandboxConfig, "faults">, Rule> = {
  latencyMs: duration,
  jitterMs: duration,
  envelope: oneOf("standard", "alt", "ro", "bare"),
  includeMode: oneOf("fields", "ignored"),
  financialShape: oneOf("full", "minimal"),
  rangeShape: oneOf("full", "minimal"),
  // A day at most: longer than the free plan's wait for the next Bucharest midnight makes no sense.
  retryAfterSeconds: (v) => v === null || integer(0, 86_400)(v),
  chargeFailures: oneOf(true, false),
  cors: oneOf(true, false),
  creditHeaders: oneOf(true, false),
  latestYear: integer(FIRST_YEAR, 2100),
  formulaText: oneOf(true, false),
  searchMode: oneOf("word-prefix", "substring"),
  searchDiacritics: oneOf("folded", "exact"),
  overrides: (v) =>
    isRecord(v) &&
    Object.entries(v).every(
      ([cui, o]) =>
        /^\d{1,10}$/.test(cui) &&
        isRecord(o) &&
        Object.entries(o).every(
          ([f, x]) => (OVERRIDABLE as readonly string[]).includes(f) && (typeof x === "string" || typeof x === "boolean"),
        ),
    ),
  filedUpTo: (v) => isRecord(v) && Object.entries(v).every(([cui, y]) => /^\d{1,10}$/.test(cui) && integer(FIRST_YEAR - 1, 2100)(y)),
};

const FAULT_RULES: Record<keyof FaultConfig, Rule> = {
  seed: integer(-2147483648, 2147483647),
  errorRate: rate,
  spikeRate: rate,
  spikeMs: duration,
  resetRate: rate,
  malformedRate: rate,
  batchDrop: rate,
  batchShuffle: oneOf(true, false),
  batchDuplicate: rate,
  batchConflict: rate,
  batchStranger: rate,
  failNext: integer(0, Number.MAX_SAFE_INTEGER),
  rateLimitAfter: (v) => v === null || integer(0, Number.MAX_SAFE_INTEGER)(v),
  dripMs: duration,
  busyAbove: (v) => v === null || integer(1, 100_000)(v),
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function check(patch: Record<string, unknown>, rules: Record<string, Rule>, prefix: string): string[] {
  return Object.keys(patch)
    .filter((k) => !(k in rules) || !rules[k](patch[k]))
    .map((k) => (k in rules ? `invalid value for ${prefix}${k}: ${JSON.stringify(patch[k])}` : `unknown setting ${prefix}${k}`));
}

/** The config with the patch merged in (faults merged field by field), or the patch's errors. */
export function mergeConfig(config: SandboxConfig, patch: unknown): { config: SandboxConfig } | { errors: string[] } {
  if (!isRecord(patch)) return { errors: ["the settings must be a JSON object"] };
  const { faults, ...top } = patch;
  const errors = check(top, RULES, "");
  if (faults !== undefined) {
    errors.push(...(isRecord(faults) ? check(faults, FAULT_RULES, "faults.") : ["faults must be an object"]));
  }
  if (errors.length > 0) return { errors };
  return {
    config: {
      ...config,
      ...(top as Partial<SandboxConfig>),
      faults: { ...config.faults, ...(faults as Partial<FaultConfig>) },
    },
  };
}

/** Every fault setting, the ones left out filled in as off. */
export function resolveFaults(faults: Partial<FaultConfig>): FaultConfig {
  return { ...NO_FAULTS, ...faults };
}
