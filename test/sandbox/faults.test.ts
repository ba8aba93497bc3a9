import { ascending, call, cuisOf, freshKey, timed } from "./testkit";
import { sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterEach(() => {
  sb.config.faults = {};
  sb.config.latencyMs = 0;
  sb.config.jitterMs = 0;
});
afterAll(() => sb.close());

const cuis = sampleCuis(40, 3000);
const [cui] = cuis;
const BATCH = `/v4/firme/batch?cui=${cuis.join(",")}`;

describe("latency", () => {
  test("latencyMs delays every /v4 answer by at least that much", async () => {
    // Without latency: the quickest of three answers after a first one (a loaded machine's first call may
    // take tens of ms on its own, which is not the sandbox's latency).
    await call(sb, `/v4/firme/${cui}`);
    let fast = Infinity;
    for (let i = 0; i < 3; i++) fast = Math.min(fast, (await timed(() => call(sb, `/v4/firme/${cui}`)))[1]);
    sb.config.latencyMs = 200;
    const [, slow] = await timed(() => call(sb, `/v4/firme/${cui}`));
    const [, refused] = await timed(() => call(sb, `/v4/firme/${cui}`, null));
    expect(slow).toBeGreaterThanOrEqual(195);
    expect(slow - fast).toBeGreaterThan(150);
    expect(refused).toBeGreaterThanOrEqual(195);
  });

  test("jitterMs adds between 0 and jitterMs more", async () => {
    sb.config.latencyMs = 50;
    sb.config.jitterMs = 100;
    for (let i = 0; i < 5; i++) {
      const [, ms] = await timed(() => call(sb, `/v4/firme/${cui}`));
      expect(ms).toBeGreaterThanOrEqual(45);
      expect(ms).toBeLessThan(1000); // 50 + at most 100 ms; the rest is a loaded machine's margin
    }
  });

  test("controls are never delayed", async () => {
    sb.config.latencyMs = 500;
    const [, ms] = await timed(() => call(sb, "/__sandbox/config", null));
    expect(ms).toBeLessThan(300);
  });
});

describe("faults", () => {
  test("errorRate 1: every call answers 500, 502 or 503 and costs nothing", async () => {
    const key = freshKey("pro");
    sb.config.faults = { errorRate: 1 };
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) statuses.add((await call(sb, `/v4/firme/${cui}`, key)).status);
    expect([...statuses].every((s) => [500, 502, 503].includes(s))).toBe(true);
    expect(statuses.size).toBeGreaterThan(1);
    expect(sb.usage(key)).toMatchObject({ total: 0, refused: 12 });
  });

  test("errorRate 0.3 fails about that share of calls, the same ones for the same seed", async () => {
    const run = async () => {
      sb.config.faults = { errorRate: 0.3, seed: 42 };
      sb.reset();
      const out: number[] = [];
      for (let i = 0; i < 60; i++) out.push((await call(sb, `/v4/firme/${cui}`)).status);
      return out;
    };
    const first = await run();
    const failed = first.filter((s) => s >= 500).length;
    expect(failed).toBeGreaterThan(6);
    expect(failed).toBeLessThan(32);
    expect(await run()).toEqual(first);
  });

  test("failNext: the next N calls fail with 500, then calls succeed again", async () => {
    sb.config.faults = { failNext: 2 };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sb, `/v4/firme/${cui}`)).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
  });

  test("resetRate 1: the connection drops without an answer, logged with status 0, no credit", async () => {
    const key = freshKey("pro");
    sb.config.faults = { resetRate: 1 };
    await expect(call(sb, `/v4/firme/${cui}`, key)).rejects.toThrow();
    expect(sb.requests.filter((r) => r.key === key)).toEqual([expect.objectContaining({ status: 0, credited: false, fault: "reset" })]);
    expect(sb.usage(key).total).toBe(0);
  });

  test("malformedRate 1: a 200 whose JSON is cut short, at no cost", async () => {
    const key = freshKey("pro");
    sb.config.faults = { malformedRate: 1 };
    const r = await call(sb, `/v4/firme/${cui}`, key);
    expect(r.status).toBe(200);
    expect(r.body).toBeUndefined();
    expect(() => JSON.parse(r.text)).toThrow();
    expect(sb.usage(key)).toMatchObject({ total: 0, refused: 1 });
  });

  test("spikeRate 1 with spikeMs: calls take that much longer", async () => {
    sb.config.faults = { spikeRate: 1, spikeMs: 250 };
    const [, ms] = await timed(() => call(sb, `/v4/firme/${cui}`));
    expect(ms).toBeGreaterThanOrEqual(245);
  });

  test("batchDrop leaves items out (all of them at 1)", async () => {
    sb.config.faults = { batchDrop: 1 };
    expect((await call(sb, BATCH)).body).toEqual([]);
    sb.config.faults = { batchDrop: 0.5 };
    const kept = cuisOf((await call(sb, BATCH)).body);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(35);
    expect(kept.every((c) => cuis.includes(c))).toBe(true);
  });

  test("batchShuffle: the same items in another order", async () => {
    sb.config.faults = { batchShuffle: true };
    const got = cuisOf((await call(sb, BATCH)).body);
    expect(got).not.toEqual(ascending(cuis));
    expect(ascending(got)).toEqual(ascending(cuis));
  });

  test("batchDuplicate 1: every item twice", async () => {
    sb.config.faults = { batchDuplicate: 1 };
    const got = cuisOf((await call(sb, BATCH)).body);
    expect(got).toEqual(ascending(cuis).flatMap((c) => [c, c]));
  });

  test("batch tampering leaves single-company answers alone", async () => {
    sb.config.faults = { batchDrop: 1, batchShuffle: true };
    expect((await call(sb, `/v4/firme/${cui}`)).body.cui).toBe(cui);
  });

  test("rateLimitAfter N: N more credited calls, then 429 limit_exceeded at no cost", async () => {
    const key = freshKey("enterprise");
    sb.config.faults = { rateLimitAfter: 2 };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sb, `/v4/firme/${cui}`, key)).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(sb.usage(key)).toMatchObject({ total: 2, refused: 2 });
    expect(sb.requests.filter((r) => r.key === key).map((r) => r.fault)).toEqual([undefined, undefined, "rateLimit", "rateLimit"]);
  });

  test("dripMs: the headers come at once, the body over that many milliseconds", async () => {
    sb.config.faults = { dripMs: 2000 };
    const t0 = performance.now();
    const res = await fetch(`${sb.url}${BATCH}`, { headers: { "X-API-Key": "demo-enterprise" } });
    const headersAt = performance.now() - t0;
    const body = await res.json();
    const doneAt = performance.now() - t0;
    expect(headersAt).toBeLessThan(1000);
    expect(doneAt).toBeGreaterThanOrEqual(1990);
    expect(body).toHaveLength(cuis.length);
  });
});
