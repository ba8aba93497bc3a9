import { call, freshKey, Reply } from "./testkit";
import { company, missingCuis, sampleCuis } from "../../sandbox/dataset";
import { LOG_SIZE, RequestLog } from "../../sandbox/log";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

const [cui] = sampleCuis(1, 10);
const control = (path: string, init: RequestInit = {}): Promise<Reply> => call(sb, `/__sandbox/${path}`, null, init);
const json = (method: string, body: unknown): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { "Content-Type": "application/json" },
});

describe("CORS", () => {
  test("a preflight from any origin is allowed, with the X-API-Key header", async () => {
    const res = await fetch(`${sb.url}/v4/firme/${cui}`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://localhost:3000",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/X-API-Key/i);
    expect(res.headers.get("access-control-allow-methods")).toMatch(/GET/);
  });

  test("answers expose X-Plan and X-Credits-Remaining; preflights are neither counted nor logged", async () => {
    const key = freshKey("pro");
    const r = await call(sb, `/v4/firme/${cui}`, key, {
      headers: { Origin: "https://example.org" },
    });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-expose-headers")).toBe("X-Plan, X-Credits-Remaining, X-Credits-Limit, Retry-After");
    await fetch(`${sb.url}/v4/firme/${cui}`, { method: "OPTIONS", headers: { "X-API-Key": key } });
    expect(sb.requests.filter((e) => e.key === key)).toHaveLength(1);
  });
});

describe("controls under /__sandbox/", () => {
  test("usage reports a key's counters; without a key, every key's", async () => {
    const key = freshKey("free");
    await call(sb, `/v4/firme/${cui}`, key);
    expect((await control(`usage?key=${key}`)).body).toEqual({
      key,
      plan: "free",
      today: 1,
      month: 1,
      total: 1,
      refused: 0,
      calls: 1,
      remaining: 9,
    });
    const all = (await control("usage")).body as Array<{ key: string }>;
    expect(all.map((u) => u.key)).toEqual(expect.arrayContaining(["demo-free", "demo-pro", "demo-business", "demo-enterprise", key]));
  });

  test("reset with a key forgets that key's counters", async () => {
    const key = freshKey("free");
    await call(sb, `/v4/firme/${cui}`, key);
    expect((await control(`reset?key=${key}`, { method: "POST" })).status).toBe(200);
    expect(sb.usage(key).total).toBe(0);
  });

  test("config: read, merged field by field (faults too), bad settings refused with 400", async () => {
    const before = (await control("config")).body;
    expect(before).toMatchObject({
      envelope: "standard",
      includeMode: "fields",
      financialShape: "full",
      latencyMs: 0,
      faults: { errorRate: 0, seed: 1 },
    });
    const after = await control("config", json("PUT", { jitterMs: 5, faults: { batchDrop: 0.5 } }));
    expect(after.body).toMatchObject({
      jitterMs: 5,
      envelope: "standard",
      faults: { batchDrop: 0.5, errorRate: 0 },
    });
    expect(sb.config.jitterMs).toBe(5);
    await control("config", json("POST", { faults: { batchShuffle: true } }));
    expect(sb.config.faults).toEqual({ batchDrop: 0.5, batchShuffle: true });
    for (const bad of [{ envelope: "xml" }, { latencyMs: -1 }, { nothing: 1 }, { faults: { errorRate: 2 } }, [1]]) {
      expect((await control("config", json("PUT", bad))).status).toBe(400);
    }
    expect((await control("config", { method: "PUT", body: "{oops" })).status).toBe(400);
    await control("config", json("PUT", { jitterMs: 0, faults: { batchDrop: 0, batchShuffle: false } }));
  });

  test("requests lists the /v4 calls (by key, the last N) and can be cleared; controls are not logged nor counted", async () => {
    const key = freshKey("pro");
    await call(sb, `/v4/firme/${cui}`, key);
    await call(sb, `/v4/firme/batch?cui=${sampleCuis(3).join(",")}`, key);
    await control(`usage?key=${key}`);
    const listed = (await control(`requests?key=${key}`)).body;
    expect(listed).toEqual([
      expect.objectContaining({
        method: "GET",
        path: `/v4/firme/${cui}`,
        status: 200,
        credited: true,
        key,
        cuiCount: 1,
        endpoint: "company",
      }),
      expect.objectContaining({
        endpoint: "batch",
        cuiCount: 3,
        query: expect.stringContaining("cui="),
      }),
    ]);
    expect((await control(`requests?key=${key}&last=1`)).body).toHaveLength(1);
    expect(sb.usage(key).total).toBe(2);
    expect((await control("requests", { method: "DELETE" })).body.cleared).toBeGreaterThanOrEqual(2);
    expect(sb.requests).toEqual([]);
  });

  test("cuis lists existing CUIs (with an offset) or missing ones", async () => {
    expect((await control("cuis?kind=valid&count=5&offset=10")).body).toEqual(sampleCuis(5, 10));
    const missing: number[] = (await control("cuis?kind=missing&count=3")).body;
    expect(missing).toEqual(missingCuis(3));
    expect(missing.map(company)).toEqual([null, null, null]);
    expect((await control("cuis?kind=other")).status).toBe(400);
  });

  test("an unknown control is 404 and lists the routes; the root lists them too", async () => {
    expect((await control("nothing")).status).toBe(404);
    expect((await call(sb, "/__sandbox", null)).body.routes.length).toBeGreaterThan(5);
  });
});

describe("request log", () => {
  test("keeps the last 50,000 calls", () => {
    const log = new RequestLog();
    for (let i = 0; i < LOG_SIZE + 10; i++)
      log.add({
        method: "GET",
        path: `/v4/firme/${i}`,
        query: "",
        status: 200,
        credited: true,
        key: null,
        cuiCount: 1,
        endpoint: "company",
        at: i,
      });
    const entries = log.list();
    expect(entries).toHaveLength(50_000);
    expect(entries[0].at).toBe(10);
  });
});
