import { call, freshKey } from "./testkit";
import { LATEST_YEAR, missingCuis, sampleCuis } from "../../sandbox/dataset";
import { Sandbox, startSandbox } from "../../sandbox/server";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(() => sb.close());

const [cui] = sampleCuis(1, 100);

describe("credits", () => {
  test("every answered call costs exactly one credit, 200 and 404 alike, whatever the endpoint", async () => {
    const key = freshKey("pro");
    const paths = [
      `/v4/firme/${cui}`,
      `/v4/firme/${missingCuis(1)[0]}`,
      `/v4/firme/${cui}/financiar`,
      `/v4/firme/batch?cui=${sampleCuis(100).join(",")}`,
      `/v4/firme/batch/financiar?cui=${sampleCuis(50).join(",")}&an=${LATEST_YEAR}`,
      "/v4/firme/search?q=agro",
      "/v4/topuri?an=2020",
      "/v4/topuri/top-angajati-2020-judet-cj",
      "/v4/topuri/top-nimic-2020-national",
      "/v4/nomenclatoare/judete",
    ];
    const statuses = [];
    for (const p of paths) statuses.push((await call(sb, p, key)).status);
    expect(statuses).toEqual([200, 404, 200, 200, 200, 200, 200, 200, 404, 200]);
    expect(sb.usage(key)).toMatchObject({
      today: 10,
      month: 10,
      total: 10,
      refused: 0,
      remaining: 3990,
    });
  });

  test("X-Plan and X-Credits-Remaining report the plan and what is left after the call", async () => {
    const key = freshKey("pro");
    const first = await call(sb, `/v4/firme/${cui}`, key);
    const second = await call(sb, `/v4/firme/${cui}`, key);
    expect(first.headers.get("x-plan")).toBe("pro");
    expect(first.headers.get("x-credits-remaining")).toBe("3999");
    expect(second.headers.get("x-credits-remaining")).toBe("3998");
    const enterprise = await call(sb, `/v4/firme/${cui}`, freshKey("enterprise"));
    expect(enterprise.headers.get("x-plan")).toBe("enterprise");
    expect(enterprise.headers.get("x-credits-remaining")).toBeNull();
    expect((await call(sb, `/v4/firme/${cui}`, freshKey("business"))).headers.get("x-credits-remaining")).toBe("19999");
  });

  test("the free plan's 11th call of the day is refused with 429 limit_exceeded and costs nothing", async () => {
    const key = freshKey("free");
    for (let i = 0; i < 10; i++) expect((await call(sb, `/v4/firme/${cui}`, key)).status).toBe(200);
    const eleventh = await call(sb, `/v4/firme/${cui}`, key);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      error: { code: "limit_exceeded", message: expect.any(String) },
    });
    expect(eleventh.headers.get("x-credits-remaining")).toBe("0");
    expect(sb.usage(key)).toMatchObject({
      plan: "free",
      today: 10,
      total: 10,
      refused: 1,
      remaining: 0,
    });
  });

  test("401 without a key, 403 for an unknown key, 400 and plan_history 403 cost nothing", async () => {
    const key = freshKey("free");
    const missing = await call(sb, `/v4/firme/${cui}`, null);
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("missing_key");
    expect(missing.headers.get("x-plan")).toBeNull();
    const wrong = await call(sb, `/v4/firme/${cui}`, "demo-gold");
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe("invalid_key");
    expect((await call(sb, `/v4/firme/abc`, key)).status).toBe(400);
    expect((await call(sb, `/v4/firme/${cui}/financiar?an=${LATEST_YEAR - 1}`, key)).body.error.code).toBe("plan_history");
    expect((await call(sb, `/v4/firme/batch?cui=${sampleCuis(101).join(",")}`, key)).status).toBe(400);
    expect(sb.usage(key)).toMatchObject({ today: 0, total: 0, refused: 3, remaining: 10 });
    expect(sb.usage("demo-gold").plan).toBeNull();
  });

  test("an unknown path or method under /v4 is answered but not charged", async () => {
    const key = freshKey("pro");
    expect((await call(sb, "/v4/firme/1/bilant", key)).status).toBe(404);
    expect((await call(sb, `/v4/firme/${cui}`, key, { method: "DELETE" })).status).toBe(405);
    expect(sb.usage(key).total).toBe(0);
  });

  test("each demo-<plan>-<suffix> key has its own counter, apart from the plain demo key", async () => {
    const a = freshKey("pro");
    const b = freshKey("pro");
    await call(sb, `/v4/firme/${cui}`, a);
    await call(sb, `/v4/firme/${cui}`, a);
    await call(sb, `/v4/firme/${cui}`, b);
    expect([sb.usage(a).total, sb.usage(b).total, sb.usage("demo-pro").total]).toEqual([2, 1, 0]);
  });

  test("reset(key) forgets one key's counters, reset() all of them", async () => {
    const a = freshKey("free");
    const b = freshKey("free");
    await call(sb, `/v4/firme/${cui}`, a);
    await call(sb, `/v4/firme/${cui}`, b);
    sb.reset(a);
    expect([sb.usage(a).total, sb.usage(b).total]).toEqual([0, 1]);
    sb.reset();
    expect(sb.usage(b).total).toBe(0);
  });
});

describe("days and months in Europe/Bucharest", () => {
  test("the free plan gets 10 new calls at midnight in Bucharest, not at midnight UTC", async () => {
    let now = Date.parse("2026-11-22T21:59:00Z"); // 23:59 in Bucharest (UTC+2)
    const local = await startSandbox({ port: 0, clock: () => now });
    try {
      for (let i = 0; i < 10; i++) await call(local, `/v4/firme/${cui}`, "demo-free");
      expect((await call(local, `/v4/firme/${cui}`, "demo-free")).status).toBe(429);
      now = Date.parse("2026-11-22T22:00:30Z"); // 00:00:30 on the 23rd in Bucharest, still the 22nd in UTC
      expect((await call(local, `/v4/firme/${cui}`, "demo-free")).status).toBe(200);
      expect(local.usage("demo-free")).toMatchObject({ today: 1, total: 11 });
    } finally {
      await local.close();
    }
  });

  test("monthly credits start again on the first of the month in Bucharest", async () => {
    let now = Date.parse("2026-11-30T21:30:00Z");
    const local = await startSandbox({ port: 0, clock: () => now });
    try {
      await call(local, `/v4/firme/${cui}`, "demo-pro");
      await call(local, `/v4/firme/${cui}`, "demo-pro");
      expect(local.usage("demo-pro")).toMatchObject({ month: 2, remaining: 3998 });
      now = Date.parse("2026-11-30T22:30:00Z"); // 1 December, 00:30 in Bucharest
      const r = await call(local, `/v4/firme/${cui}`, "demo-pro");
      expect(r.headers.get("x-credits-remaining")).toBe("3999");
      expect(local.usage("demo-pro")).toMatchObject({ month: 1, total: 3 });
    } finally {
      await local.close();
    }
  });
});
