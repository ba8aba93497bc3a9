/**
 * The tolerant reader: turns whatever plausible shape the service answers with into the types of
 * `types.ts`, and rejects anything else with a `ResponseShapeError` naming the endpoint and field.
 * Every accepted variant is listed in docs/spec-open-points.md, "Client" column (O1–O8, O13, O16–O18).
 */
import { NotFoundError, ResponseShapeError } from "./errors";
import type {
  BatchIdentificationItem,
  CompanyProfile,
  County,
  EndpointName,
  FinancialRange,
  FinancialYear,
  Page,
  RankingEntry,
  RankingSummary,
  SearchItem,
} from "./types";

type Obj = Record<string, unknown>;

/** Where the list of a list answer may be (O1); endpoints add their own names. */
const LIST_KEYS = ["data", "items", "results", "rezultate", "firme", "companies"];
const PAGING_HOLDERS = ["pagination", "meta", "paginare"];
const PAGING = {
  page: ["page", "pagina", "current_page"],
  limit: ["limit", "per_page", "pe_pagina", "page_size"],
  total: ["total", "total_count", "total_items", "numar_total"],
  pages: ["pages", "total_pages", "pagini"],
};
const NAME = ["denumire", "nume", "name"];
/** Profile fields and the names they may come under (O2). */
const PROFILE_ALIASES = {
  judet: ["judet", "county"],
  localitate: ["localitate", "city"],
  adresa: ["adresa", "address"],
  caen_principal: ["caen_principal", "caen"],
  platitor_tva: ["platitor_tva", "vat_payer"],
  j_cod: ["j_cod", "registration_number"],
} as const;
const STARE = ["stare", "status"];
const EXTRA_FINANCIAL = ["active_totale", "datorii_totale", "numar_angajati"] as const;

// ---------------------------------------------------------------------------------------------
// Endpoints

/** `GET /v4/firme/{cui}`; the profile may also come wrapped under `data`, `firma` or `company`. */
export function readCompany(body: unknown): CompanyProfile {
  const r = new Reader("company");
  const o = r.object(unwrap(body, ["data", "firma", "company"]), "body");
  return {
    cui: r.int(o, ["cui"], true),
    denumire: r.str(o, NAME, true),
    j_cod: r.str(o, PROFILE_ALIASES.j_cod) ?? null,
    stare: r.str(o, STARE, true),
    judet: r.str(o, PROFILE_ALIASES.judet) ?? null,
    localitate: r.str(o, PROFILE_ALIASES.localitate) ?? null,
    adresa: r.str(o, PROFILE_ALIASES.adresa) ?? null,
    caen_principal: r.caen(o) ?? null,
    platitor_tva: r.bool(o, PROFILE_ALIASES.platitor_tva) ?? null,
  };
}

/**
 * `GET /v4/firme/{cui}/financiar`, either shape: a one-year object (has `an`), or a range (`data`
 * or another list of yearly entries, or a bare array). Returns the years, latest first.
 */
export function readFinancial(body: unknown, cui: number): FinancialYear[] {
  const r = new Reader("financial");
  const top = unwrapRecord(body);
  if (!Array.isArray(top) && !isObj(top))
    r.fail(`expected a one-year record (with "an") or a range (with "data"), got ${kind(top)}`, "body");
  if (Array.isArray(top) || !hasAny(top, ["an", "year"])) {
    const { items, holder } = r.list(top, ["ani", "years", "financiar"]);
    const owner = holder && hasAny(holder, ["cui"]) ? r.int(holder, ["cui"], true) : cui;
    return sortByYear(items.map((e, i) => r.financial(r.object(e, `data[${i}]`), owner, `data[${i}]`)));
  }
  return [r.financial(r.object(top, "body"), cui)];
}

/** The one year asked for (or, with `an` left out, the latest one the answer holds). */
export function pickYear(years: FinancialYear[], cui: number, an?: number): FinancialYear {
  const hit = an === undefined ? years[0] : years.find((y) => y.an === an);
  if (!hit) throw new NotFoundError({ endpoint: "financial", status: 200, serviceMessage: `no data for ${cui}${an ? `/${an}` : ""}` });
  return hit;
}

export function toRange(years: FinancialYear[], cui: number): FinancialRange {
  return { cui, data: years };
}

/**
 * `GET /v4/firme/batch`: items matched by `cui`, never by position (O13); null items and items with
 * an error marker are not found (O7); identical duplicates are read once; CUIs not asked are
 * ignored. Returned in the order asked; a CUI given twice with different data comes twice (after
 * the rest), so that the engine can refuse to choose between them.
 */
export function readBatchIdentification(body: unknown, asked: readonly number[]): BatchIdentificationItem[] {
  const r = new Reader("batch");
  const byCui = new Map<number, BatchIdentificationItem>();
  const conflicting: BatchIdentificationItem[] = [];
  const wanted = new Set(asked);
  r.batchItems(body).forEach(([o, at]) => {
    const item = r.identity(o, at);
    if (!wanted.has(item.cui)) return;
    const seen = byCui.get(item.cui);
    if (!seen) byCui.set(item.cui, item);
    else if (JSON.stringify(seen) !== JSON.stringify(item)) conflicting.push(item);
  });
  return [...asked.filter((c) => byCui.has(c)).map((c) => byCui.get(c)!), ...conflicting];
}

/**
 * `GET /v4/firme/batch/financiar`: items matched by (`cui`, `an`) (O13). An item may also hold a
 * company's years under `data`/`ani` (one item per company). Years outside `keep` are ignored.
 * Returned in the order asked, latest year first.
 */
export function readBatchFinancial(body: unknown, asked: readonly number[], keep: (an: number) => boolean = () => true): FinancialYear[] {
  const r = new Reader("batchFinancial");
  const found = new Map<string, FinancialYear>();
  const conflicting: FinancialYear[] = [];
  const wanted = new Set(asked);
  for (const [o, at] of r.batchItems(body)) {
    const nested = ["data", "ani", "years"].find((k) => Array.isArray(o[k]));
    const years =
      nested && !hasAny(o, ["an"])
        ? (o[nested] as unknown[]).map((e, i) => r.financial(r.object(e, `${at}.${nested}[${i}]`), r.int(o, ["cui"], true, at)))
        : [r.financial(o, undefined, at)];
    for (const y of years) {
      const k = `${y.cui}/${y.an}`;
      if (!wanted.has(y.cui) || !keep(y.an)) continue;
      const seen = found.get(k);
      if (!seen) found.set(k, y);
      else if (JSON.stringify(seen) !== JSON.stringify(y)) conflicting.push(y);
    }
  }
  const order = new Map(asked.map((c, i) => [c, i]));
  return [...[...found.values()].sort((a, b) => order.get(a.cui)! - order.get(b.cui)! || b.an - a.an), ...conflicting];
}

/** One page of `GET /v4/firme/search` (O1, O2). */
export function readSearchPage(body: unknown, page: number, limit: number): Page<SearchItem> {
  const r = new Reader("search");
  return r.page(body, [], page, limit, (o) => {
    const item: SearchItem = { cui: r.int(o, ["cui"], true), denumire: r.str(o, NAME, true) };
    const stare = r.str(o, STARE);
    if (stare !== undefined) item.stare = stare;
    for (const f of ["judet", "localitate", "j_cod"] as const) {
      const v = r.str(o, PROFILE_ALIASES[f]);
      if (v !== undefined) item[f] = v;
    }
    const caen = r.caen(o);
    if (caen !== undefined) item.caen_principal = caen;
    return item;
  });
}

/** `GET /v4/topuri` (O3): the list only; a title falls back to the slug. */
export function readRankings(body: unknown): RankingSummary[] {
  const r = new Reader("rankings");
  return r.list(body, ["topuri"]).items.map((e, i) => {
    const o = r.object(e, `data[${i}]`);
    const slug = r.str(o, ["slug"], true);
    const s: RankingSummary = {
      slug,
      titlu: r.str(o, ["titlu", "nume", "denumire", "title", "name"]) ?? slug,
      an: r.int(o, ["an", "year"]) ?? null,
      categorie: r.str(o, ["categorie", "category"]) ?? null,
      scop: r.str(o, ["scop", "scope"]) ?? null,
    };
    for (const f of ["judet", "localitate"] as const) {
      const v = r.str(o, PROFILE_ALIASES[f]);
      if (v !== undefined) s[f] = v;
    }
    return s;
  });
}

/** One page of `GET /v4/topuri/{slug}` (O4); a missing position is the running index across pages. */
export function readRankingPage(body: unknown, page: number, limit: number): Page<RankingEntry> {
  const r = new Reader("ranking");
  return r.page(body, ["pozitii", "clasament", "entries"], page, limit, (o, i, size) => ({
    pozitie: r.int(o, ["pozitie", "loc", "rank", "position"]) ?? (page - 1) * size + i + 1,
    cui: r.int(o, ["cui"], true),
    denumire: r.str(o, NAME, true),
    valoare: r.num(o, ["valoare", "value", "valoare_curenta"]) ?? null,
    variatie: r.percent(o, ["variatie", "variatie_anuala", "variation", "change"]) ?? null,
  }));
}

/** `GET /v4/nomenclatoare/judete` (O5). */
export function readCounties(body: unknown): County[] {
  const r = new Reader("counties");
  return r.list(body, ["judete"]).items.map((e, i) => {
    const o = r.object(e, `data[${i}]`);
    return {
      cod: r.str(o, ["cod", "code", "cod_judet", "abreviere"], true),
      denumire: r.str(o, ["denumire", "nume", "judet", "name"], true),
      firme_active: r.int(o, ["firme_active", "numar_firme_active", "active_companies", "active", "count"]) ?? null,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Private: the reading itself. `at` names where in the body a value sits, for the error message.

const TEXT_PROFILE = ["judet", "localitate", "adresa", "j_cod"] as const;

class Reader {
  constructor(private readonly endpoint: EndpointName) {}

  fail(detail: string, field: string | null = null): never {
    throw new ResponseShapeError(detail, { endpoint: this.endpoint, field });
  }

  object(value: unknown, at: string): Obj {
    return isObj(value) ? value : this.fail(`${at}: expected an object, got ${kind(value)}`, at);
  }

  /** A bare array, or the array under one of the list names; also one level down under `data`. */
  list(body: unknown, extra: string[]): { items: unknown[]; holder: Obj | null } {
    if (Array.isArray(body)) return { items: body, holder: null };
    if (isObj(body)) {
      for (const k of [...LIST_KEYS, ...extra]) if (Array.isArray(body[k])) return { items: body[k] as unknown[], holder: body };
      if (isObj(body.data)) {
        for (const k of [...LIST_KEYS, ...extra])
          if (Array.isArray(body.data[k])) return { items: body.data[k] as unknown[], holder: body.data };
      }
    }
    return this.fail(`no list (looked for an array, or one under ${[...LIST_KEYS, ...extra].join("/")}), got ${kind(body)}`, "data");
  }

  page<T>(body: unknown, extra: string[], page: number, limit: number, read: (o: Obj, i: number, size: number) => T): Page<T> {
    const { items, holder } = this.list(body, extra);
    const facts = { page: null, limit: null, total: null, pages: null } as Record<keyof typeof PAGING, number | null>;
    const tops = [holder, body].filter(isObj).filter((v, i, all) => all.indexOf(v) === i);
    if (tops.length) {
      const sources = tops.flatMap((t) => [...PAGING_HOLDERS.map((k) => t[k]).filter(isObj), t]);
      for (const fact of Object.keys(PAGING) as (keyof typeof PAGING)[]) {
        const src = sources.find((s) => hasAny(s, PAGING[fact]));
        if (src) facts[fact] = this.int(src, PAGING[fact], false, "pagination") ?? null;
      }
    }
    const size = facts.limit && facts.limit > 0 ? facts.limit : limit;
    return {
      items: items.map((e, i) => read(this.object(e, `data[${i}]`), i, size)),
      page,
      limit: size,
      total: facts.total,
      pages: facts.pages,
    };
  }

  /** Items of a batch answer (O7) with where they sit; null items and error-marked items left out. */
  batchItems(body: unknown): [Obj, string][] {
    const out: [Obj, string][] = [];
    this.list(body, []).items.forEach((e, i) => {
      if (e === null) return;
      const o = this.object(e, `data[${i}]`);
      const marked = Boolean(o.error) || Boolean(o.eroare) || o.found === false || o.gasit === false;
      if (!marked) out.push([o, `data[${i}]`]);
    });
    return out;
  }

  identity(o: Obj, at: string): BatchIdentificationItem {
    const item: BatchIdentificationItem = {
      cui: this.int(o, ["cui"], true, at),
      denumire: this.str(o, NAME, true, at),
      stare: this.str(o, STARE, true, at),
    };
    for (const f of TEXT_PROFILE) {
      const v = this.str(o, PROFILE_ALIASES[f], false, at);
      if (v !== undefined) item[f] = v;
    }
    const caen = this.caen(o, at);
    if (caen !== undefined) item.caen_principal = caen;
    const tva = this.bool(o, PROFILE_ALIASES.platitor_tva, at);
    if (tva !== undefined) item.platitor_tva = tva;
    return item;
  }

  /** A yearly record; a field the record lacks stays absent (O16, O17), except the two documented everywhere. */
  financial(o: Obj, cui?: number, at = "body"): FinancialYear {
    const y: FinancialYear = {
      cui: cui !== undefined && !hasAny(o, ["cui"]) ? cui : this.int(o, ["cui"], true, at),
      an: this.int(o, ["an", "year"], true, at),
      cifra_afaceri: this.num(o, ["cifra_afaceri"], at) ?? null,
      profit_net: this.num(o, ["profit_net"], at) ?? null,
    };
    for (const f of EXTRA_FINANCIAL) {
      const v = this.num(o, [f], at);
      if (v !== undefined) y[f] = v;
    }
    return y;
  }

  /** An integer, or a digit string (O8). `undefined` when absent, null when null/""; required → error. */
  int(o: Obj, names: readonly string[], required: true, at?: string): number;
  int(o: Obj, names: readonly string[], required?: boolean, at?: string): number | null | undefined;
  int(o: Obj, names: readonly string[], required = false, at = "") {
    return this.value(o, names, required, at, "an integer", asInt);
  }

  /** A number (money may have decimals), or a numeric string; null stays null (O8). */
  num(o: Obj, names: readonly string[], at = "") {
    return this.value(o, names, false, at, "a number", asNumber);
  }

  /** A percentage: a number, or a string such as "+12,5%" (read as 12.5) (O4). */
  percent(o: Obj, names: readonly string[]) {
    return this.value(o, names, false, "", "a percentage", (v) => {
      if (typeof v === "number" && Number.isFinite(v)) return v;
      if (typeof v !== "string") return undefined;
      const m = /^([+-]?\d+(?:[.,]\d+)?)\s*%?$/.exec(v.trim());
      return m ? Number(m[1].replace(",", ".")) : undefined;
    });
  }

  /** A string (a number is turned into one); trimmed; "" is null. */
  str(o: Obj, names: readonly string[], required: true, at?: string): string;
  str(o: Obj, names: readonly string[], required?: boolean, at?: string): string | null | undefined;
  str(o: Obj, names: readonly string[], required = false, at = "") {
    return this.value(o, names, required, at, "a string", asString);
  }

  /** CAEN codes have four digits: a number such as 111 comes back as "0111". */
  caen(o: Obj, at = "") {
    const v = this.str(o, PROFILE_ALIASES.caen_principal, false, at);
    return typeof v === "string" && /^\d{1,3}$/.test(v) ? v.padStart(4, "0") : v;
  }

  /** true/false, 1/0, "DA"/"NU", "true"/"false" in any case (O8). */
  bool(o: Obj, names: readonly string[], at = "") {
    return this.value(o, names, false, at, "a boolean (true/false, 1/0, DA/NU)", (v) => {
      if (typeof v === "boolean") return v;
      if (v === 1 || v === 0) return v === 1;
      if (typeof v !== "string") return undefined;
      const s = v.trim().toLowerCase();
      if (["da", "true", "1"].includes(s)) return true;
      if (["nu", "false", "0"].includes(s)) return false;
      return undefined;
    });
  }

  private value<T>(
    o: Obj,
    names: readonly string[],
    required: boolean,
    at: string,
    expected: string,
    read: (v: unknown) => T | undefined,
  ): T | null | undefined {
    // Every field of every item passes here (a batch answer: 100 items × 10 fields): no closure, and
    // where the value sits is spelled out only for a message.
    let name: string | undefined;
    for (let i = 0; i < names.length; i++)
      if (o[names[i]] !== undefined) {
        name = names[i];
        break;
      }
    const v = name === undefined ? undefined : o[name];
    if (v === undefined || v === null || v === "") {
      if (required) {
        const where = spot(at, name ?? names[0]);
        this.fail(`field "${where}" is missing (looked for ${names.join("/")})`, where);
      }
      return v === undefined ? undefined : null;
    }
    const out = read(v);
    if (out === undefined) {
      const where = spot(at, name!);
      this.fail(`field "${where}": expected ${expected}, got ${kind(v)}`, where);
    }
    return out;
  }
}

/** Where a field sits in the body, for a message. */
const spot = (at: string, name: string) => (at ? `${at}.${name}` : name);

/** The field readers (`value`'s `read`): the value as the type, or undefined when it is not one. */
function asInt(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string" && /^\s*[+-]?\d{1,15}\s*$/.test(v)) return Number(v);
  return undefined;
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

function asString(v: unknown): string | undefined {
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function hasAny(o: unknown, names: readonly string[]): boolean {
  return isObj(o) && names.some((n) => o[n] !== undefined);
}

/** A single record wrapped in an object (`{ data: {...} }`) is unwrapped; anything else is left alone. */
function unwrap(body: unknown, keys: string[]): unknown {
  if (!isObj(body) || hasAny(body, ["cui"])) return body;
  const k = keys.find((k) => isObj(body[k]));
  return k ? body[k] : body;
}

/** The financial answer's record: `{ data: { an, ... } }` unwrapped, a range (with `data` array) kept. */
function unwrapRecord(body: unknown): unknown {
  return isObj(body) && !hasAny(body, ["an"]) && isObj(body.data) && hasAny(body.data, ["an"]) ? body.data : body;
}

function sortByYear(years: FinancialYear[]): FinancialYear[] {
  return years
    .map((y, i) => [y, i] as const)
    .sort(([a, i], [b, j]) => b.an - a.an || i - j)
    .map(([y]) => y);
}

/** What a wrong value looked like, short (never a whole body). */
function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return JSON.stringify(v.length > 30 ? v.slice(0, 30) + "…" : v);
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}
