/**
 * A running PostgreSQL instance's hold on the schema it writes: a session of its own holding
 * SCHEMA_LOCK shared (schema.ts), so that a newer FIRMA's migration waits for it to stop. The lock
 * lives as long as the session: when the database restarts it is gone, and it is taken again (every
 * `retryMs`) as soon as the database answers; once taken, the schema's version is read again, and a
 * newer one (migrated meanwhile by a newer FIRMA) stops this instance's writes for good. Until the
 * hold is back, writes are refused as "unreachable" (the person gets a 503 with Retry-After).
 *
 * The same session listens for the notifications the instances send each other (`listen`): LISTEN
 * lives as long as the session too, and is sent again each time the hold is taken.
 */
import { Client, type ClientConfig } from "pg";
import { FirmStoreError } from "./firm-store";
import { migratedWhileRunning, schemaVersionOf, SCHEMA_LOCK } from "./schema";

export interface SchemaHoldOptions {
  config: ClientConfig;
  /** The database in messages (no password). */
  where: string;
  /** The schema version this instance writes. */
  version: number;
  /** How often a lost hold is taken again. @default 500 */
  retryMs?: number;
}

export class SchemaHold {
  private client: Client | null = null;
  private held = false;
  private stopped: FirmStoreError | null = null;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The listeners of each channel. */
  private readonly channels = new Map<string, Set<(payload: string) => void>>();

  constructor(private readonly o: SchemaHoldOptions) {}

  /** Takes the hold (at open: a failure is thrown). */
  async take(): Promise<void> {
    const client = new Client(this.o.config);
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (n) => {
      for (const fn of this.channels.get(n.channel) ?? []) fn(n.payload ?? "");
    });
    try {
      await client.connect();
      await client.query("SELECT pg_advisory_lock_shared($1)", [SCHEMA_LOCK]);
      const found = await schemaVersionOf({
        all: async <T>(sql: string) => (await client.query(sql)).rows as T[],
        run: async () => 0,
      });
      if (found > this.o.version) {
        this.stopped = migratedWhileRunning(this.o.where, found, this.o.version);
        await client.end().catch(() => undefined);
        return;
      }
      // Last before the session is this instance's: a channel listened to meanwhile joins this loop
      // (a Map's keys are read as they are), one after it is sent by listen() on this.client.
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${ident(channel)}`);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.held = true;
  }

  /** Throws when this instance may not write now: a newer schema (for good), or the hold not yet taken again. */
  check(): void {
    if (this.stopped) throw this.stopped;
    if (!this.held) {
      throw new FirmStoreError(
        "unreachable",
        `The firm's database ${this.o.where} is back from a restart; this instance is taking its schema lock again`,
        { database: this.o.where, detail: "schema lock not held" },
      );
    }
  }

  /** Calls `fn` with each notification on `channel` (from now, and again after the database restarts); returns the unsubscription. */
  listen(channel: string, fn: (payload: string) => void): () => void {
    let fns = this.channels.get(channel);
    if (!fns) {
      fns = new Set();
      this.channels.set(channel, fns);
      void this.client?.query(`LISTEN ${ident(channel)}`).catch(() => undefined); // a session lost meanwhile listens when taken again
    }
    fns.add(fn);
    return () => void fns.delete(fn);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.held = false;
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }

  private lost(client: Client): void {
    if (client !== this.client || this.closed) return;
    this.client = null;
    this.held = false;
    void client.end().catch(() => undefined);
    this.again();
  }

  private again(): void {
    if (this.closed || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.take().catch(() => this.again());
    }, this.o.retryMs ?? 500);
  }
}

/** A channel's name as an SQL identifier (the names are the program's own: letters, digits and `_`). */
function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a channel name: ${name}`);
  return name;
}
