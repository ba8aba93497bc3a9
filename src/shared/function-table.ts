/**
 * The table of every FIRMA function, by its Excel name (without the FIRMA. namespace): which engine
 * request each makes and how its answer becomes cells. Per-field functions are rows of the field
 * tables (fields.ts); the card is company-card.ts, the lists list-functions.ts.
 */
import type { FinancialField, ProfileField } from "../api/types";
import { LocalInputError } from "../engine/local-errors";
import { cellError, toScalar } from "./cells";
import { asMatrix, isBlank } from "./coercion";
import { companyCard } from "./company-card";
import { errorCell, inputCell, type Impl } from "./eval-context";
import { FINANCIAL_FUNCTIONS, FINANCIAL_ORDER, fieldByName, isProfileField, PROFILE_FUNCTIONS, PROFILE_ORDER } from "./fields";
import { LIST_IMPLS } from "./list-functions";
import { perCui, rowPerCui, type PerCui } from "./per-cui";

const profileField = (field: ProfileField): PerCui => ({
  read: (ctx, c) => ctx.engine.profileField(c, field, ctx),
  completes: true,
});

/** args[1] is the year. */
const financialField = (field: FinancialField): PerCui => ({
  read: (ctx, c, args) => ctx.engine.financialField(c, args[1], field, ctx),
  completes: true,
});

/** ms since the epoch → Excel's date serial (days since 1899-12-30), in Bucharest time as Romanian users read it. */
export function excelDate(ms: number): number {
  const local = new Date(new Date(ms).toLocaleString("en-US", { timeZone: "Europe/Bucharest" }));
  const utc = Date.UTC(local.getFullYear(), local.getMonth(), local.getDate(), local.getHours(), local.getMinutes(), local.getSeconds());
  return Math.round((utc / 86_400_000 + 25_569) * 1e6) / 1e6;
}

const fetchDate: PerCui = {
  read: (ctx, c) => {
    const t = ctx.engine.fetchedAt(c, ctx);
    return typeof t === "number" ? excelDate(t) : t.then(excelDate);
  },
};

/** CAMP(cui, field name, year). */
const namedField: PerCui = {
  read: (ctx, c, [, camp, an]) => {
    const f = fieldByName(camp);
    return isProfileField(f) ? ctx.engine.profileField(c, f, ctx) : ctx.engine.financialField(c, an, f, ctx);
  },
};

/** All functions, by their Excel name (without the FIRMA. namespace). */
export const FUNCTIONS: Readonly<Record<string, Impl>> = {
  ...Object.fromEntries(
    Object.entries(PROFILE_FUNCTIONS).map(([name, field]): [string, Impl] => {
      const get = profileField(field);
      return [name, (args, ctx) => perCui(args[0], args, ctx, false, get)];
    }),
  ),
  ...Object.fromEntries(
    Object.entries(FINANCIAL_FUNCTIONS).map(([name, field]): [string, Impl] => {
      const get = financialField(field);
      return [name, (args, ctx) => perCui(args[0], args, ctx, true, get)];
    }),
  ),

  CAMP: (args, ctx) => perCui(args[0], args, ctx, false, namedField),

  /** A company card: the name in the cell, identity, status, address, CAEN, VAT and the latest year's figures on the card. */
  FISA: (args, ctx) => perCui(args[0], args, ctx, false, companyCard),

  /** When FIRMA fetched the company's data: an Excel date (days since 1899-12-30, with the time). */
  ACTUALIZAT: (args, ctx) => perCui(args[0], args, ctx, false, fetchDate),

  PROFIL: ([cui], ctx) =>
    rowPerCui(cui, ctx, false, 9, async (c) => {
      const p = await ctx.engine.profile(c, ctx);
      return [p.cui, ...PROFILE_ORDER.map((f) => toScalar(p[f]))];
    }),

  FINANCIAR: ([cui, an], ctx) =>
    rowPerCui(cui, ctx, true, 6, async (c) => {
      const r = await ctx.engine.financialRecord(c, an, ctx);
      return [r.an, ...FINANCIAL_ORDER.map((f) => toScalar(r[f]))];
    }),

  ISTORIC: async ([cui, from, to, indicator], ctx) => {
    try {
      if (asMatrix(cui).flat().length !== 1) throw new LocalInputError("invalid_argument", "one CUI");
      const field = isBlank(indicator) ? "cifra_afaceri" : fieldByName(indicator);
      if (isProfileField(field)) throw new LocalInputError("invalid_field", "financial indicator expected");
      const c = asMatrix(cui)[0][0];
      if (isBlank(c)) return [[cellError("empty_cui", ctx.lang)]];
      const bad = inputCell(c, ctx.lang);
      if (bad) return [[bad]];
      const years = await ctx.engine.history(c, from, to, [field], ctx);
      return years.map((y) => [y.an, toScalar(y[field])]);
    } catch (e) {
      return [[errorCell(e, ctx, true)]]; // one error in its own cell: IFERROR sees it
    }
  },

  /** A company's CUI from its name (and county), filled only when the match is sure. */
  CUI: (args, ctx) => import(/* webpackChunkName: "match-cell" */ "./match-function").then((m) => m.CUI_IMPL(args, ctx)),

  ...LIST_IMPLS,
};
