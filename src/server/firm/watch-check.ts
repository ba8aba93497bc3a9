/**
 * One check of one watch list, as `firma watch run` and the scheduler of `firma serve` run it. A check
 * is of one of two kinds, told by its tick: the identification check (the watched profile fields,
 * daily by default) and the financial-year check (a tick beginning `fin:`, monthly by default: whether
 * the service has a later financial year for a company than the list last saw, watch-diff.ts
 * diffYears). Both go the same way:
 *
 *  1. the list's lease for that kind (`watch:<list>`, `watch-fin:<list>`, lease.ts): one instance at a
 *     time runs a list's check of a kind, whatever started it; a list another instance is checking is
 *     `busy`;
 *  2. a list whose owner was revoked stops (a line in its log) and is checked no more;
 *  3. the check's record (watch-checks.ts): a tick already checked is not checked again; a check of
 *     the same kind an instance left unfinished (killed) is resumed under its own tick;
 *  4. answers fetched today (Bucharest's day) by anyone in the firm that carry the watched fields are
 *     reused from the firm's store at no credit (a financial-year check: its own batches' answers,
 *     when it is resumed); the rest go through observe() or observeYears() (watch-observe.ts),
 *     each call with one credit reserved first on the same meter as every request of the firm
 *     (`reserveCredit`: the owner's monthly budget, or the firm's lists' account for a firm's list;
 *     the firm's day, `--max-credits-per-day`; the plan's stop), given back when the service did not
 *     charge it, and each answer stored as it comes, so that a check cut short and resumed pays for
 *     nothing it was answered;
 *  5. diff() or diffYears() against the list's own baseline, committed with the changes (a first
 *     check only sets the baseline). A check that could not look at every company — its budget spent, the firm's day
 *     reached, the plan stopped, the service failing — commits what it did see (a change seen is
 *     real), and its line in the log is `incomplete`, with the reason and how many companies it
 *     could not look at: never `checked` with no change, which would read as "nothing changed";
 *  6. an audit line, the metrics, and `afterCheck` (where the alerts' delivery plugs in).
 */
import { NotFoundError } from "../../api/errors";
import * as read from "../../api/reader";
import { bucharestDay, bucharestMidnight, bucharestMonth } from "../../engine/credits/bucharest-time";
import { WATCHED_FIELDS } from "../../engine/cache/changes";
import type { FirmStore, StoredAnswer } from "./firm-store";
import type { Leases } from "./lease";
import { planStopEnd } from "./loader-credits";
import { fieldsOf, lifetime } from "./request-wants";
import { CallFailure, failureCharged, failureOf, type Upstream } from "./upstream";
import { FINANCIAL_TICK, FIRM_ACCOUNT, kindOf, type CheckKind } from "./watch-checks";
import { diff, diffYears, type Diff, type Observation, type YearObservation } from "./watch-diff";
import { latestYears, observe, observeYears, yearParts } from "./watch-observe";
import type { StoredChange, WatchList } from "./watch-store";

/** The `include` a check's batches ask (the watched fields a batch does not carry anyway), as a store key part. */
export const WATCH_INCLUDE = WATCHED_FIELDS.filter((f) => f !== "denumire" && f !== "stare")
  .sort()
  .join(",");

/** Why a check stopped before looking at every company. */
export type StopReason = "budget_exhausted" | "day_limit" | "plan_stopped" | "firm_key_refused" | "store_unavailable" | "closing";

export type CheckOutcome =
  /** Every company looked at; its changes committed. */
  | "checked"
  /** Committed, but some companies could not be looked at (`stopped` says why, or the service failed for them). */
  | "incomplete"
  /** This tick was already checked (by this instance or another). */
  | "done"
  /** Another instance is checking the list now. */
  | "busy"
  /** The list was stopped (now, its owner revoked; or before). */
  | "stopped"
  /** There is no such list (any more). */
  | "unknown"
  /** The instance is stopping: nothing committed, its record stays open, finished by the next instance to check the list. */
  | "interrupted"
  /** The check failed before committing anything (the database): its record stays open, to be finished later. */
  | "failed";

export interface CheckResult {
  list: string;
  tick: string;
  outcome: CheckOutcome;
  companies: number;
  /** Companies answered from the firm's store (fetched today). */
  reused: number;
  /** Credits charged for this check (with those of an instance that was cut short before). */
  credits: number;
  changes: StoredChange[];
  /** Companies it could not look at. */
  unknown: number;
  /** Why it stopped before the end (incomplete), or why the list is stopped. */
  reason: string | null;
  /** Whether it finished a check an instance left unfinished. */
  resumed: boolean;
}

/** After each committed check: where the alerts' delivery plugs in (the changes are committed already). */
export type AfterCheck = (list: WatchList, changes: readonly StoredChange[], result: CheckResult) => Promise<void> | void;

/** The counters a check adds to (metrics.ts). */
export interface WatchCounters {
  watchCheck(outcome: CheckOutcome, companies: number, credits: number, changes: number): void;
}

export interface CheckDeps {
  store: FirmStore;
  /** The firm's upstream (upstream.ts): the firm's key, the service's address. */
  upstream: Upstream;
  /** --max-credits-per-day; null: none. */
  maxPerDay: number | null;
  /** The instance's leases (its name is the holder of the check records too). */
  leases: Leases;
  holder: string;
  now?: () => number;
  metrics?: WatchCounters;
  afterCheck?: AfterCheck;
  /** Why a revoked owner's list stops, in the server's language. */
  revokedReason: (owner: string) => string;
  /**
   * What the firm's server knows of the service's `include` (FirmLoader.includeIgnored, learned from its
   * people's batches): read before an identification check, and told what the check learned.
   */
  include?: { includeIgnored: boolean | null };
  /** Asked before each call: true when the instance is stopping (the check stops, resumed later). */
  closing?: () => boolean;
  onError?: (e: unknown, what: string) => void;
}

export type { CheckKind };

export { FINANCIAL_TICK, kindOf };

/** The lease a list's check of a kind holds: the two kinds of a list may run at once (they watch different fields). */
export const leaseOf = (list: string, kind: CheckKind = "identity"): string =>
  kind === "financial" ? `watch-fin:${list}` : `watch:${list}`;

export async function checkList(d: CheckDeps, name: string, tick: string): Promise<CheckResult> {
  const now = d.now ?? Date.now;
  const kind = kindOf(tick);
  const base = { list: name, tick, companies: 0, reused: 0, credits: 0, changes: [], unknown: 0, reason: null, resumed: false };
  const lease = leaseOf(name, kind);
  if (!(await d.leases.lead(lease))) {
    // Held by another instance (as last read): this tick may be done already.
    const done = await d.store.watchChecks.finished(name, tick).catch(() => false);
    return { ...base, outcome: done ? "done" : "busy" };
  }
  try {
    const list = await d.store.watch.list(name);
    // A list removed or stopped: a check left open for it is closed, never swept again.
    if (!list) {
      await d.store.watchChecks.abandon(name, "unknown", now());
      return { ...base, outcome: "unknown" };
    }
    if (list.stoppedAt !== null) {
      await d.store.watchChecks.abandon(name, "stopped", now());
      return { ...base, outcome: "stopped", reason: list.stoppedReason };
    }
    if (list.owner !== null) {
      const owner = (await d.store.listUsers(bucharestMonth(now()))).find((u) => u.name === list.owner);
      if (!owner || owner.revokedAt !== null) {
        const reason = d.revokedReason(list.owner);
        await d.store.watch.stopList(name, reason, now());
        await d.store.watchChecks.abandon(name, "stopped", now());
        return { ...base, outcome: "stopped", reason };
      }
    }
    const record = await d.store.watchChecks.begin(name, tick, d.holder, now());
    if (!record) return { ...base, outcome: "done" };
    const result = await run(d, list, record.id, record.credits, { ...base, tick: record.tick, resumed: record.resumed });
    d.metrics?.watchCheck(result.outcome, result.companies, result.credits, result.changes.length);
    return result;
  } catch (e) {
    d.onError?.(e, `watch list ${name}: check failed`);
    d.metrics?.watchCheck("failed", 0, 0, 0);
    return { ...base, outcome: "failed", reason: (e as Error)?.message ?? String(e) };
  } finally {
    await d.leases.release(lease);
  }
}

async function run(
  d: CheckDeps,
  list: WatchList,
  id: number,
  creditsBefore: number,
  base: Omit<CheckResult, "outcome">,
): Promise<CheckResult> {
  const now = d.now ?? Date.now;
  const store = d.store;
  const payer = list.owner ?? FIRM_ACCOUNT;
  const cuis = await store.watch.members(list.name);
  let credits = creditsBefore;
  let stopped: StopReason | null = null;
  let reserved: { month: string; day: string } | null = null;

  /** One credit reserved before each call, on the firm's one meter; a refusal stops the check. */
  const budget = async (): Promise<boolean> => {
    if (stopped) return false;
    if (d.closing?.()) return !(stopped = "closing");
    const at = now();
    const day = bucharestDay(at);
    try {
      const r = await store.reserveCredit({ user: payer, month: day.slice(0, 7), day, maxPerDay: d.maxPerDay, now: at });
      if (r === "ok") {
        // Counted on the check's record as it is reserved: a process killed during the call leaves it
        // counted, as the service counts it.
        reserved = { month: day.slice(0, 7), day };
        credits++;
        await store.watchChecks.credit(id).catch((e) => d.onError?.(e, "watch check: credit not counted"));
        return true;
      }
      stopped = r === "budget" ? "budget_exhausted" : r;
    } catch (e) {
      d.onError?.(e, `watch list ${list.name}: credit not reserved`);
      stopped = "store_unavailable";
    }
    return false;
  };
  /** After a call: its credit given back when the service did not charge it (on the meter and the check's record). */
  const account = async (charged: boolean): Promise<void> => {
    const r = reserved;
    reserved = null;
    if (!r || charged) return;
    credits--;
    await store.releaseCredit(payer, r.month, r.day).catch((e) => d.onError?.(e, "watch check: credit not given back"));
    await store.watchChecks.credit(id, -1).catch((e) => d.onError?.(e, "watch check: credit not counted"));
  };
  /** One call upstream: accounted, a 429 stops the plan for everyone (as loader.ts does), a refused key stops the check. */
  const call = async (path: string): Promise<{ status: number; body: unknown }> => {
    let answer;
    try {
      const r = await d.upstream(path);
      await account(r.charged);
      answer = r.answer;
    } catch (e) {
      await account(failureCharged(e));
      throw e;
    }
    if (answer.status === 429) {
      const until = planStopEnd(now(), answer.plan, answer.retryAfterMs);
      await store.stopPlan(until).catch((e) => d.onError?.(e, "the plan's stop not written"));
      stopped = "plan_stopped";
      throw new CallFailure(429, "plan_stopped");
    }
    if (answer.status !== 200 && answer.status !== 404) {
      const f = failureOf(answer);
      if (f.code === "firm_key_refused") stopped = "firm_key_refused";
      throw f;
    }
    return answer;
  };
  /** Answers kept in the firm's store as they come: reused by the pane's people, and by this check if it is resumed. */
  const keep = async (values: Array<[string, unknown]>): Promise<void> => {
    const at = now();
    const answers: StoredAnswer[] = values.map(([key, body]) => ({ key, body, fetchedAt: at, expiresAt: at + lifetime(key, body, at) }));
    await store.putAnswers(answers);
  };
  const client = {
    async batchIdentification(part: readonly number[]) {
      const a = await call(`/v4/firme/batch?cui=${part.join(",")}&include=${WATCH_INCLUDE}`);
      if (a.status !== 200) throw new CallFailure(502, "upstream_failed", { status: a.status });
      const items = read.readBatchIdentification(a.body, part);
      const found = new Map(items.map((it) => [Number(it.cui), it]));
      await keep(part.map((c) => [`ident:${c}:${WATCH_INCLUDE}`, found.get(c) ?? null]));
      return items;
    },
    /** A financial batch without a year (the service's latest, O12), kept whole under its request's key. */
    async batchYears(part: readonly number[]) {
      const path = yearsPath(part);
      const a = await call(path);
      if (a.status !== 200) throw new CallFailure(502, "upstream_failed", { status: a.status });
      const items = read.readBatchFinancial(a.body, part);
      await keep([[`list:${path}`, a.body]]);
      return items;
    },
    async getCompany(cui: number) {
      const a = await call(`/v4/firme/${cui}`);
      const profile = a.status === 404 ? null : read.readCompany(a.body);
      await keep([[`profile:${cui}`, profile]]);
      if (profile === null) throw new NotFoundError();
      return profile;
    },
  };
  const financial = kindOf(base.tick) === "financial";
  let reused: number;
  let compare: (seen: Awaited<ReturnType<typeof store.watch.seen>>) => Diff;
  if (financial) {
    const parts = yearParts(cuis);
    const observations = await reuseYears(store, parts, now());
    reused = observations.size;
    const seen = await observeYears(
      (part) => client.batchYears(part),
      parts.filter((p) => !observations.has(p[0])),
      budget,
    );
    for (const [cui, y] of seen.observations) observations.set(cui, y);
    compare = (before) => diffYears(before, observations);
  } else {
    const known = await reuse(store, cuis, now());
    reused = known.reused;
    const rest = cuis.filter((c) => !known.observations.has(c));
    const seen = await observe(client as never, rest, budget, { includeIgnored: d.include?.includeIgnored ?? null });
    if (d.include && seen.includeIgnored !== null) d.include.includeIgnored = seen.includeIgnored;
    for (const [cui, o] of seen.observations) known.observations.set(cui, o);
    compare = (before) => diff(before, known.observations);
  }
  if (stopped === "closing") return { ...base, outcome: "interrupted", companies: cuis.length, reused, credits, reason: stopped };
  const found = compare(await store.watch.seen(list.name));
  // The log and the audit say which check it was (the identification check's lines stay as they were).
  const check = financial ? { check: "financial" } : {};
  const complete = found.unknown.length === 0;
  const reason = stopped ?? (complete ? null : "upstream_failed");
  const at = now();
  const changes = await store.watch.commitCheck(
    list.name,
    found,
    at,
    complete
      ? { kind: "checked", detail: { ...check, credits } }
      : { kind: "incomplete", detail: { ...check, reason, credits, companies: cuis.length } },
  );
  await store.watchChecks.finish(id, complete ? "checked" : `incomplete:${reason}`, at);
  const result: CheckResult = {
    ...base,
    outcome: complete ? "checked" : "incomplete",
    companies: cuis.length,
    reused,
    credits,
    changes,
    unknown: found.unknown.length,
    reason,
  };
  await store
    .audit({
      at,
      user: payer,
      endpoint: financial ? `watch ${list.name} financial` : `watch ${list.name}`,
      cuis: [],
      source: credits > creditsBefore ? "upstream" : "store",
      credits: credits - creditsBefore,
      status: complete ? 200 : stopped === "budget_exhausted" || stopped === "day_limit" || stopped === "plan_stopped" ? 429 : 502,
    })
    .catch((e) => d.onError?.(e, "watch check: audit line not written"));
  if (d.afterCheck) {
    try {
      await d.afterCheck(list, changes, result);
    } catch (e) {
      d.onError?.(e, `watch list ${list.name}: after the check`);
    }
  }
  return result;
}

/** A financial-year check's call for one part (the same path, and so the same stored key, when resumed). */
const yearsPath = (part: readonly number[]): string => `/v4/firme/batch/financiar?cui=${part.join(",")}`;

/**
 * The parts of a financial-year check whose answers the firm's store holds from today (a check cut
 * short and resumed, or run twice the same day): read again at no credit.
 */
async function reuseYears(store: FirmStore, parts: readonly (readonly number[])[], now: number): Promise<Map<number, YearObservation>> {
  const since = bucharestMidnight(bucharestDay(now)) ?? now;
  const stored = await store.getAnswers(
    parts.map((p) => `list:${yearsPath(p)}`),
    now,
  );
  const observations = new Map<number, YearObservation>();
  for (const part of parts) {
    const a = stored.get(`list:${yearsPath(part)}`);
    if (!a || a.fetchedAt < since || a.body === null) continue;
    let years;
    try {
      years = latestYears(part, read.readBatchFinancial(a.body, part));
    } catch {
      continue;
    }
    for (const [cui, y] of years) observations.set(cui, y);
  }
  return observations;
}

/**
 * What the firm's store holds for these companies fetched since today's Bucharest midnight, with the
 * watched fields: a profile (a 404 kept as null is "gone"), or an identification asked with every
 * watched field and carrying them. An identification answer with nothing (an absent batch item) is not
 * reused: it needs its profile call to tell "gone" from "left out"; nor is one without a watched field
 * (a service that ignored `include`): it needs its profile.
 */
async function reuse(
  store: FirmStore,
  cuis: readonly number[],
  now: number,
): Promise<{ observations: Map<number, Observation>; reused: number }> {
  const since = bucharestMidnight(bucharestDay(now)) ?? now;
  const includes = [WATCH_INCLUDE, "all"].filter((i) =>
    WATCHED_FIELDS.every((f) => f === "denumire" || f === "stare" || fieldsOf(i).includes(f)),
  );
  const keys = cuis.flatMap((c) => [`profile:${c}`, ...includes.map((i) => `ident:${c}:${i}`)]);
  const stored = await store.getAnswers(keys, now);
  const observations = new Map<number, Observation>();
  for (const cui of cuis) {
    const profile = stored.get(`profile:${cui}`);
    if (profile && profile.fetchedAt >= since) {
      observations.set(cui, profile.body === null ? { kind: "gone" } : { kind: "found", profile: profile.body as Record<string, unknown> });
      continue;
    }
    const ident = includes
      .map((i) => stored.get(`ident:${cui}:${i}`))
      .find(
        (a) =>
          a && a.fetchedAt >= since && a.body !== null && WATCHED_FIELDS.every((f) => (a.body as Record<string, unknown>)[f] !== undefined),
      );
    if (ident) observations.set(cui, { kind: "found", profile: ident.body as Record<string, unknown> });
  }
  return { observations, reused: observations.size };
}
