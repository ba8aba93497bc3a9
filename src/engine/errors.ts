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
  | "invalid_base_url"
  | "budget_reached"
  | "guard_held"
  | "not_cached";

export class LocalInputError extends Error {
  override readonly name = "LocalInputError";
  constructor(
    readonly kind: LocalErrorKind,
    message: string,
  ) {
    super(message);
  }
}
