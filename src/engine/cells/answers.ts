/**
 * A company's answers for one cell: the CUI parsed once, the cache read once; what the cache
 * holds fresh comes back at once (no promise: a recalculation of cached cells costs nothing but the
 * lookup), the rest is queued for the service — or, where the cell may only read the cache, taken
 * stale, else as the last fetch's failure, else "not cached".
 */
import { AbortedError, type NotFoundError } from "../../api/errors";
import { isValidCui, parseCui, type CuiFailure } from "../../api/cui";
import type { CancelSignal } from "../../api/types";
import type { PersistentCache } from "../cache/cache";
import { LocalInputError, shownInput, type MessageRef } from "../local-errors";
import { failureHas } from "../failures";
import { answerNumberOf, financialKey, profileKey } from "../keys";
import type { RequestQueue } from "./queue";
import { completeFailure } from "./queue";
import { covers, notFound, type Completion, type Rec, type Want } from "./wants";
import { yearsDown } from "../years";

/**
 * How one read may be answered. `cacheOnly`: from the cache (fresh, else stale) or "not cached",
 * never by the service — Excel's value preview asks this way for one invocation, while the
 * engine-wide cache-only mode of the CLI stays as it is. An EvalContext passes as it is (no object
 * per call); `signal` and `completion` are read only when the read has to wait, so that a host may
 * make its cancel signal when it is first asked for.
 */
export interface ReadOptions {
  cacheOnly?: boolean;
  /** The read's cancellation: a cell that waits leaves its want (queue.ts). */
  signal?: CancelSignal;
  /**
   * A cell's one field (field()): what its value becomes before its promise settles (wants.ts
   * Completion). Read when field() is called: the add-in sets it for that one call.
   */
  completion?: Completion;
}

const DEFAULT_READ: ReadOptions = {};

/**
 * What field() answers for a company or year the cache holds as "not found": one error made once
 * (notFound() without the CUI), so that a recalculated column of such cells makes no error per cell
 * and throws none (a cell shows the same message whatever the CUI: cells.ts toCellError).
 */
export const NOT_FOUND: NotFoundError = Object.freeze(notFound(0)) as NotFoundError;

export interface AnswerContext {
  cache: PersistentCache;
  queue: RequestQueue;
  /** The last fetch's failure of each answer (a refresh's prefetch). */
  failures: ReadonlyMap<string, unknown>;
  isReady(): boolean;
  ready(): Promise<void>;
  /** The engine-wide cache-only mode (the CLI after its one planned fetch). */
  cacheOnly(): boolean;
}

export class CompanyAnswers {
  constructor(private readonly ctx: AnswerContext) {}

  /** The CUI a cell gave, or the precise reason it is refused (free: nothing is asked). */
  cui(input: unknown): number {
    // The common cell, a valid CUI as a whole number: no parse result made (every cell, every recalculation).
    if (typeof input === "number" && isValidCui(input)) return input;
    const p = parseCui(input);
    if (!p.ok) throw new LocalInputError("invalid_cui", `invalid CUI (${p.reason})`, cuiDetail(p.reason, p.input));
    return p.cui;
  }

  /**
   * The fresh cached record that answers a request (counted as a cache hit), undefined when the
   * service must be asked; a cached "not found" is thrown.
   */
  fresh(kind: Want["kind"], cui: number, year: number, fields: readonly string[], key = keyOf(kind, cui, year)): Rec | undefined {
    const { cache } = this.ctx;
    const rec = cache.freshValue<Rec | null>(key);
    if (rec === undefined) return undefined;
    if (rec === null) throw notFound(cui, kind === "financial" ? year : undefined);
    for (let i = 0; i < fields.length; i++) {
      if (rec[fields[i]] === undefined) {
        cache.hits--; // a partial record is not a hit
        return undefined;
      }
    }
    return rec;
  }

  /** The record at once when the cache holds it fresh, else a promise of it. Throws bad input at once. */
  get(kind: Want["kind"], cui: number, year: number, fields: readonly string[], options: ReadOptions = DEFAULT_READ): Rec | Promise<Rec> {
    if (!this.ctx.isReady()) return this.getLater(kind, cui, year, fields, options);
    const key = keyOf(kind, cui, year);
    return this.fresh(kind, cui, year, fields, key) ?? (this.ask(kind, key, cui, year, fields, options, null) as Promise<Rec>);
  }

  /**
   * One field of the record: at once when the cache holds it fresh (null where the record has no
   * value; NOT_FOUND where the company or year is cached as not found), else a promise of that field
   * alone — the cell's path: the key made once, the cache read once, and no second promise to take
   * the field out of the record. With `options.completion`, the promise settles with what the
   * completion makes of the field or of the failure (a value at once does not pass through it: the
   * caller has it in hand).
   */
  field(kind: Want["kind"], cui: number, year: number, field: string, options: ReadOptions = DEFAULT_READ): unknown {
    const completion = options.completion;
    if (!this.ctx.isReady()) return complete(this.fieldLater(kind, cui, year, field, withoutCompletion(options)), completion);
    const cache = this.ctx.cache;
    // By the answer's number: no key string made for a cached cell (entry-map.ts).
    const n = answerNumberOf(kind, cui, year);
    const rec = n === undefined ? cache.freshValue<Rec | null>(keyOf(kind, cui, year)) : cache.freshValueAt<Rec | null>(n);
    if (rec === null) return NOT_FOUND;
    if (rec !== undefined) {
      const v = rec[field];
      if (v !== undefined) return v;
      cache.hits--; // a partial record is not a hit (fresh())
    }
    return this.ask(kind, keyOf(kind, cui, year), cui, year, one(field), options, field, completion);
  }

  /*
   * get() and field() once the engine has loaded. The closures are made here, not in get() or
   * field(): a closure there would make V8 allocate their context at every call, cached cells included.
   */
  private getLater(...a: Parameters<CompanyAnswers["get"]>): Promise<Rec> {
    return this.ctx.ready().then(() => this.get(...a));
  }

  private fieldLater(...a: Parameters<CompanyAnswers["field"]>): Promise<unknown> {
    return this.ctx.ready().then(() => {
      const v = this.field(...a);
      if (v === NOT_FOUND) throw notFound(a[1], a[0] === "financial" ? a[2] : undefined);
      return v;
    });
  }

  /**
   * What the cache could not answer fresh: queued for the service, or read cache-only. Always a
   * promise (a failure rejects it); the record, or its field `pick` alone.
   */
  private ask(
    kind: Want["kind"],
    key: string,
    cui: number,
    year: number,
    fields: readonly string[],
    options: ReadOptions,
    pick: string | null,
    completion?: Completion,
  ): Promise<unknown> {
    // An answer the memory cap moved out to the store is read back before anyone pays for it again.
    if (this.ctx.cache.spilled(key)) return complete(this.recallThenAsk(kind, key, cui, year, fields, options, pick), completion);
    return this.askNow(kind, key, cui, year, fields, options, pick, completion);
  }

  private async recallThenAsk(...a: Parameters<CompanyAnswers["askNow"]>): Promise<unknown> {
    const [kind, key, cui, year, fields, , pick] = a;
    await this.ctx.cache.recall([key]);
    const rec = this.fresh(kind, cui, year, fields, key);
    if (rec !== undefined) return pick === null ? rec : (rec[pick] ?? null);
    return this.askNow(...a);
  }

  private askNow(
    kind: Want["kind"],
    key: string,
    cui: number,
    year: number,
    fields: readonly string[],
    options: ReadOptions,
    pick: string | null,
    completion?: Completion,
  ): Promise<unknown> {
    if (this.ctx.cacheOnly() || options.cacheOnly) {
      let answer: Promise<unknown>;
      try {
        const r = this.cachedOnly<Rec | null>(key, fields, !!options.cacheOnly);
        if (r === null) throw notFound(cui, kind === "financial" ? year : undefined);
        answer = Promise.resolve(pick === null ? r : (r[pick] ?? null));
      } catch (e) {
        answer = Promise.reject(e);
      }
      return complete(answer, completion);
    }
    const signal = options.signal;
    if (signal?.aborted) return completeFailure(completion, new AbortedError());
    return this.ctx.queue.request(kind, key, cui, year, fields, signal, pick, completion);
  }

  /** Years from..to, latest first, those the service has; a year without figures is left out. */
  async history(cui: number, from: number, to: number, fields: readonly string[], options?: ReadOptions): Promise<Rec[]> {
    const year = async (y: number): Promise<Rec | null> => {
      try {
        return await this.get("financial", cui, y, fields, options);
      } catch (e) {
        // a year the service has no data for, or that the plan turns out not to cover, is left out
        if (failureHas(e, "noFigures")) return null;
        throw e;
      }
    };
    const rows = await Promise.all(yearsDown(from, to).map(year));
    const found = rows.filter((r): r is Rec => r !== null);
    if (found.length === 0) throw notFound(cui, `${from}–${to}`);
    return found;
  }

  /**
   * A cache-only answer: stale if that is all there is, else the last fetch's error, else "not
   * cached". A request-level cache-only read (`perRequest`, the value preview) skips the last fetch's
   * error: that belongs to the CLI's run, and the preview says instead that Enter fetches.
   */
  cachedOnly<T>(key: string, fields: readonly string[] | null, perRequest = false): T {
    const h = this.ctx.cache.peek<T>(key);
    if (h && (fields === null || h.value === null || covers(h.value as Record<string, unknown>, fields))) return h.value;
    const e = perRequest ? undefined : this.ctx.failures.get(key);
    if (e !== undefined) throw e;
    throw new LocalInputError("not_cached", "The answer is not cached and was not asked of the service.");
  }
}

/** A promise of what `completion` makes of `p`'s outcome (the paths off the queue: the engine loading, a read-back, cache-only). */
function complete(p: Promise<unknown>, completion: Completion | undefined): Promise<unknown> {
  return completion
    ? p.then(
        (v) => completion.value(v),
        (e) => completion.error(e),
      )
    : p;
}

/** The options without a completion (a path that completes its own promise once). */
function withoutCompletion(options: ReadOptions): ReadOptions {
  return options.completion ? { cacheOnly: options.cacheOnly, signal: options.signal } : options;
}

const keyOf = (kind: Want["kind"], cui: number, year: number) => (kind === "profile" ? profileKey(cui) : financialKey(cui, year));

const ONE_FIELD = new Map<string, readonly string[]>();

/** [field], made once per field (the per-cell path asks for it at every cell). */
export function one(field: string): readonly string[] {
  let list = ONE_FIELD.get(field);
  if (!list) ONE_FIELD.set(field, (list = [field]));
  return list;
}

/** The precise reason a CUI was refused, for the cell's message (the input shortened: a cell may hold anything). */
function cuiDetail(reason: CuiFailure, input: string): MessageRef {
  if (reason === "empty") return { key: "cell.emptyCui" };
  return { key: `cell.invalidCui.${reason}`, params: { input: shownInput(input) } };
}
