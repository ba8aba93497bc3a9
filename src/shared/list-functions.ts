/**
 * The list functions (CAUTA, TOPURI, TOP, JUDETE): answers that are lists (a search, the rankings, one
 * ranking, the counties), not per-company data. Their arguments are read once, into the list the
 * engine keys (listSpec), which both the function and the estimate's requests use.
 */
import type { ListSpec } from "../engine/engine";
import { LocalInputError } from "../engine/local-errors";
import { kindOf } from "../engine/failures";
import { cellError, Matrix, Scalar, toScalar } from "./cells";
import { isBlank, text, whole } from "./coercion";
import { errorCell, type EvalContext, type Impl } from "./eval-context";
import { headers } from "./headers";

/** The functions whose answer is a list (search, rankings, counties), not per-company data: none of their arguments is a CUI. */
export const LIST_FUNCTIONS: ReadonlySet<string> = new Set(["CAUTA", "TOP", "TOPURI", "JUDETE"]);

type ListName = "CAUTA" | "TOPURI" | "TOP" | "JUDETE";

/** The list a list function asks for, with the arguments as the function reads them; throws LocalInputError on a bad one. */
export function listSpec(n: string, args: unknown[]): ListSpec {
  if (n === "CAUTA") {
    const [q, judet, caen, stare, limit] = args;
    const params = { q: text(q, "q"), judet: text(judet, "judet"), caen: text(caen, "caen"), stare: text(stare, "stare") };
    return { fn: "search", params, limit: whole(limit, 20, "limit", "invalid_limit") };
  }
  if (n === "TOP") {
    const s = text(args[0], "slug", "invalid_slug");
    if (!s) throw new LocalInputError("invalid_slug", "slug");
    return { fn: "ranking", slug: s, limit: whole(args[1], 10, "limit", "invalid_limit") };
  }
  if (n === "TOPURI") {
    const [an, categorie, scop] = args;
    const year = isBlank(an) ? undefined : whole(an, 0, "an", "invalid_year");
    return { fn: "rankings", params: { an: year, categorie: text(categorie, "categorie"), scop: text(scop, "scop") } };
  }
  return { fn: "counties" };
}

/** The rows of a list, without its header. */
async function rowsOf(spec: ListSpec, ctx: EvalContext): Promise<Scalar[][]> {
  const { engine } = ctx;
  switch (spec.fn) {
    case "search": {
      const items = await engine.list(spec, ctx);
      return items.map((i) => [
        i.cui,
        i.denumire,
        toScalar(i.judet),
        toScalar(i.localitate),
        toScalar(i.stare),
        toScalar(i.caen_principal),
        toScalar(i.j_cod),
      ]);
    }
    case "rankings": {
      const items = await engine.list(spec, ctx);
      return items.map((r) => [r.slug, r.titlu, toScalar(r.an), toScalar(r.categorie), toScalar(r.scop)]);
    }
    case "ranking": {
      const items = await engine.list(spec, ctx);
      // The annual change as a fraction (26.8 % → 0.268): Excel's % format multiplies by 100, so the
      // service's percentage would show a hundred times too large.
      return items.map((e) => [
        e.pozitie,
        e.cui,
        e.denumire,
        toScalar(e.valoare),
        toScalar(e.variatie === null ? null : Math.round(e.variatie * 10) / 1000),
      ]);
    }
    case "counties":
      return (await engine.list(spec, ctx)).map((j) => [j.cod, j.denumire, toScalar(j.firme_active)]);
  }
}

/**
 * A list function: its header row and the list's rows. A failure (a bad argument included) is one
 * error in the formula's own cell, so that IFERROR and ISERROR see it: a header row above an error
 * would make the formula's cell a plain text. TOP's "not found" names the ranking.
 */
function listFunction(name: ListName): Impl {
  return async (args, ctx): Promise<Matrix> => {
    const head = headers(name, ctx.lang);
    try {
      const body = await rowsOf(listSpec(name, args), ctx);
      return [head, ...body];
    } catch (e) {
      const notFound = name === "TOP" && kindOf(e) === "not_found";
      return [[notFound ? cellError("not_found_ranking", ctx.lang) : errorCell(e, ctx)]];
    }
  };
}

/** The list functions, by their Excel name (without the FIRMA. namespace). */
export const LIST_IMPLS: Readonly<Record<ListName, Impl>> = {
  CAUTA: listFunction("CAUTA"),
  TOPURI: listFunction("TOPURI"),
  TOP: listFunction("TOP"),
  JUDETE: listFunction("JUDETE"),
};
