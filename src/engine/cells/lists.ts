/**
 * List answers (search, rankings, counties): cached whole under their key; callers asking the same
 * list while it loads share one fetch. Excel may deliver a recalculation's new call before the old
 * call's cancellation, or after it (learn.microsoft.com, "Custom functions: cancel a function"):
 * so the shared fetch has its own signal, aborted only when every caller has cancelled, and each
 * caller races its own signal — a cancelled caller never breaks the others.
 */
import type { FirmaClient } from "../../api/index";
import { AbortedError, ApiError } from "../../api/errors";
import type { CancelSignal, County, RankingEntry, RankingListParams, RankingSummary, SearchItem, SearchParams } from "../../api/types";
import { TTL, type PersistentCache } from "../cache/cache";
import { LocalInputError } from "../local-errors";
import { failureHas } from "../failures";
import { COUNTIES_KEY, rankingKey, rankingsKey, searchKey } from "../keys";

/** A list request as the engine keys it (keys.ts): the estimate counts it 0 when it is cached. */
export type ListSpec =
  | { fn: "search"; params: { q?: string; judet?: string; caen?: string; stare?: string }; limit: number }
  | { fn: "rankings"; params: RankingListParams }
  | { fn: "ranking"; slug: string; limit: number }
  | { fn: "counties" };

export function listKey(l: ListSpec): string {
  if (l.fn === "search") return searchKey(l.params, l.limit);
  if (l.fn === "rankings") return rankingsKey(l.params);
  if (l.fn === "ranking") return rankingKey(l.slug, l.limit);
  return COUNTIES_KEY;
}

/** What the lists need of the engine: its client, and how it answers when it may not ask. */
export interface ListContext {
  client(): FirmaClient;
  /** Resolves when the cache is loaded (null when it already is). */
  ready(): Promise<void> | null;
  /** Whether this request may only be answered from the cache (the CLI's second pass, the preview). */
  cacheOnly(perRequest: boolean): boolean;
  /** The cache-only answer: stale if that is all there is, else the last fetch's error, else "not cached". */
  cachedOnly<T>(key: string, perRequest: boolean): T;
  /**
   * Runs one list's fetch in the call gate, as a batch is run: among the calls in flight, alone near
   * the Free plan's daily limit; undefined when every caller cancelled before its turn (nothing sent).
   */
  run<T>(task: () => Promise<T>, wanted: () => boolean): Promise<T | undefined>;
}

/** The list functions' requests (search, rankings, a ranking, counties), checked for free, then shared fetches. */
export class ListRequests {
  private readonly fetches: ListFetches;

  constructor(
    cache: PersistentCache,
    private readonly ctx: ListContext,
  ) {
    this.fetches = new ListFetches(cache);
  }

  search(params: SearchParams & { limit?: number }, signal?: CancelSignal, perRequest = false): Promise<SearchItem[]> {
    const limit = params.limit ?? 20;
    if (!validLimit(limit)) return Promise.reject(limitError());
    const p = { q: params.q, judet: params.judet, caen: params.caen, stare: params.stare };
    return this.list(searchKey(p, limit), TTL.list, signal, perRequest, async (s) => {
      const out: SearchItem[] = [];
      for await (const item of this.ctx.client().search({ ...p, limit: Math.min(limit, 100) }, { signal: s })) {
        out.push(item);
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  rankings(params: RankingListParams, signal?: CancelSignal, perRequest = false): Promise<RankingSummary[]> {
    return this.list(rankingsKey(params), TTL.list, signal, perRequest, (s) => this.ctx.client().listRankings(params, { signal: s }));
  }

  ranking(slug: string, limit: number, signal?: CancelSignal, perRequest = false): Promise<RankingEntry[]> {
    if (typeof slug !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/.test(slug)) {
      return Promise.reject(new LocalInputError("invalid_slug", "Invalid ranking id: letters, digits and hyphens (see FIRMA.TOPURI)."));
    }
    if (!validLimit(limit)) return Promise.reject(limitError());
    return this.list(rankingKey(slug, limit), TTL.list, signal, perRequest, async (s) => {
      const out: RankingEntry[] = [];
      for await (const e of this.ctx.client().ranking(slug, { limit: Math.min(limit, 100), signal: s })) {
        out.push(e);
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  counties(signal?: CancelSignal, perRequest = false): Promise<County[]> {
    return this.list(COUNTIES_KEY, TTL.counties, signal, perRequest, (s) => this.ctx.client().counties({ signal: s }));
  }

  /** Fetches a list the way its function would (a refresh's prefetch). */
  fetch(spec: ListSpec, signal?: CancelSignal): Promise<unknown> {
    if (spec.fn === "search") return this.search({ ...spec.params, limit: spec.limit }, signal);
    if (spec.fn === "rankings") return this.rankings(spec.params, signal);
    if (spec.fn === "ranking") return this.ranking(spec.slug, spec.limit, signal);
    return this.counties(signal);
  }

  private async list<T>(
    key: string,
    ttl: number,
    signal: CancelSignal | undefined,
    perRequest: boolean,
    fetcher: (s: CancelSignal) => Promise<T>,
  ): Promise<T> {
    await this.ctx.ready();
    if (this.ctx.cacheOnly(perRequest)) return this.ctx.cachedOnly<T>(key, perRequest);
    // A list's pages go one after the other in one turn of the gate: a turn at a time, like a batch.
    const gated = async (s: CancelSignal): Promise<T> => {
      const r = await this.ctx.run(
        () => fetcher(s),
        () => !s.aborted,
      );
      if (r === undefined) throw new AbortedError();
      return r;
    };
    return this.fetches.get(key, ttl, gated, signal);
  }
}

const validLimit = (limit: number) => Number.isInteger(limit) && limit >= 1 && limit <= 1000;
const limitError = () => new LocalInputError("invalid_limit", "The limit must be a whole number from 1 to 1000.");

interface Shared {
  promise: Promise<unknown>;
  controller: AbortController;
  callers: number;
}

/** Shared fetches of whole lists, each cancelled only when all its callers have cancelled. */
class ListFetches {
  private readonly inflight = new Map<string, Shared>();

  constructor(private readonly cache: PersistentCache) {}

  get<T>(key: string, ttl: number, fetcher: (signal: CancelSignal) => Promise<T>, signal?: CancelSignal): Promise<T> {
    const hit = this.cache.getFresh<T>(key);
    if (hit) return Promise.resolve(hit.value);
    if (signal?.aborted) return Promise.reject(new AbortedError());
    let shared = this.inflight.get(key);
    if (!shared) {
      const controller = new AbortController();
      const promise = fetcher(controller.signal).then(
        (v) => {
          this.cache.set(key, v, ttl);
          return v;
        },
        (e) => {
          const stale = this.cache.peek<T>(key);
          if (stale && e instanceof ApiError && failureHas(e, "staleStandsIn")) return stale.value;
          throw e;
        },
      );
      const entry: Shared = { promise, controller, callers: 0 };
      promise.then(
        () => this.inflight.get(key) === entry && this.inflight.delete(key),
        () => this.inflight.get(key) === entry && this.inflight.delete(key),
      );
      this.inflight.set(key, (shared = entry));
    }
    const s = shared;
    s.callers++;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const onAbort = () => {
        if (done) return;
        done = true;
        reject(new AbortedError());
        if (--s.callers === 0 && this.inflight.get(key) === s) {
          this.inflight.delete(key);
          s.controller.abort();
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      (s.promise as Promise<T>).then(
        (v) => {
          if (done) return;
          done = true;
          s.callers--;
          signal?.removeEventListener("abort", onAbort);
          resolve(v);
        },
        (e) => {
          if (done) return;
          done = true;
          s.callers--;
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      );
    });
  }
}
