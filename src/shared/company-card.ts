/**
 * FIRMA.FISA's company card: the profile and the latest financial year as named properties in
 * sections (identity, status, address, activity, finances), in the user's language; the company's
 * name where the host shows no cards.
 */
import { failureHas } from "../engine/failures";
import { toScalar, type Scalar } from "./cells";
import type { EvalContext } from "./eval-context";
import { FINANCIAL_ORDER } from "./fields";
import { headers } from "./headers";
import { t } from "./messages";
import type { PerCui } from "./per-cui";

/** Financial-year failures that leave the card without figures rather than failing it: the company filed nothing for that year. */

/**
 * FIRMA.FISA: the profile and the latest financial year (the credits of FIRMA.PROFIL and
 * FIRMA.FINANCIAR, shared with them through the cache), as a card; the name where cards cannot show.
 */
export const companyCard: PerCui = {
  // Always a promise: a card needs two answers, and the cache-only read of both is this one with the cache warm.
  read: async (ctx, c) => {
    const [p, f] = await Promise.all([
      ctx.engine.profile(c, ctx),
      ctx.engine.financialRecord(c, null, ctx).catch((e) => {
        if (failureHas(e, "noFigures")) return null;
        throw e;
      }),
    ]);
    if (!ctx.cards) return toScalar(p.denumire);
    // FISA's card: property names in the user's language, in sections (identity, status, address, activity, finances)
    const [, name, stare, judet, localitate, adresa, caen, tva, nrreg] = headers("PROFIL", ctx.lang);
    const fin = headers("FINANCIAR", ctx.lang);
    const l = labels(ctx);
    const properties: Record<string, Scalar> = {};
    const put = (k: string, v: unknown) => {
      if (v !== null && v !== undefined && v !== "") properties[k] = toScalar(v);
    };
    put("CUI", p.cui);
    put(name, p.denumire);
    put(nrreg, p.j_cod);
    put(stare, p.stare);
    put(judet, p.judet);
    put(localitate, p.localitate);
    put(adresa, p.adresa);
    put(caen, p.caen_principal);
    put(tva, p.platitor_tva);
    if (f) {
      put(l.year, f.an);
      FINANCIAL_ORDER.forEach((field, i) => put(fin[i + 1], f[field]));
    }
    const section = (title: string, names: string[]) => ({ title, properties: names.filter((n) => n in properties) });
    const sections = [
      section(l.identity, ["CUI", name, nrreg]),
      section(l.status, [stare, tva]),
      section(l.address, [judet, localitate, adresa]),
      section(l.activity, [caen]),
      section(l.finances, [l.year, ...fin.slice(1)]),
    ].filter((s) => s.properties.length > 0);
    return { card: true, text: String(p.denumire ?? p.cui), properties, sections };
  },
};

/** The card's section titles and the year's property name, in the user's language. */
function labels(ctx: EvalContext) {
  return {
    identity: t(ctx.lang, "card.identity"),
    status: t(ctx.lang, "card.status"),
    address: t(ctx.lang, "card.address"),
    activity: t(ctx.lang, "card.activity"),
    finances: t(ctx.lang, "card.finances"),
    year: t(ctx.lang, "card.year"),
  };
}
