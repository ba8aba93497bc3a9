/**
 * The firm's database failing under a running server: what the person is told, and the writes that
 * must not be lost.
 *
 * Fail-closed: no upstream call is made without a place to record it. The credit is reserved in the
 * database right before each call (loader.ts), and that write is the check: a database that does not
 * take it (down, read-only, full, upgraded under this instance) means no call, and the person gets a
 * 503 with Retry-After in the catalogs' words (`storeCallFailure`).
 *
 * What follows a call that was made — its answers, a credit given back when the service did not charge
 * it, the claims let go, the plan's stop, the request's audit line — is written behind (`WriteBehind`):
 * tried at once, and when the database does not take it, kept in order and tried again until it does
 * (a restart of PostgreSQL, a disk freed), so that the credits attributed equal the service's charge
 * and no line of an answered request is missing. These are kept in memory: a process killed while its
 * database is away loses them (at worst a credit given back is not: a person is charged for a call
 * the service did not charge, never the other way round, and the firm's budget is never exceeded).
 */
import { FirmStoreError } from "./firm-store";
import { CallFailure } from "./upstream";

/** A request that needed the database to write, and it could not. */
export function storeCallFailure(e: unknown): CallFailure {
  const code = e instanceof FirmStoreError ? e.code : "unreachable";
  if (code === "newer_schema") return new CallFailure(503, "store_upgraded", {}, null, 60_000);
  if (code === "read_only") return new CallFailure(503, "store_read_only", {}, null, 60_000);
  if (code === "disk_full") return new CallFailure(503, "store_full", {}, null, 60_000);
  return new CallFailure(503, "store_unavailable", {}, null, 5_000);
}

/** Errors a later attempt may get past: the database away, read-only, or its disk full. */
function retriable(e: unknown): boolean {
  return e instanceof FirmStoreError && (e.code === "unreachable" || e.code === "read_only" || e.code === "disk_full");
}

export interface WriteBehindOptions {
  /** A write failed (`kept`: it will be tried again), or one was dropped (`kept` false). */
  onError(e: unknown, what: string, kept: boolean): void;
  /** Between two attempts. @default 500 */
  retryMs?: number;
  /** Writes kept at most; past it the oldest is dropped (and said). @default 100000 */
  max?: number;
}

interface Kept {
  what: string;
  write: () => Promise<void>;
}

export class WriteBehind {
  private readonly kept: Kept[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> | null = null;

  constructor(private readonly o: WriteBehindOptions) {}

  /** Writes now; if the database does not take it, keeps it (behind those already kept) and tries again. */
  async write(what: string, write: () => Promise<void>): Promise<"written" | "kept" | "dropped"> {
    if (this.kept.length > 0) {
      this.keep({ what, write });
      return "kept";
    }
    try {
      await write();
      return "written";
    } catch (e) {
      if (!retriable(e)) {
        this.o.onError(e, what, false);
        return "dropped";
      }
      this.o.onError(e, what, true);
      this.keep({ what, write });
      return "kept";
    }
  }

  /** Writes waiting for the database. */
  get pending(): number {
    return this.kept.length;
  }

  /** Tries what is kept until it is all written or `ms` passed; true when nothing is left. */
  async drain(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (this.kept.length > 0 && Date.now() < end) {
      await this.flush();
      if (this.kept.length > 0) await new Promise((r) => setTimeout(r, Math.min(this.o.retryMs ?? 500, Math.max(0, end - Date.now()))));
    }
    return this.kept.length === 0;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private keep(k: Kept): void {
    this.kept.push(k);
    const max = this.o.max ?? 100_000;
    while (this.kept.length > max) {
      const dropped = this.kept.shift()!;
      this.o.onError(new Error("too many writes waiting for the firm's database"), dropped.what, false);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.kept.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().then(() => this.schedule());
    }, this.o.retryMs ?? 500);
  }

  /** The kept writes in order, until one fails again. */
  private flush(): Promise<void> {
    this.flushing ??= (async () => {
      while (this.kept.length > 0) {
        const k = this.kept[0];
        try {
          await k.write();
        } catch (e) {
          if (retriable(e)) break;
          this.o.onError(e, k.what, false);
        }
        this.kept.shift();
      }
    })().finally(() => (this.flushing = null));
    return this.flushing;
  }
}
