/**
 * The firm loader's calls: the queue's entries (one per want, with the people waiting for it) and the
 * calls that answer a flush of them with the fewest credits, planned as the engine plans
 * (src/engine/plan/planner.ts): identification in batches of at most 100 per `include`, financial batches
 * of at most 50 per year or range, one call per profile, one-year record, company range or list.
 */
import { chunk } from "../../api/chunk";
import { MAX_BATCH_IDENTIFICATION } from "../../api/client";
import * as read from "../../api/reader";
import { planFinancialBatches, yearsOf, type YearSpec } from "../../engine/plan/planner";
import { accepts, candidates, fieldsOf, lifetime, type Want } from "./request-wants";
import type { StoredAnswer } from "./firm-store";
import { CallFailure, failureOf, type UpstreamAnswer } from "./upstream";

/** One request of one person, as the loader attributes credits to it. */
export interface Requester {
  readonly id: number;
  readonly user: string;
  /** Upstream credits charged to this request. */
  credits: number;
  /** Whether any of its answers came from (or waited for) the service. */
  fetched: boolean;
}

export interface Entry {
  id: string;
  want: Want;
  waiters: Requester[];
  /** When it was first asked (or put back in the queue): how long it has waited for its batch to fill. */
  since: number;
  /** Whether its call has gone (a person asking after that does not share its credit). */
  sent: boolean;
  /** Another instance's request that paid its call (shared-queue.ts). */
  paidBy?: Requester;
  promise: Promise<unknown>;
  resolve(value: unknown): void;
  reject(e: unknown): void;
}

export function newEntry(id: string, want: Want, since: number): Entry {
  let resolve!: (v: unknown) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<unknown>((ok, no) => ((resolve = ok), (reject = no)));
  return { id, want, waiters: [], since, sent: false, promise, resolve, reject };
}

/** One upstream call: its path and query, the entries it answers, and how its answer becomes stored answers. */
export interface Call {
  path: string;
  entries: Entry[];
  /** Store keys → answers (null: the service has nothing), from a 200 or a 404. */
  read(a: UpstreamAnswer): Map<string, unknown>;
}

// ---- planning -----------------------------------------------------------------------------------

/** The calls that answer a flush's entries, with the fewest credits. */
export function plan(entries: Entry[]): Call[] {
  const calls: Call[] = [];
  const idents = new Map<string, Entry[]>();
  const ranges = new Map<number, Entry[]>();
  const batchFin: Entry[] = [];
  for (const e of entries) {
    const w = e.want;
    if (w.kind === "ident") idents.set(w.include, [...(idents.get(w.include) ?? []), e]);
    else if (w.kind === "fin" && w.family === "range") ranges.set(w.cui, [...(ranges.get(w.cui) ?? []), e]);
    else if (w.kind === "fin" && w.family === "batch") batchFin.push(e);
    else calls.push(single(e));
  }
  for (const [include, es] of idents) {
    for (const part of chunk(
      es.sort((a, b) => cuiOf(a) - cuiOf(b)),
      MAX_BATCH_IDENTIFICATION,
    )) {
      const cuis = part.map(cuiOf);
      calls.push({
        path: `/v4/firme/batch?cui=${cuis.join(",")}${include ? `&include=${include}` : ""}`,
        entries: part,
        read: (a) => {
          if (a.status !== 200) throw failureOf(a);
          const found = new Map(read.readBatchIdentification(a.body, cuis).map((it) => [it.cui, it]));
          return new Map(cuis.map((c) => [`ident:${c}:${include}`, found.get(c) ?? null]));
        },
      });
    }
  }
  for (const [cui, es] of ranges) {
    const years = es.map((e) => (e.want as { year: number }).year);
    const [from, to] = [Math.min(...years), Math.max(...years)];
    const keys = yearsOf({ from, to }).map((y) => [y, `finr:${cui}:${y}`] as const);
    calls.push({
      path: `/v4/firme/${cui}/financiar?an_de_la=${from}&an_pana=${to}`,
      entries: es,
      read: (a) => {
        // A 404: no such company, so no year of it.
        const byYear = new Map(a.status === 404 ? [] : read.readFinancial(a.body, cui).map((r) => [r.an, r]));
        return new Map(keys.map(([y, k]) => [k, byYear.get(y) ?? null]));
      },
    });
  }
  const wanted = new Map<number, Set<number>>();
  for (const e of batchFin) {
    const w = e.want as { cui: number; year: number };
    wanted.set(w.cui, (wanted.get(w.cui) ?? new Set<number>()).add(w.year));
  }
  const left = new Set(batchFin);
  const batchCall = (cuis: number[], spec: YearSpec) => {
    const years = yearsOf(spec);
    const mine = [...left].filter((e) => cuis.includes(cuiOf(e)) && years.includes((e.want as { year: number }).year));
    for (const e of mine) left.delete(e);
    const q = "year" in spec ? `an=${spec.year}` : `an_de_la=${spec.from}&an_pana=${spec.to}`;
    calls.push({
      path: `/v4/firme/batch/financiar?cui=${cuis.join(",")}&${q}`,
      entries: mine,
      read: (a) => {
        if (a.status !== 200) throw failureOf(a);
        const found = new Map(read.readBatchFinancial(a.body, cuis, (y) => years.includes(y)).map((r) => [`finb:${r.cui}:${r.an}`, r]));
        return new Map(cuis.flatMap((cui) => years.map((y) => [`finb:${cui}:${y}`, found.get(`finb:${cui}:${y}`) ?? null] as const)));
      },
    });
  };
  for (const c of planFinancialBatches(wanted)) batchCall(c.cuis, c.years);
  // The planner covers every want; should one be left, it gets a call of its own rather than wait forever.
  for (const e of [...left]) batchCall([cuiOf(e)], { year: (e.want as { year: number }).year });
  return calls;
}

function cuiOf(e: Entry): number {
  return (e.want as { cui: number }).cui;
}

/** A call for one entry: a profile, one financial year, or a list kept whole (a 404: the service has nothing). */
function single(e: Entry): Call {
  const w = e.want;
  const path =
    w.kind === "profile"
      ? `/v4/firme/${w.cui}`
      : w.kind === "fin"
        ? `/v4/firme/${w.cui}/financiar?an=${w.year}`
        : (w as { path: string }).path;
  const value = (body: unknown): unknown => {
    // A 200 whose body is not JSON is the service failing, not an answer to keep.
    if (body === undefined) throw new CallFailure(502, "upstream_shape");
    if (w.kind === "profile") return read.readCompany(body);
    if (w.kind === "fin") return read.readFinancial(body, w.cui).find((r) => r.an === w.year) ?? null;
    return body;
  };
  return { path, entries: [e], read: (a) => new Map([[e.id, a.status === 404 ? null : value(a.body)]]) };
}

/**
 * Whether an identification batch's answers show the service ignoring `include` (its items carry none
 * of the fields asked); null when they cannot say (not identification, no fields asked, no company found).
 */
export function includeIgnoredBy(entries: readonly Entry[], values: Map<string, unknown>): boolean | null {
  const w = entries[0]?.want;
  if (w?.kind !== "ident") return null;
  const fields = fieldsOf(w.include);
  const items = [...values.values()].filter((v): v is Record<string, unknown> => v !== null && typeof v === "object");
  if (fields.length === 0 || items.length === 0) return null;
  return items.every((it) => fields.every((f) => it[f] === undefined));
}

/** A call that gave no answer: its people get the failure. */
export function failCall(call: Call, e: unknown, inflight: Map<string, Entry>): void {
  for (const entry of call.entries) {
    inflight.delete(entry.id);
    entry.reject(e);
  }
}

/** The values of entries whose answers were found stored. */
export function storedValues(entries: readonly Entry[], stored: Map<string, StoredAnswer>): Map<string, unknown> {
  return new Map(entries.map((e) => [e.id, stored.get(e.id)!.body ?? null]));
}

/** A call's answers as the store keeps them, fetched `now`. */
export function storedAnswers(values: Map<string, unknown>, now: number): StoredAnswer[] {
  return [...values].map(([key, body]) => ({ key, body, fetchedAt: now, expiresAt: now + lifetime(key, body, now) }));
}

/**
 * An answer settled lately (`recent`, by key, until when it counts) under the want's own key or another
 * that answers it (request-wants.ts accepts: another `include`, a profile, another financial family):
 * a request that read the store a moment before it was written finds it here. Undefined: none.
 */
export function recentAnswer(
  recent: ReadonlyMap<string, { value: unknown; until: number }>,
  w: Want,
  now: number,
  includeIgnored: boolean,
): unknown {
  for (const k of candidates(w)) {
    const r = recent.get(k);
    if (r !== undefined && r.until > now && accepts(w, k, r.value, includeIgnored)) return r.value;
  }
  return undefined;
}
