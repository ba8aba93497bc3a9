/**
 * The calls the engine keeps in flight (src/engine/credits/lanes.ts): 6 — a browser's connections per
 * host over HTTP/1.1 — unless the service is the page's own origin and its answers are seen to come
 * over HTTP/2, when 120 go at once (the 128 streams firma serve allows on a connection, less room for
 * the pane's own requests). Another origin keeps 6 whatever it speaks. 5,000 names (50 batch calls;
 * 20,000, 200 calls, for the wide width) against a fake service that answers every call 20 ms after it
 * came, counting how many it had at once; the page's view of the protocol is a stand-in with what the
 * browser's Resource Timing says.
 */
import { FirmaEngine } from "../../src/engine/engine";
import { MemoryStore } from "../../src/engine/cache/store";
import { Lanes, MULTIPLEXED_LANES, pageProtocol, type PageProtocol } from "../../src/engine/credits/lanes";
import { http2Settings } from "../../src/server/connections";
import { GOVERNOR_DEFAULTS } from "../../src/server/upstream-governor";
import { read } from "../support/engine-reads";
import * as data from "../../sandbox/dataset";

const ORIGIN = "https://firma.contoso.ro";

/** Fills `cuis` through an engine on `baseUrl` with `page`; the most calls the service had at once, and the credits. */
async function fill(baseUrl: string, page: PageProtocol | null, cuis: number[]): Promise<{ peak: number; calls: number }> {
  let now = 0;
  let peak = 0;
  let calls = 0;
  const fetchImpl: typeof fetch = (input) => {
    calls++;
    peak = Math.max(peak, ++now);
    const asked = new URL(String(input)).searchParams.get("cui")!.split(",").map(Number);
    const body = JSON.stringify(asked.map((cui) => ({ cui, denumire: data.company(cui)?.denumire ?? `F ${cui}`, stare: "ACTIVA" })));
    return new Promise<Response>((resolve) =>
      setTimeout(() => {
        now--;
        resolve({
          status: 200,
          ok: true,
          headers: new Headers({ "Content-Type": "application/json", "X-Plan": "pro" }),
          text: () => Promise.resolve(body),
        } as unknown as Response);
      }, 20),
    );
  };
  const engine = new FirmaEngine({
    baseUrl,
    apiKey: () => "demo-pro-lanes",
    store: new MemoryStore(),
    windowMs: 5,
    fetch: fetchImpl,
    page,
  });
  await engine.ready();
  const names = await Promise.all(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
  expect(names).toEqual(cuis.map((c) => data.company(c)?.denumire ?? `F ${c}`));
  return { peak, calls };
}

const page = (protocol: string | null): PageProtocol => ({ origin: ORIGIN, protocol: () => protocol });
const cuis = data.sampleCuis(5000, 640_000);

describe("calls in flight by the connection's protocol", () => {
  test("the page's own origin over HTTP/2: 120 at once after the first answer, the same 200 calls for 20,000 names", async () => {
    const r = await fill(`${ORIGIN}/`, page("h2"), data.sampleCuis(20_000, 660_000));
    expect(r.calls).toBe(200);
    // 100 calls (a fill of 10,000 names) go in one round, never more than 120 at once
    expect(r.peak).toBeGreaterThan(100);
    expect(r.peak).toBeLessThanOrEqual(120);
  });

  test("the wide width fits in one HTTP/2 connection to firma serve, with room for the pane's own requests", () => {
    const streams = http2Settings({
      headersTimeoutMs: 1,
      requestTimeoutMs: 1,
      keepAliveTimeoutMs: 1,
      checkIntervalMs: 1,
      maxHeaderBytes: 1,
    }).maxConcurrentStreams;
    expect(MULTIPLEXED_LANES).toBe(120);
    expect(streams - MULTIPLEXED_LANES).toBeGreaterThanOrEqual(8);
    // and a warm server passes them all to the service at once, unless a firm sets a lower ceiling
    expect(GOVERNOR_DEFAULTS.ceiling).toBeGreaterThanOrEqual(MULTIPLEXED_LANES);
  });

  test("the page's own origin over HTTP/1.1, or before any answer says: 6", async () => {
    expect((await fill(`${ORIGIN}/`, page("http/1.1"), cuis)).peak).toBe(6);
    expect((await fill(`${ORIGIN}/`, page(null), cuis)).peak).toBe(6);
  });

  test("another origin keeps 6, even over HTTP/2; no page at all (Node) keeps 6", async () => {
    expect((await fill("https://api.example.ro/", page("h2"), cuis)).peak).toBe(6);
    expect((await fill(`${ORIGIN}/`, null, cuis)).peak).toBe(6);
  });

  test("the width follows the address: the page's own origin, then another", () => {
    const lanes = new Lanes(page("h3"));
    expect(lanes.for(`${ORIGIN}/`)).toBe(120);
    expect(lanes.for("https://firma.contoso.ro:8443/")).toBe(6);
    expect(lanes.for("http://firma.contoso.ro/")).toBe(6);
    expect(lanes.for("not an address")).toBe(6);
  });
});

describe("the page's view of its origin (Resource Timing)", () => {
  const entries = [
    { name: `${ORIGIN}/taskpane.js`, nextHopProtocol: "h2" },
    { name: `https://api.example.ro/v4/firme/batch?cui=1`, nextHopProtocol: "h2" },
  ];
  test("only a /v4 answer from the page's own origin counts; the latest one wins", () => {
    const list = [...entries];
    const p = pageProtocol({
      location: { origin: ORIGIN, protocol: "https:" },
      performance: { getEntriesByType: (type) => (type === "resource" ? list : []) },
    })!;
    expect(p.protocol()).toBeNull();
    list.push({ name: `${ORIGIN}/v4/firme/batch?cui=1`, nextHopProtocol: "http/1.1" });
    expect(p.protocol()).toBe("http/1.1");
    list.push({ name: `${ORIGIN}/v4/firme/batch?cui=2`, nextHopProtocol: "h2" });
    expect(p.protocol()).toBe("h2");
  });

  test("before any /v4 answer, the page's own load says, when it came over the network now; an answer then wins", () => {
    const list: { name: string; nextHopProtocol?: string }[] = [];
    type Nav = { name: string; nextHopProtocol?: string; transferSize?: number; type?: string };
    const navigation = (over: Partial<Nav> = {}): Nav[] => [
      { name: `${ORIGIN}/functions.html`, nextHopProtocol: "h2", transferSize: 2_300, type: "navigate", ...over },
    ];
    const at = (nav: Nav[], answers = list) =>
      pageProtocol({
        location: { origin: ORIGIN, protocol: "https:" },
        performance: { getEntriesByType: (type) => (type === "navigation" ? nav : answers) },
      })!;
    const p = at(navigation());
    expect(p.protocol()).toBe("h2");
    expect(new Lanes(p).for(`${ORIGIN}/`)).toBe(120); // the first calls go at the full width
    list.push({ name: `${ORIGIN}/v4/firme/batch?cui=1`, nextHopProtocol: "http/1.1" });
    expect(p.protocol()).toBe("http/1.1");
    // a reload that revalidated (a 304 has headers: bytes over the network) counts too
    expect(at(navigation({ type: "reload", transferSize: 300 }), []).protocol()).toBe("h2");
  });

  test("a page load that says nothing of now counts for nothing: 6 until an answer says", () => {
    const none = [
      { transferSize: 0 }, // from the browser's cache: Chromium gives the protocol of the fetch that filled it
      { type: "back_forward" }, // restored: the protocol of its first load
      { transferSize: undefined }, // a browser without transferSize
      { nextHopProtocol: "" }, // a browser that says nothing
    ];
    for (const over of none) {
      const p = pageProtocol({
        location: { origin: ORIGIN, protocol: "https:" },
        performance: {
          getEntriesByType: (type) =>
            type === "navigation"
              ? [{ name: `${ORIGIN}/functions.html`, nextHopProtocol: "h2", transferSize: 2_300, type: "navigate", ...over }]
              : [],
        },
      })!;
      expect(p.protocol()).toBeNull();
      expect(new Lanes(p).for(`${ORIGIN}/`)).toBe(6);
    }
  });

  test("an observer sees the answers (the timeline's buffer may be full); no page, no view", () => {
    let deliver: (l: { getEntries(): { name: string; nextHopProtocol?: string }[] }) => void = () => undefined;
    class Observer {
      constructor(cb: typeof deliver) {
        deliver = cb;
      }
      observe() {}
    }
    const p = pageProtocol({ location: { origin: ORIGIN, protocol: "https:" }, PerformanceObserver: Observer })!;
    deliver({ getEntries: () => [{ name: `${ORIGIN}/v4/firme/batch?cui=3`, nextHopProtocol: "h2" }] });
    expect(p.protocol()).toBe("h2");
    expect(pageProtocol({})).toBeNull();
    expect(pageProtocol({ location: { origin: "null", protocol: "file:" } })).toBeNull();
  });
});
