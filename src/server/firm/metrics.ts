/**
 * The custody server's counters in Prometheus' text exposition format (version 0.0.4), written by hand:
 * requests by where their answer came from, answers served from the firm's store, upstream calls and
 * the credits they cost, the governor's limit on calls at once, and a histogram of the time to answer a request. One process's counts (each
 * instance behind a load balancer is scraped on its own); no person, token or key is ever a label.
 */
import type { AnswerSource } from "./firm-store";
import type { UpstreamGovernor } from "../upstream-governor";

/** Seconds; the relay's own overhead sits in the first buckets, an upstream call in the later ones. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
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
  /** The calls at the service at once (../upstream-governor.ts), when there is one. */
  governor: UpstreamGovernor | null = null;

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
      "# HELP firma_request_duration_seconds Time to answer a /v4 request.",
      "# TYPE firma_request_duration_seconds histogram",
      ...BUCKETS.map((b, i) => `firma_request_duration_seconds_bucket{le="${b}"} ${this.bucketCounts[i]}`),
      `firma_request_duration_seconds_bucket{le="+Inf"} ${this.durationCount}`,
      `firma_request_duration_seconds_sum ${this.durationSum}`,
      `firma_request_duration_seconds_count ${this.durationCount}`,
    ];
    return lines.join("\n") + "\n";
  }
}
