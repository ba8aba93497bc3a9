/**
 * What the firm's store does not hold, fetched from the service with the fewest credits, once for the
 * whole firm (in the manner of dataloader): the wants of every request that arrive within a short
 * window are gathered, identical wants share one entry, and a want already on its way is joined, not
 * asked again. A flush is planned like the engine plans (loader-calls.ts).
 *
 * Several instances on one database (PostgreSQL) fetch each answer once between them: a new want is
 * claimed in the database as it arrives (firm-store.ts `claimAnswers`), so each company is queued by one
 * instance only; a want another instance holds waits for that instance's answer to be stored (polled),
 * and is queued here only if the other lets go without storing it (its call failed) or its claim
 * expires (it stopped). One instance alone claims the same way. On PostgreSQL the batch kinds go
 * further (shared-queue.ts): one instance leads each kind, and the others hand it the partial batches
 * their windows leave (their full batches they send themselves), so that no instance pays for a partial
 * batch another could fill; the leader builds on the claims above (the handing instance lets go of its
 * claims, the leader claims what it takes like any want of its own), it does not replace them.
 *
 * Every call costs a credit however few companies it holds, so a partial batch waits, window after
 * window, for the people still asking to fill it, up to maxWaitMs (200 ms) for its oldest company, or
 * busyWaitMs (1 s) while calls of this server (or, to a queue's leader, of another instance) are on their
 * way and a moment (graceMs) after: their answers bring the people's next requests, which fill it (a
 * person's requests wait for all their answers, so a batch sent part-full when everyone waits on the
 * calls on their way is paid twice over at the end of a large fill), and while wants of its kind are being claimed.
 *
 * Before each call, one credit is reserved in the database for ONE person: the one who waits for the
 * most of the call's answers (then the others, when that one's budget is spent). A call the service did
 * not charge gives the credit back, so the credits attributed equal the service's count (but for the one
 * credit of a server killed between its reservation and its call: no one can tell it did not go). The service's
 * 429 stops the plan for everyone (in the database) until its period turns. A database that does not
 * take the reservation means no call; what follows a call is written behind (store-faults.ts).
 */
import { MAX_BATCH_FINANCIAL, MAX_BATCH_IDENTIFICATION } from "../../api/client";
import { limiter } from "../../engine/credits/limiter";
import { BATCH_WINDOW } from "../../engine/engine-options";
import { wantKey, type Want } from "./request-wants";
import { includeIgnoredBy, newEntry, plan, recentAnswer, type Call, type Entry, type Requester } from "./loader-calls";
import { failCall, storedAnswers, storedValues } from "./loader-calls";
import type { FirmStore } from "./firm-store";
import { CallFailure, failureCharged, failureOf, type Upstream, type UpstreamAnswer } from "./upstream";
import { WriteBehind } from "./store-faults";
import { planStopEnd, reservePayer, type Payer } from "./loader-credits";
import { Leases } from "./lease";
import { ClaimWatch, NOTIFIED_POLL_MS } from "./claim-watch";
import { instanceName } from "./instance-name";
import { batchKind, GRACE_MS, kindsOf, SharedQueue } from "./shared-queue";

export type { Requester } from "./loader-calls";
export { planStopEnd } from "./loader-credits";

export interface LoaderOptions {
  store: FirmStore;
  upstream: Upstream;
  /** The firm's cap on credits a day (--max-credits-per-day); null: none. */
  maxPerDay: number | null;
  /** The gathering window: the people of a firm do not ask in step. @default 40 (the engine's, BATCH_WINDOW) */
  windowMs?: number;
  /** How long a company may wait, window after window, for its batch to fill (a call costs a credit however few it holds). @default 200 */
  maxWaitMs?: number;
  /** How long a partial batch may wait while calls are on their way and graceMs after (above). @default 1000 */
  busyWaitMs?: number;
  /** Upstream calls at once, when no `gate` is given. @default 8 */
  concurrency?: number;
  /** Where each call waits for its place among those at once: the upstream governor's (../upstream-governor.ts). */
  gate?: <T>(task: () => Promise<T>) => Promise<T>;
  now?: () => number;
  /** Each upstream call, for the metrics. */
  onCall?: (charged: boolean) => void;
  /** A failure to keep answers (logged; the person still gets them). */
  onStoreError?: (e: unknown) => void;
  /** Where what follows a call is written (store-faults.ts); one of its own by default. */
  writes?: WriteBehind;
  /**
   * How long a claim on answers being fetched holds before another instance may take it over: more
   * than a call can take (the upstream timeout), so that a slow call is not paid twice. @default 60000
   */
  claimMs?: number;
  /** The claim watch's and the shared queue's polls: where the store notifies, only the notices' fallback. @default 25, or 250 (NOTIFIED_POLL_MS) */
  pollMs?: number;
  /** One batch queue per kind for all the instances on the database (shared-queue.ts). @default false */
  shareQueue?: boolean;
  /** How long after calls end (this instance's; to a queue's leader, another's too) a partial batch still waits for what their answers bring. @default GRACE_MS (150) */
  graceMs?: number;
}

/** Answers just settled, by want: a request that read the store a moment before they were written finds them here. */
const RECENT_MS = 10_000;
/** A call refused as busy (503, not charged) is made this many times in all, after its Retry-After or 100 ms doubling (at most 2 s). */
const BUSY_ATTEMPTS = 4;

export class FirmLoader {
  /** The plan the service named last (X-Plan), passed on to the people. */
  plan: string | null = null;
  /**
   * Whether the service ignores `include` (its batch items never carry the fields asked): learned from
   * each identification batch sent with `include` that found companies; null until the first.
   */
  includeIgnored: boolean | null = null;
  private readonly pending = new Map<string, Entry>();
  private readonly inflight = new Map<string, Entry>();
  private readonly recent = new Map<string, { value: unknown; until: number }>();
  /** Wants another instance is fetching: their answers are looked for in the store. */
  private readonly claimWatch: ClaimWatch;
  /** Entries being claimed (enqueueHere), since when: a partial batch of their kind waits for them (flush). */
  private readonly claiming = new Map<Entry, number>();
  /** Entries the database would not take to hand over: fetched here. */
  private readonly keptHere = new WeakSet<Entry>();
  /** This instance's name on its claims. */
  readonly owner = instanceName();
  private readonly leases: Leases | null = null;
  private readonly shared: SharedQueue | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Calls sent and not yet answered (waiting for their place or on their way). */
  private onWay = 0;
  /** Calls the service refused as busy, waiting for their next attempt: failed as they are when the server closes. */
  private readonly busyRetries = new Map<ReturnType<typeof setTimeout>, { call: Call; answer: UpstreamAnswer }>();
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  private readonly now: () => number;
  private readonly writes: WriteBehind;
  /** When the calls on their way last ended (flush: their answers bring the people's next wants). */
  private quietAt = -Infinity;
  private readonly callDone = () => void (--this.onWay === 0 && (this.shared?.calling(false), (this.quietAt = this.now())));

  constructor(private readonly o: LoaderOptions) {
    this.limit = o.gate ?? limiter(o.concurrency ?? 8);
    this.now = o.now ?? Date.now;
    const pollMs = o.pollMs ?? (o.store.notifies ? NOTIFIED_POLL_MS : 25);
    this.writes = o.writes ?? new WriteBehind({ onError: (e) => o.onStoreError?.(e) });
    this.claimWatch = new ClaimWatch({
      store: o.store,
      owner: this.owner,
      pollMs,
      now: this.now,
      found: (entries, stored) => this.settled(entries, storedValues(entries, stored)),
      back: (entries) => void this.enqueueHere(entries),
      onError: o.onStoreError,
    });
    if (o.shareQueue) {
      this.leases = new Leases({ store: o.store, holder: this.owner, now: this.now, onError: o.onStoreError });
      this.shared = new SharedQueue({
        store: o.store,
        leases: this.leases,
        write: async (what, fn) => void (await this.writes.write(what, fn)),
        pollMs,
        graceMs: o.graceMs,
        expectMs: o.busyWaitMs,
        now: this.now,
        onError: o.onStoreError,
        host: {
          owner: this.owner,
          working: () => this.pending.size > 0 || this.onWay > 0,
          queueHere: (entries) => void this.enqueueHere(entries),
          entriesFor: (wants, queued) => this.entriesFor(wants, queued),
          settled: (e, value) => this.settled([e], new Map([[e.id, value]])),
          failed: (e, err) => {
            this.inflight.delete(e.id);
            e.reject(err);
          },
        },
      });
    }
  }

  /** The entries of wants other instances handed here: those already here, joined, or new ones queued here together. */
  private entriesFor(wants: ReadonlyArray<{ want: Want; waiters: Requester[]; since: number }>, queued: () => void): Entry[] {
    const fresh: Entry[] = [];
    let since = Infinity;
    const out = wants.map(({ want, waiters, since: s }) => {
      const id = wantKey(want);
      const known = this.inflight.get(id) ?? this.pending.get(id);
      const e = known ?? newEntry(id, want, s);
      if (!e.sent) for (const r of waiters) if (!e.waiters.includes(r)) e.waiters.push(r);
      // New here, or watched here while its claimer held it (it let go quietly, to hand it here): claimed here.
      if (!known || this.claimWatch.unwatch(id)) {
        if (!known) this.inflight.set(id, e);
        fresh.push(e);
        since = Math.min(since, s);
      }
      return e;
    });
    void (fresh.length > 0 ? this.enqueueHere(fresh, since) : Promise.resolve()).then(queued);
    return out;
  }

  /** The answers to `wants` (by wantKey), fetched for `req`; rejects with a CallFailure. */
  async load(wants: readonly Want[], req: Requester): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    const waits: Promise<void>[] = [];
    const fresh: Entry[] = [];
    const now = this.now();
    for (const w of wants) {
      const id = wantKey(w);
      const recent = recentAnswer(this.recent, w, now, this.includeIgnored === true);
      if (recent !== undefined) {
        out.set(id, recent);
        continue;
      }
      let e = this.inflight.get(id) ?? this.pending.get(id);
      if (!e) {
        e = newEntry(id, w, now);
        this.inflight.set(id, e); // being claimed: a request meanwhile joins it
        fresh.push(e);
      }
      if (!e.sent && !e.waiters.includes(req)) e.waiters.push(req);
      req.fetched = true;
      waits.push(e.promise.then((v) => void out.set(id, v)));
    }
    if (fresh.length > 0) void this.enqueueHere(fresh);
    await Promise.all(waits);
    return out;
  }

  /**
   * New wants are claimed in the database as they arrive, so that each company is queued by one
   * instance only: those claimed here join this instance's queue; those another instance holds wait
   * for its answers (claim-watch.ts); an answer stored since the request read the store (by another
   * instance, just finished) is taken from the store. Should the database fail to say, the wants are
   * queued here: a person never waits on it. `since`: how long they have waited already (a want handed
   * back by the shared queue).
   */
  private async enqueueHere(entries: Entry[], since?: number): Promise<void> {
    let mine = entries;
    const asked = Date.now(); // the notices' clock (claim-watch.ts)
    for (const e of entries) this.claiming.set(e, this.now());
    const kinds = kindsOf(entries);
    this.shared?.announce(kinds, true);
    try {
      const now = this.now();
      const ids = entries.map((e) => e.id);
      const held = await this.o.store.claimAnswers(ids, this.owner, now, now + (this.o.claimMs ?? 60_000));
      const others = entries.filter((e) => !held.has(e.id));
      if (others.length > 0) this.claimWatch.add(others, asked);
      mine = entries.filter((e) => held.has(e.id));
      if (mine.length > 0) {
        const keys = mine.map((e) => e.id);
        const stored = await this.o.store.getAnswers(keys, now);
        if (stored.size > 0) {
          const found = mine.filter((e) => stored.has(e.id));
          mine = mine.filter((e) => !stored.has(e.id));
          this.settled(found, storedValues(found, stored));
          void this.release(found);
        }
      }
    } catch (e) {
      this.o.onStoreError?.(e);
    } finally {
      for (const e of entries) this.claiming.delete(e);
    }
    // Sent already (queued twice by a race): never asked twice; the claim just renewed goes if nothing here fetches it.
    void this.release(mine.filter((e) => e.sent && !this.inflight.has(e.id) && !this.pending.has(e.id)));
    const now = this.now();
    for (const e of mine) {
      if (e.sent) continue;
      this.inflight.delete(e.id);
      e.since = since ?? now;
      this.pending.set(e.id, e);
    }
    this.shared?.unannounce(kinds, this.queues);
    if (this.pending.size > 0) this.schedule();
  }

  /** Stops the window's timer (the server is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.claimWatch.close();
    for (const [timer, { call, answer }] of this.busyRetries) {
      clearTimeout(timer);
      this.callDone(); // counted on its way until its retry
      failCall(call, failureOf(answer), this.inflight);
      void this.release(call.entries).catch(() => undefined); // another instance may fetch them at once
    }
    this.busyRetries.clear();
    this.shared?.close();
    void this.leases?.close(); // another instance leads at once
    if (!this.o.writes) this.writes.close();
  }

  /**
   * A full batch goes at once (the engine's queue does the same), alone: the other companies keep
   * waiting for the window, so that requests trickling in from several people fill their batches.
   */
  private schedule(): void {
    for (const [g, list] of this.batchGroups()) {
      const max = g.startsWith("i:") ? MAX_BATCH_IDENTIFICATION : MAX_BATCH_FINANCIAL;
      while (list.length >= max) this.send(list.splice(0, max));
    }
    if (this.pending.size > 0 && !this.timer) this.timer = setTimeout(() => this.flush(), this.o.windowMs ?? BATCH_WINDOW.default);
    this.shared?.wake();
  }

  /** What is pending in batches (identification per `include`, financial per year), by batch kind. */
  private batchGroups(): Map<string, Entry[]> {
    const groups = new Map<string, Entry[]>();
    for (const e of this.pending.values()) {
      const g = batchKind(e.want);
      if (g !== null) (groups.get(g) ?? groups.set(g, []).get(g)!).push(e);
    }
    return groups;
  }

  /**
   * The window ended: everything pending goes, but a partial batch whose companies have all waited
   * less than maxWaitMs (or more, above), which waits another window for the people still asking to fill it.
   */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = this.now();
    const busy = this.onWay > 0 || now - this.quietAt < (this.o.graceMs ?? GRACE_MS) || (this.shared?.othersAtWork() ?? false);
    const wait = Math.max(this.o.maxWaitMs ?? 200, busy ? (this.o.busyWaitMs ?? 1000) : 0);
    const keep = new Set<Entry>();
    // Kinds with wants being claimed (a round trip; one older than busyWaitMs is not waited for): a batch sent here waits for them, up to twice its wait.
    const joining = new Set([...this.claiming].filter(([, at]) => now - at < (this.o.busyWaitMs ?? 1000)).map(([e]) => batchKind(e.want)));
    for (const [kind, list] of this.batchGroups()) {
      // Shared: a partial batch of a kind another instance leads goes to that leader (shared-queue.ts).
      if (this.shared && !this.shared.leads(kind) && !list.some((e) => this.keptHere.has(e))) this.handOver(kind, list);
      // Longer for wants another instance said it will hand here (shared-queue.ts expects).
      else if (list.every((e) => now - e.since < Math.max(wait + (joining.has(kind) ? wait : 0), this.shared?.expects(kind) ?? 0)))
        for (const e of list) keep.add(e);
    }
    this.send([...this.pending.values()].filter((e) => !keep.has(e)));
    if (this.pending.size > 0) this.timer = setTimeout(() => this.flush(), this.o.windowMs ?? BATCH_WINDOW.default);
  }

  /**
   * A partial batch handed to its kind's leader. What comes back (this instance now leads the kind, or the
   * database did not take them) is claimed and queued here again: a hand that failed after the claims
   * were let go must not leave them fetched unclaimed (another instance could pay for them too).
   */
  private handOver(kind: string, list: Entry[]): void {
    for (const e of list) {
      this.pending.delete(e.id);
      this.inflight.set(e.id, e);
    }
    void this.shared!.handOver(list).then((back) => {
      if (back.length === 0) return;
      // The database failed: not handed again (fetched here, as without a shared queue).
      if (!this.shared!.leads(kind)) for (const e of back) this.keptHere.add(e);
      void this.enqueueHere(back, Math.min(...back.map((e) => e.since)));
    });
  }

  /** Whether wants of this batch kind are queued here or being claimed (shared-queue.ts unannounce). */
  private readonly queues = (kind: string): boolean => {
    for (const e of this.pending.values()) if (batchKind(e.want) === kind) return true;
    for (const e of this.claiming.keys()) if (batchKind(e.want) === kind) return true;
    return false;
  };

  private send(entries: Entry[]): void {
    for (const e of entries) {
      this.pending.delete(e.id);
      this.inflight.set(e.id, e);
      e.sent = true;
    }
    // Sent here, not handed (a full batch, or one the database would not take): none left to hand, maybe.
    this.shared?.unannounce(kindsOf(entries), this.queues);
    const now = this.now();
    if (this.recent.size > 20_000) for (const [k, r] of this.recent) if (r.until <= now) this.recent.delete(k);
    for (const call of plan(entries)) {
      if (this.onWay++ === 0) this.shared?.calling(true); // the others' partial batches wait for it (shared-queue.ts)
      void this.limit(() => this.run(call)).then(this.callDone, this.callDone);
    }
  }

  private settled(entries: readonly Entry[], values: Map<string, unknown>): void {
    const until = this.now() + RECENT_MS;
    for (const e of entries) {
      const value = values.get(e.id) ?? null;
      this.recent.set(e.id, { value, until });
      this.inflight.delete(e.id);
      this.pending.delete(e.id);
      e.resolve(value);
    }
  }

  /** Lets go of the claims on these entries (their call failed, or its answers could not be stored). */
  private async release(entries: readonly Entry[]): Promise<void> {
    if (entries.length === 0) return;
    const keys = entries.map((e) => e.id);
    await this.writes.write("claims let go", () => this.o.store.releaseClaims(keys, this.owner));
  }

  /**
   * One call: a credit reserved, the service asked, its answers handed out, then kept and its claims let go
   * with them. A busy 503 not charged goes again to the back of the queue (the governor halved), BUSY_ATTEMPTS in all.
   */
  private async run(call: Call, attempt = 1): Promise<void> {
    try {
      const payer = await reservePayer(this.o.store, call, this.o.maxPerDay, this.now(), this.o.onStoreError);
      let answer: UpstreamAnswer;
      let charged: boolean;
      try {
        ({ answer, charged } = await this.o.upstream(call.path));
      } catch (e) {
        await this.account(payer, failureCharged(e));
        throw e;
      }
      await this.account(payer, charged);
      if (charged && this.shared) {
        const e = call.entries.find((x) => x.waiters.includes(payer.req));
        if (e) this.shared.paidBy(e, payer.req);
      }
      if (answer.plan) this.plan = answer.plan;
      if (answer.status === 503 && !charged && attempt < BUSY_ATTEMPTS) {
        const pause = Math.min(answer.retryAfterMs ?? 100 * 2 ** (attempt - 1), 2_000);
        this.onWay++; // still on its way, for this instance and the others (the call's own end is counted next)
        const timer = setTimeout(() => {
          this.busyRetries.delete(timer);
          void this.limit(() => this.run(call, attempt + 1)).then(this.callDone, this.callDone);
        }, pause);
        this.busyRetries.set(timer, { call, answer });
        return;
      }
      if (answer.status === 429) {
        const now = this.now();
        const until = planStopEnd(now, answer.plan ?? this.plan, answer.retryAfterMs);
        await this.writes.write("the plan's stop", () => this.o.store.stopPlan(until));
        throw new CallFailure(429, "plan_stopped", { until }, null, until - now);
      }
      if (answer.status !== 200 && answer.status !== 404) throw failureOf(answer);
      let values: Map<string, unknown>;
      try {
        values = call.read(answer);
      } catch (e) {
        if (e instanceof CallFailure) throw e;
        throw new CallFailure(502, "upstream_shape");
      }
      this.includeIgnored = includeIgnoredBy(call.entries, values) ?? this.includeIgnored;
      this.settled(call.entries, values);
      return await this.keep(values, call.entries);
    } catch (e) {
      failCall(call, e, this.inflight);
    }
    await this.release(call.entries);
  }

  /** Stored with the claims let go; refused for good (not kept to try again): the claims go anyway, the others fetch them. */
  private async keep(values: Map<string, unknown>, entries: readonly Entry[]): Promise<void> {
    const answers = storedAnswers(values, this.now());
    const release = { keys: entries.map((e) => e.id), owner: this.owner };
    if ((await this.writes.write("answers", () => this.o.store.putAnswers(answers, release))) === "dropped") await this.release(entries);
  }

  /** A charged call is the payer's request's credit; one the service did not charge gives it back. */
  private async account(p: Payer, charged: boolean): Promise<void> {
    this.o.onCall?.(charged);
    if (charged) p.req.credits++;
    else await this.writes.write("a credit given back", () => this.o.store.releaseCredit(p.user, p.month, p.day));
  }
}
