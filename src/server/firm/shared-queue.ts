/**
 * One batch queue per batch kind for all the instances on one database (PostgreSQL): each kind — the
 * identification batches of one `include`, the financial batches of one year — is led by one instance
 * at a time (a lease, lease.ts, `queue:<kind>`). Each instance fills its own full batches and sends
 * them itself (no hand-off on the way of most answers); what is left when its gathering window ends, a
 * partial batch, it hands to the kind's leader (a row a want in `firm_wants`) instead of paying for a
 * call of its own, so that the partial batches of all the instances are filled together. The leader takes the
 * handed wants every `pollMs` into its own queue, where they join its own people's (the same entry
 * for the same company), are claimed and fetched as any want of its own (loader.ts; the claims of
 * `firm_claims` still keep the other kinds, and answers on their way, from being paid twice), and
 * settles each row with the answer or the failure, and the request that paid the call, if it was one
 * of the asking instance's; the asking instance collects them every `pollMs` and hands them out.
 *
 * A leader that stops lets go of its leases; one killed lets them lapse (3 s): the next instance that
 * has wants of that kind takes the lease, then the rows the old leader had taken and not settled
 * (their claims with them), its own included — so no want is lost, and none is asked twice unless
 * the old leader was killed with its call on the way (that call's companies are asked once more).
 *
 * The polls are hastened by the store's notices (firm-store.ts onQueueNews; PostgreSQL's NOTIFY): a
 * leader takes handed wants as soon as they are committed, an asking instance collects its outcomes
 * as soon as they are settled, and a leader writes its outcomes as soon as they are known (the
 * period's poll remains, for a notice missed while the database restarted).
 */
import { failureFromJson, failureToJson, type FailureJson } from "./upstream";
import type { Want } from "./request-wants";
import type { Entry, Requester } from "./loader-calls";
import type { FirmStore, HandedWant, QueueNews, WantOutcome } from "./firm-store";
import type { Leases } from "./lease";

/** What the loader gives the shared queue. */
export interface QueueHost {
  /** This instance's name (its claims, its leases, its handed wants). */
  readonly owner: string;
  /** Queues entries here, as new wants of this instance. */
  queueHere(entries: Entry[]): void;
  /** The entries of wants handed here: this instance's own for each want (joined) or new ones, queued here together, then `queued`. */
  entriesFor(wants: ReadonlyArray<{ want: Want; waiters: Requester[]; since: number }>, queued: () => void): Entry[];
  /** Whether this instance has wants in its queue or calls on their way. */
  working(): boolean;
  /** A handed want's answer came back: hand it out. */
  settled(entry: Entry, value: unknown): void;
  failed(entry: Entry, e: unknown): void;
}

export interface SharedQueueOptions {
  store: FirmStore;
  host: QueueHost;
  leases: Leases;
  /** Writes that must not be lost (store-faults.ts WriteBehind.write). */
  write: (what: string, fn: () => Promise<void>) => Promise<void>;
  /** The polls' period while there is work. @default 25 */
  pollMs?: number;
  /** The polls' period when there is none (the notices wake it sooner). @default 1000 */
  idlePollMs?: number;
  /** How long after another instance's calls end a leader's partial batch still counts on their answers (othersAtWork). @default GRACE_MS */
  graceMs?: number;
  /** How long a leader's partial batch counts on the wants another instance said it will hand (expects). @default 1000 */
  expectMs?: number;
  now?: () => number;
  onError?: (e: unknown) => void;
}

/** The batch kind of a want (null: not a batch, fetched by whichever instance claims it). */
export function batchKind(w: Want): string | null {
  if (w.kind === "ident") return `i:${w.include}`;
  if (w.kind === "fin" && w.family === "batch") return `f:${w.year}`;
  return null;
}

/** The batch kinds of these entries' wants. */
export const kindsOf = (entries: readonly Entry[]) => new Set(entries.map((e) => batchKind(e.want)).filter((k) => k !== null));

const LEASE = (kind: string) => `queue:${kind}`;
/** The row that says an instance has calls on their way (a lease only it takes, renewed while they last). */
const CALLS = (owner: string) => `calls:${owner}`;
/**
 * How long after calls on their way ended a partial batch still counts on their answers: they reach the
 * people (another instance's people through the database: the wants they handed, the claims they
 * watched), whose next requests reach their instance, and come to this queue within its window or, from
 * another instance, a window (40 ms) and a few writes later. The loader counts its own calls' so.
 */
export const GRACE_MS = 150;

export class SharedQueue {
  /** This instance's wants waiting for their leader, by key. */
  private readonly handed = new Map<string, Entry>();
  /** The requests of other instances whose wants were taken here, by `origin request-id`. */
  private readonly remote = new Map<string, Requester>();
  private readonly remoteOf = new WeakMap<Requester, { origin: string; request: number }>();
  private readonly toSettle: Array<WantOutcome & { origin: string }> = [];
  /** The outcomes are being written (writeSettled). */
  private settling = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the timer's poll is due (Date.now()). */
  private due = 0;
  /** A poll is running; `soon`: another was asked for meanwhile, made when it ends. */
  private polling = false;
  private soon = false;
  private readonly unsubscribe: () => void;
  private closed = false;
  private serial = 0;
  /** The other instances with calls on their way, as last polled or heard (othersAtWork). */
  private callers = new Set<string>();
  /** When the last of them was seen to end its calls. */
  private callersQuietAt = -Infinity;
  /** Notices of calls heard so far: a poll begun before the last one reads an older state than it says. */
  private callsHeard = 0;
  /** This instance's own calls-on-their-way row, taken and let go in order. */
  private callsRow: Promise<void> = Promise.resolve();
  /** Rows of this instance's own settled here (after it took over their kind): collected, then forgotten. */
  private own = 0;
  /** The kinds whose wants other instances said they will hand (announce): by kind, when each instance said so. */
  private readonly coming = new Map<string, Map<string, number>>();
  /** The kinds this instance said it will hand wants of, not handed yet, and when it said so; its notices, sent in order. */
  private readonly announced = new Map<string, number>();
  private comingRow: Promise<void> = Promise.resolve();

  constructor(private readonly o: SharedQueueOptions) {
    this.unsubscribe = o.store.onQueueNews((news) => this.news(news));
  }

  /**
   * Whether another instance has calls on their way (as last polled, or up to GRACE_MS before): their
   * answers set its people going, whose next wants may fill a partial batch here (a leader's partial batch
   * waits for them as for its own calls on their way). Not its claims: an instance's claims also cover the
   * wants in its queue, which may themselves wait for a partial batch here, so that two leaders each waiting
   * on the other's claims would hold their partial batches the whole busy wait (1 s) every time.
   */
  othersAtWork(): boolean {
    const calling = this.callers.size > 0 || this.callersQuietAt + (this.o.graceMs ?? GRACE_MS) > Date.now();
    return calling && this.o.leases.held().some((n) => n.startsWith("queue:"));
  }

  /** This instance has calls on their way (`true`) or none any more: the other instances read it (othersAtWork). */
  calling(on: boolean): void {
    const name = CALLS(this.o.host.owner);
    this.callsRow = this.callsRow.then(async () => {
      if (on) await this.o.leases.lead(name);
      else await this.o.leases.release(name);
      await this.o.store.tellCalling(this.o.host.owner, on).catch((e) => this.o.onError?.(e));
    });
  }

  /**
   * This instance has wants of these kinds (being claimed or queued) to hand to their leaders (`true`), or none
   * any more (`false`: another's, or stored). A leader hears it a window, a claim and a few writes before the
   * hand, and its partial batch of the kind waits for them (expects). Kinds led here are not announced;
   * a kind said already is said again once half the leader's wait for it has passed (a word gone stale).
   */
  announce(kinds: Iterable<string>, on: boolean): void {
    const now = Date.now();
    for (const kind of kinds) {
      const said = this.announced.get(kind);
      if (on ? this.leads(kind) || (said !== undefined && now - said < (this.o.expectMs ?? 1000) / 2) : said === undefined) continue;
      if (on) this.announced.set(kind, now);
      else this.announced.delete(kind);
      this.comingRow = this.comingRow.then(() => this.o.store.tellComing(this.o.host.owner, kind, on)).catch((e) => this.o.onError?.(e));
    }
  }

  /** Of these kinds, those announced whose wants are no longer `queued` here: none any more (they were another's, or stored). */
  unannounce(kinds: Iterable<string>, queued: (kind: string) => boolean): void {
    for (const k of kinds) if (this.announced.has(k) && !queued(k)) this.announce([k], false);
  }

  /**
   * How long a partial batch of a kind this instance leads may wait for its oldest want: twice expectMs when
   * another instance said it will hand wants of the kind, less than expectMs ago and not handed since; else 0.
   */
  expects(kind: string): number {
    const from = this.coming.get(kind);
    if (!from || !this.leads(kind)) return 0;
    const expectMs = this.o.expectMs ?? 1000;
    for (const [origin, at] of from) if (at <= Date.now() - expectMs) from.delete(origin);
    return from.size > 0 ? 2 * expectMs : 0;
  }

  /** Whether this instance leads the batch kind now (as far as it knows, without asking the database). */
  leads(kind: string): boolean {
    return this.o.leases.holds(LEASE(kind));
  }

  /**
   * A partial batch of this instance's (its window ended before it filled): handed to the kind's leader,
   * where it joins the other instances' partial batches, unless this instance now leads the kind (it takes
   * the lease when no one holds it). Returned: the entries to keep in this instance's queue (its own kind,
   * or a database that did not take them). The entries' claims are let go first: the leader claims them.
   */
  async handOver(entries: Entry[]): Promise<Entry[]> {
    const kind = batchKind(entries[0].want)!;
    this.announced.delete(kind); // handed now, or led here: the leader's expectation ends as it takes them
    if (await this.o.leases.lead(LEASE(kind))) return entries;
    const rows: HandedWant[] = entries.map((e) => ({
      key: e.id,
      origin: this.o.host.owner,
      grp: kind,
      want: JSON.stringify(e.want),
      users: e.waiters.map((r): [number, string] => [r.id, r.user]),
      since: e.since, // it has waited already: the leader does not make it wait its whole time again
    }));
    try {
      // Quietly: the other instances watching them wait for the leader's claim, not fetch them themselves.
      await this.o.store.releaseClaims(
        entries.map((e) => e.id),
        this.o.host.owner,
        false,
      );
      await this.o.store.handWants(rows);
    } catch (err) {
      this.o.onError?.(err);
      return entries; // the database cannot take them: fetched here
    }
    for (const e of entries) {
      e.sent = true; // its payer is chosen among the people waiting now
      this.handed.set(e.id, e);
    }
    this.schedule();
    return [];
  }

  /** A call of this instance's queue was paid by `req`: if it is another instance's request, that instance is told (on one row). */
  paidBy(entry: Entry, req: Requester): void {
    if (this.remoteOf.has(req)) entry.paidBy = req;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Another instance handed wants of a kind this one leads, or settled wants this one handed: a poll now.
   * Another began or ended its calls: known at once.
   */
  private news(n: QueueNews): void {
    if ("calling" in n) {
      if (n.calling === this.o.host.owner) return;
      this.callsHeard++;
      const callers = new Set(this.callers);
      if (n.on) callers.add(n.calling);
      else callers.delete(n.calling);
      this.setCallers(callers);
    } else if ("coming" in n) {
      if (n.coming === this.o.host.owner) return;
      const from = this.coming.get(n.grp) ?? this.coming.set(n.grp, new Map()).get(n.grp)!;
      if (n.on) from.set(n.coming, Date.now());
      else from.delete(n.coming);
    } else if ("kind" in n ? this.o.leases.held().includes(LEASE(n.kind)) : "origin" in n && n.origin === this.o.host.owner)
      this.schedule(0);
  }

  private setCallers(callers: Set<string>): void {
    if (this.callers.size > 0 && callers.size === 0) this.callersQuietAt = Date.now();
    this.callers = callers;
  }

  /** This instance has work in its queue: the polls come at their short period (its partial batches read othersAtWork). */
  wake(): void {
    if (!this.timer || this.due > Date.now() + (this.o.pollMs ?? 25)) this.schedule();
  }

  /**
   * The next poll in `ms`: by default the short period while there is work here or handed away, the idle
   * period otherwise (a leader waits for the notices; the idle poll makes up for one missed). Sooner
   * replaces later.
   */
  private schedule(ms?: number): void {
    if (this.closed) return;
    const busy = this.handed.size > 0 || this.toSettle.length > 0 || this.own > 0 || this.o.host.working();
    // A leader goes on polling while its lease's renewal is late (a busy thread): the others' wants wait on it.
    if (!busy && !this.o.leases.any()) return;
    const wait = ms ?? (busy ? (this.o.pollMs ?? 25) : (this.o.idlePollMs ?? 1000));
    if (this.polling) {
      if (wait === 0) this.soon = true;
      return;
    }
    const due = Date.now() + wait;
    if (this.timer && this.due <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = true;
      void this.poll().finally(() => {
        this.polling = false;
        const again = this.soon;
        this.soon = false;
        this.schedule(again ? 0 : undefined);
      });
    }, wait);
  }

  /**
   * The leader takes the wants handed to its kinds, and reads which instances have calls on their way;
   * the asking instance collects its settled wants. Three reads of their own, made at once.
   */
  private async poll(): Promise<void> {
    const kinds = this.o.leases
      .held()
      .filter((n) => n.startsWith("queue:"))
      .map((n) => n.slice(6));
    const read = (what: () => Promise<void>) => what().catch((e: unknown) => this.o.onError?.(e));
    await Promise.all([
      kinds.length > 0 &&
        read(async () => {
          const said = new Map([...this.coming].map(([kind, from]) => [kind, new Map(from)])); // before the take (adopt)
          const rows = await this.o.store.takeWants(kinds, this.o.host.owner);
          if (rows.length > 0) await this.adopt(rows, said);
        }),
      (this.handed.size > 0 || this.own > 0) &&
        read(async () => {
          // Only the own rows written before this read are collected by it: those written meanwhile, by the next.
          const own = this.own;
          for (const out of await this.o.store.collectWants(this.o.host.owner)) this.collect(out);
          this.own -= own;
          // A kind whose leader lapsed is taken over by whoever still waits for it.
          const waiting = new Set([...this.handed.values()].map((e) => batchKind(e.want)!));
          for (const kind of waiting) void this.o.leases.lead(LEASE(kind));
        }),
      kinds.length > 0 &&
        read(async () => {
          const heard = this.callsHeard;
          const callers = await this.o.store.othersCalling(this.o.host.owner, this.o.now?.() ?? Date.now());
          if (this.callsHeard === heard) this.setCallers(callers);
        }),
    ]);
  }

  /**
   * The outcomes of handed wants, written as they come (those of one call together, and those that come
   * while a write is on its way in the next), not at the next poll: the asking instance is told at once.
   */
  private writeSettled(): void {
    if (this.settling) return;
    this.settling = true;
    setImmediate(async () => {
      try {
        while (this.toSettle.length > 0) {
          const rows = this.toSettle.splice(0);
          await this.o.write("handed wants settled", () => this.o.store.settleWants(rows));
          // This instance's own rows (it took over their kind), counted once written: collected next.
          this.own += rows.filter((r) => r.origin === this.o.host.owner).length;
        }
      } catch (e) {
        this.o.onError?.(e);
      } finally {
        this.settling = false;
      }
      if (this.toSettle.length > 0) this.writeSettled();
      else if (this.own > 0) this.schedule(0); // collected now
    });
  }

  /**
   * Handed wants taken here: joined to this instance's queue all at once (one claim for them all), each row
   * settled when its entry is. `said`: the words of wants to come heard before they were taken (expects).
   */
  private async adopt(rows: HandedWant[], said: Map<string, Map<string, number>>): Promise<void> {
    // A leader that stopped: its claims on what it had taken go with them.
    const before = new Map<string, string[]>();
    for (const r of rows)
      if (r.takenBefore && r.takenBefore !== this.o.host.owner) before.set(r.takenBefore, [...(before.get(r.takenBefore) ?? []), r.key]);
    for (const [owner, keys] of before) await this.o.store.releaseClaims(keys, owner).catch((e) => this.o.onError?.(e));
    const mine: Entry[] = [];
    const theirs: Array<{ want: Want; waiters: Requester[]; since: number }> = [];
    const of: Array<{ row: HandedWant; entry: () => Entry | undefined }> = [];
    for (const row of rows) {
      if (row.origin === this.o.host.owner) {
        // Its own want, handed before this instance led the kind.
        const e = this.handed.get(row.key);
        if (!e) {
          this.settleRow(row, null, JSON.stringify({ gone: true }));
          continue;
        }
        this.handed.delete(row.key);
        e.sent = false;
        mine.push(e);
        of.push({ row, entry: () => e });
      } else {
        const i =
          theirs.push({
            want: JSON.parse(row.want) as Want,
            waiters: row.users.map(([q, u]) => this.requester(row.origin, q, u)),
            since: row.since,
          }) - 1;
        of.push({ row, entry: () => entries[i] });
      }
    }
    // What they said would come before the take is in the queue here: its partial batch waits for it no
    // more (expects). A word heard since is of wants still to come, handed after these.
    const entries = this.o.host.entriesFor(theirs, () => {
      for (const r of rows)
        if (this.coming.get(r.grp)?.get(r.origin) === said.get(r.grp)?.get(r.origin)) this.coming.get(r.grp)?.delete(r.origin);
    });
    if (mine.length > 0) this.o.host.queueHere(mine);
    for (const { row, entry } of of) {
      const e = entry();
      if (!e) continue;
      e.promise.then(
        (value) => {
          const paid = e.paidBy && this.remoteOf.get(e.paidBy);
          this.settleRow(row, paid && paid.origin === row.origin ? paid.request : null, JSON.stringify({ ok: true, value }));
        },
        (err: unknown) => this.settleRow(row, null, JSON.stringify({ failure: failureToJson(err) })),
      );
    }
  }

  private settleRow(row: HandedWant, paidRequest: number | null, outcome: string): void {
    this.toSettle.push({ key: row.key, origin: row.origin, outcome, paidRequest });
    this.writeSettled();
  }

  private requester(origin: string, request: number, user: string): Requester {
    const id = `${origin} ${request}`;
    let r = this.remote.get(id);
    if (!r) {
      // Ordered after this instance's own requests of the moment: "who asked first" among equals.
      r = { id: 1e12 + ++this.serial, user, credits: 0, fetched: true };
      this.remote.set(id, r);
      this.remoteOf.set(r, { origin, request });
      if (this.remote.size > 50_000) this.remote.clear();
    }
    return r;
  }

  /** A want this instance handed came back settled. */
  private collect(out: WantOutcome): void {
    const entry = this.handed.get(out.key);
    if (!entry) return;
    this.handed.delete(out.key);
    const o = JSON.parse(out.outcome) as { ok?: true; value?: unknown; failure?: FailureJson; gone?: true };
    if (o.ok) {
      if (out.paidRequest !== null) {
        const payer = entry.waiters.find((r) => r.id === out.paidRequest);
        if (payer) payer.credits++;
      }
      this.o.host.settled(entry, o.value ?? null);
    } else if (o.failure) this.o.host.failed(entry, failureFromJson(o.failure));
    else {
      entry.sent = false;
      this.o.host.queueHere([entry]);
    }
  }
}
