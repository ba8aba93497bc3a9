/**
 * The watch on what changed: when a company's profile arrives, its status, VAT
 * registration, name and address are compared with what the cache held, and each difference is
 * recorded. Answers arrive in one place (dispatch.ts store()), so every path that fetches — a cell,
 * the pane's refresh, the CLI — is watched alike, at no extra credit.
 *
 * A mark separates refreshes: markChanges() before one, changes() after it lists what that refresh
 * saw. Persisted in the engine's KeyValueStore, bounded (the oldest go first), so that the pane can
 * still list a refresh's changes after Excel was reopened.
 */
import { KeyValueStore, readJson } from "./store";

/** The profile fields watched: those a user acts on when they change (a company struck off, VAT lost, moved to another county, another main activity, a new trade-registry number); the firm server's watch lists compare the same ones. */
export const WATCHED_FIELDS = ["stare", "platitor_tva", "denumire", "adresa", "judet", "caen_principal", "j_cod"] as const;
export type WatchedField = (typeof WATCHED_FIELDS)[number];

export interface Change {
  cui: number;
  field: WatchedField;
  before: unknown;
  after: unknown;
  /** When the value before was fetched (ms since the epoch); null when the cache did not say. */
  beforeFetchedAt: number | null;
  /** When the new value was fetched (ms since the epoch). */
  afterFetchedAt: number;
  /** The company's name in the answer that showed the change (null when it carried none). */
  name: string | null;
}

interface Saved {
  /** Sequence number of the first entry of `list`. */
  first: number;
  mark: number;
  list: Change[];
}

const STORE_KEY = "firma.changes";

export class ChangeLog {
  /** Change i of the whole history has number first + i; the mark is a number in that sequence. */
  private first = 0;
  private mark = 0;
  private list: Change[] = [];
  private loaded: Promise<void> | null = null;
  private dirty = false;

  constructor(
    private readonly store: KeyValueStore,
    /** The most kept: a refresh of a big workbook after months may change thousands; older ones drop out. */
    private readonly max = 5_000,
  ) {}

  load(): Promise<void> {
    this.loaded ??= readJson<Saved | null>(this.store, STORE_KEY, null).then((s) => {
      if (!s || !Array.isArray(s.list) || !Number.isInteger(s.first) || !Number.isInteger(s.mark)) return;
      // Changes recorded before the load (none in practice: the engine loads before it fetches) come after.
      this.list = [...s.list, ...this.list];
      this.first = s.first;
      this.mark = Math.max(s.mark, this.mark);
      this.trim();
    });
    return this.loaded;
  }

  /**
   * Compares a profile as it arrives with the one the cache held (undefined/null when none: a first
   * fetch is no change). A field missing from either side is not compared: a batch answer without
   * `include` carries no address, which is no sign the address went away.
   */
  compare(
    cui: number,
    before: Record<string, unknown> | null | undefined,
    beforeFetchedAt: number | undefined,
    after: Record<string, unknown>,
    afterFetchedAt: number,
  ): void {
    if (!before) return;
    const name = typeof after.denumire === "string" ? after.denumire : typeof before.denumire === "string" ? before.denumire : null;
    for (const field of WATCHED_FIELDS) {
      const b = before[field];
      const a = after[field];
      if (b === undefined || a === undefined || sameValue(b, a)) continue;
      this.list.push({ cui, field, before: b, after: a, beforeFetchedAt: beforeFetchedAt ?? null, afterFetchedAt, name });
      this.dirty = true;
    }
    this.trim();
  }

  /** Starts a new watch period: changes() lists what is recorded from now on. Returns the mark. */
  markNow(): number {
    this.mark = this.first + this.list.length;
    this.dirty = true;
    return this.mark;
  }

  /** The changes recorded since `mark` (default: the last markNow()), oldest first; copies. */
  since(mark: number = this.mark): Change[] {
    return this.list.slice(Math.max(0, mark - this.first)).map((c) => ({ ...c }));
  }

  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const saved: Saved = { first: this.first, mark: this.mark, list: this.list };
    await this.store.setItem(STORE_KEY, JSON.stringify(saved));
  }

  private trim(): void {
    const over = this.list.length - this.max;
    if (over > 0) {
      this.list.splice(0, over);
      this.first += over;
    }
  }
}

/** Text compared as the service may vary it: case and runs of spaces are no change of name or address. */
/** Two values of a watched field alike: text compared trimmed, spaces collapsed, case aside. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "string" && typeof b === "string") return norm(a) === norm(b);
  return a === b;
}

const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLocaleUpperCase("ro");
