/**
 * Every FIRMA function, driven by one table and evaluated without Office: the add-in's
 * functions.ts wraps these for Excel, and the CLI (`firma refresh`) evaluates workbooks with them.
 * Per-CUI functions take one CUI or a range and answer in the same shape, an error only in the
 * cells that need one.
 */
import type { FinancialField, ProfileField } from "../api/types";
import type { CellRequest, FirmaEngine } from "../engine/engine";
import { LocalInputError } from "../engine/errors";
import { Cell, cellError, Lang, Matrix, Scalar, toCellError } from "./cells";

export interface EvalContext {
  engine: FirmaEngine;
  lang: Lang;
  signal?: AbortSignal;
}

/** Per-field functions: name → field of the service's record. */
export const PROFILE_FUNCTIONS: Readonly<Record<string, ProfileField>> = {
  DENUMIRE: "denumire",
  STARE: "stare",
  JUDET: "judet",
  LOCALITATE: "localitate",
  ADRESA: "adresa",
  CAEN: "caen_principal",
  TVA: "platitor_tva",
  NRREG: "j_cod",
};

export const FINANCIAL_FUNCTIONS: Readonly<Record<string, FinancialField>> = {
  CA: "cifra_afaceri",
  CIFRA_AFACERI: "cifra_afaceri",
  PROFIT: "profit_net",
  ACTIVE: "active_totale",
  DATORII: "datorii_totale",
  ANGAJATI: "numar_angajati",
};

const PROFILE_ORDER: ProfileField[] = ["denumire", "stare", "judet", "localitate", "adresa", "caen_principal", "platitor_tva", "j_cod"];
const FINANCIAL_ORDER: FinancialField[] = ["cifra_afaceri", "profit_net", "active_totale", "datorii_totale", "numar_angajati"];

/** Names CAMP accepts: the service's field names, the function names, and a few plain words. */
const FIELD_ALIASES: Readonly<Record<string, ProfileField | FinancialField>> = {
  ...Object.fromEntries(PROFILE_ORDER.map((f) => [f, f])),
  ...Object.fromEntries(FINANCIAL_ORDER.map((f) => [f, f])),
  ...Object.fromEntries(Object.entries(PROFILE_FUNCTIONS).map(([k, v]) => [k.toLowerCase(), v])),
  ...Object.fromEntries(Object.entries(FINANCIAL_FUNCTIONS).map(([k, v]) => [k.toLowerCase(), v])),
  nume: "denumire",
  name: "denumire",
  status: "stare",
  county: "judet",
  city: "localitate",
  address: "adresa",
  vat: "platitor_tva",
  j: "j_cod",
  nr_reg_com: "j_cod",
  revenue: "cifra_afaceri",
  profit_net: "profit_net",
  employees: "numar_angajati",
  angajati: "numar_angajati",
};

const HEADERS: Record<string, { ro: string[]; en: string[] }> = {
  PROFIL: {
    ro: ["CUI", "Denumire", "Stare", "Județ", "Localitate", "Adresă", "CAEN", "Plătitor TVA", "Nr. Reg. Com."],
    en: ["CUI", "Name", "Status", "County", "Locality", "Address", "CAEN", "VAT payer", "Trade reg. no."],
  },
  FINANCIAR: {
    ro: ["An", "Cifra de afaceri", "Profit net", "Active totale", "Datorii totale", "Angajați"],
    en: ["Year", "Revenue", "Net profit", "Total assets", "Total liabilities", "Employees"],
  },
  CAUTA: {
    ro: ["CUI", "Denumire", "Județ", "Localitate", "Stare", "CAEN", "Nr. Reg. Com."],
    en: ["CUI", "Name", "County", "Locality", "Status", "CAEN", "Trade reg. no."],
  },
  TOPURI: { ro: ["Identificator", "Titlu", "An", "Categorie", "Scop"], en: ["Id", "Title", "Year", "Category", "Scope"] },
  TOP: {
    ro: ["Poziție", "CUI", "Denumire", "Valoare", "Variație %"],
    en: ["Position", "CUI", "Name", "Value", "Change %"],
  },
  JUDETE: { ro: ["Cod", "Județ", "Firme active"], en: ["Code", "County", "Active companies"] },
};

/** The header row of a list or row function, in the user's language. */
export function headers(name: keyof typeof HEADERS, lang: Lang): string[] {
  return HEADERS[name][lang];
}

/** A value as a cell holds it: null/undefined → "" (an empty-looking cell). */
function cell(v: unknown): Scalar {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "string") return v;
  return String(v);
}

/** One value or a range, as a matrix. */
export function asMatrix(v: unknown): unknown[][] {
  if (Array.isArray(v)) return v.map((row) => (Array.isArray(row) ? row : [row]));
  return [[v]];
}

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

/**
 * Applies `one` to every CUI of a value or range, keeping the shape. A blank inside a range gives
 * an empty cell (a column with trailing blanks stays clean); a lone blank says the CUI is missing.
 */
async function perCui(input: unknown, ctx: EvalContext, financial: boolean, one: (cui: unknown) => Promise<Scalar>): Promise<Matrix> {
  const m = asMatrix(input);
  const single = m.length === 1 && m[0].length === 1;
  return Promise.all(
    m.map((row) =>
      Promise.all(
        row.map(async (v): Promise<Cell> => {
          if (isBlank(v)) return single ? cellError("empty_cui", ctx.lang) : "";
          try {
            return await one(v);
          } catch (e) {
            return toCellError(e, ctx.lang, financial);
          }
        }),
      ),
    ),
  );
}

/** One row per CUI (a range is read row by row). */
async function rowPerCui(input: unknown, ctx: EvalContext, financial: boolean, width: number, one: (cui: unknown) => Promise<Scalar[]>): Promise<Matrix> {
  const cuis = asMatrix(input).flat().filter((v, _i, all) => all.length === 1 || !isBlank(v));
  return Promise.all(
    cuis.map(async (v): Promise<Cell[]> => {
      try {
        if (isBlank(v)) return [cellError("empty_cui", ctx.lang), ...Array<Cell>(width - 1).fill("")];
        return await one(v);
      } catch (e) {
        return [toCellError(e, ctx.lang, financial), ...Array<Cell>(width - 1).fill("")];
      }
    }),
  );
}

function text(v: unknown, what: string): string | undefined {
  if (isBlank(v)) return undefined;
  if (typeof v === "string" || typeof v === "number") return String(v).trim();
  throw new LocalInputError("invalid_argument", `${what}: text expected`);
}

function whole(v: unknown, fallback: number, what: string): number {
  if (isBlank(v)) return fallback;
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) throw new LocalInputError("invalid_argument", `${what}: whole number expected`);
  return n;
}

function fieldByName(v: unknown): ProfileField | FinancialField {
  const key = typeof v === "string" ? v.trim().toLowerCase().replace(/[\s.]+/g, "_") : "";
  const f = FIELD_ALIASES[key];
  if (!f) throw new LocalInputError("invalid_argument", `unknown field ${String(v)}`);
  return f;
}

function isProfileField(f: string): f is ProfileField {
  return (PROFILE_ORDER as string[]).includes(f);
}

type Impl = (args: unknown[], ctx: EvalContext) => Promise<Matrix>;

/** All functions, by their Excel name (without the FIRMA. namespace). */
export const FUNCTIONS: Readonly<Record<string, Impl>> = {
  ...Object.fromEntries(
    Object.entries(PROFILE_FUNCTIONS).map(([name, field]): [string, Impl] => [
      name,
      ([cui], ctx) => perCui(cui, ctx, false, async (c) => cell(await ctx.engine.profileField(c, field, ctx.signal))),
    ]),
  ),
  ...Object.fromEntries(
    Object.entries(FINANCIAL_FUNCTIONS).map(([name, field]): [string, Impl] => [
      name,
      ([cui, an], ctx) => perCui(cui, ctx, true, async (c) => cell(await ctx.engine.financialField(c, an, field, ctx.signal))),
    ]),
  ),

  CAMP: ([cui, camp, an], ctx) =>
    perCui(cui, ctx, false, async (c) => {
      const f = fieldByName(camp);
      return isProfileField(f) ? cell(await ctx.engine.profileField(c, f, ctx.signal)) : cell(await ctx.engine.financialField(c, an, f, ctx.signal));
    }),

  PROFIL: ([cui], ctx) =>
    rowPerCui(cui, ctx, false, 9, async (c) => {
      const p = await ctx.engine.profile(c, ctx.signal);
      return [p.cui, ...PROFILE_ORDER.map((f) => cell(p[f]))];
    }),

  FINANCIAR: ([cui, an], ctx) =>
    rowPerCui(cui, ctx, true, 6, async (c) => {
      const r = await ctx.engine.financialRecord(c, an, ctx.signal);
      return [r.an, ...FINANCIAL_ORDER.map((f) => cell(r[f]))];
    }),

  ISTORIC: async ([cui, from, to, indicator], ctx) => {
    try {
      if (asMatrix(cui).flat().length !== 1) throw new LocalInputError("invalid_argument", "one CUI");
      const field = isBlank(indicator) ? "cifra_afaceri" : fieldByName(indicator);
      if (isProfileField(field)) throw new LocalInputError("invalid_argument", "financial indicator expected");
      const c = asMatrix(cui)[0][0];
      if (isBlank(c)) return [[cellError("empty_cui", ctx.lang), ""]];
      const years = await ctx.engine.history(c, from, to, [field], ctx.signal);
      return years.map((y) => [y.an, cell(y[field])]);
    } catch (e) {
      return [[toCellError(e, ctx.lang, true), ""]];
    }
  },

  CAUTA: ([q, judet, caen, stare, limit], ctx) =>
    list(ctx, "CAUTA", async () => {
      const items = await ctx.engine.search(
        { q: text(q, "q"), judet: text(judet, "judet"), caen: text(caen, "caen"), stare: text(stare, "stare"), limit: whole(limit, 20, "limit") },
        ctx.signal,
      );
      return items.map((i) => [i.cui, i.denumire, cell(i.judet), cell(i.localitate), cell(i.stare), cell(i.caen_principal), cell(i.j_cod)]);
    }),

  TOPURI: ([an, categorie, scop], ctx) =>
    list(ctx, "TOPURI", async () => {
      const year = isBlank(an) ? undefined : whole(an, 0, "an");
      const items = await ctx.engine.rankings({ an: year, categorie: text(categorie, "categorie"), scop: text(scop, "scop") }, ctx.signal);
      return items.map((r) => [r.slug, r.titlu, cell(r.an), cell(r.categorie), cell(r.scop)]);
    }),

  TOP: ([slug, limit], ctx) =>
    list(ctx, "TOP", async () => {
      const s = text(slug, "slug");
      if (!s) throw new LocalInputError("invalid_argument", "slug");
      const items = await ctx.engine.ranking(s, whole(limit, 10, "limit"), ctx.signal);
      return items.map((e) => [e.pozitie, e.cui, e.denumire, cell(e.valoare), cell(e.variatie)]);
    }),

  JUDETE: (_args, ctx) =>
    list(ctx, "JUDETE", async () => (await ctx.engine.counties(ctx.signal)).map((j) => [j.cod, j.denumire, cell(j.firme_active)])),
};

/** A list with its header row; a failure is one error cell under the header. */
async function list(ctx: EvalContext, name: keyof typeof HEADERS, rows: () => Promise<Scalar[][]>): Promise<Matrix> {
  const head = headers(name, ctx.lang);
  try {
    const body = await rows();
    return [head, ...body];
  } catch (e) {
    return [head, [toCellError(e, ctx.lang), ...Array<Cell>(head.length - 1).fill("")]];
  }
}

/** Evaluates FIRMA.<name>(args…). Unknown names give #NAME?. */
export async function evaluate(name: string, args: unknown[], ctx: EvalContext): Promise<Matrix> {
  const impl = FUNCTIONS[name.toUpperCase()];
  if (!impl) return [[{ error: "#NAME?", message: `FIRMA.${name}?` }]];
  return impl(args, ctx);
}

/**
 * What a call would ask the engine for, for cost estimates (task pane, CLI --dry-run).
 * Lists count one call per page of 100.
 */
export function cellRequests(name: string, args: unknown[]): CellRequest[] {
  const n = name.toUpperCase();
  const cuis = () => asMatrix(args[0]).flat().filter((v) => !isBlank(v));
  const profile = (field: ProfileField) => cuis().map((cui): CellRequest => ({ kind: "profile", cui, field }));
  const financial = (field: FinancialField) => cuis().map((cui): CellRequest => ({ kind: "financial", cui, year: args[1] ?? null, field }));
  if (n in PROFILE_FUNCTIONS) return profile(PROFILE_FUNCTIONS[n]);
  if (n in FINANCIAL_FUNCTIONS) return financial(FINANCIAL_FUNCTIONS[n]);
  switch (n) {
    case "CAMP": {
      let f: ProfileField | FinancialField;
      try {
        f = fieldByName(args[1]);
      } catch {
        return [];
      }
      return isProfileField(f) ? profile(f) : cuis().map((cui): CellRequest => ({ kind: "financial", cui, year: args[2] ?? null, field: f as FinancialField }));
    }
    case "PROFIL":
      return profile("adresa");
    case "FINANCIAR":
      return FINANCIAL_ORDER.flatMap(financial);
    case "ISTORIC": {
      const field = isBlank(args[3]) ? "cifra_afaceri" : (FIELD_ALIASES[String(args[3]).trim().toLowerCase()] as FinancialField);
      return cuis().map((cui): CellRequest => ({ kind: "history", cui, from: args[1], to: args[2], field }));
    }
    case "CAUTA": {
      const limit = typeof args[4] === "number" && args[4] > 0 ? args[4] : 20;
      return [{ kind: "list", calls: Math.ceil(limit / 100) }];
    }
    case "TOP": {
      const limit = typeof args[1] === "number" && args[1] > 0 ? args[1] : 10;
      return [{ kind: "list", calls: Math.ceil(limit / 100) }];
    }
    case "TOPURI":
    case "JUDETE":
      return [{ kind: "list", calls: 1 }];
    default:
      return [];
  }
}
