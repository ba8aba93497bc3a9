/**
 * How many calls the add-in keeps in flight at once. A browser opens at most 6 connections to a host
 * over HTTP/1.1, so 6 is all the add-in can use there. Over HTTP/2 (or HTTP/3) one connection carries
 * many calls at once, and the add-in then asks `wide` (120) at once — but only when the service address
 * is the page's own origin (`firma serve`, which relays or answers the /v4 calls and governs, on the
 * server, how many reach the data service) and that origin is seen to speak h2 or h3: the latest /v4
 * answer from it says, and before the first, the page's own load (the browser reaches an origin over
 * one connection, so the page and its /v4 calls travel alike), so that a fill's first calls go at the
 * full width too. How each came is read from the page's Resource Timing and Navigation Timing entries
 * (`nextHopProtocol`, which the browser fills in for a same-origin response: MDN,
 * PerformanceResourceTiming.nextHopProtocol; a navigation entry is a PerformanceResourceTiming). The
 * page's load counts only when it came over the network now: a page taken from the browser's cache
 * (`transferSize` 0) may report the protocol of a fetch made long ago (Chromium keeps it), and one
 * restored by going back or forward (`type` "back_forward") the protocol of its first load. A wrong
 * "h2" would be costly: 120 fetches queued behind 6 connections, each timed from its fetch(). Any
 * other address keeps 6, whatever its protocol: its limits are its own and nobody governs them for
 * the add-in.
 *
 * In Node (the CLI, the tests) there is no page: always the narrow width.
 */

/** A browser's connections per host over HTTP/1.1. */
export const HTTP1_LANES = 6;
/**
 * Calls at once over one HTTP/2 connection to the page's own server: the 128 streams it allows
 * (src/server/connections.ts) less 8 for the pane's own requests on the same connection. A fill of
 * 10,000 names (100 batch calls) can thus all be on their way at once, as Microsoft's batching sample sends them.
 */
export const MULTIPLEXED_LANES = 120;

/** What the page knows of its own origin: its address, and the protocol it speaks. */
export interface PageProtocol {
  readonly origin: string;
  /**
   * "h2", "h3", "http/1.1" … of the latest /v4 answer from `origin` seen; before the first, of the
   * page's own load; null when neither says.
   */
  protocol(): string | null;
}

interface TimingEntry {
  name: string;
  nextHopProtocol?: string;
  /** Bytes that came over the network for it, headers included: 0 when the browser's cache answered. */
  transferSize?: number;
  /** A navigation's: "navigate", "reload", "back_forward"… */
  type?: string;
}

/** A navigation entry that says how the page's origin is reached now: fetched over the network, not restored. */
const fetchedNow = (e: TimingEntry) => !!e.nextHopProtocol && (e.transferSize ?? 0) > 0 && e.type !== "back_forward";

interface BrowserGlobals {
  location?: { origin?: string; protocol?: string };
  performance?: { getEntriesByType?(type: string): TimingEntry[] };
  PerformanceObserver?: new (cb: (list: { getEntries(): TimingEntry[] }) => void) => {
    observe(o: { type: string; buffered?: boolean }): void;
  };
}

/**
 * The page's view of its own origin's protocol, from Resource Timing: a PerformanceObserver sees every
 * answer (the timeline's buffer of 250 entries may fill up); without one, the timeline is read when asked;
 * before any answer, the page's navigation entry. Null outside a page served over http(s).
 */
export function pageProtocol(g: BrowserGlobals = globalThis as BrowserGlobals): PageProtocol | null {
  const origin = g.location?.origin;
  if (!origin || !/^https?:$/.test(g.location?.protocol ?? "")) return null;
  const prefix = `${origin}/v4/`;
  let latest: string | null = null;
  const take = (entries: TimingEntry[]) => {
    for (const e of entries) if (e.name.startsWith(prefix) && e.nextHopProtocol) latest = e.nextHopProtocol;
  };
  // The page's own load: what the origin spoke before any /v4 answer has come.
  let loaded: string | null = null;
  try {
    for (const e of g.performance?.getEntriesByType?.("navigation") ?? []) if (fetchedNow(e)) loaded = e.nextHopProtocol!;
  } catch {
    loaded = null;
  }
  let observed = false;
  try {
    if (g.PerformanceObserver) {
      new g.PerformanceObserver((list) => take(list.getEntries())).observe({ type: "resource", buffered: true });
      observed = true;
    }
  } catch {
    observed = false;
  }
  return {
    origin,
    protocol() {
      if (!observed) take(g.performance?.getEntriesByType?.("resource") ?? []);
      return latest ?? loaded;
    },
  };
}

/** The calls in flight for a service address: `wide` over HTTP/2 or 3 to the page's own origin, else `narrow`. */
export class Lanes {
  constructor(
    private readonly page: PageProtocol | null,
    readonly narrow: number = HTTP1_LANES,
    readonly wide: number = MULTIPLEXED_LANES,
  ) {}

  for(baseUrl: string): number {
    if (!this.page) return this.narrow;
    let origin: string;
    try {
      origin = new URL(baseUrl).origin;
    } catch {
      return this.narrow;
    }
    if (origin !== this.page.origin) return this.narrow;
    return /^h[23]/.test(this.page.protocol() ?? "") ? this.wide : this.narrow;
  }
}
