/**
 * Injected faults (config `faults`): a seeded stream decides, call by call, which fault strikes, so
 * a test that makes the same calls with the same seed sees the same faults. The stream restarts
 * whenever the fault settings change (or on reset), and so do the failNext and rateLimitAfter counts.
 */
import { FaultConfig } from "./config";
import { rng, Rng } from "./random";

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

  /** Drops, duplicates and shuffles batch items as configured. */
  tamper<T>(items: T[], f: FaultConfig): T[] {
    this.sync(f);
    const out: T[] = [];
    for (const item of items) {
      if (this.random() < f.batchDrop) continue;
      out.push(item);
      if (this.random() < f.batchDuplicate) out.push(item);
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
