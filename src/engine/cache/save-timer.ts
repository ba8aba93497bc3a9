/**
 * When the cache's delayed save runs: a quiet `delayMs` after the last change, but at most `maxDelayMs`
 * after the first unsaved one. While answers keep arriving (a fill), a save every few hundred ms would
 * rewrite whole shards (MBs of JSON at a large fill) between an answer and the next call; a fill thus
 * saves every few seconds and once at its end. One timer serves a fill: it is re-armed when it fires
 * early, not reset at every change (as the request queue's). Date.now(), as timers run: the cache's
 * `now` may be a test's clock.
 */
export class SaveTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstAt: number | null = null;
  private lastAt = 0;

  constructor(
    private readonly delayMs: number,
    private readonly maxDelayMs: number,
    private readonly run: () => void,
  ) {}

  /** A change to save; nothing when the delay is 0 (no delayed save). */
  schedule(): void {
    if (this.delayMs <= 0) return;
    const t = Date.now();
    this.lastAt = t;
    if (this.firstAt === null) this.firstAt = t;
    if (!this.timer) this.arm(t);
  }

  /** A save is starting now: nothing is pending any more. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.firstAt = null;
  }

  private due(): number {
    return Math.min(this.lastAt + this.delayMs, (this.firstAt ?? this.lastAt) + this.maxDelayMs);
  }

  private arm(t: number): void {
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const now = Date.now();
        if (now < this.due()) return this.arm(now);
        this.firstAt = null;
        this.run();
      },
      Math.max(0, this.due() - t),
    );
    (this.timer as { unref?: () => void }).unref?.();
  }
}
