/**
 * Every FIRMA function, driven by one table and evaluated without Office: the add-in's
 * functions.ts wraps these for Excel, and the CLI (`firma refresh`) evaluates workbooks with them.
 * Per-CUI functions take one CUI or a range and answer in the same shape, an error only in the
 * cells that need one.
 */
import type { CancelSignal, FinancialField, ProfileField } from "../api/types";
import { NOT_CACHED, type CellRequest, type FirmaEngine, type ListSpec } from "../engine/engine";
import { LocalErrorKind, LocalInputError } from "../engine/errors";
import { CardCell, Cell, CellError, cellError, inputErrorCell, isCard, Lang, Matrix, Scalar, toCellError } from "./cells";
import { ErrorInput, firstErrorInput, UnreadableInput } from "./excel-values";
import { t, type MessageKey } from "./messages";

/**
 * One evaluation's context. It is also the RequestOptions the engine's methods receive (its
 * `cacheOnly`), passed as it is: no object per call.
 */
export interface EvalContext {
  engine: FirmaEngine;
  lang: Lang;
  signal?: CancelSignal;
  /** Answer from the cache only, this evaluation alone (the engine-wide mode of the CLI is the engine's own). */
  cacheOnly?: boolean;
  /**
   * Excel's value preview (functions.ts): cache-only, and what is not cached shows the preview
   * placeholder, "press Enter to fetch", rather than a failure.
   */
  preview?: boolean;
  /** The host shows entity values (FIRMA.FISA's card); otherwise FISA answers the company's name. */
  cards?: boolean;
}

/** A failure as the cell shows it; in a value preview, "not cached" is the placeholder that says Enter fetches. */
function errorCell(e: unknown, ctx: EvalContext, financial = false): CellError {
  if (ctx.preview && (e as { kind?: unknown } | null)?.kind === "not_cached") return cellError("preview", ctx.lang, "not_cached");
  return toCellError(e, ctx.lang, financial);
}

/**
 * A CUI argument that is not a CUI to look up (excel-values.ts): a cell holding an error answers with
 * it; a card without a CUI or another data type is #VALUE! naming it. Null for anything else. Free.
 */
function inputCell(v: unknown, lang: Lang): CellError | null {
  if (v instanceof ErrorInput) return inputErrorCell(v.code, lang, true);
  if (v instanceof UnreadableInput) {
    const key = v.what === "card" ? "cell.invalidCui.card" : "cell.invalidCui.dataType";
    const e: CellError = { error: "#VALUE!", message: t(lang, key, { input: v.shown }) };
    Object.defineProperty(e, "cause", { value: "invalid_cui", enumerable: false });
    return e;
  }
  return null;
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
  locality: "localitate",
  caen_code: "caen_principal",
  vat_payer: "platitor_tva",
  trade_register: "j_cod",
  net_profit: "profit_net",
  assets: "active_totale",
  total_assets: "active_totale",
  liabilities: "datorii_totale",
  total_liabilities: "datorii_totale",
  stare_firma: "stare",
};

/** The lists and rows that have a header row: its columns are the catalog's `header.<name>`, "|"-separated. */
const HEADERS = {
  PROFIL: "header.profil",
  FINANCIAR: "header.financiar",
  CAUTA: "header.cauta",
  TOPURI: "header.topuri",
  TOP: "header.top",
  JUDETE: "header.judete",
} as const satisfies Record<string, MessageKey>;

/** The header row of a list or row function, in the user's language (a new array: results go to Excel as they are). */
export function headers(name: keyof typeof HEADERS, lang: Lang): string[] {
  return t(lang, HEADERS[name]).split("|");
}

/** A value as a cell holds it: null/undefined → "" (an empty-looking cell). */
function cell(v: unknown): Scalar {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "string") return v;
  return String(v);
}

/** cell(), a card left as it is. */
function cellOf(v: unknown): Cell {
  return isCard(v) ? v : cell(v);
}

/** One value or a range, as a matrix. */
export function asMatrix(v: unknown): unknown[][] {
  if (Array.isArray(v)) return v.every(Array.isArray) ? (v as unknown[][]) : v.map((row) => (Array.isArray(row) ? row : [row]));
  return [[v]];
}

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "string" && v.trim() === "");
}

/**
 * Applies `one` to every CUI of a value or range, keeping the shape. A blank inside a range gives
 * an empty cell (a column with trailing blanks stays clean); a lone blank says the CUI is missing.
 * `get.now` answers a cell at once from the engine's cache (or NOT_CACHED); only the other cells
 * wait for `get.one`, and when none has to, the matrix comes back without a promise (a
 * recalculation of cached cells then costs no promise, no timer and no cancellation signal per
 * cell). `args` are the function's arguments, handed to `get` (made once per function, not per call).
 */
function perCui(input: unknown, args: unknown[], ctx: EvalContext, financial: boolean, get: PerCui): Matrix | Promise<Matrix> {
  const m = asMatrix(input);
  const single = m.length === 1 && m[0].length === 1;
  if (single) {
    // One CUI, the usual cell: the same steps as below without the bookkeeping of a range.
    const v = m[0][0];
    if (isBlank(v)) return [[cellError("empty_cui", ctx.lang)]];
    if (typeof v === "object") {
      const bad = inputCell(v, ctx.lang);
      if (bad) return [[bad]];
    }
    try {
      const x = get.now(ctx, v, args);
      if (x !== NOT_CACHED) return [[cellOf(x)]];
    } catch (e) {
      return [[errorCell(e, ctx, financial)]];
    }
    return get.one(ctx, v, args).then(
      (x): Matrix => [[x]],
      (e): Matrix => [[errorCell(e, ctx, financial)]],
    );
  }
  const out: Cell[][] = [];
  let waiting: Promise<void>[] | null = null;
  for (const row of m) {
    const cells: Cell[] = [];
    out.push(cells);
    for (const v of row) {
      if (isBlank(v)) {
        cells.push(""); // a blank inside a range stays empty
        continue;
      }
      const bad = typeof v === "object" ? inputCell(v, ctx.lang) : null;
      if (bad) {
        cells.push(bad);
        continue;
      }
      try {
        const x = get.now(ctx, v, args);
        if (x !== NOT_CACHED) {
          cells.push(cellOf(x));
          continue;
        }
      } catch (e) {
        cells.push(errorCell(e, ctx, financial));
        continue;
      }
      const at = cells.length;
      cells.push("");
      (waiting ??= []).push(
        get.one(ctx, v, args).then(
          (x) => void (cells[at] = x),
          (e) => void (cells[at] = errorCell(e, ctx, financial)),
        ),
      );
    }
  }
  if (waiting === null) return out;
  return waiting.length === 1 ? waiting[0].then(() => out) : Promise.all(waiting).then(() => out);
}

/** One row per CUI (a range is read row by row). */
async function rowPerCui(
  input: unknown,
  ctx: EvalContext,
  financial: boolean,
  width: number,
  one: (cui: unknown) => Promise<Scalar[]>,
): Promise<Matrix> {
  const cuis = asMatrix(input)
    .flat()
    .filter((v, _i, all) => all.length === 1 || !isBlank(v));
  return Promise.all(
    cuis.map(async (v): Promise<Cell[]> => {
      try {
        if (isBlank(v)) return [cellError("empty_cui", ctx.lang), ...Array<Cell>(width - 1).fill("")];
        const bad = inputCell(v, ctx.lang);
        if (bad) return [bad, ...Array<Cell>(width - 1).fill("")];
        return await one(v);
      } catch (e) {
        return [errorCell(e, ctx, financial), ...Array<Cell>(width - 1).fill("")];
      }
    }),
  );
}

function text(v: unknown, what: string, kind: LocalErrorKind = "invalid_argument"): string | undefined {
  if (isBlank(v)) return undefined;
  if (typeof v === "string" || typeof v === "number") return String(v).trim();
  throw new LocalInputError(kind, `${what}: text expected`);
}

function whole(v: unknown, fallback: number, what: string, kind: LocalErrorKind): number {
  if (isBlank(v)) return fallback;
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) throw new LocalInputError(kind, `${what}: whole number expected`);
  return n;
}

function fieldByName(v: unknown): ProfileField | FinancialField {
  // As users write them: any case, spaces or dots for underscores, and with diacritics (județ, angajați).
  const key =
    typeof v === "string"
      ? v
          .trim()
          .toLowerCase()
          .normalize("NFD")
          .replace(/[\u0300-\u036f]/g, "")
          .replace(/[\s.]+/g, "_")
      : "";
  const f = FIELD_ALIASES[key];
  if (!f) throw new LocalInputError("invalid_field", `unknown field ${String(v)}`);
  return f;
}

function isProfileField(f: string): f is ProfileField {
  return (PROFILE_ORDER as string[]).includes(f);
}

type Impl = (args: unknown[], ctx: EvalContext) => Matrix | Promise<Matrix>;

/** How a per-CUI function reads one CUI: waiting for the engine, or at once from its cache. */
interface PerCui {
  one(ctx: EvalContext, cui: unknown, args: unknown[]): Promise<Scalar | CardCell>;
  now(ctx: EvalContext, cui: unknown, args: unknown[]): unknown;
}

const profileField = (field: ProfileField): PerCui => ({
  one: (ctx, c) => ctx.engine.profileField(c, field, ctx.signal, ctx).then(cell),
  now: (ctx, c) => ctx.engine.profileFieldNow(c, field),
});

/** args[1] is the year. */
const financialField = (field: FinancialField): PerCui => ({
  one: (ctx, c, args) => ctx.engine.financialField(c, args[1], field, ctx.signal, ctx).then(cell),
  now: (ctx, c, args) => ctx.engine.financialFieldNow(c, args[1], field),
});

/** CAMP(cui, field name, year). */
/** ms since the epoch → Excel's date serial (days since 1899-12-30), in Bucharest time as Romanian users read it. */
export function excelDate(ms: number): number {
  const local = new Date(new Date(ms).toLocaleString("en-US", { timeZone: "Europe/Bucharest" }));
  const utc = Date.UTC(local.getFullYear(), local.getMonth(), local.getDate(), local.getHours(), local.getMinutes(), local.getSeconds());
  return Math.round((utc / 86_400_000 + 25_569) * 1e6) / 1e6;
}

const fetchDate: PerCui = {
  one: async (ctx, c) => excelDate(await ctx.engine.fetchedAt(c, ctx.signal, ctx)),
  now: (ctx, c) => {
    const t = ctx.engine.fetchedAtNow(c);
    return t === NOT_CACHED ? NOT_CACHED : excelDate(t);
  },
};

const namedField: PerCui = {
  one: async (ctx, c, [, camp, an]) => {
    const f = fieldByName(camp);
    return isProfileField(f)
      ? cell(await ctx.engine.profileField(c, f, ctx.signal, ctx))
      : cell(await ctx.engine.financialField(c, an, f, ctx.signal, ctx));
  },
  now: (ctx, c, [, camp, an]) => {
    const f = fieldByName(camp);
    return isProfileField(f) ? ctx.engine.profileFieldNow(c, f) : ctx.engine.financialFieldNow(c, an, f);
  },
};

/** Financial-year failures that leave the card without figures rather than failing it: the company filed nothing for that year. */
const NO_FIGURES = new Set(["not_found", "plan_history", "year_outside_plan", "year_unavailable"]);

/**
 * FIRMA.FISA: the profile and the latest financial year (the credits of FIRMA.PROFIL and
 * FIRMA.FINANCIAR, shared with them through the cache), as a card; the name where cards cannot show.
 */
const companyCard: PerCui = {
  one: async (ctx, c) => {
    const [p, f] = await Promise.all([
      ctx.engine.profile(c, ctx.signal, ctx),
      ctx.engine.financialRecord(c, null, ctx.signal, ctx).catch((e) => {
        if (NO_FIGURES.has(String((e as { kind?: unknown } | null)?.kind))) return null;
        throw e;
      }),
    ]);
    if (!ctx.cards) return cell(p.denumire);
    // FISA's card: property names in the user's language, in sections (identity, status, address, activity, finances)
    const [, name, stare, judet, localitate, adresa, caen, tva, nrreg] = headers("PROFIL", ctx.lang);
    const fin = headers("FINANCIAR", ctx.lang);
    const l = {
      identity: t(ctx.lang, "card.identity"),
      status: t(ctx.lang, "card.status"),
      address: t(ctx.lang, "card.address"),
      activity: t(ctx.lang, "card.activity"),
      finances: t(ctx.lang, "card.finances"),
      year: t(ctx.lang, "card.year"),
    };
    const properties: Record<string, Scalar> = {};
    const put = (k: string, v: unknown) => {
      if (v !== null && v !== undefined && v !== "") properties[k] = cell(v);
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
  // Always asks one(): a card needs two answers, and the cache-only read of both is one() with the cache warm.
  now: () => NOT_CACHED,
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
      const p = await ctx.engine.profile(c, ctx.signal, ctx);
      return [p.cui, ...PROFILE_ORDER.map((f) => cell(p[f]))];
    }),

  FINANCIAR: ([cui, an], ctx) =>
    rowPerCui(cui, ctx, true, 6, async (c) => {
      const r = await ctx.engine.financialRecord(c, an, ctx.signal, ctx);
      return [r.an, ...FINANCIAL_ORDER.map((f) => cell(r[f]))];
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
      const years = await ctx.engine.history(c, from, to, [field], ctx.signal, ctx);
      return years.map((y) => [y.an, cell(y[field])]);
    } catch (e) {
      return [[errorCell(e, ctx, true)]]; // one error in its own cell: IFERROR sees it
    }
  },

  CAUTA: ([q, judet, caen, stare, limit], ctx) =>
    list(ctx, "CAUTA", async () => {
      const items = await ctx.engine.search(
        {
          q: text(q, "q"),
          judet: text(judet, "judet"),
          caen: text(caen, "caen"),
          stare: text(stare, "stare"),
          limit: whole(limit, 20, "limit", "invalid_limit"),
        },
        ctx.signal,
        ctx,
      );
      return items.map((i) => [i.cui, i.denumire, cell(i.judet), cell(i.localitate), cell(i.stare), cell(i.caen_principal), cell(i.j_cod)]);
    }),

  TOPURI: ([an, categorie, scop], ctx) =>
    list(ctx, "TOPURI", async () => {
      const year = isBlank(an) ? undefined : whole(an, 0, "an", "invalid_year");
      const items = await ctx.engine.rankings(
        { an: year, categorie: text(categorie, "categorie"), scop: text(scop, "scop") },
        ctx.signal,
        ctx,
      );
      return items.map((r) => [r.slug, r.titlu, cell(r.an), cell(r.categorie), cell(r.scop)]);
    }),

  TOP: ([slug, limit], ctx) =>
    list(
      ctx,
      "TOP",
      async () => {
        const s = text(slug, "slug", "invalid_slug");
        if (!s) throw new LocalInputError("invalid_slug", "slug");
        const items = await ctx.engine.ranking(s, whole(limit, 10, "limit", "invalid_limit"), ctx.signal, ctx);
        // The annual change as a fraction (26.8 % → 0.268), so that Excel's % format shows it right (issue 12).
        return items.map((e) => [
          e.pozitie,
          e.cui,
          e.denumire,
          cell(e.valoare),
          cell(e.variatie === null ? null : Math.round(e.variatie * 10) / 1000),
        ]);
      },
      "not_found_ranking",
    ),

  JUDETE: (_args, ctx) =>
    list(ctx, "JUDETE", async () => (await ctx.engine.counties(ctx.signal, ctx)).map((j) => [j.cod, j.denumire, cell(j.firme_active)])),
};

/** A list with its header row; a failure is one error cell under the header. */
async function list(
  ctx: EvalContext,
  name: keyof typeof HEADERS,
  rows: () => Promise<Scalar[][]>,
  notFound?: "not_found_ranking",
): Promise<Matrix> {
  const head = headers(name, ctx.lang);
  try {
    const body = await rows();
    return [head, ...body];
  } catch (e) {
    // One error in the formula's own cell, so that IFERROR and ISERROR see it (issue 11); a header
    // row above an error would make the formula's cell a plain text.
    const err = notFound && (e as { kind?: unknown } | null)?.kind === "not_found" ? cellError(notFound, ctx.lang) : errorCell(e, ctx);
    return [[err]];
  }
}

/** Evaluates FIRMA.<name>(args…). Unknown names give #NAME?. */
export async function evaluate(name: string, args: unknown[], ctx: EvalContext): Promise<Matrix> {
  return evaluateNow(name, args, ctx);
}

/** evaluate(), but a result the cache answered in full comes back at once, without a promise. */
export function evaluateNow(name: string, args: unknown[], ctx: EvalContext): Matrix | Promise<Matrix> {
  const n = name.toUpperCase();
  const impl = FUNCTIONS[n];
  if (!impl) return [[{ error: "#NAME?", message: `FIRMA.${name}?` }]];
  // An error in an argument other than the CUI (a year, a field name…) is the whole answer, as Excel
  // gives for a function that takes no errors; a CUI's error stays in its own cell (perCui).
  for (let i = LIST_FUNCTIONS.has(n) ? 0 : 1; i < args.length; i++) {
    const a = args[i];
    if (a === null || typeof a !== "object") continue;
    const err = firstErrorInput([a]);
    if (err) return [[inputErrorCell(err.code, ctx.lang, false)]];
    if (a instanceof UnreadableInput) args = args.map((x, j) => (j === i ? a.shown : x)); // named in the argument's own message
  }
  return impl(args, ctx);
}

/** The functions whose answer is a list (search, rankings, counties), not per-company data: none of their arguments is a CUI. */
export const LIST_FUNCTIONS: ReadonlySet<string> = new Set(["CAUTA", "TOP", "TOPURI", "JUDETE"]);

/** The list a list function asks for, with the arguments as the function reads them. */
function listSpec(n: string, args: unknown[]): ListSpec {
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

/**
 * What a call would ask the engine for, for cost estimates (task pane, CLI --dry-run).
 * Lists count one call per page of 100.
 */
export function cellRequests(name: string, args: unknown[]): CellRequest[] {
  const n = name.toUpperCase();
  const cuis = () =>
    asMatrix(args[0])
      .flat()
      .filter((v) => !isBlank(v));
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
      return isProfileField(f)
        ? profile(f)
        : cuis().map((cui): CellRequest => ({ kind: "financial", cui, year: args[2] ?? null, field: f as FinancialField }));
    }
    case "PROFIL":
      return profile("adresa");
    case "ACTUALIZAT":
      return profile("denumire");
    case "FISA":
      return [...profile("adresa"), ...FINANCIAL_ORDER.flatMap(financial)];
    case "FINANCIAR":
      return FINANCIAL_ORDER.flatMap(financial);
    case "ISTORIC": {
      // The field as the function reads it (fieldByName: any case, diacritics, English names); one it refuses costs nothing.
      let field: ProfileField | FinancialField = "cifra_afaceri";
      try {
        if (!isBlank(args[3])) field = fieldByName(args[3]);
      } catch {
        return [];
      }
      if (isProfileField(field)) return [];
      return cuis().map((cui): CellRequest => ({ kind: "history", cui, from: args[1], to: args[2], field: field as FinancialField }));
    }
    case "CAUTA":
    case "TOP":
    case "TOPURI":
    case "JUDETE": {
      // The list the function will ask for, as the engine keys it, so that the estimate knows it is cached.
      try {
        const list = listSpec(n, args);
        return [{ kind: "list", calls: Math.ceil(("limit" in list ? list.limit : 1) / 100), list }];
      } catch {
        return []; // invalid arguments: refused locally, nothing to pay
      }
    }
    default:
      return [];
  }
}
