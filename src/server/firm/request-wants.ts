/**
 * What a /v4 request asks of the firm's store, and how stored answers become the service's documented
 * shapes again (the add-in's reader, src/api/reader.ts, reads them like the service's own).
 *
 * A request is parsed into wants, one per answer the store keeps:
 *  - `profile:<cui>` a company's profile (GET /v4/firme/{cui}); it also answers batch items;
 *  - `ident:<cui>:<include>` a batch identification item, for one `include` (sorted, or `all`);
 *  - `fin:<cui>:<year>`, `finb:…`, `finr:…` one financial year as the one-year, batch or range
 *    endpoint gave it (their fields may differ: the engine probes which carry what); a record with
 *    every financial field answers any of the three, and "no data" (null) is the same fact for all;
 *  - `list:<path>?<query>` a list (search, rankings, counties), or a financial answer without a year,
 *    kept whole as the service sent it.
 * `null` is "the service has nothing": an absent batch item, a 404. Lifetimes are the engine's
 * (src/engine/cache/cache.ts TTL). Requests are checked here as the service checks them, so that a bad one is
 * refused at no credit.
 */
import { TTL } from "../../engine/cache/cache";
import { EXTRA_PROFILE } from "../../engine/plan/dispatch";
import { latestCompleteYear } from "../../engine/years";
import { MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION } from "../../api/client";
import type { MessageKey } from "../../shared/messages/node";

export type Family = "one" | "batch" | "range";

export type Want = (
  | { kind: "profile"; cui: number }
  | { kind: "ident"; cui: number; include: string }
  | { kind: "fin"; family: Family; cui: number; year: number }
  | { kind: "list"; path: string }
) & {
  /** Its store key, once worked out (wantKey). */
  key?: string;
};

/** A request the store can answer: its wants and how their answers are written back. */
export interface Parsed {
  shape: "profile" | "batch" | "one" | "range" | "batchFinancial" | "list";
  /** The companies the request names (the audit's). */
  cuis: number[];
  wants: Want[];
  /** The include fields a batch's items carry (EXTRA_PROFILE for `all`). */
  fields?: readonly string[];
}

/** A request refused before anything is asked: its status, code and message. */
export interface Refusal {
  status: number;
  code: string;
  key: MessageKey;
  params?: Record<string, string | number>;
}

type Obj = Record<string, unknown>;
const PREFIX: Record<Family, string> = { one: "fin", batch: "finb", range: "finr" };
const FAMILIES: Family[] = ["one", "batch", "range"];
const EXTRA_FINANCIAL = ["active_totale", "datorii_totale", "numar_angajati"];

export function wantKey(w: Want): string {
  return (w.key ??= keyOf(w));
}

/**
 * A company's keys made once and given again (by kind and `include` or year, then CUI): a request's
 * keys are then strings the server's maps have already hashed (hot-answers.ts), not new ones to build,
 * flatten and hash for every request. A batch's wants share their kind and part: the table of CUIs is
 * found once for all of them. Emptied when it holds more than INTERNED.
 */
const interned = new Map<string, Map<string | number, Map<number, string>>>();
let internedCount = 0;
const INTERNED = 100_000;

/** The keys of one kind and part (`include`, year), by CUI. */
function keyTable(kind: string, part: string | number): Map<number, string> {
  let byPart = interned.get(kind);
  if (byPart === undefined) interned.set(kind, (byPart = new Map()));
  let byCui = byPart.get(part);
  if (byCui === undefined) byPart.set(part, (byCui = new Map()));
  return byCui;
}

/** `<prefix>:<cui>` or `<prefix>:<cui>:<part>`, from `table` when it was made before. */
function companyKey(table: Map<number, string>, cui: number, prefix: string, part: string | number | null): string {
  let key = table.get(cui);
  if (key === undefined) {
    key = part === null ? `${prefix}:${cui}` : `${prefix}:${cui}:${part}`;
    if (++internedCount > INTERNED) {
      interned.clear();
      internedCount = 0;
    } else table.set(cui, key);
  }
  return key;
}

function keyOf(w: Want): string {
  switch (w.kind) {
    case "profile":
      return companyKey(keyTable("profile", ""), w.cui, "profile", null);
    case "ident":
      return companyKey(keyTable("ident", w.include), w.cui, "ident", w.include);
    case "fin":
      return companyKey(keyTable(PREFIX[w.family], w.year), w.cui, PREFIX[w.family], w.year);
    case "list":
      return `list:${w.path}`;
  }
}

/**
 * The `include` lists a stored identification answer may have been fetched with besides the want's own:
 * everything, the add-in's list (src/engine/plan/dispatch.ts EXTRA_PROFILE), none.
 */
const INCLUDES = ["all", [...EXTRA_PROFILE].sort().join(","), ""];

/** The fields an `include` key part stands for. */
export function fieldsOf(include: string): readonly string[] {
  return include === "all" ? EXTRA_PROFILE : include.split(",").filter(Boolean);
}

/** The keys that may answer a want, the want's own first. */
export function candidates(w: Want): string[] {
  if (w.kind === "ident") return [...new Set([wantKey(w), `profile:${w.cui}`, ...INCLUDES.map((i) => `ident:${w.cui}:${i}`)])];
  if (w.kind !== "fin") return [wantKey(w)];
  return [w.family, ...FAMILIES.filter((f) => f !== w.family)].map((f) => `${PREFIX[f]}:${w.cui}:${w.year}`);
}

/**
 * Whether the answer stored under `key` answers the want. "Nothing" (null) is the same fact under any
 * key. Another financial family's record: when it has every field. A company's profile answers any
 * identification; an identification fetched with another `include`: when it was asked for every field
 * the want asks for (with `include` it serves a request without), or when the service is known to
 * ignore `include` (`includeIgnored`), so that no call would bring the fields either.
 */
export function accepts(w: Want, key: string, body: unknown, includeIgnored = false): boolean {
  if (body === null || key === wantKey(w)) return true;
  if (w.kind === "ident") {
    if (key.startsWith("profile:")) return true;
    const had = fieldsOf(key.split(":")[2] ?? "");
    return includeIgnored || fieldsOf(w.include).every((f) => had.includes(f));
  }
  if (w.kind !== "fin") return true;
  return EXTRA_FINANCIAL.every((f) => (body as Obj)[f] !== undefined);
}

/** How long the answer under `key` stays fresh (src/engine/cache/cache.ts TTL). */
export function lifetime(key: string, body: unknown, now: number): number {
  if (body === null) return TTL.notFound;
  const fin = /^fin[br]?:\d+:(\d+)$/.exec(key);
  if (fin) return Number(fin[1]) < latestCompleteYear(new Date(now)) ? TTL.closedYear : TTL.latestYear;
  if (key.startsWith("list:")) {
    if (key.startsWith("list:/v4/nomenclatoare/judete")) return TTL.counties;
    return /\/financiar/.test(key) ? TTL.latestYear : TTL.list;
  }
  return TTL.profile;
}

// ---- parsing ------------------------------------------------------------------------------------

const LISTS = /^\/v4\/(?:firme\/search|topuri|topuri\/[A-Za-z0-9._~-]{1,200}|nomenclatoare\/judete)$/;
const ONE = /^\/v4\/firme\/(\d{1,10})$/;
const FIN = /^\/v4\/firme\/(\d{1,10})\/financiar$/;

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.code);
  }
}

const refuse = (code: string, key: MessageKey, params?: Refusal["params"]): never => {
  throw new Refused({ status: 400, code, key, params });
};

function cuiOf(text: string): number {
  // Digits only (the add-in's form): read as they are; anything else by the rule below.
  if (text.length <= 10 && text.length > 0) {
    let digits = true;
    for (let i = 0; i < text.length && digits; i++) {
      const c = text.charCodeAt(i);
      digits = c >= 48 && c <= 57;
    }
    if (digits) return Number(text);
  }
  const m = /^(?:RO)?(\d{1,10})$/i.exec(text.trim());
  if (!m) refuse("invalid_cui", "custody.invalidCui", { value: text.trim().slice(0, 20) });
  return Number(m![1]);
}

/** The distinct CUIs of a batch's `cui`, ascending (as the service answers them). */
function cuiList(query: Query, max: number): number[] {
  const text = query.get("cui") ?? "";
  const plain = digitsList(text);
  let cuis: number[];
  if (plain !== null && plain.length > 0 && plain.length <= max) {
    if (ascending(plain)) return plain;
    // numbers sorted natively, without a comparator called ~600 times (20 → 9 µs for 100)
    const sorted = new Float64Array(plain).sort();
    for (let i = 0; i < sorted.length; i++) plain[i] = sorted[i];
    cuis = plain;
  } else {
    const entries = text.split(",").filter((e) => e.length > 0 && e.trim() !== "");
    if (entries.length === 0) refuse("bad_request", "custody.noCui");
    if (entries.length > max) refuse("batch_too_large", "custody.batchTooLarge", { max, count: entries.length });
    cuis = entries.map(cuiOf).sort((a, b) => a - b);
  }
  let n = 0;
  for (let i = 0; i < cuis.length; i++) if (n === 0 || cuis[i] !== cuis[n - 1]) cuis[n++] = cuis[i];
  cuis.length = n;
  return cuis;
}

/**
 * A list of CUIs written as the add-in writes it (digits and commas only, 10 digits at most each; empty
 * entries skipped) read in one pass; null for anything else, which cuiList reads entry by entry.
 */
function digitsList(text: string): number[] | null {
  const out: number[] = [];
  let n = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c === 44) {
      if (digits > 0) out.push(n);
      n = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 10) {
      n = n * 10 + (c - 48);
      digits++;
    } else return null;
  }
  return out;
}

/** Strictly ascending: nothing to sort and no duplicate to drop. */
function ascending(xs: readonly number[]): boolean {
  for (let i = 1; i < xs.length; i++) if (xs[i] <= xs[i - 1]) return false;
  return true;
}

/** A query's parameters: the first value of a name, as URLSearchParams reads it. */
interface Query {
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * The query as URLSearchParams reads it. One with nothing encoded and no leading `?` (no `%`, no `+`:
 * the add-in's own requests) is split by hand, which gives the same names and values at a fraction of
 * the cost.
 */
function queryOf(raw: string): Query {
  if (raw.includes("%") || raw.includes("+") || raw.startsWith("?")) return new URLSearchParams(raw);
  const first = new Map<string, string>();
  let start = 0;
  while (start < raw.length) {
    let end = raw.indexOf("&", start);
    if (end < 0) end = raw.length;
    if (end > start) {
      const eq = raw.indexOf("=", start);
      const name = eq < 0 || eq > end ? raw.slice(start, end) : raw.slice(start, eq);
      if (!first.has(name)) first.set(name, eq < 0 || eq > end ? "" : raw.slice(eq + 1, end));
    }
    start = end + 1;
  }
  return { get: (name) => first.get(name) ?? null, has: (name) => first.has(name) };
}

function year(query: Query, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (!/^\s*\d{4}\s*$/.test(text) || Number(text) < 1900 || Number(text) > 2100) refuse("bad_request", "custody.badYear", { name });
  return Number(text);
}

/** The years asked: one, a range (latest first), or none (the service's latest: kept whole as a list). */
function yearsAsked(query: Query): number[] | null {
  const an = year(query, "an");
  const from = year(query, "an_de_la");
  const to = year(query, "an_pana");
  if (an !== undefined && (from !== undefined || to !== undefined)) refuse("bad_request", "custody.yearsBoth");
  if ((from === undefined) !== (to === undefined)) refuse("bad_request", "custody.rangeHalf");
  if (an !== undefined) return [an];
  if (from === undefined || to === undefined) return null;
  if (from > to) refuse("bad_request", "custody.rangeOrder");
  const out: number[] = [];
  for (let y = to; y >= from; y--) out.push(y);
  return out;
}

/** `include` as a key part: "" (none), "all", or its fields sorted. */
function includeOf(query: Query): string {
  const fields = (query.get("include") ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f !== "");
  if (fields.some((f) => !/^\w{1,40}$/.test(f))) refuse("bad_request", "custody.badInclude");
  return fields.includes("all") ? "all" : [...new Set(fields)].sort().join(",");
}

/** A /v4 path and its query (without `?`) as wants, or why it is refused at no credit; null: not an API path. */
export function parseRequest(path: string, rawQuery: string): Parsed | Refusal | null {
  const query = queryOf(rawQuery);
  const whole = (cuis: number[]): Parsed => ({
    shape: "list",
    cuis,
    wants: [{ kind: "list", path: rawQuery ? `${path}?${rawQuery}` : path }],
  });
  try {
    if (LISTS.test(path)) return whole([]);
    if (path === "/v4/firme/batch") {
      const cuis = cuiList(query, MAX_BATCH_IDENTIFICATION);
      const include = includeOf(query);
      const fields = fieldsOf(include);
      const keys = keyTable("ident", include);
      const wants = cuis.map((cui): Want => ({ kind: "ident", cui, include, key: companyKey(keys, cui, "ident", include) }));
      return { shape: "batch", cuis, fields, wants };
    }
    if (path === "/v4/firme/batch/financiar") {
      const cuis = cuiList(query, MAX_BATCH_FINANCIAL);
      const years = yearsAsked(query);
      if (years === null) return whole(cuis);
      const tables = years.map((y) => keyTable(PREFIX.batch, y));
      const wants: Want[] = [];
      for (const cui of cuis)
        for (let i = 0; i < years.length; i++)
          wants.push({ kind: "fin", family: "batch", cui, year: years[i], key: companyKey(tables[i], cui, PREFIX.batch, years[i]) });
      return { shape: "batchFinancial", cuis, wants };
    }
    const one = ONE.exec(path);
    if (one) return { shape: "profile", cuis: [Number(one[1])], wants: [{ kind: "profile", cui: Number(one[1]) }] };
    const fin = FIN.exec(path);
    if (fin) {
      const cui = Number(fin[1]);
      const years = yearsAsked(query);
      if (years === null) return whole([cui]);
      const family: Family = query.has("an") ? "one" : "range";
      return { shape: family, cuis: [cui], wants: years.map((y): Want => ({ kind: "fin", family, cui, year: y })) };
    }
    return null;
  } catch (e) {
    if (e instanceof Refused) return e.refusal;
    throw e;
  }
}

// ---- answers back in the service's shapes -------------------------------------------------------

/** A batch item: cui, name, status and the include fields the answer has (a profile carries them all). */
function item(body: Obj, fields: readonly string[]): Obj {
  const out: Obj = { cui: body.cui, denumire: body.denumire, stare: body.stare };
  for (const f of fields) if (body[f] !== undefined) out[f] = body[f];
  return out;
}

/** An answer as the server holds it: a stored answer (firm-store.ts StoredAnswer), or a body just fetched. */
export interface Held {
  body: unknown;
}

/** An answer to write: one held, and not the service's "nothing" (null). */
const some = (h: Held | undefined): h is Held => h !== undefined && h.body !== null && h.body !== undefined;

/** The signature of an answer written whole: no field is named `*` (a batch without `include` is ""). */
const WHOLE = "*";

/**
 * Each answer's JSON as written into a response (its UTF-8 bytes), by the fields written (a batch item
 * carries its request's `include`): kept on the answer held (non-enumerable, so JSON leaves it out) as
 * long as it lives, so that an answer the server holds in memory (hot-answers.ts) is serialized and
 * encoded once, not once per request; a response is then the copy of its answers' bytes (about a third
 * of the time of joining their texts and encoding the whole, measured on 100 items). The bytes of one
 * set of fields are kept (an answer is nearly always written with the fields of its own key); kept on
 * the holder, whose shape is one and the same for every answer, they are read in a tenth of the time
 * of a property on the bodies, whose shapes are as many as the service's answers.
 */
interface Rendered {
  renderedSig?: string;
  rendered?: Buffer;
}

function bytesOf(held: Held, fields: readonly string[] | null, sig: string): Buffer {
  const body = held.body;
  if (body === null || typeof body !== "object") return Buffer.from(JSON.stringify(body));
  const r = held as Held & Rendered;
  if (r.renderedSig === sig && r.rendered !== undefined) return r.rendered;
  const bytes = Buffer.from(JSON.stringify(fields === null ? body : item(body as Obj, fields)));
  if (r.renderedSig === undefined) {
    Object.defineProperty(r, "renderedSig", { value: sig, writable: true });
    Object.defineProperty(r, "rendered", { value: bytes, writable: true });
  } else {
    r.renderedSig = sig;
    r.rendered = bytes;
  }
  return bytes;
}

const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/**
 * The answer to a parsed request from each want's answer (`held[i]` answers `p.wants[i]`; undefined, or
 * a null body: none): status and JSON (UTF-8), or a 404.
 */
export function render(p: Parsed, held: readonly (Held | undefined)[]): { status: number; text: Buffer } | Refusal {
  const notFound: Refusal = { status: 404, code: "not_found", key: "custody.notFound", params: { cui: String(p.cuis[0] ?? "") } };
  const list = (fields: readonly string[] | null, before?: Buffer, after?: Buffer) => {
    const sig = fields === null ? WHOLE : fields.join(",");
    const parts: Buffer[] = before ? [before, OPEN] : [OPEN];
    for (let i = 0; i < p.wants.length; i++) {
      const h = held[i];
      if (!some(h)) continue;
      if (parts.length > (before ? 2 : 1)) parts.push(COMMA);
      parts.push(bytesOf(h, fields, sig));
    }
    parts.push(CLOSE);
    if (after) parts.push(after);
    return Buffer.concat(parts);
  };
  switch (p.shape) {
    case "profile":
    case "one":
    case "list": {
      const h = held[0];
      if (!some(h)) return p.shape === "list" ? { ...notFound, key: "custody.listNotFound" } : notFound;
      return { status: 200, text: bytesOf(h, null, WHOLE) };
    }
    case "batch":
      return { status: 200, text: list(p.fields ?? []) };
    case "range":
      return { status: 200, text: list(null, Buffer.from(`{"cui":${JSON.stringify(p.cuis[0])},"data":`), Buffer.from("}")) };
    case "batchFinancial":
      return { status: 200, text: list(null) };
  }
}
