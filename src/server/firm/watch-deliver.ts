/**
 * The deliverer: takes what the watch's checks committed to the outbox (watch-outbox.ts) to the
 * people and systems the lists name, at least once, never losing a change. One pass (`deliverDue`)
 * plans the changes no alert holds yet, then claims the deliveries that are due and sends each: the
 * e-mail (watch-mail.ts) to the list owner's address (unless revoked) and its `--notify` addresses, the webhook
 * (watch-webhook.ts). An attempt that fails is tried again later, each time twice as late (up to a
 * limit of attempts, then the delivery is marked failed with the reason in `firma watch log`); the
 * check itself is never repeated for it. Every attempt leaves a line in the audit trail and counts in
 * `/metrics`.
 *
 * `firma serve` runs passes on a timer (`start`) and right after a check (`kick`); `firma watch run`
 * calls `deliverDue` once after its check. An instance without an SMTP server leaves the e-mails to one
 * that has it. Several instances on one database each claim different deliveries (the outbox's row
 * claims); a killed one's claims lapse after `claimMs` and its deliveries go out from another instance,
 * or from this one restarted.
 */
import { randomBytes } from "crypto";
import { hostname } from "os";
import type { FirmStore } from "./firm-store";
import { MailFailure, type AlertMail, type AlertMailer } from "./watch-mail";
import type { AlertTarget, ClaimedDelivery, Settlement } from "./watch-outbox";
import { postAlert, WebhookFailure } from "./watch-webhook";

/** What became of one attempt, as /metrics counts it. */
export type DeliveryOutcome = "sent" | "retry" | "failed";

/** The audit trail's "person" for the firm's lists (not a valid user name, so never a person's). */
export const FIRM_AUDIT_USER = "(firma)";

export interface RetryPolicy {
  /** Attempts before a delivery is marked failed. @default 12 */
  maxAttempts: number;
  /** The wait after the first failure; it doubles after each. @default 30000 */
  baseMs: number;
  /** The longest wait between two attempts. @default 3600000 */
  maxDelayMs: number;
}

/** 12 attempts over about five hours: 30 s, 1, 2, 4, 8, 16, 32 minutes, then hourly. */
export const RETRY: RetryPolicy = { maxAttempts: 12, baseMs: 30_000, maxDelayMs: 3_600_000 };

export interface DelivererOptions {
  store: FirmStore;
  /** The SMTP mailer; null: this process sends no e-mail (they wait for one that does). */
  mailer: AlertMailer | null;
  /** This instance's name on its claims. @default host, process id and a random part */
  holder?: string;
  retry?: Partial<RetryPolicy>;
  /** How long a claim lasts: longer than any attempt takes. @default 120000 */
  claimMs?: number;
  /** Per webhook attempt. @default 10000 */
  webhookTimeoutMs?: number;
  /** Deliveries claimed at a time (sent together). @default 10 */
  batch?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** Counts each attempt's outcome (metrics.ts). */
  onOutcome?: (target: AlertTarget, outcome: DeliveryOutcome) => void;
  /** The database or something unexpected failing during a pass (the pass is tried again later). */
  onError?: (e: unknown) => void;
}

export interface PassReport {
  planned: number;
  sent: number;
  retried: number;
  failed: number;
}

/** What one attempt came to, before it is recorded. */
interface Attempt {
  ok: boolean;
  /** The SMTP reply code or HTTP status (0: none). */
  status: number;
  reason: string;
  /** Whether another attempt may help. */
  retryable: boolean;
  detail: Record<string, unknown>;
}

/** Passes of the loop in one deliverDue, at most: each claims up to `batch` deliveries. */
const MAX_ROUNDS = 100;

export class Deliverer {
  readonly holder: string;
  private readonly retry: RetryPolicy;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<PassReport> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly o: DelivererOptions) {
    this.holder = o.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.retry = { ...RETRY, ...o.retry };
    this.now = o.now ?? Date.now;
  }

  /** Passes every `intervalMs` (and one now), until stop(). */
  start(intervalMs = 30_000): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), intervalMs);
    this.timer.unref?.();
    this.kick();
  }

  /** A pass soon (after a check committed): joined to the one running, or one more right after it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.deliverDue().catch((e) => this.o.onError?.(e));
  }

  /** Stops the timer and waits for the pass under way (its attempts end within their timeouts). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One pass: plans, then sends whatever is due, until nothing is. Concurrent calls share it. */
  deliverDue(): Promise<PassReport> {
    if (this.running) return this.running;
    const pass = this.pass().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
    this.running = pass;
    return pass;
  }

  private async pass(): Promise<PassReport> {
    const report: PassReport = { planned: 0, sent: 0, retried: 0, failed: 0 };
    report.planned = await this.o.store.outbox.plan(this.now());
    const targets: AlertTarget[] = this.o.mailer ? ["email", "webhook"] : ["webhook"];
    for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
      const now = this.now();
      const claimed = await this.o.store.outbox.claim(this.holder, targets, now, now + (this.o.claimMs ?? 120_000), this.o.batch ?? 10);
      if (claimed.length === 0) break;
      const outcomes = await Promise.all(claimed.map((d) => this.deliver(d).catch((e) => (this.o.onError?.(e), null))));
      for (const out of outcomes) if (out) report[out === "sent" ? "sent" : out === "retry" ? "retried" : "failed"]++;
    }
    return report;
  }

  /** One attempt at one delivery, recorded. */
  private async deliver(d: ClaimedDelivery): Promise<DeliveryOutcome | null> {
    const store = this.o.store;
    const list = await store.outbox.recipients(d.list);
    const changes = await store.outbox.changesOf(d.alert);
    const mail: AlertMail = { list: d.list, owner: list?.owner ?? null, alert: d.alert, seenAt: d.seenAt, changes };
    const attempt =
      list === null ? refused("list_removed") : d.target === "email" ? await this.email(mail, list.to) : await this.webhook(mail);
    const now = this.now();
    const attempts = d.attempts + 1;
    const base = { alert: d.alert, target: d.target, changes: changes.length, attempts };
    let outcome: DeliveryOutcome;
    let settlement: Settlement;
    let log: { kind: string; detail: Record<string, unknown> } | null;
    if (attempt.ok) {
      outcome = "sent";
      settlement = { state: "sent" };
      log = { kind: "delivered", detail: { ...base, ...attempt.detail } };
    } else if (attempt.retryable && attempts < this.retry.maxAttempts) {
      outcome = "retry";
      const nextAt = now + Math.min(this.retry.maxDelayMs, this.retry.baseMs * 2 ** d.attempts);
      settlement = { state: "pending", nextAt, error: attempt.reason };
      // The first failure is said at once (the changes wait); the next ones only in the delivery's row.
      log =
        d.attempts === 0
          ? { kind: "delivery_waiting", detail: { ...base, reason: attempt.reason, next: new Date(nextAt).toISOString() } }
          : null;
    } else {
      outcome = "failed";
      settlement = { state: "failed", error: attempt.reason };
      log = { kind: "delivery_failed", detail: { ...base, reason: attempt.reason } };
    }
    if (!(await store.outbox.settle(d, this.holder, settlement, now, log))) return null; // another instance took it over
    this.o.onOutcome?.(d.target, outcome);
    await store
      .audit({
        at: now,
        user: list?.owner ?? FIRM_AUDIT_USER,
        endpoint: `watch/${d.list}/${d.target}`,
        cuis: [...new Set(changes.map((c) => c.cui))],
        source: attempt.ok ? "store" : "refused",
        credits: 0,
        status: attempt.status,
      })
      .catch((e) => this.o.onError?.(e));
    return outcome;
  }

  private async email(mail: AlertMail, to: readonly string[]): Promise<Attempt> {
    if (to.length === 0) return refused("no_recipients");
    try {
      const r = await this.o.mailer!.send(to, mail);
      return { ok: true, status: 250, reason: "", retryable: false, detail: { recipients: r.accepted.length, rejected: r.rejected } };
    } catch (e) {
      if (!(e instanceof MailFailure)) throw e;
      // Every refusal is tried again (a relay's 5xx is often its configuration, fixed within the hours the retries span).
      return { ok: false, status: e.responseCode, reason: e.message, retryable: true, detail: {} };
    }
  }

  private async webhook(mail: AlertMail): Promise<Attempt> {
    const hook = await this.o.store.outbox.hookOf(mail.list);
    if (!hook) return refused("no_webhook");
    try {
      const status = await postAlert(hook.url, hook.secret, mail, {
        timeoutMs: this.o.webhookTimeoutMs,
        fetch: this.o.fetch,
        now: this.now,
      });
      return { ok: true, status, reason: "", retryable: false, detail: {} };
    } catch (e) {
      if (!(e instanceof WebhookFailure)) throw e;
      return { ok: false, status: e.status, reason: e.message, retryable: e.retryable, detail: {} };
    }
  }
}

/** An attempt that cannot succeed: nowhere to send it. */
function refused(reason: string): Attempt {
  return { ok: false, status: 0, reason, retryable: false, detail: {} };
}
