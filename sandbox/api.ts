/**
 * The /v4 endpoints: key check, credit check, routing, parameters, answers (as Results; the server
 * renders, charges and delivers them). Choices for everything the spec leaves open are those of
 * docs/spec-open-points.md, Sandbox column; the O numbers below refer to it.
 */
import { countyRows } from "./counties";
import { error, Result } from "./envelope";
import { financials, financialYear, FinancialYear } from "./finance";
import { Accounts, oldestYear, Plan, planOfKey } from "./plans";
import { company, Company } from "./profile";
import { listRankings, ranking, rankingRows } from "./rankings";
import { withFormulaText } from "./formula-text";
import { search } from "./search";
import { SandboxConfig } from "./config";

export type EndpointName = "company" | "financial" | "batch" | "batchFinancial" | "search" | "rankings" | "ranking" | "counties";

export interface CallContext {
  config: SandboxConfig;
  accounts: Accounts;
  /** The rateLimitAfter fault is in force. */
  rateLimited: boolean;
}

export interface Outcome {
  plan: Plan | null;
  result: Result;
}

interface Call {
  /** Path segments captured by the route. */
  params: string[];
  query: URLSearchParams;
  plan: Plan;
  config: SandboxConfig;
}

/** Thrown by parameter checks; carries the refusal. */
class Refusal extends Error {
  constructor(readonly result: Result) {
    super(result.kind === "error" ? result.message : "refused");
  }
}

function fail(status: number, code: string, message: string): never {
  throw new Refusal(error(status, code, message));
}

// ---- parameters -------------------------------------------------------------------------------

function intParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const value = Number(text.trim());
  if (!/^\s*-?\d+\s*$/.test(text) || value < min || value > max) {
    fail(
      400,
      "bad_request",
      `Parametrul ${name} trebuie să fie un număr întreg între ${min} și ${max}. / ${name} must be an integer from ${min} to ${max}.`,
    );
  }
  return value;
}

function cuiOf(text: string): number {
  const m = /^(?:RO)?(\d{1,10})$/i.exec(text.trim());
  if (!m) fail(400, "invalid_cui", `CUI invalid: "${text.slice(0, 20)}". / Invalid CUI.`);
  return Number(m[1]);
}

/** The distinct CUIs of a batch's `cui` list, ascending (O13); more than max entries → 400 (O14). */
function cuiList(query: URLSearchParams, max: number): number[] {
  const entries = (query.get("cui") ?? "").split(",").filter((e) => e.trim() !== "");
  if (entries.length === 0) {
    fail(400, "bad_request", "Parametrul cui lipsește. / The cui parameter is required.");
  }
  if (entries.length > max) {
    fail(400, "batch_too_large", `Cel mult ${max} CUI-uri pe cerere (primite ${entries.length}). / At most ${max} CUIs per request.`);
  }
  return [...new Set(entries.map(cuiOf))].sort((a, b) => a - b);
}

type Years = { single: number } | { range: number[] };

/** `an`, or `an_de_la` + `an_pana`, or neither (the latest year); both → 400 (O12). */
function yearsAsked(query: URLSearchParams, plan: Plan, latest: number): Years {
  const an = intParam(query, "an", 1900, 2100);
  const from = intParam(query, "an_de_la", 1900, 2100);
  const to = intParam(query, "an_pana", 1900, 2100);
  if (an !== undefined && (from !== undefined || to !== undefined)) {
    fail(400, "bad_request", "Dați fie an, fie an_de_la și an_pana, nu pe amândouă. / Give either an or a range, not both.");
  }
  if ((from === undefined) !== (to === undefined)) {
    fail(400, "bad_request", "Intervalul cere an_de_la și an_pana. / A range needs both an_de_la and an_pana.");
  }
  if (from !== undefined && to !== undefined && from > to) {
    fail(400, "bad_request", "an_de_la este după an_pana. / an_de_la is after an_pana.");
  }
  const oldestAsked = from ?? an ?? latest;
  const oldest = oldestYear(plan, latest);
  if (oldestAsked < oldest) {
    fail(
      403,
      "plan_history",
      `Planul ${plan.name} acoperă anii financiari de la ${oldest}. / The ${plan.name} plan reaches financial years from ${oldest} on.`,
    );
  }
  if (from === undefined || to === undefined) return { single: an ?? latest };
  const range: number[] = [];
  for (let y = to; y >= from; y--) range.push(y);
  return { range };
}

/** `limit` (default 20, above 100 served as 100) and `page` (from 1), O9. */
function paging(query: URLSearchParams): { page: number; limit: number } {
  const limit = Math.min(intParam(query, "limit", 1, Number.MAX_SAFE_INTEGER) ?? 20, 100);
  const page = intParam(query, "page", 1, Number.MAX_SAFE_INTEGER) ?? 1;
  return { page, limit };
}

function notFoundCompany(cui: number): never {
  fail(404, "not_found", `Nu există o firmă cu CUI ${cui}. / No company with CUI ${cui}.`);
}

// ---- endpoints --------------------------------------------------------------------------------

/** The company as the registry has it now: generated, with the formula text and the overrides of the config applied. */
function current(cui: number, config: SandboxConfig): Company | null {
  let found = company(cui);
  if (found && config.formulaText) found = withFormulaText(found);
  const o = config.overrides[String(cui)];
  return found && o ? ({ ...found, ...o } as Company) : found;
}

function companyEndpoint({ params, config }: Call): Result {
  const cui = cuiOf(params[0]);
  const found = current(cui, config);
  if (!found) notFoundCompany(cui);
  return { kind: "document", status: 200, body: { ...found } };
}

/** The latest year served for a company: the dataset's, or earlier while it has not filed (config.filedUpTo). */
function filedUpTo(cui: number, config: Call["config"]): number {
  const filed = config.filedUpTo[String(cui)];
  return filed === undefined ? config.latestYear : Math.min(filed, config.latestYear);
}

function financialEndpoint({ params, query, plan, config }: Call): Result {
  const cui = cuiOf(params[0]);
  const years = yearsAsked(query, plan, config.latestYear);
  if (!company(cui)) notFoundCompany(cui);
  if ("range" in years) {
    const [to, from] = [years.range[0], years.range[years.range.length - 1]];
    const data = financials(cui, filedUpTo(cui, config))
      .filter((f) => f.an >= from && f.an <= to)
      .map((f) => (config.rangeShape === "minimal" ? rangeMinimal(f) : f));
    return { kind: "document", status: 200, body: { cui, data } };
  }
  const record = financialYear(cui, years.single, filedUpTo(cui, config));
  if (!record) {
    fail(404, "not_found", `Firma ${cui} nu are date financiare pentru ${years.single}. / No financial data for ${years.single}.`);
  }
  return { kind: "document", status: 200, body: { ...record } };
}

/** Profile fields `include` may name (O10). */
const INCLUDABLE = ["judet", "localitate", "adresa", "caen_principal", "platitor_tva", "j_cod"] as const;

function batchEndpoint({ query, config }: Call): Result {
  const cuis = cuiList(query, 100);
  const asked = (query.get("include") ?? "").split(",").map((f) => f.trim());
  const fields = config.includeMode === "ignored" ? [] : asked.includes("all") ? INCLUDABLE : INCLUDABLE.filter((f) => asked.includes(f));
  const items = cuis
    .map((c) => current(c, config))
    .filter((c): c is Company => c !== null)
    .map((c) => {
      const item: Record<string, unknown> = { cui: c.cui, denumire: c.denumire, stare: c.stare };
      for (const f of fields) item[f] = c[f];
      return item;
    });
  return { kind: "batch", status: 200, items };
}

function batchFinancialEndpoint({ query, plan, config }: Call): Result {
  const cuis = cuiList(query, 50);
  const years = yearsAsked(query, plan, config.latestYear);
  const list = "range" in years ? years.range : [years.single];
  const items: Record<string, unknown>[] = [];
  for (const cui of cuis) {
    for (const year of list) {
      const r = financialYear(cui, year, filedUpTo(cui, config));
      if (r) items.push(config.financialShape === "minimal" ? minimal(r) : { ...r });
    }
  }
  return { kind: "batch", status: 200, items };
}

function minimal({ cui, an, cifra_afaceri, profit_net }: FinancialYear): Record<string, unknown> {
  return { cui, an, cifra_afaceri, profit_net };
}

/** A range entry as the spec's example shows it (O16): the year, turnover and net profit, nothing else. */
function rangeMinimal({ an, cifra_afaceri, profit_net }: FinancialYear): Record<string, unknown> {
  return { an, cifra_afaceri, profit_net };
}

/**
 * Company `other`'s data in the shape of a batch item (`template`: same keys; a financial item when it
 * has `an`, for that year), or null when `other` does not exist or did not file that year. Used by the
 * batchStranger fault (an item nobody asked for) and batchConflict (another company's data under the
 * template's CUI). The values are true for `other`, so only the CUI they are filed under can be wrong.
 */
export function foreignItem(template: Record<string, unknown>, other: number, latestYear: number): Record<string, unknown> | null {
  const source: Record<string, unknown> | null =
    "an" in template
      ? (financialYear(other, template.an as number, latestYear) as Record<string, unknown> | null)
      : (company(other) as Record<string, unknown> | null);
  if (!source) return null;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(template)) out[k] = source[k];
  return out;
}

function searchEndpoint({ query, config }: Call): Result {
  const { page, limit } = paging(query);
  const caen = query.get("caen") ?? undefined;
  if (caen !== undefined && !/^\d{1,4}$/.test(caen.trim())) {
    fail(400, "bad_request", "caen: 1–4 cifre. / caen: 1 to 4 digits.");
  }
  const param = (name: string) => query.get(name) ?? undefined;
  const names: Record<string, string> = {};
  for (const [cui, o] of Object.entries(config.overrides)) if (typeof o.denumire === "string") names[cui] = o.denumire;
  const how = { mode: config.searchMode, diacritics: config.searchDiacritics, names };
  const found = search({ q: param("q"), judet: param("judet"), caen, stare: param("stare") }, how);
  const items = found
    .slice((page - 1) * limit, page * limit)
    .map((c) => ({ ...c, ...config.overrides[String(c.cui)] }) as Company)
    .map((c) => ({
      cui: c.cui,
      denumire: c.denumire,
      judet: c.judet,
      localitate: c.localitate,
      stare: c.stare,
      caen_principal: c.caen_principal,
      j_cod: c.j_cod,
    }));
  return { kind: "search", status: 200, items, paging: { page, limit, total: found.length } };
}

function rankingsEndpoint({ query, config }: Call): Result {
  const an = intParam(query, "an", 1900, 2100);
  const items = listRankings(
    { an, categorie: query.get("categorie") ?? undefined, scop: query.get("scop") ?? undefined },
    config.latestYear,
  );
  return { kind: "rankings", status: 200, items };
}

function rankingEndpoint({ params, query, config }: Call): Result {
  const { page, limit } = paging(query);
  const r = ranking(params[0], config.latestYear);
  if (!r) fail(404, "not_found", `Nu există topul "${params[0].slice(0, 80)}". / No such ranking.`);
  const { numar_firme, ...head } = r.summary;
  const items = rankingRows(r, (page - 1) * limit, limit);
  return { kind: "ranking", status: 200, head, items, paging: { page, limit, total: numar_firme } };
}

function countiesEndpoint(): Result {
  return { kind: "counties", status: 200, items: countyRows() };
}

// ---- routing ----------------------------------------------------------------------------------

const ROUTES: ReadonlyArray<readonly [RegExp, EndpointName, (call: Call) => Result]> = [
  [/^\/v4\/firme\/search$/, "search", searchEndpoint],
  [/^\/v4\/firme\/batch$/, "batch", batchEndpoint],
  [/^\/v4\/firme\/batch\/financiar$/, "batchFinancial", batchFinancialEndpoint],
  [/^\/v4\/firme\/([^/]+)$/, "company", companyEndpoint],
  [/^\/v4\/firme\/([^/]+)\/financiar$/, "financial", financialEndpoint],
  [/^\/v4\/topuri$/, "rankings", rankingsEndpoint],
  [/^\/v4\/topuri\/([^/]+)$/, "ranking", rankingEndpoint],
  [/^\/v4\/nomenclatoare\/judete$/, "counties", countiesEndpoint],
];

/** The endpoint a path names (a trailing slash ignored), or null. */
export function endpointOf(path: string): EndpointName | null {
  const clean = path.replace(/\/+$/, "");
  const route = ROUTES.find(([re]) => re.test(clean));
  return route ? route[1] : null;
}

/** Answers one /v4 call: 401/403 for keys, 404/405 off the routes, 429 when spent, then the endpoint. */
export function answer(method: string, url: URL, key: string | undefined, ctx: CallContext): Outcome {
  const path = url.pathname.replace(/\/+$/, "");
  const route = ROUTES.find(([re]) => re.test(path));
  const refuse = (plan: Plan | null, status: number, code: string, message: string): Outcome => ({
    plan,
    result: error(status, code, message),
  });
  if (!key) {
    return refuse(null, 401, "missing_key", "Lipsește cheia API (antetul X-API-Key). / API key missing (X-API-Key header).");
  }
  const plan = planOfKey(key);
  if (!plan) {
    return refuse(null, 403, "invalid_key", "Cheia API nu este validă. / Invalid API key.");
  }
  if (!route) {
    return refuse(plan, 404, "unknown_endpoint", `Nu există ${path}. / No such endpoint.`);
  }
  if (method !== "GET") {
    return refuse(plan, 405, "method_not_allowed", "Doar GET. / Only GET is allowed.");
  }
  if (ctx.accounts.remaining(key, plan) === 0 || ctx.rateLimited) {
    return refuse(plan, 429, "limit_exceeded", "Creditele planului s-au epuizat. / The plan's credits are used up.");
  }
  try {
    const params = (route[0].exec(path) as RegExpExecArray).slice(1).map(decodeURIComponent);
    return {
      plan,
      result: route[2]({ params, query: url.searchParams, plan, config: ctx.config }),
    };
  } catch (e) {
    if (e instanceof Refusal) return { plan, result: e.result };
    if (e instanceof URIError) {
      return refuse(plan, 400, "bad_request", "Cale codificată greșit. / Badly encoded path.");
    }
    throw e;
  }
}
