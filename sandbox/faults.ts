/**
 * Injected faults (config `faults`): a seeded stream decides, call by call, which fault strikes, so
 * a test that makes the same calls with the same seed sees the same faults. The stream restarts
 * whenever the fault settings change (or on reset), and so do the failNext and rateLimitAfter counts.
 */
import { FaultConfig } from "./config";
import { rng, Rng } from "./random";

/** Makes the forged items of the batchStranger and batchConflict faults (the server knows the dataset). */
export interface Forger<T> {
  /** An item for a CUI nobody asked for, shaped like `template`; `pick` (0..1) chooses the company. Null: none. */
  stranger(template: T, pick: number): T | null;
  /** A second item for `item`'s CUI (and year) carrying another company's data. Null: none. */
  conflict(item: T, pick: number): T | null;
}

/** What befalls one /v4 call. */
export interface FaultDraw {
  /** 500, 502 or 503 instead of the answer; 0 for none. */
  errorStatus: number;
  /** Destroy the connection without answering. */
  reset: boolean;
  /** Break the JSON of a 200 answer. */
  malformed: boolean;
  /** Extra delay. */
  spikeMs: number;
}

const ERROR_STATUSES = [500, 502, 503];

export class FaultState {
  private signature = "";
  private random: Rng = rng(0);
  private accepted = 0;
  private failed = 0;

  /** Draws the faults of the next call (the same number of draws whatever the outcome). */
  draw(f: FaultConfig): FaultDraw {
    this.sync(f);
    const error = this.random() < f.errorRate;
    const status = ERROR_STATUSES[Math.floor(this.random() * ERROR_STATUSES.length)];
    const reset = this.random() < f.resetRate;
    const malformed = this.random() < f.malformedRate;
    const spike = this.random() < f.spikeRate;
    if (this.failed < f.failNext) {
      this.failed++;
      return { errorStatus: 500, reset: false, malformed: false, spikeMs: 0 };
    }
    return {
      errorStatus: error ? status : 0,
      reset: !error && reset,
      malformed,
      spikeMs: spike ? f.spikeMs : 0,
    };
  }

  /** True when rateLimitAfter is set and that many credited calls have passed since. */
  rateLimited(f: FaultConfig): boolean {
    this.sync(f);
    return f.rateLimitAfter !== null && this.accepted >= f.rateLimitAfter;
  }

  /** Counts a credited call towards rateLimitAfter. */
  accept(): void {
    this.accepted++;
  }

  /**
   * Drops, duplicates, contradicts, adds strangers to and shuffles batch items as configured. The
   * conflict and stranger draws happen only when their rate is set, so that streams seeded before
   * those faults existed still strike the same items.
   */
  tamper<T>(items: T[], f: FaultConfig, forge?: Forger<T>): T[] {
    this.sync(f);
    const out: T[] = [];
    for (const item of items) {
      if (this.random() < f.batchDrop) continue;
      const conflict = forge && f.batchConflict > 0 && this.random() < f.batchConflict ? forge.conflict(item, this.random()) : null;
      // The wrong copy comes first or last: a client that keeps the first (or the last) it reads is caught either way.
      const wrongFirst = conflict !== null && this.random() < 0.5;
      if (conflict !== null && wrongFirst) out.push(conflict);
      out.push(item);
      if (conflict !== null && !wrongFirst) out.push(conflict);
      if (this.random() < f.batchDuplicate) out.push(item);
    }
    if (forge && f.batchStranger > 0 && out.length > 0 && this.random() < f.batchStranger) {
      const stranger = forge.stranger(out[0], this.random());
      if (stranger !== null) out.splice(Math.floor(this.random() * (out.length + 1)), 0, stranger);
    }
    if (f.batchShuffle) {
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
    }
    return out;
  }

  /** Restarts the stream and the failNext and rateLimitAfter counts. */
  restart(): void {
    this.signature = "";
  }

  private sync(f: FaultConfig): void {
    const signature = JSON.stringify(f);
    if (signature === this.signature) return;
    this.signature = signature;
    this.random = rng(f.seed);
    this.accepted = 0;
    this.failed = 0;
  }
}
