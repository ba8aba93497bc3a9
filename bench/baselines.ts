/**
 * The two baselines FIRMA is measured against, written for this benchmark from their descriptions
 *. Each takes one cell at a time, as Excel invokes functions, and answers with a value or
 * an error code. Both check the CUI locally first (as FIRMA does), so an invalid CUI costs them
 * nothing either: the comparison is about batching, de-duplication and the cache.
 *
 * - OneCallPerCell: every cell makes its own single-company call through the project's client
 *   (src/api FirmaClient: timeouts, retries), no cache, no batching.
 * - TimerFlushBatching: the pattern of Microsoft's custom-functions batching sample: each invocation
 *   is pushed onto one array; the first push schedules a setTimeout (100 ms) that sends everything
 *   queued in one batch request per endpoint (and per year for financial data, since one batch
 *   financial call names one year); no de-duplication, no split at the service's 100/50 limits, no
 *   cache, no retries. Answers are matched by CUI (our service answers in its own order, O13).
 *   With `split: true` (a second, clearly labelled variant) the queued list is cut at 100/50 CUIs,
 *   still without de-duplication or cache.
 */
import { FirmaClient } from "../src/api";
import { parseCui } from "../src/api/cui";
import { limiter } from "../src/engine/credits/limiter";
import { MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION } from "../src/api/client";
import { Cell, FINANCIAL_FIELD, LATEST, PROFILE_FIELD, Shown } from "./workloads";

export interface Strategy {
  /** Answers one cell. Never rejects. */
  invoke(cell: Cell): Promise<Shown>;
}

/** Basic fields every batch identification item carries (spec); the rest need `include`. */
const BASIC = new Set(["denumire", "stare"]);

function errorOf(e: unknown): Shown {
  const kind = (e as { kind?: unknown })?.kind;
  if (kind === "not_found") return { error: "#N/A" };
  return { error: typeof kind === "string" ? kind : e instanceof Error ? e.name : String(e) };
}

export class OneCallPerCell implements Strategy {
  private readonly client: FirmaClient;
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>;

  constructor(baseUrl: string, key: string, concurrency: number) {
    this.client = new FirmaClient({ baseUrl, apiKey: key });
    this.limit = limiter(concurrency);
  }

  async invoke(cell: Cell): Promise<Shown> {
    const p = parseCui(cell.args[0]);
    if (!p.ok) return { error: "#VALUE!" };
    try {
      if (cell.fn in PROFILE_FIELD) {
        const company = await this.limit(() => this.client.getCompany(p.cui));
        return { value: (company as unknown as Record<string, unknown>)[PROFILE_FIELD[cell.fn]] ?? "" };
      }
      const year = (cell.args[1] as number | null) ?? LATEST;
      const r = await this.limit(() => this.client.getFinancialYear(p.cui, year));
      return { value: (r as unknown as Record<string, unknown>)[FINANCIAL_FIELD[cell.fn]] ?? "" };
    } catch (e) {
      return errorOf(e);
    }
  }
}

interface Queued {
  cui: number;
  fn: string;
  year: number;
  resolve: (s: Shown) => void;
}

export class TimerFlushBatching implements Strategy {
  private batch: Queued[] = [];
  private scheduled = false;
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  /** What each request sent came back with: HTTP status → count (0 = no answer). */
  statuses: Record<string, number> = {};

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly options: { split: boolean; concurrency: number; flushMs?: number },
  ) {
    this.limit = limiter(options.concurrency);
  }

  invoke(cell: Cell): Promise<Shown> {
    const p = parseCui(cell.args[0]);
    if (!p.ok) return Promise.resolve({ error: "#VALUE!" });
    return new Promise((resolve) => {
      this.batch.push({ cui: p.cui, fn: cell.fn, year: (cell.args[1] as number | null) ?? LATEST, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => void this.flush(), this.options.flushMs ?? 100);
      }
    });
  }

  private async flush(): Promise<void> {
    const ops = this.batch;
    this.batch = [];
    this.scheduled = false;
    const requests: Promise<void>[] = [];
    const profile = ops.filter((o) => o.fn in PROFILE_FIELD);
    if (profile.length > 0) {
      const include = [...new Set(profile.map((o) => PROFILE_FIELD[o.fn] as string).filter((f) => !BASIC.has(f)))];
      for (const part of this.parts(profile, MAX_BATCH_IDENTIFICATION)) {
        const query = `cui=${part.map((o) => o.cui).join(",")}${include.length > 0 ? `&include=${include.join(",")}` : ""}`;
        requests.push(
          this.send(
            "/v4/firme/batch",
            query,
            part,
            (it, o) => it.cui === o.cui,
            (o) => PROFILE_FIELD[o.fn],
          ),
        );
      }
    }
    const byYear = new Map<number, Queued[]>();
    for (const o of ops) if (o.fn in FINANCIAL_FIELD) (byYear.get(o.year) ?? byYear.set(o.year, []).get(o.year)!).push(o);
    for (const [year, list] of byYear) {
      for (const part of this.parts(list, MAX_BATCH_FINANCIAL)) {
        const query = `cui=${part.map((o) => o.cui).join(",")}&an=${year}`;
        requests.push(
          this.send(
            "/v4/firme/batch/financiar",
            query,
            part,
            (it, o) => it.cui === o.cui && it.an === o.year,
            (o) => FINANCIAL_FIELD[o.fn],
          ),
        );
      }
    }
    await Promise.all(requests);
  }

  private parts(list: Queued[], max: number): Queued[][] {
    if (!this.options.split) return [list];
    const out: Queued[][] = [];
    for (let i = 0; i < list.length; i += max) out.push(list.slice(i, i + max));
    return out;
  }

  private send(
    path: string,
    query: string,
    ops: Queued[],
    matches: (item: Record<string, unknown>, o: Queued) => boolean,
    field: (o: Queued) => string,
  ): Promise<void> {
    return this.limit(async () => {
      let status = 0;
      try {
        const res = await fetch(`${this.baseUrl}${path}?${query}`, { headers: { "X-API-Key": this.key } });
        status = res.status;
        const text = await res.text();
        if (!res.ok) throw new Error(`HTTP ${status}`);
        const items = JSON.parse(text) as Record<string, unknown>[];
        const byCui = new Map<number, Record<string, unknown>[]>();
        for (const it of items) (byCui.get(it.cui as number) ?? byCui.set(it.cui as number, []).get(it.cui as number)!).push(it);
        for (const o of ops) {
          const it = (byCui.get(o.cui) ?? []).find((x) => matches(x, o));
          o.resolve(it ? { value: it[field(o)] ?? "" } : { error: "#N/A" });
        }
      } catch (e) {
        for (const o of ops) o.resolve({ error: status ? `HTTP ${status}` : `no answer (${(e as Error).message})` });
      } finally {
        this.statuses[status] = (this.statuses[status] ?? 0) + 1;
      }
    });
  }
}
