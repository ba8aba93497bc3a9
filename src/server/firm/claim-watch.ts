/**
 * Wants another instance holds a claim on (firm_claims, loader.ts): their answers are looked for in the
 * store every `pollMs`, and at once when another instance lets go of claims (PostgreSQL's NOTIFY,
 * firm-store.ts onQueueNews: it stored its answers, or its call failed), so that a person waiting on the
 * other instance's call gets its answers as soon as they are stored, not a poll later; a notice that
 * names the keys let go (most do) has only those looked for. Those stored are
 * handed out; those no one holds a claim on any more, yet not stored (the other's call failed, or it
 * stopped), go back to this instance's queue. A poll reads the claims before the answers: an instance
 * stores its answers before it lets go, so a want without a claim and without an answer was truly
 * given up. A notice's keys are let go already, so only the answers are read; one that comes back is
 * claimed, then looked for in the store once more, before anything is fetched (loader.ts enqueueHere).
 * A claim whose owner has stopped for certain (its process on this machine is gone: instance-name.ts)
 * is let go by the poll that finds it, and its wants are queued here at once, not when it runs out.
 */
import type { Entry } from "./loader-calls";
import type { FirmStore, StoredAnswer } from "./firm-store";
import { stoppedHere } from "./instance-name";

/** The polls' period where the store's notices drive them (PostgreSQL): only a notice missed waits for it. */
export const NOTIFIED_POLL_MS = 250;

export interface ClaimWatchOptions {
  store: Pick<FirmStore, "claimedKeys" | "getAnswers" | "releaseClaims"> & Partial<Pick<FirmStore, "onQueueNews">>;
  /** This instance's name on its claims: its own claims let go wake nothing. */
  owner?: string;
  /** The poll's period; a notice of claims let go looks sooner. @default 25 */
  pollMs?: number;
  now: () => number;
  /** Answers the other instance stored. */
  found(entries: readonly Entry[], stored: Map<string, StoredAnswer>): void;
  /** Wants given up by the other instance (or a database that did not say): queued again. */
  back(entries: Entry[]): void;
  onError?: (e: unknown) => void;
  /** Whether a claim's owner has stopped for certain. @default stoppedHere (instance-name.ts) */
  stopped?: (owner: string) => boolean;
}

export class ClaimWatch {
  private readonly watching = new Map<string, Entry>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A poll is running; `again`: claims were let go meanwhile, so another follows at once. */
  private polling = false;
  private again = false;
  /** When claims were last heard let go (Date.now()). */
  private heardAt = -Infinity;
  private readonly unsubscribe: () => void;

  constructor(private readonly o: ClaimWatchOptions) {
    this.unsubscribe =
      o.store.onQueueNews?.((n) => {
        if (!("released" in n) || n.released === o.owner) return;
        this.heardAt = Date.now();
        if (n.keys) void this.look(n.keys);
        else this.wake();
      }) ?? (() => undefined);
  }

  /**
   * Watches `entries`, found claimed by another instance at `since` (Date.now()): looked for at once if
   * claims were let go since then (the notice may have been about them, before they were watched).
   */
  add(entries: readonly Entry[], since = Infinity): void {
    for (const e of entries) this.watching.set(e.id, e);
    if (this.heardAt >= since) this.wake();
    else if (this.timer === null && !this.polling) this.timer = setTimeout(() => void this.poll(), this.o.pollMs ?? 25);
  }

  /** Stops watching `id` (its claimer handed it to this instance, which claims it now); whether it was watched. */
  unwatch(id: string): boolean {
    return this.watching.delete(id);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watching.clear();
    this.unsubscribe();
  }

  /** Another instance let go of claims: what is watched is looked for now. */
  private wake(): void {
    if (this.watching.size === 0) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.poll();
  }

  /**
   * Another instance let go of its claims on `keys` (its notice named them): those watched here are
   * looked for in the store, and only they (not every company watched, twice, as a poll does). Let go
   * means stored first, or given up: one not stored is queued here again (claimed anew, or watched again
   * if a third instance claimed it meanwhile).
   */
  private async look(keys: readonly string[]): Promise<void> {
    const asked = keys.map((k) => this.watching.get(k)).filter((e): e is Entry => e !== undefined);
    if (asked.length === 0) return;
    let stored: Map<string, StoredAnswer>;
    try {
      stored = await this.o.store.getAnswers(
        asked.map((e) => e.id),
        this.o.now(),
      );
    } catch (e) {
      this.o.onError?.(e);
      this.wake(); // the poll will say
      return;
    }
    // Only what is still watched: the poll may have handed it out meanwhile.
    const list = asked.filter((e) => this.watching.get(e.id) === e);
    for (const e of list) this.watching.delete(e.id);
    const found = list.filter((e) => stored.has(e.id));
    if (found.length > 0) this.o.found(found, stored);
    const back = list.filter((e) => !stored.has(e.id));
    if (back.length > 0) this.o.back(back);
  }

  /**
   * Lets go of the claims in `claimed` whose owner has stopped for certain, and forgets them there
   * (each owner asked about once). A let-go the database refuses leaves those claims as they are:
   * still watched, they run out as before.
   */
  private async letGoStopped(claimed: Map<string, string>): Promise<void> {
    const stopped = this.o.stopped ?? stoppedHere;
    const verdict = new Map<string, boolean>();
    const byOwner = new Map<string, string[]>();
    for (const [key, owner] of claimed) {
      if (owner === this.o.owner) continue;
      if (!verdict.has(owner)) verdict.set(owner, stopped(owner));
      if (verdict.get(owner)) (byOwner.get(owner) ?? byOwner.set(owner, []).get(owner)!).push(key);
    }
    for (const [owner, keys] of byOwner) {
      try {
        await this.o.store.releaseClaims(keys, owner);
        for (const k of keys) claimed.delete(k);
      } catch (e) {
        this.o.onError?.(e);
      }
    }
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.polling = true;
    const asked = [...this.watching.values()];
    const ids = asked.map((e) => e.id);
    const back: Entry[] = [];
    // Only what is still watched when the database has answered: one unwatched meanwhile is queued here already.
    const watched = () => asked.filter((e) => this.watching.get(e.id) === e);
    try {
      const now = this.o.now();
      const claimed = await this.o.store.claimedKeys(ids, now);
      await this.letGoStopped(claimed);
      const stored = await this.o.store.getAnswers(ids, now);
      const list = watched();
      const found = list.filter((e) => stored.has(e.id));
      this.o.found(found, stored);
      for (const e of found) this.watching.delete(e.id);
      for (const e of list) if (!stored.has(e.id) && !claimed.has(e.id)) back.push(e);
    } catch (e) {
      this.o.onError?.(e);
      back.push(...watched());
    }
    for (const e of back) this.watching.delete(e.id);
    this.polling = false;
    if (back.length > 0) this.o.back(back); // claimed anew: by this instance, or by another that took them first
    if (this.again) {
      this.again = false;
      this.wake();
    } else if (this.watching.size > 0) this.add([]);
  }
}
