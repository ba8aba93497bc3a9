/**
 * Leases: one server instance at a time doing a named job (leading a batch kind's queue,
 * shared-queue.ts; any scheduled work of the firm's server). A lease is a row in the firm's database
 * (`firm_leases`) with its holder and an end; the holder renews it every third of its length, anyone
 * may take it once it has lapsed (its holder stopped, was killed, or lost the database for longer than
 * the lease). Being a row, it outlives a restart of the database: the holder simply renews it when the
 * database is back. An instance counts a lease as its own only until a third of its length before its
 * end, so that it stops acting on it before another may take it over.
 */
import type { SharedQueueStore } from "./firm-store";

export interface LeaseOptions {
  store: Pick<SharedQueueStore, "takeLease" | "releaseLease">;
  /** This instance's name on its leases. */
  holder: string;
  /** How long a lease lasts unrenewed. @default 3000 */
  ttlMs?: number;
  now?: () => number;
  onError?: (e: unknown) => void;
}

export class Leases {
  /** Leases held: their end as last renewed. */
  private readonly mine = new Map<string, number>();
  /** Leases another instance holds: until when (as last read). */
  private readonly theirs = new Map<string, { holder: string; until: number }>();
  private readonly trying = new Map<string, Promise<boolean>>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(private readonly o: LeaseOptions) {
    this.ttl = o.ttlMs ?? 3000;
    this.now = o.now ?? Date.now;
  }

  /** Whether this instance holds `name` now (without asking the database). */
  holds(name: string): boolean {
    const until = this.mine.get(name);
    return until !== undefined && until - this.ttl / 3 > this.now();
  }

  /** Whether this instance has any lease, even one whose renewal is late (it is renewed, or lapses). */
  any(): boolean {
    return this.mine.size > 0;
  }

  /** The leases this instance holds now. */
  held(): string[] {
    return [...this.mine.keys()].filter((n) => this.holds(n));
  }

  /**
   * Whether this instance leads `name`: true when it holds it, false while another holds it (as last
   * read), else it tries to take it. A database that does not answer: false (and tried again later).
   */
  lead(name: string): Promise<boolean> {
    if (this.holds(name)) return Promise.resolve(true);
    const other = this.theirs.get(name);
    if (other && other.until > this.now()) return Promise.resolve(false);
    let t = this.trying.get(name);
    if (!t) {
      t = this.take(name).finally(() => this.trying.delete(name));
      this.trying.set(name, t);
    }
    return t;
  }

  /** Lets go of one lease (its job is done): another instance may take it at once. */
  async release(name: string): Promise<void> {
    if (!this.mine.delete(name)) return;
    await this.o.store.releaseLease(name, this.o.holder).catch((e) => this.o.onError?.(e));
  }

  /** Lets go of every lease (the server is stopping): another instance takes them over at once. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const names = [...this.mine.keys()];
    this.mine.clear();
    for (const n of names) await this.o.store.releaseLease(n, this.o.holder).catch(() => undefined);
  }

  private async take(name: string): Promise<boolean> {
    const now = this.now();
    try {
      const r = await this.o.store.takeLease(name, this.o.holder, now, now + this.ttl);
      if (r.holder === this.o.holder) {
        this.mine.set(name, r.until);
        this.theirs.delete(name);
        this.renewing();
        return true;
      }
      this.mine.delete(name);
      // Read again when it would lapse (or a third of a lease from now, whichever is sooner).
      this.theirs.set(name, { holder: r.holder, until: Math.min(r.until, now + this.ttl / 3) });
      return false;
    } catch (e) {
      this.o.onError?.(e);
      return false;
    }
  }

  private renewing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const name of [...this.mine.keys()]) {
        const now = this.now();
        this.o.store.takeLease(name, this.o.holder, now, now + this.ttl).then(
          (r) => {
            if (!this.mine.has(name)) {
              // Let go meanwhile: a renewal that reached the database after the release took the row again.
              if (r.holder === this.o.holder) void this.o.store.releaseLease(name, this.o.holder, r.until).catch(() => undefined);
              return;
            }
            if (r.holder === this.o.holder) this.mine.set(name, r.until);
            else {
              this.mine.delete(name);
              this.theirs.set(name, r);
            }
          },
          (e) => this.o.onError?.(e), // kept until it lapses: renewed when the database is back
        );
      }
    }, this.ttl / 3);
    this.timer.unref?.();
  }
}
