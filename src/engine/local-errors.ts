/** Problems the engine finds without asking the service: they cost nothing. */
export type LocalErrorKind =
  | "invalid_cui"
  | "invalid_year"
  | "year_outside_plan"
  | "year_unavailable"
  | "invalid_slug"
  | "invalid_limit"
  | "invalid_field"
  | "invalid_argument"
  /** An argument's cell holds an Excel error. */
  | "input_error"
  | "invalid_base_url"
  | "budget_reached"
  | "guard_held"
  | "not_cached";

/**
 * The precise causes the engine can name, as keys of the message catalogs (src/shared/messages,
 * which the engine cannot import: it checks there, at compile time, that each key exists).
 */
export type EngineMessageKey =
  | "cell.emptyCui"
  | "cell.invalidCui.format"
  | "cell.invalidCui.length"
  | "cell.invalidCui.control"
  | "cell.invalidYear.input"
  | "cell.invalidYear.beforeEarliest"
  | "cell.yearUnavailable.later"
  | "cell.yearOutsidePlan.plan";

/** A message the surfaces render in the user's language: a catalog key and its parameters. */
export interface MessageRef {
  key: EngineMessageKey;
  params?: Readonly<Record<string, string | number>>;
}

/** What the user typed, shortened for a message (a cell may hold anything, of any length). */
export function shownInput(input: string): string {
  return input.length > 24 ? `${input.slice(0, 23)}…` : input;
}

export class LocalInputError extends Error {
  override readonly name = "LocalInputError";
  constructor(
    readonly kind: LocalErrorKind,
    /** For developers and logs; users read `detail` (or the kind's message) from the catalogs. */
    message: string,
    /** The precise cause, when the engine knows more than the kind says. */
    readonly detail?: MessageRef,
  ) {
    super(message);
  }
}
