/**
 * Wants another instance holds a claim on (firm_claims, loader.ts): their answers are looked for in the
 * store every `pollMs`. Those stored are handed out; those no one holds a claim on any more, yet not
 * stored (the other's call failed, or it stopped), go back to this instance's queue. The claims are
 * read before the answers: an instance stores its answers before it lets go, so a want without a claim
 * and without an answer was truly given up.
 */
import type { Entry } from "./loader-calls";
import type { FirmStore, StoredAnswer } from "./firm-store";

export interface ClaimWatchOptions {
  store: Pick<FirmStore, "claimedKeys" | "getAnswers">;
  /** @default 25 */
  pollMs?: number;
  now: () => number;
  /** Answers the other instance stored. */
  found(entries: readonly Entry[], stored: Map<string, StoredAnswer>): void;
  /** Wants given up by the other instance (or a database that did not say): queued again. */
  back(entries: Entry[]): void;
  onError?: (e: unknown) => void;
}

export class ClaimWatch {
  private readonly watching = new Map<string, Entry>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly o: ClaimWatchOptions) {}

  add(entries: readonly Entry[]): void {
    for (const e of entries) this.watching.set(e.id, e);
    if (this.timer === null) this.timer = setTimeout(() => void this.poll(), this.o.pollMs ?? 25);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    const list = [...this.watching.values()];
    const ids = list.map((e) => e.id);
    const back: Entry[] = [];
    try {
      const now = this.o.now();
      const claimed = await this.o.store.claimedKeys(ids, now);
      const stored = await this.o.store.getAnswers(ids, now);
      const found = list.filter((e) => stored.has(e.id));
      this.o.found(found, stored);
      for (const e of found) this.watching.delete(e.id);
      for (const e of list) if (!stored.has(e.id) && !claimed.has(e.id)) back.push(e);
    } catch (e) {
      this.o.onError?.(e);
      back.push(...list);
    }
    for (const e of back) this.watching.delete(e.id);
    this.timer = null;
    if (back.length > 0) this.o.back(back); // claimed anew: by this instance, or by another that took them first
    if (this.watching.size > 0) this.add([]);
  }
}
