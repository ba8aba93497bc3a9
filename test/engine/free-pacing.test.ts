/**
 * Near the Free plan's daily limit, one call at a time (gate.ts), against the sandbox over loopback
 * HTTP: while a key's plan is unknown and its calls today approach Free's 10, a call that could be
 * past the limit goes alone. A Free key's first fill costs at most 11 calls (10 answered, one 429)
 * whether or not the service sends credit headers, and the cells past the limit settle with "credits
 * spent"; a paid key whose plan nobody knows goes past 10 alone once, then at full concurrency; a
 * known paid plan is never paced.
 */
import { FirmaEngine, EngineOptions } from "../../src/engine/engine";
import { read } from "../support/engine-reads";
import { sandboxPerFile } from "../support/sandbox-per-file";
import { engineFor } from "../support/engine";
import * as data from "../../sandbox/dataset";

const sb = sandboxPerFile(() => ({ faults: {}, latencyMs: 10 }));
let n = 0;

const CREDIT_HEADERS = ["X-Plan", "X-Credits-Remaining", "X-Credits-Limit"];

/**
 * A fetch that counts the calls in flight (each until its body has arrived) and notes how many were
 * in flight when each began, itself included; `headers: false` plays a service that sends no credit
 * headers (the API's documentation shows none).
 */
function countingFetch(headers: boolean) {
  let inflight = 0;
  const atStart: number[] = [];
  const f: typeof fetch = async (input, init) => {
    atStart.push(++inflight);
    try {
      const res = await fetch(input, init);
      const h = new Headers(res.headers);
      if (!headers) for (const name of CREDIT_HEADERS) h.delete(name);
      return new Response(await res.arrayBuffer(), { status: res.status, statusText: res.statusText, headers: h });
    } finally {
      inflight--;
    }
  };
  return { fetch: f, atStart };
}

function setup(plan: "free" | "pro", headers: boolean, over: Partial<EngineOptions> = {}) {
  const counter = countingFetch(headers);
  return { ...engineFor(sb, `demo-${plan}-pacing${++n}`, { fetch: counter.fetch, ...over }), atStart: counter.atStart };
}

/** Company names for `count` companies: one identification batch per 100, so count / 100 calls. */
async function fill(engine: FirmaEngine, count: number, offset: number) {
  await engine.ready();
  const cuis = data.sampleCuis(count, offset);
  return Promise.allSettled(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
}

describe("a Free key's first fill of a sheet that needs 25 calls", () => {
  test.each([
    ["sends credit headers", true],
    ["sends no credit headers", false],
  ])("against a service that %s: at most 11 calls, the cells past the limit settle with 'credits spent'", async (_, headers) => {
    const { engine, requests, key } = setup("free", headers);
    const results = await fill(engine, 2500, 500_000 + n * 3000);
    expect(requests().length).toBeLessThanOrEqual(11);
    expect(requests().filter((r) => r.status === 429).length).toBeLessThanOrEqual(1);
    expect(sb.usage(key).total).toBe(10);
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(1000);
    const reasons = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason.kind);
    expect(reasons.length).toBe(1500);
    expect(new Set(reasons)).toEqual(new Set(["credits_exhausted"]));
    expect(engine.credits().quotaStop()).toMatchObject({ by: "day" });
  });

  test("the day's calls count across a reload: 6 calls, then a new engine over the same storage sends at most 5 more", async () => {
    const first = setup("free", false);
    await fill(first.engine, 600, 520_000);
    expect(first.requests().length).toBe(6);
    await first.engine.persist();
    const again = setup("free", false, { store: first.store, apiKey: () => first.key });
    const results = await fill(again.engine, 2500, 530_000);
    expect(first.requests().length).toBeLessThanOrEqual(11);
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(400);
    // Only the 11th call went alone; those before it overlapped.
    expect(Math.max(...again.atStart)).toBeGreaterThan(1);
  });
});

describe("a paid key", () => {
  test("whose plan nobody knows goes past 10 with one call alone, then back at full concurrency", async () => {
    const { engine, requests, atStart, key } = setup("pro", false);
    const results = await fill(engine, 3000, 540_000);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(requests().length).toBe(30);
    expect(requests().every((r) => r.status === 200)).toBe(true);
    expect(engine.credits().usage().detectedPlan).toBeNull();
    // The 11th call went alone: the one that could be past a Free key's limit.
    expect(atStart[10]).toBe(1);
    // Its answer showed the key is not Free: the next ones overlap again, up to the gate's 6.
    expect(Math.max(...atStart.slice(12))).toBe(6);
    expect(sb.usage(key).total).toBe(30);
  });

  test("a known plan (the user's choice) is never paced", async () => {
    const { engine, requests, atStart } = setup("pro", false, { plan: () => "pro" });
    const results = await fill(engine, 3000, 560_000);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(requests().length).toBe(30);
    // Full concurrency throughout: no call after the first few started alone.
    expect(Math.min(...atStart.slice(6, 24))).toBeGreaterThan(1);
    // A call frees its place when its answer is in (before it is read), never before: 6 at most.
    expect(Math.max(...atStart)).toBeLessThanOrEqual(6);
  });

  test("answers that are garbage a third of the time: their retries keep their call's place (6 in flight at most), every cell its own name", async () => {
    sb.config.faults = { seed: 3, malformedRate: 0.3 };
    try {
      const { engine, requests, atStart } = setup("pro", true, { plan: () => "pro", retries: 3 });
      const cuis = data.sampleCuis(3000, 580_000);
      await engine.ready();
      const got = await Promise.allSettled(cuis.map((c) => read(() => engine.profileField(c, "denumire"))));
      expect(requests().length).toBeGreaterThan(30); // some answers were broken and asked again
      expect(Math.max(...atStart)).toBeLessThanOrEqual(6);
      for (const [i, r] of got.entries()) {
        if (r.status === "fulfilled") expect(r.value).toBe(data.company(cuis[i])!.denumire);
        else expect(r.reason).toMatchObject({ kind: "shape" }); // four broken answers in a row: said so, nothing guessed
      }
      expect(got.filter((r) => r.status === "fulfilled").length).toBeGreaterThan(2500);
    } finally {
      sb.config.faults = {};
    }
  });
});

describe("list functions (searches) pass the same gate", () => {
  /** `count` distinct searches at once, as a column of FIRMA.CAUTA cells: one call each. */
  async function searches(engine: FirmaEngine, count: number) {
    await engine.ready();
    const words = ["SRL", "SA", "COM", "CONSTRUCT", "TRANS", "AGRO", "IMPEX", "SERV", "PROD", "TRADE"];
    return Promise.allSettled(
      Array.from({ length: count }, (_, i) => engine.list({ fn: "search", params: { q: `${words[i % 10]} ${i}` }, limit: 5 })),
    );
  }

  test("a Free key's 25 searches against a service without credit headers: at most 11 calls, the rest 'credits spent'", async () => {
    const { engine, requests, key } = setup("free", false);
    const results = await searches(engine, 25);
    expect(requests().length).toBeLessThanOrEqual(11);
    expect(sb.usage(key).total).toBe(10);
    const reasons = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason.kind);
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(10);
    expect(new Set(reasons)).toEqual(new Set(["credits_exhausted"]));
  });

  test("a known paid plan's searches: at most the gate's 6 in flight", async () => {
    const { engine, requests, atStart } = setup("pro", true, { plan: () => "pro" });
    const results = await searches(engine, 30);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(requests().length).toBe(30);
    expect(Math.max(...atStart)).toBe(6);
  });
});
