/**
 * FIRMA.CUI(nume; [judet]) (English FIRMA.TAXID): a company's CUI from its name, filled only when the
 * match is sure (engine match/); otherwise #N/A saying likely (with the candidate's name and CUI),
 * ambiguous (how many) or not found. A range of names answers one column, a county per row or one
 * for all. Bad input and the stops say what the other functions say for that cause.
 */
import type { MatchOutcome, NameInput } from "../engine/engine";
import { Cell, CellError, cellError, Matrix } from "./cells";
import { asMatrix, isBlank } from "./coercion";
import { errorCell, inputCell, type EvalContext, type Impl } from "./eval-context";
import { fill } from "./messages";
import { matchEn } from "./messages/match-en";
import { matchRo, type MatchMessageKey } from "./messages/match-ro";

export const CUI_IMPL: Impl = async ([nume, judet], ctx): Promise<Matrix> => {
  const names = asMatrix(nume).flat();
  const counties = asMatrix(judet).flat();
  if (counties.length !== 1 && counties.length !== names.length) return [[cellError("invalid_argument", ctx.lang)]];
  const inputs: NameInput[] = names.map((name, i) => ({ name, county: counties.length === 1 ? counties[0] : counties[i] }));
  const lone = names.length === 1;
  const cells: Cell[] = inputs.map((r) =>
    isBlank(r.name) && !lone ? "" : (inputCell(r.name, ctx.lang) ?? inputCell(r.county, ctx.lang) ?? 0),
  );
  const asked = inputs.filter((_, i) => cells[i] === 0);
  if (asked.length > 0) {
    const { outcomes } = await ctx.engine.match(asked, { signal: ctx.signal, cacheOnly: ctx.cacheOnly || ctx.preview });
    let k = 0;
    cells.forEach((c, i) => c === 0 && (cells[i] = cellOf(outcomes[k++], ctx)));
  }
  return cells.map((c) => [c]);
};

/** One outcome as its cell. */
function cellOf(o: MatchOutcome, ctx: EvalContext): Cell {
  if (o.confidence === "sure") return o.cui as number;
  if (o.stoppedBy) return errorCell(o.cause, ctx);
  const p = o.problem;
  if (p) {
    if (p.kind === "unknown_county") return said("#VALUE!", "match.unknownCounty", { county: p.detail ?? "" }, ctx, "invalid_argument");
    return said("#VALUE!", p.kind === "empty" ? "match.emptyName" : "match.badName", { input: p.detail ?? "" }, ctx, "invalid_argument");
  }
  const c = o.candidates;
  if (o.confidence === "likely") return said("#N/A", "match.likely", { name: c[0].denumire, cui: String(c[0].cui) }, ctx);
  if (o.incomplete) return said("#N/A", "match.tooMany", {}, ctx);
  if (o.confidence === "ambiguous") return said("#N/A", "match.ambiguous", { count: c.length }, ctx);
  return said("#N/A", c.length > 0 ? "match.otherCounty" : "match.notFound", { count: c.length }, ctx);
}

function said(
  error: "#N/A" | "#VALUE!",
  key: MatchMessageKey,
  params: Record<string, string | number>,
  ctx: EvalContext,
  cause = "not_found",
): CellError {
  const e: CellError = { error, message: fill((ctx.lang === "en" ? matchEn : matchRo)[key], key, ctx.lang, params) };
  Object.defineProperty(e, "cause", { value: cause, enumerable: false });
  return e;
}
