/**
 * The custody server's counters in Prometheus' text exposition format (version 0.0.4), written by hand:
 * requests by where their answer came from, answers served from the firm's store, upstream calls and
 * the credits they cost, the governor's limit on calls at once, and a histogram of the time to answer a request. One process's counts (each
 * instance behind a load balancer is scraped on its own); no person, token or key is ever a label.
 */
import type { AnswerSource } from "./firm-store";
import type { CheckOutcome, WatchCounters } from "./watch-check";
import type { DeliveryOutcome } from "./watch-deliver";
import type { AlertTarget } from "./watch-outbox";
import type { UpstreamGovernor } from "../upstream-governor";
import type { FairGate } from "./fair-gate";

/** Seconds; the relay's own overhead sits in the first buckets, an upstream call in the later ones. */
const WATCH_OUTCOMES: readonly CheckOutcome[] = ["checked", "incomplete", "done", "busy", "stopped", "unknown", "interrupted", "failed"];
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics implements WatchCounters {
  private readonly requests = new Map<AnswerSource, number>([
    ["store", 0],
    ["upstream", 0],
    ["refused", 0],
  ]);
  private storeHits = 0;
  private otherIncludeHits = 0;
  private upstreamCalls = 0;
  private upstreamCredits = 0;
  private readonly bucketCounts = BUCKETS.map(() => 0);
  private durationSum = 0;
  private durationCount = 0;
  private readonly watchChecks = new Map<CheckOutcome, number>();
  private watchCompanies = 0;
  private watchCredits = 0;
  private watchChanges = 0;
  /** The watch's delivery attempts, by target and outcome (watch-deliver.ts). */
  private readonly deliveries = new Map<string, number>(
    (["email", "webhook"] as const).flatMap((t) => (["sent", "retry", "failed"] as const).map((o) => [`${t}|${o}`, 0] as [string, number])),
  );
  /** The calls at the service at once (../upstream-governor.ts), when there is one. */
  governor: UpstreamGovernor | null = null;
  /** Each person's places at the server's work (fair-gate.ts), when there are. */
  gate: FairGate | null = null;

  request(source: AnswerSource, seconds: number): void {
    this.requests.set(source, (this.requests.get(source) ?? 0) + 1);
    this.durationSum += seconds;
    this.durationCount++;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) this.bucketCounts[i]++;
    });
  }

  hits(n: number): void {
    this.storeHits += n;
  }

  /** Identification answers served from an answer fetched with another `include`. */
  otherInclude(n: number): void {
    this.otherIncludeHits += n;
  }

  call(charged: boolean): void {
    this.upstreamCalls++;
    if (charged) this.upstreamCredits++;
  }

  /** A check of a watch list (watch-check.ts): its outcome, the companies it looked at, its credits, the changes it found. */
  watchCheck(outcome: CheckOutcome, companies: number, credits: number, changes: number): void {
    this.watchChecks.set(outcome, (this.watchChecks.get(outcome) ?? 0) + 1);
    this.watchCompanies += companies;
    this.watchCredits += credits;
    this.watchChanges += changes;
  }

  /** One attempt to deliver a watch alert, and what came of it. */
  delivery(target: AlertTarget, outcome: DeliveryOutcome): void {
    const k = `${target}|${outcome}`;
    this.deliveries.set(k, (this.deliveries.get(k) ?? 0) + 1);
  }

  /** The exposition text (Content-Type: text/plain; version=0.0.4). */
  text(): string {
    const lines = [
      "# HELP firma_requests_total Requests answered, by where the answer came from (store, upstream, refused).",
      "# TYPE firma_requests_total counter",
      ...[...this.requests].map(([source, n]) => `firma_requests_total{source="${source}"} ${n}`),
      "# HELP firma_store_hits_total Answers (a company, a company-year, a list) served from the firm's store.",
      "# TYPE firma_store_hits_total counter",
      `firma_store_hits_total ${this.storeHits}`,
      "# HELP firma_store_hits_other_include_total Identification answers served from one fetched with another include list.",
      "# TYPE firma_store_hits_other_include_total counter",
      `firma_store_hits_other_include_total ${this.otherIncludeHits}`,
      "# HELP firma_upstream_calls_total Calls made to the data service with the firm's key.",
      "# TYPE firma_upstream_calls_total counter",
      `firma_upstream_calls_total ${this.upstreamCalls}`,
      "# HELP firma_upstream_credits_total Upstream calls that cost a credit.",
      "# TYPE firma_upstream_credits_total counter",
      `firma_upstream_credits_total ${this.upstreamCredits}`,
      ...(this.governor
        ? [
            "# HELP firma_upstream_concurrency_limit Calls to the data service allowed at once now (the governor's limit).",
            "# TYPE firma_upstream_concurrency_limit gauge",
            `firma_upstream_concurrency_limit ${this.governor.limit}`,
            "# HELP firma_upstream_overloads_total Answers that said the data service was overloaded (429, 503, 504, a time-out).",
            "# TYPE firma_upstream_overloads_total counter",
            `firma_upstream_overloads_total ${this.governor.stats.overloads}`,
          ]
        : []),
      ...(this.gate
        ? [
            "# HELP firma_requests_waiting_turn Requests waiting behind their person's own (more of hers than the server works on at once).",
            "# TYPE firma_requests_waiting_turn gauge",
            `firma_requests_waiting_turn ${this.gate.queued}`,
          ]
        : []),
      "# HELP firma_request_duration_seconds Time to answer a /v4 request.",
      "# TYPE firma_request_duration_seconds histogram",
      ...BUCKETS.map((b, i) => `firma_request_duration_seconds_bucket{le="${b}"} ${this.bucketCounts[i]}`),
      `firma_request_duration_seconds_bucket{le="+Inf"} ${this.durationCount}`,
      `firma_request_duration_seconds_sum ${this.durationSum}`,
      `firma_request_duration_seconds_count ${this.durationCount}`,
      "# HELP firma_watch_checks_total Checks of watch lists run by this instance, by outcome (checked, incomplete, done, busy, stopped, unknown, interrupted, failed).",
      "# TYPE firma_watch_checks_total counter",
      ...WATCH_OUTCOMES.map((o) => `firma_watch_checks_total{outcome="${o}"} ${this.watchChecks.get(o) ?? 0}`),
      "# HELP firma_watch_companies_total Companies the watch lists' checks looked at.",
      "# TYPE firma_watch_companies_total counter",
      `firma_watch_companies_total ${this.watchCompanies}`,
      "# HELP firma_watch_credits_total Credits the watch lists' checks cost.",
      "# TYPE firma_watch_credits_total counter",
      `firma_watch_credits_total ${this.watchCredits}`,
      "# HELP firma_watch_changes_total Changes the watch lists' checks found and committed.",
      "# TYPE firma_watch_changes_total counter",
      `firma_watch_changes_total ${this.watchChanges}`,
      "# HELP firma_watch_deliveries_total Attempts to deliver a watch list's alert, by target (email, webhook) and outcome (sent, retry, failed).",
      "# TYPE firma_watch_deliveries_total counter",
      ...[...this.deliveries].map(([k, n]) => {
        const [target, outcome] = k.split("|");
        return `firma_watch_deliveries_total{target="${target}",outcome="${outcome}"} ${n}`;
      }),
    ];
    return lines.join("\n") + "\n";
  }
}
